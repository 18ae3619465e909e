#!/usr/bin/env bash
# A daemon's analyse job says what it changed of a suite's keys as the one-shot command does
# (issue 39, item 4: a suite dropped into the spool came out with bm Rb7 where it had bm Rxb2 and
# a dm removed, and the log, status, results and outbox said nothing). The same file through the
# spool and through submit: the daemon's log line of the job, `status`, `results` (stderr) and
# the spool's outbox/NAME.report.txt have "of the input's operations: 1 dm removed, 1 bm changed",
# the words of `epdd analyse`; keep_keys in a sidecar keeps them, and then nothing is said.
#
#   keys_daemon_test.sh EPDD FAKE_ENGINE
source "$(dirname "$0")/lib.sh" "$1" "$2"
# The fake engine plays captures first: Nxe5 here, never a mate.
cat > keys.epd <<'EPD'
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 bm Bb5 Ng5; dm 3; id "keys";
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 id "plain";
EPD
words="of the input's operations: 1 dm removed, 1 bm changed"
"$epdd" analyse keys.epd --engine "$fake" --depth 5 --store ref.db -o ref.epd 2> ref.err
grep -qF "epdd analyse: $words" ref.err || fail "the one-shot command's words changed: $(cat ref.err)"

config epdd.toml
mkdir -p spool/inbox
cp keys.epd spool/inbox/keys.epd
cp keys.epd spool/inbox/kept.epd
printf 'keep_keys = true\n' > spool/inbox/kept.toml
serve epdd.toml daemon.log; daemon=$served
job=$("$epdd" submit analyse keys.epd --config epdd.toml --engine fake --depth 5 -o "$work/submitted.epd")
for f in outbox/keys.epd outbox/kept.epd done/keys.epd done/kept.epd; do
  for _ in $(seq 1 600); do [ -e "spool/$f" ] && break; sleep 0.1; done
  [ -e "spool/$f" ] || { ls -R spool >&2; fail "spool/$f is missing"; }
done
wait_for "select count(*) = 3 from jobs where state = 'finished' and delivered = 1" 120
kill -TERM "$daemon"; wait "$daemon" || true

cmp spool/outbox/keys.epd ref.epd || fail "the spool's output differs from the one-shot command's"
cmp submitted.epd ref.epd || fail "the submitted job's output differs from the one-shot command's"
[ "$(cat spool/outbox/keys.report.txt)" = "keys.epd: $words" ] ||
  fail "outbox/keys.report.txt: $(cat spool/outbox/keys.report.txt 2>&1)"
[ ! -e spool/outbox/kept.report.txt ] || fail "keep_keys changed nothing, yet a report says: $(cat spool/outbox/kept.report.txt)"
grep -q 'bm Bb5 Ng5; .*dm 3; id "keys"; pm Nxe5;' spool/outbox/kept.epd || fail "keep_keys in a sidecar: $(head -1 spool/outbox/kept.epd)"
# The log: the job's line for each job that changed keys, none for the one that kept them.
[ "$(grep -c "finished: $words" daemon.log)" = 2 ] || fail "the log does not say it once a job: $(grep finished daemon.log)"
"$epdd" status --config epdd.toml > status.txt
[ "$(grep -cF "$words" status.txt)" = 2 ] || fail "status does not show it: $(cat status.txt)"
# Each spool input where it is now, in done/ (issue 39, item 11: status named it in inbox/).
grep -qE "spool/done/keys\.epd$" status.txt && grep -qE "spool/done/kept\.epd$" status.txt ||
  fail "status does not name the inputs in done/: $(cat status.txt)"
! grep -q "/inbox/" status.txt || fail "status names an input in inbox/: $(cat status.txt)"
"$epdd" results "$job" --config epdd.toml -o again.epd 2> results.err
grep -qF "epdd results: $words" results.err || fail "results does not say it: $(cat results.err)"
echo "a daemon's analyse job says what it changed of the input's keys, as the one-shot command does"
