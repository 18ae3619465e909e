#!/usr/bin/env bash
# Fault injection (issue 21): the daemon is killed with SIGKILL at 50 random moments of one job
# (seeded delays after each start; the seed is printed, FAULT_SEED=N repeats a run). Each time the
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
mid_job=0
committed=0
progress=()
for kill in $(seq 1 50); do
  # 0 to 399 ms after the start: engines starting, claims, searches in flight, commits.
  delay=$((RANDOM % 400))
  "$epdd" serve --config epdd.toml > "daemon-$kill.log" 2>&1 &
  served=$!
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
  progress+=("$delay:$before")
  [ -e out.epd ] && [ "$state" != finished ] && fail "an unfinished job wrote its output (kill $kill)"
done
echo "50 kills (delay ms:positions committed before it): ${progress[*]}"
echo "$mid_job kills with the job unfinished; $(done_count) of $positions committed after the last"
[ "$mid_job" -ge 40 ] || fail "only $mid_job of the 50 kills fell inside the job: the test does not test"
# The last daemon goes to the end and delivers.
"$epdd" serve --config epdd.toml > daemon-last.log 2>&1 &
served=$!
wait_for "select state = 'finished' from jobs where id = $job" 60
kill -TERM "$served"; wait "$served"
cmp out.epd ref.epd || fail "the output after 50 SIGKILLs differs from an uninterrupted run (seed $seed)"
searches=$(q "select searches from jobs where id = $job")
[ "$searches" = $positions ] || fail "the job counts $searches searches for $positions positions (seed $seed)"
exactly_once
echo "PASS"
