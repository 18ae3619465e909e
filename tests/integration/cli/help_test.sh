#!/usr/bin/env bash
# Every command's --help reads as a person would write it: no CLI11 internals (validator
# descriptions such as "INT:INT in [1 - 20]" or "ENUM:value in {...}", a negated flag's
# "{false}", "REQUIRED" in capitals, unprintable bytes), a required input not shown as optional,
# an example that runs, and a subcommand with its own footer, not its parent's.
#
#   help_test.sh EPDD
set -uo pipefail
epdd=$1
failed=0
fail() { echo "FAIL: $*"; failed=1; }
commands=("" "perft" "epd" "epd check" "epd format" "pgn" "pgn check" "pgn export" "pgn sort" "pgn to-epd"
          "convert" "check-engine" "analyse" "suite" "suite compare" "annotate" "serve" "submit" "status" "cancel" "results" "purge")
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086
  help=$("$epdd" $c --help 2>&1) || { fail "epdd $c --help exits non-zero"; continue; }
  if grep -qE 'ENUM:|(^|[^A-Z])U?INT:|FLOAT:|TEXT:|\{(false|true)\}|REQUIRED|[[:cntrl:]]' <<< "$(tr -d '\n' <<< "$help")"; then
    fail "epdd $c --help shows CLI11 internals: $(grep -E 'ENUM:|(^|[^A-Z])U?INT:|FLOAT:|TEXT:|\{(false|true)\}|REQUIRED' <<< "$help" | head -3)"
  fi
  case $c in ""|epd|pgn) ;; *) grep -qE "^Examples?:" <<< "$help" || fail "epdd $c --help has no examples" ;; esac
done
# Every footer: prose first, Examples last (the man page's EXAMPLES block holds only examples):
# after "Examples:" each line is blank or an indented example.
for c in "${commands[@]}" "book" "book leaves" "book backsolve" "report"; do
  # shellcheck disable=SC2086
  after=$("$epdd" $c --help 2>&1 | sed -n '/^Examples\?:/,$p' | tail -n +2 | grep -v '^$' | grep -v '^ ')
  [ -n "$after" ] && fail "epdd $c --help has prose after its examples: $(head -1 <<< "$after")"
done
# (Captured first: grep -q closing the pipe early would fail the pipeline under pipefail.)
analyse_help=$("$epdd" analyse --help)
compare_help=$("$epdd" suite compare --help)
grep -q "^Usage: epdd analyse \[OPTIONS\] input$" <<< "$analyse_help" || fail "analyse's input shown as optional"
grep -q 'epdd suite wac.epd --movetime 1000' <<< "$compare_help" && fail "suite compare repeats suite's footer"
grep -q "epdd suite compare sf.json eth.json" <<< "$compare_help" || fail "suite compare has no example of its own"
[ $failed -eq 0 ] && echo "${#commands[@]} help texts read clean"
exit $failed
