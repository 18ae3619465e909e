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

# The unit configured for this install alone (a folder per DESTDIR and prefix): two installs at
# once (tests, CPack beside `cmake --install`) never install each other's.
string(MD5 this_install "$ENV{DESTDIR}|${CMAKE_INSTALL_PREFIX}")
set(unit "${EPDD_PACKAGING_BINARY_DIR}/install/${this_install}/epdd.service")
configure_file("${EPDD_PACKAGING_SOURCE_DIR}/epdd.service" "${unit}" @ONLY)
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/lib/systemd/system" TYPE FILE FILES "${unit}")
# An administrator's configuration is theirs: an edited one is kept, and the new example goes beside
# it as epdd.toml.new (dpkg does the same for its conffile with epdd.toml.dpkg-dist).
set(config "$ENV{DESTDIR}${CMAKE_INSTALL_FULL_SYSCONFDIR}/epdd/epdd.toml")
set(example "${EPDD_PACKAGING_SOURCE_DIR}/epdd.toml")
if(EXISTS "${config}")
  file(READ "${config}" installed)
  file(READ "${example}" shipped)
  if(NOT installed STREQUAL shipped)
    message(STATUS "Kept: ${config} (edited); the new example is epdd.toml.new beside it")
    file(INSTALL DESTINATION "${CMAKE_INSTALL_FULL_SYSCONFDIR}/epdd" TYPE FILE FILES "${example}"
         RENAME epdd.toml.new)
    return()
  endif()
endif()
file(INSTALL DESTINATION "${CMAKE_INSTALL_FULL_SYSCONFDIR}/epdd" TYPE FILE FILES "${example}")
