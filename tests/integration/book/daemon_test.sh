#!/usr/bin/env bash
# Book jobs in the store and the daemon (issue 17, "A daemon job kind book"):
# - `epdd submit book A.pgn B.pgn` (several files, book settings); a daemon runs it; `epdd status`
#   shows it; its outputs (EPD, Polyglot, JSON) equal the one-shot command's on the same engine;
#   `epdd results` writes them again;
# - a .pgn dropped into the spool with a sidecar kind = "book" comes out as outbox/STEM.epd,
#   STEM.bin, STEM.report.txt and STEM.json; a sidecar with a bad book value is refused with its
#   line.
#
#   daemon_test.sh EPDD FAKE_ENGINE SHARED_DATA
here=$(cd "$(dirname "$0")" && pwd)
data=$(realpath "$3")/books
# shellcheck source=../daemon/lib.sh
source "$here/../daemon/lib.sh" "$1" "$2"

config epdd.toml
mkdir -p spool/inbox
head -400 "$data/2moves_v2.pgn" > one.pgn
sed -n 401,800p "$data/2moves_v2.pgn" > two.pgn

# The one-shot command first, on a store of its own: the reference.
"$epdd" book backsolve one.pgn two.pgn --config epdd.toml --engine fake --depth 3 --max-ply 3 --store ref.db \
  -o ref.epd --polyglot ref.bin --json ref.json -q

serve epdd.toml daemon.log
job=$("$epdd" submit book one.pgn two.pgn --config epdd.toml --engine fake --depth 3 --max-ply 3 \
      -o "$PWD/submitted.epd" --polyglot submitted.bin --json "$PWD/submitted.json")
wait_for "select state = 'finished' and delivered = 1 from jobs where id = $job" 60
"$epdd" status "$job" --config epdd.toml | grep -q "book" || fail "status does not show the book job"
cmp ref.epd submitted.epd || fail "the daemon's book differs from the one-shot command's: $(diff ref.epd submitted.epd | head)"
cmp ref.bin submitted.bin || fail "the daemon's Polyglot file differs (the relative --polyglot is made absolute by submit)"
"$epdd" results "$job" --config epdd.toml -o results.epd --polyglot results.bin 2> results.err || fail "results: $(cat results.err)"
cmp ref.epd results.epd || fail "epdd results writes another EPD"
cmp ref.bin results.bin || fail "epdd results writes another Polyglot file"
# A job made without --pgn/--polyglot: results renders them when asked for.
plain=$("$epdd" submit book one.pgn two.pgn --config epdd.toml --engine fake --depth 3 --max-ply 3)
wait_for "select state = 'finished' from jobs where id = $plain" 60
"$epdd" results "$plain" --config epdd.toml -o plain.epd --pgn plain.pgn --polyglot plain.bin 2> plain.err ||
  fail "results --pgn --polyglot of a job made without them: $(cat plain.err)"
cmp ref.bin plain.bin || fail "results --polyglot differs from the one-shot command's"
"$epdd" pgn check plain.pgn > /dev/null || fail "results --pgn: $("$epdd" pgn check plain.pgn)"
"$epdd" submit analyse one.pgn two.pgn --config epdd.toml 2> two.err && fail "submit analyse took two files"
grep -q "reads one file" two.err || fail "two files for analyse are not explained: $(cat two.err)"
"$epdd" submit book one.pgn --config epdd.toml --max-ply 0 2> bad.err && fail "submit took --max-ply 0"
grep -q "max-ply" bad.err || fail "a bad --max-ply is not explained: $(cat bad.err)"

# The spool: a .pgn with a book sidecar (its import relative to inbox/), and one whose sidecar has a
# bad value.
mkdir -p spool/inbox/extra
"$epdd" book leaves one.pgn --max-ply 3 -o leaves.epd 2> /dev/null
"$epdd" analyse leaves.epd --config epdd.toml --engine fake --depth 3 --store ref.db -o spool/inbox/extra/leaves.epd -q
cp one.pgn spool/inbox/spooled.pgn.part
printf 'kind = "book"\ndepth = 3\nmax_ply = 3\nimport = "extra/leaves.epd"\n' > spool/inbox/spooled.toml
mv spool/inbox/spooled.pgn.part spool/inbox/spooled.pgn
cp one.pgn spool/inbox/typo.pgn
printf 'kind = "book"\ndepth = 3\nmerge = "newest"\n' > spool/inbox/typo.toml
for f in outbox/spooled.epd outbox/spooled.bin outbox/spooled.json outbox/spooled.report.txt done/spooled.pgn \
         failed/typo.pgn.error; do
  for _ in $(seq 1 300); do [ -e "spool/$f" ] && break; sleep 0.1; done
  [ -e "spool/$f" ] || { ls -R spool >&2; tail -20 daemon.log >&2; fail "spool/$f is missing"; }
done
"$epdd" book backsolve one.pgn --config epdd.toml --engine fake --depth 3 --max-ply 3 --store ref.db -o one.epd -q
cmp one.epd spool/outbox/spooled.epd || fail "the spool's book differs from the one-shot command's"
grep -q '"leaves_imported": [1-9]' spool/outbox/spooled.json || fail "the sidecar's import was not read: $(head -c 600 spool/outbox/spooled.json)"
grep -q "typo.toml:3:.*merge" spool/failed/typo.pgn.error || fail "typo.pgn.error: $(cat spool/failed/typo.pgn.error)"
exactly_once
kill -TERM "$served"; wait "$served"
echo "book daemon test passed"
