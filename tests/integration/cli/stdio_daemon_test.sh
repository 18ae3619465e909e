#!/usr/bin/env bash
# '-' with the daemon's commands (issue 22): `epdd submit` takes a job's input from standard input
# (the job is its bytes in the store; no path), refuses '-' as an output (a daemon writes outputs
# long after the command has gone), and `epdd results -o -` / `--json -` put that output alone on
# stdout (a suite's text report then on stderr), one '-' at most.
#   stdio_daemon_test.sh EPDD FAKE_ENGINE SHARED_DATA
here=$(cd "$(dirname "$0")" && pwd)
data=$(realpath "$3")
# shellcheck source=../daemon/lib.sh
source "$here/../daemon/lib.sh" "$1" "$2"

config epdd.toml
head -12 "$data/suites/wac.epd" > suite.epd
"$epdd" suite suite.epd --config epdd.toml --engine fake --depth 3 --store ref.db -o ref.epd --json ref.json -q > ref.txt

status=0
cat suite.epd | "$epdd" submit suite - --config epdd.toml --engine fake --depth 3 -o - > /dev/null 2> refused.err ||
  status=$?
[ "$status" = 2 ] && grep -q "a daemon writes the job's output" refused.err || fail "submit -o -: exit $status, $(cat refused.err)"
head -400 "$data/books/2moves_v2.pgn" > book.pgn
for more in "--pgn -" "--polyglot -"; do
  status=0
  # shellcheck disable=SC2086
  "$epdd" submit book book.pgn --config epdd.toml --engine fake --depth 3 --max-ply 3 -o "$PWD/b.epd" $more \
    > /dev/null 2> refused.err || status=$?
  [ "$status" = 2 ] && grep -q "a daemon writes the job's ${more:2:-2}" refused.err ||
    fail "submit book $more: exit $status, $(cat refused.err)"
done
status=0
printf '1. e4 *\n' | "$epdd" submit annotate - --book - --config epdd.toml --engine fake --depth 3 > /dev/null 2> refused.err ||
  status=$?
[ "$status" = 2 ] && grep -q "'-' is given as more than one input" refused.err ||
  fail "submit annotate - --book -: exit $status, $(cat refused.err)"
job=$(cat suite.epd | "$epdd" submit suite - --config epdd.toml --engine fake --depth 3)
[ "$(q "select input from jobs where id = $job")" = "-" ] || fail "submit -: the job names $(q "select input from jobs where id = $job")"
serve epdd.toml daemon.log
wait_for "select state = 'finished' from jobs where id = $job" 60
kill -TERM "$served"; wait "$served" || true

"$epdd" results "$job" --config epdd.toml -o - > out.epd 2> report.txt || fail "results -o -: $(cat report.txt)"
cmp ref.epd out.epd || fail "results -o - differs from the one-shot suite's EPD: $(diff ref.epd out.epd | head -3)"
grep -q '^Solved' report.txt || fail "results -o -: the suite's report is not on stderr"
"$epdd" results "$job" --config epdd.toml --json - > out.json 2> report.txt || fail "results --json -: $(cat report.txt)"
python3 -c 'import json,sys; json.load(sys.stdin)' < out.json || fail "results --json -: stdout is not JSON"
grep -q '^Solved' out.json && fail "results --json -: the report is on stdout too"
status=0
"$epdd" results "$job" --config epdd.toml -o - --json - > both.txt 2> both.err || status=$?
[ "$status" = 2 ] && grep -q "'-' is given as more than one output" both.err && [ ! -s both.txt ] ||
  fail "results -o - --json -: exit $status, $(cat both.err)"

# A one-shot book run whose PGN goes to its stdout, killed: the daemon that finishes its job leaves
# the outputs in the store (the run's own, for `epdd results` or the same command again), and writes
# neither the EPD nor the PGN to the daemon's own stdout (the journal).
"$epdd" book backsolve book.pgn --config epdd.toml --engine fake --movetime 100 --max-ply 3 -o "$PWD/oneshot.epd" \
  --pgn - > oneshot.pgn 2> /dev/null &
oneshot=$!
wait_for "select done >= 2 from jobs where kind = 'book'" 30
kill -9 "$oneshot"; wait "$oneshot" 2> /dev/null || true
book=$(q "select id from jobs where kind = 'book'")
serve epdd.toml daemon2.log
wait_for "select state = 'finished' and delivered = 1 from jobs where id = $book" 120
kill -TERM "$served"; wait "$served" || true
[ -e oneshot.epd ] && fail "the daemon wrote the killed one-shot run's -o"
grep -q '^\[Event ' daemon2.log && fail "the daemon wrote the one-shot run's PGN to its own stdout"
"$epdd" results "$book" --config epdd.toml -o /dev/null --pgn - > results.pgn 2> results.err || fail "results --pgn -: $(cat results.err)"
"$epdd" pgn check results.pgn > /dev/null || fail "results --pgn - is not a PGN: $(head -3 results.pgn)"
echo "stdio daemon test passed"
