# Compile options shared by every epdd target: one place, so that a module cannot drift.

add_library(epdd_options INTERFACE)
target_compile_options(epdd_options INTERFACE -Wall -Wextra -Wpedantic)
# GCC 12 reports -Wrestrict falsely on plain std::string concatenation at -O2/-O3 (GCC bug
# 105651, fixed in GCC 13); with -Werror it would fail correct code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(epdd_options INTERFACE -Wno-restrict)
endif()
if(EPDD_WERROR)
  target_compile_options(epdd_options INTERFACE -Werror)
endif()
if(EPDD_NATIVE)
  target_compile_options(epdd_options INTERFACE -march=native)
endif()
if(EPDD_SANITIZE)
  # -fno-sanitize-recover makes every UBSan finding fail the test that hit it.
  set(_epdd_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # -O1 keeps the sanitized perft and round-trip tests within CI's time; asserts stay on.
  target_compile_options(epdd_options INTERFACE ${_epdd_san} -O1)
  # GCC's manual: "sanitizers tend to increase the rate of false positive warnings, most notably
  # those around -Wmaybe-uninitialized". GCC 12 reports one inside std::regex's own code at -O1
  # (annotate_check). The release build keeps the warning, as an error, for the same sources.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(epdd_options INTERFACE -Wno-maybe-uninitialized)
  endif()
  target_link_options(epdd_options INTERFACE ${_epdd_san})
endif()

# epdd_module(NAME SOURCES... LINKS ...): a module's static library with its public include
# folder. Only targets that link the module see its headers, which keeps includes honest.
function(epdd_module name)
  cmake_parse_arguments(M "" "" "SOURCES;LINKS" ${ARGN})
  add_library(epdd_${name} STATIC ${M_SOURCES})
  target_include_directories(epdd_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(epdd_${name} PUBLIC epdd_options ${M_LINKS})
endfunction()
