#!/usr/bin/env bash
# Lines of an EPD input that are not records (issue 39, item 9: a FEN cut to 3 fields, a bare
# placement, binary noise were skipped without a word, "(10 records)" for 24 lines): `analyse`
# and `suite` say each with FILE:LINE:COL, count them, write them back as they are and exit 1;
# comments and blank lines are not counted. Twelve such lines: ten shown, all counted.
#
#   unread_lines_test.sh EPDD FAKE_ENGINE
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR'
printf '%s w KQkq - id "ok";\n%s w KQkq\n%s\n\001\002noise\377\n# a comment\n\n%s b KQkq - id "two";\n' \
  "$start" "$start" "$start" "$start" > mix.epd
engine=(--engine "$fake" --depth 1)
status=0
"$epdd" analyse mix.epd "${engine[@]}" --store a.db -o out.epd 2> analyse.err || status=$?
[ "$status" = 1 ] || fail "analyse: exit status $status, not 1"
grep -qF "mix.epd:2:51: error: not a record, not analysed (only 3 fields: an EPD record starts with four" analyse.err ||
  fail "analyse does not say line 2: $(cat analyse.err)"
grep -qF "mix.epd:3:44: error: not a record, not analysed (only 1 field" analyse.err || fail "analyse does not say line 3"
grep -qF "mix.epd:4:" analyse.err || fail "analyse does not say line 4 (binary noise)"
grep -qF "epdd analyse: mix.epd: 3 lines are not records: not analysed, written back as they are" analyse.err ||
  fail "analyse does not count them: $(cat analyse.err)"
grep -q "2 records analysed" analyse.err || fail "the records were not analysed: $(cat analyse.err)"
[ "$(sed -n 2p out.epd)" = "$start w KQkq" ] && [ "$(sed -n 5p out.epd)" = "# a comment" ] ||
  fail "the lines are not written back as they were: $(cat -A out.epd | head -6)"
[ "$(wc -l < out.epd)" = 7 ] || fail "analyse wrote $(wc -l < out.epd) lines of 7"
status=0
"$epdd" suite mix.epd "${engine[@]}" --store s.db > suite.txt 2> suite.err || status=$?
[ "$status" = 1 ] || fail "suite: exit status $status, not 1"
grep -qF "epdd suite: mix.epd: 3 lines are not records" suite.err || fail "suite does not count them: $(cat suite.err)"
# A file of records only: nothing said, exit 0.
grep ' id ' mix.epd > clean.epd
"$epdd" analyse clean.epd "${engine[@]}" --store a.db -o clean.out 2> clean.err || fail "a clean file: exit status $?"
! grep -q "not a record" clean.err || fail "a clean file has lines said not to be records: $(cat clean.err)"
# Many: the first ten shown, all counted.
for i in $(seq 1 12); do echo "garbage$i"; done >> many.epd
echo "$start w KQkq - id \"one\";" >> many.epd
status=0
"$epdd" analyse many.epd "${engine[@]}" --store a.db -o many.out 2> many.err || status=$?
[ "$status" = 1 ] || fail "many: exit status $status"
[ "$(grep -c "not a record, not analysed" many.err)" = 10 ] || fail "many: $(grep -c "not a record" many.err) shown, not 10"
grep -qF "12 lines are not records: not analysed, written back as they are (10 shown above; 'epdd epd check' lists them all)" many.err ||
  fail "many: not counted: $(tail -3 many.err)"
[ "$failed" = 0 ] && echo "lines that are not records are said with their place, counted, kept, and exit 1"
exit "$failed"
