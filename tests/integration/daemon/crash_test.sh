#!/usr/bin/env bash
# Crash safety of the daemon (issue 7, point 2): a job's daemon is killed with SIGKILL at several
# points (engines starting, and at 1, 15 and 45 of 60 positions committed), then
# started again. The job completes with output identical to an uninterrupted one-shot run, and no
# position is searched twice (the killed daemon's leases are released by the next one at once:
# same machine, the owner process gone).
#   crash_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
source "$(dirname "$0")/lib.sh" "$1" "$2"
head -60 "$data/suites/wac.epd" > wac60.epd
config epdd.toml
args=(analyse wac60.epd --config epdd.toml --engine fake --movetime 60)
"$epdd" "${args[@]}" --store ref.db -o ref.epd -q
job=$("$epdd" submit "${args[@]}" -o "$work/out.epd")

start() {
  "$epdd" serve --config epdd.toml > "daemon-$1.log" 2>&1 &
  served=$!
}
kill_at() {  # kill_at N: start a daemon, SIGKILL it once N positions are committed
  start "$1"
  while kill -0 "$served" 2>/dev/null; do
    [ "$(q "select done from jobs where id = $job" 2>/dev/null || echo 0)" -ge "$1" ] && break
    sleep 0.01
  done
  kill -9 "$served"
  wait "$served" 2>/dev/null || true
  [ "$(q 'pragma integrity_check')" = ok ] || fail "store damaged after SIGKILL"
  echo "killed at $(q "select done from jobs where id = $job") of 60 committed"
}
start 0
sleep 0.05
kill -9 "$served"; wait "$served" 2>/dev/null || true
for n in 1 15 45; do kill_at "$n"; done
[ -e out.epd ] && fail "an unfinished job wrote its output"
# The last run goes to the end and delivers.
start last
wait_for "select state = 'finished' from jobs where id = $job" 60
kill -TERM "$served"; wait "$served"
cmp out.epd ref.epd || fail "the output after crashes differs from an uninterrupted run"
[ "$(q "select searches from jobs where id = $job")" = 60 ] || fail "the job counts $(q "select searches from jobs where id = $job") searches for 60 positions"
exactly_once

# A one-shot command whose positions another (interrupted) job also waits for answers both jobs
# with one search each, and counts only its own records.
"$epdd" analyse wac60.epd --config epdd.toml --engine fake --movetime 200 --store shared.db -o /dev/null -q &
oneshot=$!
STORE=shared.db wait_for "select done >= 2 from jobs" 30
kill -9 "$oneshot"; wait "$oneshot" 2>/dev/null || true
sed -n 51,55p wac60.epd > tail5.epd
before=$(STORE=shared.db q "select done from jobs where id = 1")
"$epdd" analyse tail5.epd --config epdd.toml --engine fake --movetime 200 --store shared.db -o tail5.out 2> tail5.err
[ "$(grep -c ' acd ' tail5.out)" = 5 ] || fail "tail5.epd was not analysed: $(cat tail5.err)"
if grep -Eo 'progress: [0-9]+/5' tail5.err | awk -F'[ /]' '$2 > 5 { bad = 1 } END { exit !bad }'; then
  fail "progress counted another job's records: $(cat tail5.err)"
fi
[ "$(STORE=shared.db q "select done from jobs where id = 1")" = $((before + 5)) ] ||
  fail "the interrupted job's waiting items were not answered with the same searches"
STORE=shared.db exactly_once
echo "PASS"
