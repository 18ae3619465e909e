#!/usr/bin/env bash
# epdd serve end to end (issue 7, points 1 and 4): the fake engine and Stockfish, EPD files
# dropped into the spool (good ones, a malformed one, one with a bad sidecar, one written
# slowly), jobs submitted from the command line, outputs compared with the one-shot commands',
# status and cancel, SIGHUP with a broken and then a changed configuration, SIGTERM during a
# long search.
#   serve_test.sh EPDD FAKE_ENGINE SHARED_DATA REPO
data=$(realpath "$3")
repo=$(realpath "$4")
source "$(dirname "$0")/lib.sh" "$1" "$2"
head -20 "$data/suites/wac.epd" > wac20.epd
cp "$repo/examples/tactics.epd" tactics.epd
strip_acs() { sed -E 's/ acs [0-9]+;//' "$1"; }
same_epd() { diff <(strip_acs "$1") <(strip_acs "$2") > /dev/null || { diff <(strip_acs "$1") <(strip_acs "$2") | head >&2; fail "$1 and $2 differ"; }; }

config epdd.toml
serve epdd.toml daemon.log

# --- The spool -------------------------------------------------------------------------------
# Written slowly: half now, the rest over more than the settle time; taken only when complete.
head -10 wac20.epd > spool/inbox/slow.epd
for i in 11 12 13 14 15 16 17 18 19 20; do sleep 0.25; sed -n "${i}p" wac20.epd >> spool/inbox/slow.epd; done
cp tactics.epd spool/inbox/tactics.epd.part
printf 'kind = "suite"\nengine = "stockfish"\nnodes = 20000\n' > spool/inbox/tactics.toml
mv spool/inbox/tactics.epd.part spool/inbox/tactics.epd
printf 'this is not EPD\n' > spool/inbox/bad.epd
cp wac20.epd spool/inbox/typo.epd
printf 'kind = "analyse"\nnodez = 5\n' > spool/inbox/typo.toml
printf 'x' > spool/inbox/notes.txt

# --- Submitted jobs ----------------------------------------------------------------------------
sub_a=$("$epdd" submit analyse wac20.epd --config epdd.toml --engine stockfish --nodes 20000 -o "$work/sub.epd")
sub_s=$("$epdd" submit suite tactics.epd --config epdd.toml --engine fake --depth 5 --report "$work/sub.txt" \
        --json "$work/sub.json" -o "$work/sub-suite.epd")
"$epdd" submit analyse wac20.epd --config epdd.toml --engine /usr/games/stockfish > /dev/null 2> noprog.err &&
  fail "a job brought its own engine program"
grep -q "not a program\|no engine" noprog.err || fail "no clear refusal of an engine program: $(cat noprog.err)"

wait_for "select count(*) = 2 from jobs where id in ($sub_a, $sub_s) and state = 'finished'" 120
for f in done/slow.epd outbox/slow.epd done/tactics.epd done/tactics.toml outbox/tactics.epd outbox/tactics.report.txt \
         outbox/tactics.json failed/bad.epd failed/bad.epd.error failed/typo.epd failed/typo.toml failed/typo.epd.error \
         failed/notes.txt failed/notes.txt.error; do
  for _ in $(seq 1 600); do [ -e "spool/$f" ] && break; sleep 0.1; done
  [ -e "spool/$f" ] || { ls -R spool >&2; fail "spool/$f is missing"; }
done
[ -z "$(ls spool/inbox)" ] || fail "files left in the inbox: $(ls spool/inbox)"
grep -q "piece placement" spool/failed/bad.epd.error || fail "bad.epd.error: $(cat spool/failed/bad.epd.error)"
grep -q "typo.toml:2:1: unknown key 'nodez'" spool/failed/typo.epd.error || fail "typo.epd.error: $(cat spool/failed/typo.epd.error)"
grep -q "not an EPD, PGN, PGC, ChessLive! or Polyglot file" spool/failed/notes.txt.error || fail "notes.txt.error: $(cat spool/failed/notes.txt.error)"
[ "$(q "select count(*) from jobs where input like '%slow.epd'")" = 1 ] || fail "slow.epd was taken more than once"

