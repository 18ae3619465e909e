#!/usr/bin/env bash
# The generated bash completion (issue 22), in plain bash (no bash-completion package): the
# script is sourced, COMP_WORDS/COMP_CWORD are set as bash sets them, _epdd is called and
# COMPREPLY checked. Commands, subcommands, options, the values of a fixed set, file names.
#
#   completion_test.sh COMPLETION_SCRIPT EPDD
set -uo pipefail
script=$1
epdd=$2
failed=0
fail() { echo "FAIL: $*"; failed=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# shellcheck disable=SC1090
source "$script" || { echo "FAIL: $script does not source"; exit 1; }
complete -p epdd 2> /dev/null | grep -q -- "-F _epdd epdd" || fail "the script does not register _epdd for epdd"

# expect "WORDS..." "EXPECTED REPLIES": the last word is the one being completed (may be "").
expect() {
  local words=$1 want=$2 got
  read -r -a COMP_WORDS <<< "$words"
  [[ $words == *" " ]] && COMP_WORDS+=("")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _epdd 2> "$tmp/err"
  [ -s "$tmp/err" ] && fail "'$words': stderr: $(cat "$tmp/err")"
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')
  want=$(tr ' ' '\n' <<< "$want" | sort | tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || fail "'$words' completes to '$got', not '$want'"
}

expect "epdd su" "submit suite"
expect "epdd pgn " "check export sort to-epd"
expect "epdd suite --js" "--json"
expect "epdd epd check --severity " "error note warning"
expect "epdd epd check --severity w" "warning"
expect "epdd epd check --severity = e" "error"
expect "epdd pgn export --from " "clm pgc pgn"
expect "epdd convert --to " "clm epd pgc pgn"
expect "epdd analyse --new-game " "clear keep"
expect "epdd analyze --new-game k" "keep"
expect "epdd submit " "analyse annotate book book-grow suite"
expect "epdd book " "backsolve grow leaves"
expect "epdd suite compare --h" "--help"
# A NAME=VALUE value is one value (bash splits it into NAME, =, VALUE): what follows it is
# completed as after any option; its VALUE is free text.
expect "epdd suite --option Hash = 16 comp" "compare"
expect "epdd suite --option = Hash = 16 comp" "compare"
expect "epdd suite --option Hash =" ""
expect "epdd suite --option Hash = 1" ""
expect "epdd analyse --option Hash = 16 --movet" "--movetime"
# An option's value is not taken for a command: `--engine suite` is the engine's name.
expect "epdd analyse --engine suite --movet" "--movetime"
# The commands themselves, each with the options of its own --help.
for c in perft convert "epd format" "book leaves"; do
  # shellcheck disable=SC2086
  help_options=$("$epdd" $c --help | grep -oE '(^|[ ,])--?[a-z][a-z0-9-]*' | sed 's/^[ ,]//' | sort -u | tr '\n' ' ' | sed 's/ $//')
  read -r -a COMP_WORDS <<< "epdd $c -"
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  _epdd
  got=$(printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' ' | sed 's/ $//')
  for o in $got; do [[ " $help_options " == *" $o "* ]] || fail "epdd $c: the completion offers $o, which --help does not list"; done
  [ -n "$got" ] || fail "epdd $c -: no options"
done

# File names: a positional input, a FILE option, after -- (check-engine's command).
mkdir -p "$tmp/work/sub"
touch "$tmp/work/wac.epd" "$tmp/work/games.pgn"
cd "$tmp/work" || exit 1
expect "epdd epd check " "games.pgn sub wac.epd"
expect "epdd epd check w" "wac.epd"
expect "epdd suite --json g" "games.pgn"
expect "epdd check-engine -- s" "sub"
expect "epdd epd format wac.epd -o g" "games.pgn"
# `epdd suite` is a command and a group: a file or `compare`.
expect "epdd suite c" "compare"
expect "epdd suite w" "wac.epd"
expect "epdd suite " "compare games.pgn sub wac.epd"

[ $failed -eq 0 ] && echo "bash completion: commands, options, choices and file names as expected"
exit $failed
