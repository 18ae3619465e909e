#!/usr/bin/env bash
# The fake engine's random faults (--fault-rate, for the soak): on a share of the searches it
# crashes, hangs or answers garbage (garbage lines and an illegal bestmove), each fault logged
# before it happens; the rate holds, the log counts exactly what was done, a seed repeats it.
#   fake_engine_fault_rate_test.sh FAKE_ENGINE
set -euo pipefail
fake=$(realpath "$1")
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

# N searches of depth 1 from the start position: 1 info line and the bestmove each.
searches() { printf 'uci\nisready\n'; for _ in $(seq 1 "$1"); do printf 'position startpos\ngo depth 1\n'; done; printf 'quit\n'; }

# --- garbage at 10%: about 200 of 2000, exactly the logged ones are garbled ---------------------
searches 2000 | "$fake" --fault-rate 0.1 --fault-kinds garbage --fault-seed 7 --fault-log g1.log > g1.out
faults=$(wc -l < g1.log)
echo "garbage faults: $faults of 2000 searches (rate 0.1)"
[ "$faults" -ge 120 ] && [ "$faults" -le 280 ] || fail "$faults faults of 2000 at rate 0.1"
grep -vq '^garbage go [0-9]* fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1$' g1.log &&
  fail "bad fault log line: $(grep -v '^garbage go' g1.log | head -1)"
[ "$(grep -c '^bestmove a3b3$' g1.out)" = "$faults" ] || fail "$(grep -c '^bestmove a3b3$' g1.out) illegal bestmoves, $faults faults logged"
[ "$(grep -c '^bestmove ' g1.out)" = 2000 ] || fail "not every search answered"
[ "$(grep -ac 'garbage from fake_engine' g1.out)" = $((2 * faults)) ] ||
  fail "$(grep -ac 'garbage from fake_engine' g1.out) garbage lines for $faults garbled searches of 2 lines"
# The search numbers logged are the garbled ones.
awk '/^bestmove/ { n++; if ($2 == "a3b3") print n }' g1.out > garbled.txt
cmp <(awk '{ print $3 }' g1.log) garbled.txt || fail "the log names other searches than the garbled ones"
searches 2000 | "$fake" --fault-rate 0.1 --fault-kinds garbage --fault-seed 7 --fault-log g2.log > /dev/null
cmp g1.log g2.log || fail "the same seed drew other faults"

# --- rate 0 (the default): nothing ---------------------------------------------------------------
searches 500 | "$fake" --fault-log none.log > none.out
[ ! -s none.log ] || fail "faults without --fault-rate"
[ "$(grep -c '^bestmove e2e4\|^bestmove ' none.out)" = 500 ] || fail "rate 0 did not answer every search"

# --- crash and hang, each alone at rate 1 ---------------------------------------------------------
status=0
searches 3 | "$fake" --fault-rate 1 --fault-kinds crash --fault-log c.log > c.out || status=$?
[ "$status" = 139 ] || fail "crash: exit status $status, not 139 (SIGSEGV)"
[ "$(cut -d' ' -f1-3 c.log)" = "crash go 1" ] || fail "crash log: $(cat c.log)"
grep -q '^bestmove' c.out && fail "a crashed search answered"
mkfifo hang.in
"$fake" --fault-rate 1 --fault-kinds hang --fault-log h.log < hang.in > h.out &
hung=$!
exec 3> hang.in
printf 'uci\nposition startpos\ngo depth 1\nisready\n' >&3
sleep 1
kill -0 "$hung" || fail "a hung engine ended"
grep -q 'bestmove\|readyok' h.out && fail "a hung engine answered: $(cat h.out)"
[ "$(cut -d' ' -f1-3 h.log)" = "hang go 1" ] || fail "hang log: $(cat h.log)"
exec 3>&-
sleep 0.3
kill -0 "$hung" || fail "a hung engine ended at end of input"
kill -9 "$hung"

# --- every kind is drawn (seeds 1..30 at rate 1, default kinds) ----------------------------------
for s in $(seq 1 30); do
  { searches 1 | timeout 0.5 "$fake" --fault-rate 1 --fault-seed "$s" --fault-log all.log > /dev/null 2>&1 || true; } 2> /dev/null
done
kinds=$(cut -d' ' -f1 all.log | sort -u | tr '\n' ' ')
[ "$kinds" = "crash garbage hang " ] || fail "kinds drawn: $kinds"

# --- bad values are refused with a reason ---------------------------------------------------------
for bad in "--fault-rate 1.5" "--fault-rate x" "--fault-kinds crash,boom" "--fault-seed -1"; do
  status=0
  # shellcheck disable=SC2086
  "$fake" $bad < /dev/null 2> bad.err > /dev/null || status=$?
  [ "$status" = 2 ] || fail "$bad: exit status $status"
  grep -q "^fake_engine: --fault-" bad.err || fail "$bad: no reason: $(head -1 bad.err)"
done
echo PASS