# The same files through the one-shot commands, on a store of their own (nothing from the cache).
"$epdd" analyse wac20.epd --config epdd.toml --engine fake --depth 5 --store ref.db -o ref-slow.epd -q
"$epdd" analyse wac20.epd --config epdd.toml --engine stockfish --nodes 20000 --store ref.db -o ref-sub.epd -q
"$epdd" suite tactics.epd --config epdd.toml --engine stockfish --nodes 20000 --store ref.db -o ref-tactics.epd -q > /dev/null
"$epdd" suite tactics.epd --config epdd.toml --engine fake --depth 5 --store ref.db -o ref-sub-suite.epd -q > /dev/null
same_epd spool/outbox/slow.epd ref-slow.epd
same_epd sub.epd ref-sub.epd
same_epd spool/outbox/tactics.epd ref-tactics.epd
same_epd sub-suite.epd ref-sub-suite.epd
# Reports: the one-shot command on the daemon's store (every answer from it) prints the same.
"$epdd" suite tactics.epd --config epdd.toml --engine fake --depth 5 --json oneshot.json -q > oneshot.txt
cmp oneshot.txt sub.txt || fail "suite report differs from the one-shot command's"
cmp oneshot.json sub.json || fail "suite JSON differs from the one-shot command's"
"$epdd" results "$sub_a" --config epdd.toml -o results.epd
cmp results.epd sub.epd || fail "epdd results differs from the delivered output"
grep -Eq "^Solved +17 / 17" spool/outbox/tactics.report.txt || fail "Stockfish did not solve tactics.epd: $(head -5 spool/outbox/tactics.report.txt)"

# --- status and cancel ---------------------------------------------------------------------
"$epdd" status --config epdd.toml > status.txt
grep -Eq "^ +$sub_a +analyse +finished +20/20 " status.txt || { cat status.txt >&2; fail "status of job $sub_a"; }
slow=$("$epdd" submit analyse "$data/suites/wac.epd" --config epdd.toml --engine fake --movetime 500)
wait_for "select done >= 2 from jobs where id = $slow" 30
"$epdd" status "$slow" --config epdd.toml | grep -q running || fail "job $slow is not shown running"
"$epdd" cancel "$slow" --config epdd.toml | grep -q cancelled || fail "cancel did not say so"
sleep 1.5  # searches in flight are stopped (and would have ended within 500 ms anyway)
done_after=$(q "select done from jobs where id = $slow")
sleep 1.5
[ "$(q "select done from jobs where id = $slow")" = "$done_after" ] || fail "a cancelled job went on"
[ "$(job_state "$slow")" = cancelled ] || fail "job $slow is $(job_state "$slow")"
"$epdd" cancel "$slow" --config epdd.toml 2> /dev/null && fail "cancelling twice succeeded"
"$epdd" results "$slow" --config epdd.toml > /dev/null 2>&1 && fail "results of a cancelled job"

