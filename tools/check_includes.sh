#!/usr/bin/env bash
# tools/check_includes.sh: the module map of shared/design/ARCHITECTURE.md, enforced.
#
#   tools/check_includes.sh ROOT              check the tree at ROOT (exit 0 clean, 1 not, 2 usage)
#   tools/check_includes.sh --self-test ROOT  plant forbidden arrows in copies of ROOT's modules
#                                             and check that each one is caught
#
# Every module is one folder and one static library, and may use only the modules below it.
# CMake alone does not stop a wrong arrow: a module that links daemon sees store's headers too,
# since links are PUBLIC. So this script reads
#   - every `#include "..."` (and `#include <module/...>`) of every file under each module
#     folder, public headers and src/ alike: an include names a module by its first path
#     component ("daemon/jobs.hpp"), or by where a relative path lands ("../../daemon/...");
#     a header of the file's own folder is its own module;
#   - every epdd_<module> name in each module's CMakeLists.txt (the LINKS of epdd_module(...)
#     and any other target_link_libraries there), comments stripped;
# and names file:line and the forbidden arrow for each one the map below does not allow.
# A folder that declares an epdd_module(...) the map does not know fails too: a new module
# (tablebase/ ...) gets its line here first. Needs bash, coreutils, grep and awk only.
set -uo pipefail

# The map: what each module may use besides itself. Nothing may use cli; epd, pgn and uci are
# siblings that never include each other; the workflows (suites) do not use store or daemon.
declare -A may_use=(
  [core]=""
  [epd]="core"
  [pgn]="core"
  [uci]="core"
  [html]="core"
  [suites]="core epd uci html"
  [annotate]="core pgn uci html"
  [book]="core epd pgn uci annotate html"
  [store]="core uci"
  [daemon]="core epd uci suites annotate book store"
  [cli]="core epd pgn uci html suites annotate book store daemon"
)
modules="core epd pgn uci html suites annotate book store daemon cli"

usage() { echo "usage: $0 [--self-test] ROOT" >&2; exit 2; }

