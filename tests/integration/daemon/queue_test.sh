#!/usr/bin/env bash
# The queue commands around a daemon (issue 13 point 9; issue 14 points 9 and 14):
#   - `epdd cancel` stops a search in flight (a 60 s movetime) at once: the engine is told `stop`
#     within a bound far below the movetime, nothing of it is counted or cached, the same engine
#     (not restarted) answers the next job;
#   - `epdd status` of a running job whose daemon was stopped (SIGTERM) or killed (SIGKILL) says
#     that no live daemon holds it, and shows no ETA;
#   - `epdd results` of a cancelled job refuses without --partial; with it, writes what was done
#     (the other records unchanged) and says how many are missing;
#   - a one-shot command whose job is cancelled from another shell stops and says so;
#   - `epdd purge`: --dry-run changes nothing; finished and cancelled jobs go (a big input among
#     them: the file shrinks), queued and running jobs stay; --cache-unused-since empties the cache.
#   queue_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
source "$(dirname "$0")/lib.sh" "$1" "$2"
head -20 "$data/suites/wac.epd" > wac20.epd
config epdd.toml "[[engine]]
name = \"logged\"
command = \"$fake\"
args = [\"--log\", \"$work/engine.log\", \"--name\", \"Logged Fake\"]"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# --- cancel stops the search in flight ------------------------------------------------------
serve epdd.toml daemon.log
printf 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "quiet";\n' > one.epd
long=$("$epdd" submit analyse one.epd --config epdd.toml --engine logged --movetime 60000)
for _ in $(seq 1 300); do grep -q '^go movetime 60000' engine.log 2>/dev/null && break; sleep 0.1; done
grep -q '^go movetime 60000' engine.log || fail "the long search did not start"
start=$(now_ms)
"$epdd" cancel "$long" --config epdd.toml > /dev/null || fail "cancel failed"
until grep -q '^stop$' engine.log; do
  [ $(( $(now_ms) - start )) -lt 10000 ] || fail "the engine was not told to stop within 10 s of the cancel"
  sleep 0.02
done
stopped_after=$(( $(now_ms) - start ))
echo "cancel to 'stop' sent: $stopped_after ms (movetime 60000 ms, poll 100 ms)"
[ "$stopped_after" -lt 2000 ] || fail "stop came $stopped_after ms after the cancel"
wait_for "select count(*) = 0 from items where job = $long and lease_owner is not null" 10
[ "$(q "select done || '/' || failed || '/' || searches from jobs where id = $long")" = 0/0/0 ] ||
  fail "the stopped search was counted: $(q "select done, failed, searches from jobs where id = $long")"
[ "$(q "select count(*) from cache")" = 0 ] || fail "the stopped search was cached"
grep -q "job $long: .*stopping the search" daemon.log || fail "the log does not say the search was stopped"
# The daemon goes on with the same engine process.
next=$("$epdd" submit analyse wac20.epd --config epdd.toml --engine logged --depth 3)
wait_for "select state = 'finished' from jobs where id = $next" 30
kill -0 "$served" || fail "the daemon died"
[ "$(grep -c '^uci$' engine.log)" = 1 ] || fail "the engine was restarted: $(grep -c '^uci$' engine.log) handshakes"
grep -q "restart" daemon.log && fail "the daemon restarted an engine: $(grep restart daemon.log)"

# --- status of a running job whose daemon is gone -------------------------------------------
slow=$("$epdd" submit analyse wac20.epd --config epdd.toml --engine logged --movetime 300)
wait_for "select done >= 3 from jobs where id = $slow" 30
row() { "$epdd" status --config epdd.toml | awk -v id="$slow" '$1 == id'; }
row | grep -Eq "running .* [0-9]+:[0-9]{2} " || fail "no ETA while the daemon runs: $(row)"
kill -TERM "$served"; wait "$served"
"$epdd" status --config epdd.toml > stopped.txt
awk -v id="$slow" '$1 == id { if ($3 != "running" || $7 != "-") bad = 1 } END { exit bad }' stopped.txt ||
  fail "a job with no daemon shows an ETA: $(cat stopped.txt)"
grep -A3 -E "^ +$slow " stopped.txt | grep -q "no live daemon holds it" || { cat stopped.txt >&2; fail "status does not say that no daemon holds job $slow"; }
"$epdd" status "$slow" --config epdd.toml | grep -q "no live daemon holds it" || fail "status JOB does not say it either"
# Killed: its leases are still there, their owner is gone.
serve epdd.toml daemon2.log
wait_for "select count(*) > 0 from items where job = $slow and lease_owner is not null" 30
kill -9 "$served"; wait "$served" 2>/dev/null || true
"$epdd" status --config epdd.toml > killed.txt
grep -A3 -E "^ +$slow " killed.txt | grep -q "no live daemon holds it: .*no longer runs" ||
  { cat killed.txt >&2; fail "status does not say the killed daemon is gone"; }

# --- results of a cancelled job ------------------------------------------------------------------
serve epdd.toml daemon3.log
wait_for "select done >= 8 from jobs where id = $slow" 30
"$epdd" cancel "$slow" --config epdd.toml > /dev/null
wait_for "select count(*) = 0 from items where job = $slow and lease_owner is not null" 10
done=$(q "select done from jobs where id = $slow")
status=0
"$epdd" results "$slow" --config epdd.toml -o whole.epd 2> whole.err || status=$?
[ "$status" = 1 ] || fail "results of a cancelled job without --partial: exit $status"
grep -q -- "--partial" whole.err || fail "the refusal does not point to --partial: $(cat whole.err)"
[ -e whole.epd ] && fail "results wrote an output without --partial"
"$epdd" results "$slow" --config epdd.toml --partial -o part.epd 2> part.err || fail "results --partial: $(cat part.err)"
[ "$(grep -c ' acd ' part.epd)" = "$done" ] || fail "part.epd has $(grep -c ' acd ' part.epd) analysed records, the job $done"
[ "$(wc -l < part.epd)" = 20 ] || fail "part.epd has $(wc -l < part.epd) lines"
paste -d '\n' wac20.epd part.epd | paste - - | awk -F'\t' '$1 != $2 && $2 !~ / acd / { bad = 1 } END { exit bad }' ||
  fail "a record without analysis was changed"
grep -q "$((20 - done)) of 20 records missing" part.err || fail "results --partial does not say how many are missing: $(cat part.err)"

# --- a one-shot command whose job is cancelled ends at once (it waited for ever) -------------
"$epdd" analyse one.epd --config epdd.toml --engine logged --movetime 60000 --store oneshot.db -o oneshot.epd -q \
  2> oneshot.err &
oneshot=$!
STORE=oneshot.db wait_for "select count(*) = 1 from items where lease_owner is not null" 30
start=$(now_ms)
"$epdd" cancel 1 --store oneshot.db > /dev/null
status=0
wait "$oneshot" || status=$?
took=$(( $(now_ms) - start ))
echo "one-shot command ended $took ms after its job was cancelled"
[ "$took" -lt 3000 ] || fail "the one-shot command went on for $took ms after the cancel"
[ "$status" = 130 ] || fail "exit status $status: $(cat oneshot.err)"
grep -q "job 1 was cancelled" oneshot.err || fail "the command does not say its job was cancelled: $(cat oneshot.err)"
[ -e oneshot.epd ] && fail "a cancelled one-shot command wrote its output"

# --- purge ---------------------------------------------------------------------------------------
# A big input (wac.epd 40 times), cancelled at once: its source and items fill the file.
for _ in $(seq 1 40); do cat "$data/suites/wac.epd"; done > big.epd
big=$("$epdd" submit analyse big.epd --config epdd.toml --engine logged --depth 1)
wait_for "select planned = 1 from jobs where id = $big" 30
"$epdd" cancel "$big" --config epdd.toml > /dev/null
# One job left running by a stopped daemon, one queued: both must stay.
running=$("$epdd" submit analyse wac20.epd --config epdd.toml --engine logged --movetime 500)
wait_for "select count(*) > 0 from items where job = $running and lease_owner is not null" 30
kill -TERM "$served"; wait "$served"
queued=$("$epdd" submit analyse one.epd --config epdd.toml --engine fake --depth 2)
[ "$(job_state "$running")" = running ] || fail "job $running is $(job_state "$running")"
q "pragma wal_checkpoint(truncate)" > /dev/null
jobs_before=$(q "select count(*) from jobs")
size_before=$(stat -c %s epdd.db)
tomorrow=$(date -d tomorrow +%F)
"$epdd" purge --config epdd.toml --before "$tomorrow" --cache-unused-since "$tomorrow" --dry-run > dry.txt ||
  fail "purge --dry-run failed"
cat dry.txt
[ "$(q "select count(*) from jobs")" = "$jobs_before" ] || fail "--dry-run removed jobs"
grep -Eq "^ +$big +analyse +cancelled" dry.txt || fail "--dry-run does not list job $big"
grep -Eq "^ +($running|$queued) " dry.txt && fail "--dry-run lists a running or queued job"
"$epdd" purge --config epdd.toml --before "$tomorrow" --cache-unused-since "$tomorrow" > purge.txt || fail "purge failed"
cat purge.txt
size_after=$(stat -c %s epdd.db)
echo "store: $size_before bytes before the purge, $size_after after"
[ "$size_after" -lt $((size_before / 2)) ] || fail "the store did not shrink: $size_before -> $size_after bytes"
[ "$(q "select group_concat(id) from (select id from jobs order by id)")" = "$running,$queued" ] ||
  fail "jobs left: $(q "select group_concat(id || ' ' || state) from jobs")"
[ "$(q "select count(*) from items where job not in (select id from jobs)")" = 0 ] || fail "items of purged jobs left"
[ "$(q "select count(*) from cache")" = 0 ] || fail "cache entries left: $(q "select count(*) from cache")"
[ "$(q 'pragma integrity_check')" = ok ] || fail "store damaged by the purge"
# The kept jobs still run.
serve epdd.toml daemon4.log
wait_for "select count(*) = 2 from jobs where state = 'finished'" 90
echo "PASS"
