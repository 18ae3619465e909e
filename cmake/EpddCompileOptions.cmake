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
# The sanitized and fuzz builds (CI's second stage): line tables only for debug information
# (what a sanitizer's report needs for file:line in its stack traces; the full DWARF of -g made
# every object larger and every link slower), and lld where clang finds it (Debian's lld, ld.lld of lld-14: the
# big test executables link in a quarter of GNU ld's time). Called after every -g of the build
# type and of EPDD_FUZZ, so that its level is the one that counts (the last on the command line).
function(epdd_lean_debug_info)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    target_compile_options(epdd_options INTERFACE -gline-tables-only)
    find_program(EPDD_LLD NAMES ld.lld)
    if(EPDD_LLD)
      target_link_options(epdd_options INTERFACE -fuse-ld=lld)
    endif()
  elseif(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(epdd_options INTERFACE -g1)
  endif()
endfunction()

if(EPDD_SANITIZE)
  # -fno-sanitize-recover makes every UBSan finding fail the test that hit it.
  set(_epdd_san -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # -O1 keeps the sanitized perft and round-trip tests within CI's time; asserts stay on. A
  # test's own files (targets with EPDD_TEST_CODE set, see tests/CMakeLists.txt) are compiled at
  # -O0: a Catch2 file takes twice as long at -O1 under the sanitizers (clang 14: 44 s against
  # 21 s of CPU for annotate's render_test; GCC 12: 79 s against 31 s), and the tests spend their
  # time in the modules, which keep -O1. (A PRIVATE -O0 on the test target came before this -O1
  # on the command line, so the last -O, the one that counts, was -O1.)
  target_compile_options(epdd_options INTERFACE ${_epdd_san}
                         $<IF:$<BOOL:$<TARGET_PROPERTY:EPDD_TEST_CODE>>,-O0,-O1>)
  # GCC's manual: "sanitizers tend to increase the rate of false positive warnings, most notably
  # those around -Wmaybe-uninitialized". GCC 12 reports one inside std::regex's own code at -O1
  # (annotate_check). The release build keeps the warning, as an error, for the same sources.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(epdd_options INTERFACE -Wno-maybe-uninitialized)
  endif()
  target_link_options(epdd_options INTERFACE ${_epdd_san})
  epdd_lean_debug_info()
endif()

# epdd_module(NAME SOURCES... LINKS ...): a module's static library with its public include
# folder. Only targets that link the module see its headers, which keeps includes honest.
# SEPARATE: sources that are compiled on their own even in a unity build (EPDD_UNITY), because
# a file-local name of theirs (an anonymous namespace's helper) is also one of another file's.
function(epdd_module name)
  cmake_parse_arguments(M "" "" "SOURCES;LINKS;SEPARATE" ${ARGN})
  add_library(epdd_${name} STATIC ${M_SOURCES})
  target_include_directories(epdd_${name} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(epdd_${name} PUBLIC epdd_options ${M_LINKS})
  epdd_unity(epdd_${name} ${M_SEPARATE})
endfunction()

# Unity builds: a target's files compiled EPDD_UNITY_BATCH at a time as one translation unit,
# so that the headers they share (the standard library, fmt, nlohmann json, spdlog, CLI11) are
# parsed and their templates compiled once a batch instead of once a file. The code is the same;
# only how many files the compiler reads at once changes.
option(EPDD_UNITY "Unity builds of the modules and the tests (faster full builds)" ON)
set(EPDD_UNITY_BATCH 8 CACHE STRING "Files per unity translation unit (EPDD_UNITY)")
function(epdd_unity target)
  if(NOT EPDD_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${EPDD_UNITY_BATCH})
  if(ARGN)
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()

