# Run by `cmake --install` and by CPack (install(SCRIPT) in packaging/CMakeLists.txt): the files
# whose place or contents depend on the prefix the install is made to, known only now.
#   - the configuration (packaging/epdd.toml) goes to the prefix's sysconfdir as GNUInstallDirs has it: /etc for the
#     prefix /usr (the Debian package: a conffile), PREFIX/etc otherwise;
#   - the systemd unit names the installed binary and that configuration.
# DESTDIR (CPack's staging directory) is added by file(INSTALL) itself.
# Set by install(CODE) before this script: EPDD_PACKAGING_SOURCE_DIR, EPDD_PACKAGING_BINARY_DIR,
# EPDD_BINDIR (CMAKE_INSTALL_BINDIR, relative).
if(CMAKE_INSTALL_PREFIX STREQUAL "/usr")
  set(CMAKE_INSTALL_FULL_SYSCONFDIR "/etc")
else()
  set(CMAKE_INSTALL_FULL_SYSCONFDIR "${CMAKE_INSTALL_PREFIX}/etc")
endif()
set(CMAKE_INSTALL_FULL_BINDIR "${CMAKE_INSTALL_PREFIX}/${EPDD_BINDIR}")

set(unit "${EPDD_PACKAGING_BINARY_DIR}/install/epdd.service")
configure_file("${EPDD_PACKAGING_SOURCE_DIR}/epdd.service" "${unit}" @ONLY)
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system" TYPE FILE FILES "${unit}")
file(INSTALL DESTINATION "${CMAKE_INSTALL_FULL_SYSCONFDIR}/epdd" TYPE FILE
     FILES "${EPDD_PACKAGING_SOURCE_DIR}/epdd.toml")
