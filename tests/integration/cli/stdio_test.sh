#!/usr/bin/env bash
# '-' as standard input and standard output (issue 22): every command that reads or writes a file
# takes '-', and gives through a pipe what it gives on files; where the main output is stdout,
# nothing else is there; a job read from a pipe resumes from the store; '-' twice, a reader that
# goes away and a full disk are errors in words with exit status 2.
#   stdio_test.sh EPDD SHARED_DATA
set -uo pipefail
epdd=$(realpath "$1")
data=$(realpath "$2")
sf=/usr/games/stockfish
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null; [ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
same() {  # same WHAT A B: the two files are byte for byte equal
  cmp -s "$2" "$3" || { fail "$1: $2 and $3 differ"; diff "$2" "$3" | head -5 >&2; }
}
engine=(--engine "$sf" --threads 1)
# A file named '-' (earlier versions made one of `-o -`): '-' is standard input and output all the
# same; no command reads it or writes it.
printf '[Event "a file named -"]\n[Result "*"]\n\n1. d4 *\n' | tee ./- > decoy.copy
head -8 "$data/suites/wac.epd" > suite.epd
twic="$data/pgn/twic0920.pgn"
# The first 30 games of twic0920 (a game ends at a blank line before the next [Event).
awk '/^\[Event /{n++} n<=30' "$twic" > games.pgn

# 1. suite: the JSON, and only the JSON, on stdout; the text report on stderr.
cat suite.epd | "$epdd" suite - --nodes 1000 "${engine[@]}" --store s.db --json - > out.json 2> err.txt ||
  fail "suite - --json -: exit $? ($(tail -1 err.txt))"
python3 -c 'import json,sys; json.load(sys.stdin)' < out.json || fail "suite --json -: stdout is not JSON"
grep -q '^Solved' err.txt || fail "suite --json -: the text report is not on stderr"
# The same run from the same bytes again (the store answers it) with --json FILE: the same bytes.
cat suite.epd | "$epdd" suite - --nodes 1000 "${engine[@]}" --store s.db --json file.json > report.txt 2> err2.txt ||
  fail "suite - --json FILE: exit $?"
same "suite --json - and --json FILE of the same run" out.json file.json
grep -q "8 from an earlier run" err2.txt || fail "suite from a pipe again did not find its job: $(tail -1 err2.txt)"
grep -q '^Solved' report.txt || fail "suite --json FILE: the text report is not on stdout"
# The file itself (another job; the cache answers every position): the same JSON but the name.
"$epdd" suite suite.epd --nodes 1000 "${engine[@]}" --store s.db --json named.json -q > /dev/null 2>&1
diff <(grep -v '"suite":' out.json) <(grep -v '"suite":' named.json) > /dev/null || fail "suite on - and on the file differ"
grep -q '"suite": "-"' out.json || fail "suite on stdin is not named '-'"
# -o - with the EPD: the text report on stderr too, stdout the EPD alone.
cat suite.epd | "$epdd" suite - --nodes 1000 "${engine[@]}" --store s.db -o - > out.epd 2> err.txt
"$epdd" suite suite.epd --nodes 1000 "${engine[@]}" --store s.db -o file.epd > /dev/null 2>&1
same "suite -o -" out.epd file.epd

# 2. pgn export is a filter, and streams: its memory does not grow with the input.
cat "$twic" | "$epdd" pgn export - -o - 2> err.txt > piped.pgn || fail "pgn export - -o -: exit $?"
"$epdd" pgn export "$twic" > direct.pgn 2> /dev/null
same "pgn export - -o -" piped.pgn direct.pgn
grep -q '^-: 2245 games$' err.txt || fail "pgn export from stdin: $(cat err.txt)"
maxrss() {  # maxrss FILE COMMAND...: runs the command (stdin, stdout passed on); its peak memory in kB to FILE
  python3 -c 'import resource,subprocess,sys
subprocess.run(sys.argv[2:], stderr=subprocess.DEVNULL)
open(sys.argv[1], "w").write("%d" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
big=$((20 * $(stat -c %s "$twic")))
for action in export to-epd; do
  games=$(for i in $(seq 20); do cat "$twic"; done | maxrss peak.txt "$epdd" pgn "$action" - -o - | grep -c '^\[Event \|^.* id "')
  peak=$(cat peak.txt)
  echo "pgn $action of $((big / 1048576)) MB through a pipe: $games games or positions out, peak memory $((peak / 1024)) MB"
  [ "$action" = to-epd ] || [ "$games" = $((20 * 2245)) ] || fail "pgn export - -o - of 20 x twic0920: $games games"
  [ "$games" -gt 0 ] || fail "pgn $action - -o -: nothing out"
  [ $((peak * 1024)) -lt $((big / 2)) ] || fail "pgn $action - -o - held the input: $peak kB for $big bytes"
done

# 3. Each command's '-' against the same command on files.
# epd check and format: diagnostics located at '-:LINE:COL'.
{ cat suite.epd; echo 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e9;'; } > bad.epd
cat bad.epd | "$epdd" epd check - > check.txt 2>&1
"$epdd" epd check bad.epd 2>&1 | sed 's/^bad\.epd:/-:/' > check_file.txt
same "epd check -" check.txt check_file.txt
grep -q '^-:9:' check.txt || fail "epd check -: no diagnostic at -:9: ($(head -2 check.txt))"
cat bad.epd | "$epdd" epd format - -o - > formatted.epd 2> /dev/null
"$epdd" epd format bad.epd > formatted_file.epd 2> /dev/null
same "epd format - -o -" formatted.epd formatted_file.epd
# pgn check, sort, to-epd.
cat games.pgn | "$epdd" pgn check - > check.txt 2>&1
# (Standard input has no suffix: its format is said to come from its content.)
"$epdd" pgn check games.pgn 2>&1 | sed 's/^games\.pgn\([: ]\)/-\1/; 1s/^-:/- (PGN, by its content):/' > check_file.txt
same "pgn check -" check.txt check_file.txt
for action in sort to-epd; do
  cat games.pgn | "$epdd" pgn "$action" - -o - > piped.out 2> /dev/null
  "$epdd" pgn "$action" games.pgn > direct.out 2> /dev/null
  same "pgn $action - -o -" piped.out direct.out
done
# convert: PGN to PGC on stdout, PGC from stdin (its format by content) back to PGN.
cat games.pgn | "$epdd" convert - -o - --to pgc > piped.pgc 2> /dev/null
"$epdd" convert games.pgn -o direct.pgc 2> /dev/null
same "convert - -o - --to pgc" piped.pgc direct.pgc
cat piped.pgc | "$epdd" convert - -o - > back.pgn 2> /dev/null
"$epdd" convert direct.pgc > back_file.pgn 2> /dev/null
same "convert of a PGC on stdin" back.pgn back_file.pgn
[ -s back.pgn ] || fail "convert of a PGC on stdin wrote nothing"
# analyse: separate stores (nothing shared); acs is the engine's clock in whole seconds.
strip_acs() { sed 's/ acs [0-9]*;//' "$1"; }
cat suite.epd | "$epdd" analyse - -o - --nodes 1000 "${engine[@]}" --store a1.db > analysed.epd 2> /dev/null
"$epdd" analyse suite.epd -o analysed_file.epd --nodes 1000 "${engine[@]}" --store a2.db 2> /dev/null
same "analyse - -o -" <(strip_acs analysed.epd) <(strip_acs analysed_file.epd)
grep -q ' acn 1000;' analysed.epd || fail "analyse - -o - wrote no analysis"
# annotate: the PGN on stdout; then its JSON on stdout (the PGN in a file).
awk '/^\[Event /{n++} n<=2' "$data/pgn/kasparov-deep-blue-1997.pgn" > two.pgn
cat two.pgn | "$epdd" annotate - -o - --nodes 1000 "${engine[@]}" --store n1.db > annotated.pgn 2> /dev/null
"$epdd" annotate two.pgn -o annotated_file.pgn --nodes 1000 "${engine[@]}" --store n2.db 2> /dev/null
same "annotate - -o -" annotated.pgn annotated_file.pgn
grep -q '%eval' annotated.pgn || fail "annotate - -o - wrote no evaluation"
cat two.pgn | "$epdd" annotate - -o a.pgn --json - --nodes 1000 "${engine[@]}" --store n1.db > annotated.json 2> /dev/null
"$epdd" annotate two.pgn -o b.pgn --json annotated_file.json --nodes 1000 "${engine[@]}" --store n2.db 2> /dev/null
same "annotate --json -" <(grep -v '"input":' annotated.json) <(grep -v '"input":' annotated_file.json)
python3 -c 'import json,sys; json.load(sys.stdin)' < annotated.json || fail "annotate --json -: stdout is not JSON"
# book backsolve: PGN from stdin (by its content), the book on stdout.
cat games.pgn | "$epdd" book backsolve - --max-ply 2 --nodes 1000 "${engine[@]}" --store b1.db -o - > book.epd 2> /dev/null
"$epdd" book backsolve games.pgn --max-ply 2 --nodes 1000 "${engine[@]}" --store b2.db -o book_file.epd 2> /dev/null
same "book backsolve - -o -" <(strip_acs book.epd) <(strip_acs book_file.epd)
[ -s book.epd ] || fail "book backsolve - -o - wrote nothing"
# book leaves: PGN from stdin that opens with a '%' escape line, a comment, or bare movetext is
# PGN (not EPD lines "not a legal position"); an EPD from stdin stays EPD.
kasparov="$data/pgn/kasparov-deep-blue-1997.pgn"
{ echo "% exported by ChessBase"; head -48 "$kasparov"; } > escape.pgn
{ echo "{ two games of 1997 }"; head -48 "$kasparov"; } > comment.pgn
printf '1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 d5 2. c4 *\n' > tagless.pgn
printf '# two positions\n%s\n%s\n' 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id "e4";' \
  'rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 id "d4";' > two.epd
for f in escape.pgn comment.pgn tagless.pgn two.epd; do
  "$epdd" book leaves "$f" --max-ply 2 > "leaves_$f.file" 2> "leaves_$f.file.err"
  cat "$f" | "$epdd" book leaves - --max-ply 2 > "leaves_$f.pipe" 2> "leaves_$f.pipe.err" ||
    fail "book leaves - ($f): exit $? ($(tail -1 "leaves_$f.pipe.err"))"
  same "book leaves - and book leaves $f" "leaves_$f.file" "leaves_$f.pipe"
  same "book leaves - and book leaves $f (stderr)" "leaves_$f.file.err" "leaves_$f.pipe.err"
  [ -s "leaves_$f.pipe" ] || fail "book leaves - ($f) wrote no leaves"
done
# report: a JSON report from stdin, the page on stdout.
cat out.json | "$epdd" report - -o - > page.html 2> /dev/null
"$epdd" report out.json -o page_file.html 2> /dev/null
same "report - -o -" <(sed 's/out\.json/-/g' page_file.html) page.html
grep -q '^<!DOCTYPE html>' page.html || fail "report - -o -: no page"

# 4. A job read from a pipe resumes: stopped part way (SIGTERM), run again from a pipe.
q() { sqlite3 -batch -noheader -cmd ".timeout 10000" "$1" "$2"; }
wac=(suite - --nodes 20000 "${engine[@]}" -o -)
cat "$data/suites/wac.epd" | "$epdd" "${wac[@]}" --store clean.db > clean.epd 2> /dev/null
# A pipeline in the background: $! is its last command, epdd itself.
cat "$data/suites/wac.epd" | "$epdd" "${wac[@]}" --store k.db > first.epd 2> first.txt &
pid=$!
for _ in $(seq 1000); do
  [ "$(q k.db 'select done from jobs' 2> /dev/null || echo 0)" -ge 40 ] 2> /dev/null && break
  kill -0 "$pid" 2> /dev/null || break
  sleep 0.02
done
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
done_first=$(q k.db 'select done from jobs')
total=$(q k.db 'select total from jobs')
echo "suite from a pipe stopped with $done_first of $total records committed (exit $status)"
[ "$status" = 130 ] || fail "SIGTERM: exit $status"
[ -s first.epd ] && fail "an interrupted run wrote its output"
[ "$done_first" -lt "$total" ] || fail "the run ended before it was stopped: nothing to resume"
status=0
cat "$data/suites/wac.epd" | "$epdd" "${wac[@]}" --store k.db > resumed.epd 2> resumed.txt ||
  status=$?
[ "$status" = 0 ] || fail "the resumed run: exit $status"
grep -q "progress: 300 positions, $done_first already done" resumed.txt ||
  fail "the resumed run did not say it resumes: $(grep -m1 progress: resumed.txt)"
[ "$(q k.db 'select count(*) from jobs')" = 1 ] || fail "the second run from a pipe made a new job"
same "suite from a pipe, stopped and resumed, against a clean run" <(strip_acs resumed.epd) <(strip_acs clean.epd)
[ "$(q k.db 'select max(searches) from cache')" = 1 ] || fail "a position was searched twice"

# 5. Errors. '-' twice: exit 2 with the reason, before any work.
refused() {  # refused WHAT PATTERN ARGS...: exit 2, the reason on stderr, nothing on stdout
  local what=$1 pattern=$2 status=0
  shift 2
  echo "" | "$epdd" "$@" > out.txt 2> err.txt || status=$?
  [ "$status" = 2 ] || fail "$what: exit $status"
  grep -q -- "$pattern" err.txt || fail "$what says: $(cat err.txt)"
  [ -s out.txt ] && fail "$what wrote on stdout: $(head -c 200 out.txt)"
  return 0
}
refused "pgn check a - -" "'-' is given as more than one input" pgn check games.pgn - -
refused "suite -o - --json -" "'-' is given as more than one output" suite - -o - --json - --nodes 1000 \
  "${engine[@]}" --store e.db
[ -e e.db ] && fail "suite -o - --json - opened a store before refusing"
refused "annotate --json - without -o" "'-' is given as more than one output" annotate - --json - --nodes 1000 \
  "${engine[@]}" --store e.db
refused "annotate - --book -" "'-' is given as more than one input" annotate - --book - --nodes 1000 "${engine[@]}" \
  --store e.db
refused "book backsolve - --import -" "'-' is given as more than one input" book backsolve - --import - --nodes 1000 \
  "${engine[@]}" --store e.db
refused "book --pgn - without -o" "'-' is given as more than one output" book backsolve games.pgn --pgn - \
  --nodes 1000 "${engine[@]}" --store e.db
refused "report - -" "'-' is given as more than one input" report - -
refused "suite compare - -" "'-' is given as more than one input" suite compare - -
refused "perft - -" "'-' is given as more than one input" perft - -
# A reader that goes away: a write error in words, exit 2, never death by SIGPIPE (141).
for output in "-o -" ""; do
  # shellcheck disable=SC2086
  "$epdd" pgn export "$twic" $output 2> err.txt | head -c 10 > /dev/null
  status=${PIPESTATUS[0]}
  [ "$status" = 2 ] || fail "pgn export ${output:-to stdout} | head: exit $status"
  grep -q "standard output.*Broken pipe" err.txt || fail "pgn export ${output:-to stdout} | head says: $(cat err.txt)"
done
# ... and the filters stop reading then: an endless input ends with the reader.
for output in "-o -" ""; do
  for filter in "pgn export" "convert"; do
    # shellcheck disable=SC2086
    (while cat "$twic" 2> /dev/null; do :; done) | timeout 120 "$epdd" $filter - $output 2> err.txt | head -c 10 > /dev/null
    status=${PIPESTATUS[1]}
    [ "$status" = 2 ] && grep -q "standard output.*Broken pipe" err.txt ||
      fail "endless input | $filter - ${output:-to stdout} | head: exit $status (124: it read on), $(tail -1 err.txt)"
  done
done
# A full disk under stdout.
status=0
"$epdd" epd format suite.epd -o - > /dev/full 2> err.txt || status=$?
[ "$status" = 2 ] && grep -q "No space left" err.txt || fail "epd format -o - > /dev/full: exit $status, $(cat err.txt)"
status=0
"$epdd" epd format suite.epd > /dev/full 2> err.txt || status=$?
[ "$status" = 2 ] && grep -q "No space left" err.txt || fail "epd format > /dev/full: exit $status, $(cat err.txt)"

same "the file named '-' (no command reads or writes it)" ./- decoy.copy
grep -l 'a file named -' -- *.pgn *.epd *.json *.txt 2> /dev/null | grep -v '^decoy' &&
  fail "a command read the file named '-' instead of standard input"

[ "$failed" = 0 ] && echo "stdio test passed"
exit $failed