# --- SIGHUP ----------------------------------------------------------------------------------
cp epdd.toml good.toml
printf '[[engine]\nname = "x"\n' >> epdd.toml
kill -HUP "$served"
for _ in $(seq 1 600); do grep -q "keeping the configuration in use" daemon.log && break; sleep 0.1; done
grep -q "epdd.toml:[0-9]*:[0-9]*: .*keeping the configuration in use" daemon.log || fail "no located error for the broken configuration"
kill -0 "$served" || fail "the daemon died of a broken configuration"
after_bad=$("$epdd" submit analyse tactics.epd --config good.toml --engine fake --depth 3)
wait_for "select state = 'finished' from jobs where id = $after_bad" 30
# An engine added: started; the engines whose configuration did not change keep their processes.
engine_pids() { pgrep -P "$served" -f "$1" | sort | tr '\n' ' '; }
fake_pids=$(engine_pids "$fake")
sf_pids=$(engine_pids /usr/games/stockfish)
[ -n "$fake_pids" ] && [ -n "$sf_pids" ] || fail "no engine processes before SIGHUP: fake '$fake_pids', stockfish '$sf_pids'"
# with_sf2 HASH: the configuration with a third engine, sf2 (Stockfish, Hash HASH), sent SIGHUP;
# returns when sf2 has started with it, and an analysis on sf2 has finished.
with_sf2() {
  config epdd.toml "[[engine]]
name = \"sf2\"
command = \"/usr/games/stockfish\"
options = { Threads = 1, Hash = $1 }"
  kill -HUP "$served"
  for _ in $(seq 1 600); do grep -q "engine sf2: Stockfish .*(Hash=$1, " daemon.log && break; sleep 0.1; done
  grep -q "engine sf2: Stockfish .*(Hash=$1, Threads=1; program xxh64 [0-9a-f]*, args \\[\\])" daemon.log ||
    fail "sf2 did not start with Hash=$1"
  local job
  job=$("$epdd" submit analyse tactics.epd --config epdd.toml --engine sf2 --nodes 5000)
  wait_for "select state = 'finished' from jobs where id = $job" 60
}
with_sf2 32
grep -q "engine fake: unchanged, kept running" daemon.log || fail "SIGHUP did not keep the unchanged engine fake"
[ "$(engine_pids "$fake")" = "$fake_pids" ] || fail "SIGHUP restarted the unchanged engine fake: $fake_pids, now $(engine_pids "$fake")"
sf_and_sf2=$(engine_pids /usr/games/stockfish)
for p in $sf_pids; do case " $sf_and_sf2" in *" $p "*) ;; *) fail "SIGHUP restarted the unchanged engine stockfish (pid $p)";; esac; done
# A changed engine (sf2's Hash) is restarted with its new options; the others are kept.
with_sf2 64
[ "$(engine_pids "$fake")" = "$fake_pids" ] || fail "the second SIGHUP restarted the unchanged engine fake"
# An engine that could not start (its program refuses to run until a file "ready" is there) is
# started by the next reload, though nothing of its configuration or program changed: only an
# engine that runs is kept.
printf '#!/bin/sh\n[ -e "%s/ready" ] || exit 3\nexec "%s"\n' "$PWD" "$fake" > late.sh
chmod +x late.sh
config epdd.toml "[[engine]]
name = \"late\"
command = \"$PWD/late.sh\""
kill -HUP "$served"
for _ in $(seq 1 600); do grep -q "engine late: cannot be started" daemon.log && break; sleep 0.1; done
grep -q "engine late: cannot be started" daemon.log || fail "the engine late that cannot start was not said"
touch ready
kill -HUP "$served"
for _ in $(seq 1 600); do grep -q "engine late: FakeEngine" daemon.log && break; sleep 0.1; done
grep -q "engine late: FakeEngine" daemon.log || fail "a reload did not start the engine late once it could run"

# --- SIGTERM during a search -------------------------------------------------------------------
printf 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "quiet";\n' > one.epd
long=$("$epdd" submit analyse one.epd --config epdd.toml --engine stockfish --movetime 60000)
wait_for "select count(*) = 1 from items where job = $long and lease_owner is not null" 30
sleep 1
children=$(pgrep -P "$served" | tr '\n' ' ')
[ -n "$children" ] || fail "no engine children"
start_ns=$(date +%s%N)
kill -TERM "$served"
status=0
wait "$served" || status=$?
elapsed_ms=$(( ($(date +%s%N) - start_ns) / 1000000 ))
[ "$status" = 0 ] || fail "exit status $status after SIGTERM"
echo "SIGTERM to exit: $elapsed_ms ms (deadline 2000 ms)"
[ "$elapsed_ms" -lt 5000 ] || fail "took $elapsed_ms ms to stop with a 2 s deadline"
for c in $children; do kill -0 "$c" 2>/dev/null && fail "engine process $c left behind"; done
[ "$(q "select state || '/' || coalesce(lease_owner, 'none') from items where job = $long")" = "pending/none" ] ||
  fail "the stopped search's item was not put back"
grep -q "deadline passed: stopping 1 search" daemon.log || fail "the log does not say the search was stopped"
exactly_once
echo "PASS"
