#!/usr/bin/env bash
# Latin-1 input (issue 39, item 5), the PGN standard's own character set (4.1): names came out
# as U+FFFD in annotate's JSON and page, the annotated PGN mixed Latin-1 tags with UTF-8 arrows,
# and analyse printed a FEN's raw byte where suite escaped it. Now:
#   - names and ids that are not UTF-8 are read as Latin-1 for what is read as UTF-8 (the
#     terminal summary and report, JSON, HTML);
#   - an annotated file with a game in Latin-1 stays in Latin-1: its bytes as they were, epdd's
#     words in ASCII ("->"), and a note says so;
#   - an excerpt of the input in a message is escaped the same way by every command ('\xe9').
#
#   latin1_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
source "$(dirname "$0")/../lib/common.sh" "$1" "$2"
# The fake engine, scripted so that 1. e4 of the game below is a blunder (Black +3.00 after it):
# epdd's words are written for it.
echo 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - | score cp 300' > script.txt
cat > engine.sh <<SH
#!/bin/sh
exec "$fake" --script "$work/script.txt"
SH
chmod +x engine.sh
engine=(--engine "$work/engine.sh" --depth 1 --store s.db)
utf8() { iconv -f utf-8 -t utf-8 "$1" > /dev/null 2>&1; }

# EPD: a FEN with a Latin-1 byte where a piece should be, and an id in Latin-1 (G, e-acute, za).
start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR'
printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\351 w KQkq - id "x";\n%s w KQkq - id "G\351za"; bm e4;\n' "$start" > l1.epd
"$epdd" suite l1.epd "${engine[@]}" --json report.json > report.txt 2> suite.err || true
grep -q "G$(printf '\303\251')za" report.txt || fail "suite's report does not show the id decoded: $(grep -a za report.txt)"
utf8 report.txt || fail "suite's report is not UTF-8"
python3 - report.json <<'PY' || fail "suite's JSON does not hold the id decoded"
import json, sys
ids = [r["id"] for r in json.load(open(sys.argv[1]))["records"]]
assert "G\u00e9za" in ids, ids
PY
grep -qF "'\\xe9' is neither a piece letter" report.txt || fail "suite does not escape the FEN's byte: $(grep -a neither report.txt)"
"$epdd" analyse l1.epd "${engine[@]}" -o out.epd 2> analyse.err || true
grep -qF "l1.epd:1: kept unchanged: illegal position: piece placement: '\\xe9' is neither" analyse.err ||
  fail "analyse does not escape the FEN's byte as suite does: $(cat -A analyse.err | grep neither)"
utf8 analyse.err || fail "analyse wrote a byte that is not UTF-8 to the terminal"
"$epdd" epd check l1.epd > check.txt 2>&1 || true
grep -qF "'\\xe9' is neither" check.txt || fail "epd check does not escape the FEN's byte: $(cat -A check.txt | grep neither)"
utf8 check.txt || fail "epd check wrote a byte that is not UTF-8"

# PGN: the tags of the first Kasparov - Deep Blue game over a short movetext (1. e4, the script's blunder),
# with Latin-1 names (u-umlaut, o-umlaut) and a comment.
awk 'NR > 1 && /^\[Event / { exit } { print }' "$data/pgn/kasparov-deep-blue-1997.pgn" |
  sed "s/^\[White \".*\"\]/[White \"M$(printf '\374')ller, J$(printf '\366')rg\"]/; s/^1\.Nf3 d5 2\.g3 .*/{sch$(printf '\366')n} 1. e4 d5 2. exd5 */; /^Bd6 8/,/^1-0/d" |
  sed 's/^\[Result ".*"\]/[Result "*"]/' > latin.pgn
utf8 latin.pgn && fail "the test's input is UTF-8"
"$epdd" annotate latin.pgn "${engine[@]}" -o latin.out.pgn --json latin.json --html latin.html 2> annotate.err ||
  fail "annotate: $(cat annotate.err)"
grep -q "M$(printf '\374')ller, J$(printf '\366')rg" latin.out.pgn || fail "the name's Latin-1 bytes were not written back"
grep -q "sch$(printf '\366')n" latin.out.pgn || fail "the comment's Latin-1 bytes were not written back"
! grep -q "$(printf '\342\206\222')" latin.out.pgn || fail "a UTF-8 arrow in a Latin-1 file"
# Every byte above ASCII in the output is one the input has (epdd added none of its own).
[ "$(LC_ALL=C grep -o '[^ -~]' latin.out.pgn | LC_ALL=C grep -v "^[$(printf '\374\366')]\$" | wc -l)" = 0 ] ||
  fail "the output holds bytes above ASCII that the input does not: $(LC_ALL=C grep -o '[^ -~]' latin.out.pgn | od -An -tx1 | head -3)"
judged=$(grep -c 'was best' latin.out.pgn || true)
[ "$judged" -gt 0 ] || fail "no move judged: the test shows nothing of the words"
grep -q ' -> ' latin.out.pgn || fail "epdd's words have no ASCII arrow"
grep -q "Latin-1" annotate.err || fail "no note says the file is Latin-1: $(cat annotate.err)"
grep -q "M$(printf '\303\274')ller, J$(printf '\303\266')rg" annotate.err || fail "the terminal summary does not decode the name"
utf8 annotate.err || fail "annotate wrote a byte that is not UTF-8 to the terminal"
python3 - latin.json <<'PY' || fail "annotate's JSON does not hold the name decoded"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["games"][0]["white"] == "M\u00fcller, J\u00f6rg", j["games"][0]["white"]
assert "\ufffd" not in json.dumps(j, ensure_ascii=False)
PY
utf8 latin.html || fail "the page is not UTF-8"
grep -q "M$(printf '\303\274')ller\|M\\\\u00fcller\|M&#252;ller" latin.html || fail "the page does not show the name decoded"
# Annotated again: nothing changes (epdd knows its ASCII words as its own).
"$epdd" annotate latin.out.pgn "${engine[@]}" -q -o again.pgn 2> again.err || fail "annotate again: $(cat again.err)"
cmp -s latin.out.pgn again.pgn || fail "annotating the Latin-1 output again changed it: $(diff latin.out.pgn again.pgn | head -5)"
finish "Latin-1 input decoded for people, written back in Latin-1, excerpts escaped alike"