# check ROOT: prints one line per forbidden arrow and a summary; returns 0 when there is none.
check() {
  local root=$1 failed=0 m
  [ -d "$root" ] || { echo "$root: not a folder" >&2; return 2; }
  cd "$root" || return 2

  # Every folder that declares a module must be in the map, and every module of the map present.
  local declared
  declared=$(grep -sHoE '^[[:space:]]*epdd_module\([[:space:]]*[A-Za-z0-9_]+' -- */CMakeLists.txt |
             sed -E 's#/CMakeLists.txt:.*\(([[:space:]]*)# #')
  while read -r folder name; do
    [ -n "$folder" ] || continue
    if [ -z "${may_use[$name]+set}" ]; then
      echo "$folder/CMakeLists.txt: module '$name' is not in the module map of tools/check_includes.sh: add its arrows there"
      failed=1
    elif [ "$folder" != "$name" ]; then
      echo "$folder/CMakeLists.txt: module '$name' is declared in folder $folder/, not $name/"
      failed=1
    fi
  done <<< "$declared"
  for m in $modules; do
    [ -f "$m/CMakeLists.txt" ] || { echo "$m/: module of the map has no folder with a CMakeLists.txt"; failed=1; }
  done

  # Links: every epdd_<module> name in a module's CMakeLists.txt, comments stripped.
  for m in $modules; do
    [ -f "$m/CMakeLists.txt" ] || continue
    sed 's/#.*//' "$m/CMakeLists.txt" | grep -noE '\bepdd_[A-Za-z0-9_]+\b' |
      awk -F: -v from="$m" -v file="$m/CMakeLists.txt" -v modules="$modules" -v allowed="${may_use[$m]}" '
        BEGIN { n = split(modules, ms, " "); for (i = 1; i <= n; i++) known[ms[i]] = 1
                n = split(allowed, as, " "); for (i = 1; i <= n; i++) ok[as[i]] = 1 }
        { to = substr($2, 6)
          if ((to in known) && to != from && !(to in ok)) {
            printf "%s:%d: forbidden link %s -> %s (%s)\n", file, $1, from, to, $2; bad = 1 } }
        END { exit bad }' || failed=1
  done

  # Includes.
  local files
  files=$(for m in $modules; do [ -d "$m" ] && find "$m" -type f \( -name '*.hpp' -o -name '*.cpp' -o -name '*.h' -o -name '*.ipp' \); done | sort)
  if [ -n "$files" ]; then
    printf '%s\n' "$files" | awk -v modules="$modules" -v maps="$(for m in $modules; do printf '%s=%s;' "$m" "${may_use[$m]}"; done)" '
      BEGIN {
        n = split(modules, ms, " "); for (i = 1; i <= n; i++) known[ms[i]] = 1
        n = split(maps, entries, ";")
        for (i = 1; i <= n; i++) {
          if (entries[i] == "") continue
          split(entries[i], kv, "="); k = split(kv[2], as, " ")
          allowed_text[kv[1]] = kv[2] == "" ? "nothing but itself" : kv[2]
          for (j = 1; j <= k; j++) ok[kv[1] SUBSEP as[j]] = 1
        }
      }
      # "a/./b/../c" -> "a/c"; a path that climbs above the root keeps its leading "..".
      function normalise(path,   parts, n, i, out, depth, result) {
        n = split(path, parts, "/"); depth = 0
        for (i = 1; i <= n; i++) {
          if (parts[i] == "" || parts[i] == ".") continue
          if (parts[i] == ".." && depth > 0 && out[depth] != "..") { depth--; continue }
          out[++depth] = parts[i]
        }
        result = ""
        for (i = 1; i <= depth; i++) result = result (i > 1 ? "/" : "") out[i]
        return result
      }
      function first(path) { sub(/\/.*/, "", path); return path }
      function dir(path) { if (path !~ /\//) return "."; sub(/\/[^\/]*$/, "", path); return path }
      # The module an include reaches, "" for a header outside the map (a library of the system),
      # "?" for a relative path that lands outside every module folder.
      function target(file, inc, quoted,   resolved, head) {
        resolved = normalise(dir(file) "/" inc)
        if (quoted && (inc !~ /\// || inc ~ /^\.\.?\// || inc ~ /\/\.\.?\// || (resolved in exists))) {
          head = first(resolved)
          return (head in known) ? head : "?"
        }
        head = first(inc)
        return (head in known) ? head : ""
      }
      FNR == NR { exists[$0] = 1; list[++count] = $0; next }
      END {
        for (f = 1; f <= count; f++) {
          file = list[f]; from = first(file); line = 0
          while ((getline text < file) > 0) {
            line++
            if (text !~ /^[ \t]*#[ \t]*include[ \t]*["<]/) continue
            quoted = text ~ /^[ \t]*#[ \t]*include[ \t]*"/
            inc = text
            sub(/^[ \t]*#[ \t]*include[ \t]*["<]/, "", inc); sub(/[">].*$/, "", inc)
            to = target(file, inc, quoted)
            if (to == "" || to == from) continue
            if (to == "?") {
              printf "%s:%d: %s includes a file outside the module folders: %s\n", file, line, from, inc; bad = 1
            } else if (!((from SUBSEP to) in ok)) {
              directive = text; sub(/^[ \t]+/, "", directive); sub(/["<].*$/, "", directive)
              directive = directive (quoted ? "\"" inc "\"" : "<" inc ">")
              printf "%s:%d: forbidden arrow %s -> %s: %s (%s may use: %s)\n", file, line, from, to, directive, from, allowed_text[from]; bad = 1
            }
          }
          close(file)
        }
        exit bad
      }' || failed=1
  fi

  if [ $failed -eq 0 ]; then
    echo "module map holds: $(printf '%s\n' "$files" | grep -c .) files of ${#may_use[@]} modules, includes and links"
  else
    echo "module map broken: see shared/design/ARCHITECTURE.md for what each module may use"
  fi
  return $failed
}

# self_test ROOT: each planted arrow must be caught, named by file:line and arrow; the clean copy
# must pass.
self_test() {
  local root=$1 script tmp failed=0 cases=0
  script=$(realpath "$0")
  root=$(realpath "$root") || return 2
  tmp=$(mktemp -d) || return 2
  trap 'rm -rf "$tmp"' RETURN
  mkdir "$tmp/base"
  for m in $modules; do cp -r "$root/$m" "$tmp/base/$m" || return 2; done

  # expect NAME PATTERN EDIT: copy the tree, run EDIT in it, the check must fail with PATTERN.
  # An empty PATTERN means the check must pass.
  expect() {
    local name=$1 pattern=$2 edit=$3 out status
    cases=$((cases + 1))
    rm -rf "$tmp/tree"; cp -r "$tmp/base" "$tmp/tree"
    (cd "$tmp/tree" && eval "$edit") || { echo "FAIL: $name: the edit did not apply"; failed=1; return; }
    out=$(bash "$script" "$tmp/tree" 2>&1); status=$?
    if [ -z "$pattern" ]; then
      if [ $status -eq 0 ]; then echo "ok: $name: passes"
      else echo "FAIL: $name: the check fails (exit $status):"; echo "$out"; failed=1; fi
    elif [ $status -ne 1 ]; then
      echo "FAIL: $name: the check exits $status, not 1:"; echo "$out"; failed=1
    elif ! grep -qE -- "$pattern" <<< "$out"; then
      echo "FAIL: $name: the output does not name \"$pattern\":"; echo "$out"; failed=1
    else
      echo "ok: $name: $(grep -E -- "$pattern" <<< "$out" | head -1)"
    fi
  }
  # add FILE LINE: appends LINE to FILE. first_file DIR EXT: the first such file of the copy.
  add() { printf '%s\n' "$2" >> "$1"; }
  first_file() { (cd "$tmp/base" && find "$1" -maxdepth 1 -name "*.$2" | sort | head -1); }

  local core_cpp epd_cpp store_cpp daemon_hpp suites_cpp store_lines
  core_cpp=$(first_file core/src cpp)
  epd_cpp=$(first_file epd/src cpp)
  store_cpp=$(first_file store/src cpp)
  suites_cpp=$(first_file suites/src cpp)
  daemon_hpp=$(first_file daemon/include/daemon hpp)
  store_lines=$(($(wc -l < "$tmp/base/store/CMakeLists.txt") + 1))

  expect "the unchanged tree passes" "" "true"
  expect "core including daemon" "^$core_cpp:[0-9]+: forbidden arrow core -> daemon" \
         "add $core_cpp '#include \"daemon/jobs.hpp\"'"
  expect "epd including its sibling pgn" "^$epd_cpp:[0-9]+: forbidden arrow epd -> pgn" \
         "add $epd_cpp '#include \"pgn/game.hpp\"'"
  expect "a daemon header including cli" "^$daemon_hpp:[0-9]+: forbidden arrow daemon -> cli" \
         "add $daemon_hpp '#include \"cli/progress.hpp\"'"
  expect "daemon including pgn" "forbidden arrow daemon -> pgn" \
         "add daemon/src/serve.cpp '#include \"pgn/reader.hpp\"'"
  expect "suites including store with spaces in the directive" "^$suites_cpp:[0-9]+: forbidden arrow suites -> store" \
         "add $suites_cpp '  #  include   \"store/store.hpp\"'"
  expect "store reaching daemon by a relative path" "^$store_cpp:[0-9]+: forbidden arrow store -> daemon" \
         "add $store_cpp '#include \"../../daemon/include/daemon/jobs.hpp\"'"
  expect "an angle-bracket include of a module" "forbidden arrow uci -> epd" \
         "add uci/src/protocol.cpp '#include <epd/record.hpp>'"
  expect "a relative include outside the module folders" "outside the module folders" \
         "add core/src/board.cpp '#include \"../../tests/support/x.hpp\"'"
  expect "store linking daemon" "^store/CMakeLists.txt:$store_lines: forbidden link store -> daemon" \
         "add store/CMakeLists.txt 'target_link_libraries(epdd_store PUBLIC epdd_daemon)'"
  expect "a module linking cli" "^suites/CMakeLists.txt:[0-9]+: forbidden link suites -> cli" \
         "sed -i 's/^\\([[:space:]]*\\)epdd_uci\$/\\1epdd_uci epdd_cli/' suites/CMakeLists.txt"
  expect "a module the map does not know" "module 'tablebase' is not in the module map" \
         "mkdir -p tablebase && add tablebase/CMakeLists.txt 'epdd_module(tablebase SOURCES src/probe.cpp LINKS epdd_core)'"
  expect "a comment naming a module is no link" "" \
         "add core/CMakeLists.txt '# core must never link epdd_daemon'"

  [ $failed -eq 0 ] && echo "self-test: all $cases cases behave"
  return $failed
}

case ${1-} in
  --self-test) [ $# -eq 2 ] || usage; self_test "$2" ;;
  -*|"") usage ;;
  *) [ $# -eq 1 ] || usage; check "$1" ;;
esac
