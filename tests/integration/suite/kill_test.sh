#!/usr/bin/env bash
# Crash safety of the one-shot commands (issue 6, point 2): `epdd suite` on wac.epd is killed
# with SIGKILL at several points, then run again to the end. The output must equal that of an
# uninterrupted run, and the store's counters must show that no position was analysed twice.
#
#   kill_test.sh EPDD SHARED_DATA [NODES]
set -euo pipefail
epdd=$(realpath "$1")
suite="$2/suites/wac.epd"
nodes=${3:-10000}
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; [ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
echo "work directory: $work"
args=(suite "$suite" --nodes "$nodes" --threads 1 --concurrency 2 -q)
run() {  # run STORE OUTPUT: the suite run to its end
  "$epdd" "${args[@]}" --store "$1" -o "$2" --json "$2.json"
}
# Started in the background as a simple command, so that $! is epdd itself (not a subshell,
# whose SIGKILL would leave epdd running on).
start() { "$epdd" "${args[@]}" --store k.db -o out.epd --json out.epd.json > /dev/null 2>&1 & }
q() { sqlite3 -batch -noheader -cmd ".timeout 10000" k.db "$1"; }

run ref.db ref.epd > ref.txt
total=$(sqlite3 -batch -noheader ref.db "select total from jobs")

# Killed at several points: once while the engines start, then when the store shows a given
# number of records committed (polled while the run goes on: WAL lets a reader in). Each kill
# must leave a usable store and no output file.
kill_when_done() {  # kill_when_done N: start the run, SIGKILL it once N records are committed
  start
  local pid=$! done_now=0
  while kill -0 "$pid" 2>/dev/null; do
    done_now=$(q "select done from jobs" 2>/dev/null || echo 0)
    [ "${done_now:-0}" -ge "$1" ] && break
    sleep 0.02
  done
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ "$(q 'pragma integrity_check')" = ok ] || { echo "FAIL: store damaged after SIGKILL" >&2; exit 1; }
  echo "SIGKILL with $(q 'select done from jobs') of $total records committed (aimed at $1)"
  ! kill -0 "$pid" 2>/dev/null || { echo "FAIL: epdd survived SIGKILL?" >&2; exit 1; }
  [ ! -e out.epd ] || { echo "FAIL: an interrupted run wrote its output" >&2; exit 1; }
}
start
pid=$!
sleep 0.2
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
kill_when_done 1
kill_when_done 40
kill_when_done 150
kill_when_done 260

run k.db out.epd > out.txt
failed=0
# acs is the engine's clock in whole seconds, the one figure that a machine under load can
# change between two runs of the same search: it is compared apart, with a second's leeway.
strip_acs() { sed 's/ acs [0-9]*;//' "$1"; }
cmp <(strip_acs ref.epd) <(strip_acs out.epd) ||
  { echo "FAIL: the resumed output differs from the uninterrupted one" >&2; diff ref.epd out.epd | head >&2; failed=1; }
# The report: the same solved count and the same unsolved records (times differ between runs).
diff <(sed -n '/^Solved/p;/^Unsolved/,$p' ref.txt) <(sed -n '/^Solved/p;/^Unsolved/,$p' out.txt) >&2 ||
  { echo "FAIL: the resumed report differs" >&2; failed=1; }
max=$(q "select max(searches) from cache")
entries=$(q "select count(*) from cache")
distinct=$(q "select count(distinct key) from items")
searches=$(q "select searches from jobs")
echo "store: $entries positions cached, $distinct distinct in the suite, $searches searches committed, at most $max per position"
[ "$max" = 1 ] || { echo "FAIL: a position was analysed more than once" >&2; failed=1; }
[ "$entries" = "$distinct" ] && [ "$searches" = "$distinct" ] ||
  { echo "FAIL: searches committed ($searches) != distinct positions ($distinct)" >&2; failed=1; }
[ "$failed" = 0 ] && echo "kill test passed"
exit $failed
