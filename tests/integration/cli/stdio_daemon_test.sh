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
[ "$status" = 2 ] && grep -q "a daemon writes the job's outputs" refused.err || fail "submit -o -: exit $status, $(cat refused.err)"
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
echo "stdio daemon test passed"
