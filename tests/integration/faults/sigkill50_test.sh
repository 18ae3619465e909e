#!/usr/bin/env bash
# Fault injection (issue 21): the daemon is killed with SIGKILL at 50 random moments of one job
# (seeded: the seed is printed, FAULT_SEED=N repeats the choice of moments). A moment is a point
# of the job's progress, not of the clock, so that a fast machine does not finish the job before
# the kills run out: 50 sorted random counts of committed positions below positions - 10; each
# daemon runs until the job has that many done, then 0 to 49 ms more (a search in flight, a
# commit; a count already reached makes it a moment of the daemon's start). Each time the
# store is whole (integrity_check) and the next daemon continues the job; the final output
# equals an uninterrupted one-shot run byte for byte, every position is searched once, and the
# count of committed results never goes back from one kill to the next.
#   sigkill50_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
source "$(dirname "$0")/../daemon/lib.sh" "$1" "$2"
seed=${FAULT_SEED:-$(( $(date +%s%N) % 32768 ))}
echo "seed $seed (FAULT_SEED=$seed repeats this run)"
RANDOM=$seed
positions=150
head -$positions "$data/suites/wac.epd" > wac.epd
config epdd.toml
args=(analyse wac.epd --config epdd.toml --engine fake --movetime 50)
"$epdd" "${args[@]}" --store ref.db -o ref.epd -q
job=$("$epdd" submit "${args[@]}" -o "$work/out.epd")

done_count() { q "select done from jobs where id = $job" 2>/dev/null || echo '?'; }
targets=($(for _ in $(seq 1 50); do echo $((RANDOM % (positions - 10))); done | sort -n))
mid_job=0
committed=0
progress=()
for kill in $(seq 1 50); do
  target=${targets[$((kill - 1))]}
  delay=$((RANDOM % 50))
  "$epdd" serve --config epdd.toml > "daemon-$kill.log" 2>&1 &
  served=$!
  deadline=$((SECONDS + 30))
  until [ "$(done_count)" -ge "$target" ] 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || { cat "daemon-$kill.log" >&2; fail "kill $kill: the job did not reach $target done in 30 s"; }
    sleep 0.01
  done
  sleep "$(printf '0.%03d' "$delay")"
  before=$(done_count)
  kill -9 "$served"
  wait "$served" 2>/dev/null || true
  [ "$(q 'pragma integrity_check')" = ok ] || fail "store damaged after SIGKILL $kill (seed $seed)"
  state=$(job_state "$job")
  [ "$state" = running ] || [ "$state" = queued ] && mid_job=$((mid_job + 1))
  after=$(done_count)
  # A committed result is never lost: the count of done items never goes back.
  [ "$after" -ge "$committed" ] || fail "kill $kill: $after items done after it, $committed before (seed $seed)"
  committed=$after
  progress+=("$target+${delay}ms:$before")
  [ -e out.epd ] && [ "$state" != finished ] && fail "an unfinished job wrote its output (kill $kill)"
done
echo "50 kills (target done + delay: done at the kill): ${progress[*]}"
echo "$mid_job kills with the job unfinished; $(done_count) of $positions committed after the last"
[ "$mid_job" -ge 40 ] || fail "only $mid_job of the 50 kills fell inside the job: the test does not test"
# The last daemon goes to the end and delivers.
# (The job may have been finished, even delivered, by a killed daemon: the last one must still
# have started, signal handlers set, before it is told to stop, or SIGTERM ends it by default.)
"$epdd" serve --config epdd.toml > daemon-last.log 2>&1 &
served=$!
for _ in $(seq 1 600); do grep -q "epdd serve: pid" daemon-last.log && break; sleep 0.1; done
grep -q "epdd serve: pid" daemon-last.log || { cat daemon-last.log >&2; fail "the last daemon did not start"; }
wait_for "select state = 'finished' and delivered = 1 from jobs where id = $job" 60
kill -TERM "$served"
status=0; wait "$served" || status=$?
[ $status = 0 ] || { cat daemon-last.log >&2; fail "the last daemon exited $status on SIGTERM"; }
cmp out.epd ref.epd || fail "the output after 50 SIGKILLs differs from an uninterrupted run (seed $seed)"
searches=$(q "select searches from jobs where id = $job")
[ "$searches" = $positions ] || fail "the job counts $searches searches for $positions positions (seed $seed)"
exactly_once
echo "PASS"
