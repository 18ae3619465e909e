#!/usr/bin/env bash
# Annotation jobs in the store and the daemon (issue 16, "The store and the daemon"):
# - `epdd submit annotate GAMES.pgn` with annotate's settings; a daemon runs it with two engine
#   instances (two games at once); `epdd status` shows it; `epdd results` writes the PGN (and
#   --json the summary), equal to the one-shot command's output on the same engine;
# - a .pgn dropped into the spool with a sidecar (kind's settings as TOML) comes out annotated in
#   outbox/ with its summaries; a sidecar with an unknown annotate value is refused with its line;
#   the same games as PGC (.pgc) come out as the same annotated PGN (outbox/NAME.pgn).
#
#   daemon_test.sh EPDD FAKE_ENGINE SHARED_DATA
here=$(cd "$(dirname "$0")" && pwd)
data=$(realpath "$3")/pgn
# shellcheck source=../daemon/lib.sh
source "$here/../daemon/lib.sh" "$1" "$2"

config epdd.toml
mkdir -p spool/inbox
awk '/^\[Event /{n++} n<=6' "$data/twic0920.pgn" > games.pgn

# The one-shot command first, on a store of its own: the reference.
"$epdd" annotate games.pgn --config epdd.toml --engine fake --depth 3 --judge cp:40,90,250 --store ref.db \
  -o ref.pgn --json ref.json -q

serve epdd.toml daemon.log
job=$("$epdd" submit annotate games.pgn --config epdd.toml --engine fake --depth 3 --judge cp:40,90,250 \
      -o "$PWD/submitted.pgn" --json "$PWD/submitted.json")
wait_for "select state = 'finished' and delivered = 1 from jobs where id = $job" 60
"$epdd" status "$job" --config epdd.toml | grep -q "annotate" || fail "status does not show the annotate job"
cmp ref.pgn submitted.pgn || fail "the daemon's annotation differs from the one-shot command's: $(diff ref.pgn submitted.pgn | head)"
cmp ref.json submitted.json || fail "the daemon's summary differs"
"$epdd" results "$job" --config epdd.toml -o results.pgn --json results.json 2> results.err ||
  fail "results: $(cat results.err)"
cmp ref.pgn results.pgn || fail "epdd results writes another PGN"
cmp ref.json results.json || fail "epdd results writes another summary"
"$epdd" submit annotate games.pgn --config epdd.toml --judge cp:90,40,250 2> bad.err && fail "submit took a bad --judge"
grep -q "judge" bad.err || fail "a bad --judge is not explained: $(cat bad.err)"

# The spool: a .pgn with a sidecar, and one whose sidecar has a bad value.
cp games.pgn spool/inbox/spooled.pgn.part
printf 'depth = 3\njudge = "cp:40,90,250"\n' > spool/inbox/spooled.toml
mv spool/inbox/spooled.pgn.part spool/inbox/spooled.pgn
"$epdd" convert games.pgn -o games.pgc 2> /dev/null
cp games.pgc spool/inbox/binary.pgc.part
printf 'depth = 3\njudge = "cp:40,90,250"\n' > spool/inbox/binary.toml
mv spool/inbox/binary.pgc.part spool/inbox/binary.pgc
cp games.pgn spool/inbox/typo.pgn
printf 'depth = 3\nvariation_plies = "many"\n' > spool/inbox/typo.toml
for f in outbox/spooled.pgn outbox/spooled.json outbox/spooled.report.txt done/spooled.pgn failed/typo.pgn.error \
         outbox/binary.pgn done/binary.pgc; do
  for _ in $(seq 1 300); do [ -e "spool/$f" ] && break; sleep 0.1; done
  [ -e "spool/$f" ] || { ls -R spool >&2; tail -20 daemon.log >&2; fail "spool/$f is missing"; }
done
cmp ref.pgn spool/outbox/spooled.pgn || fail "the spool's annotation differs from the one-shot command's"
cmp ref.pgn spool/outbox/binary.pgn || fail "the spool's annotation of the games as PGC differs: $(diff ref.pgn spool/outbox/binary.pgn | head -5)"
grep -q "typo.toml:2:.*variation_plies" spool/failed/typo.pgn.error || fail "typo.pgn.error: $(cat spool/failed/typo.pgn.error)"
# --evals-from-input only (issue 35): a job that searches nothing is run by a daemon that has
# no engine of the job's name (here one only the submitter's configuration knows, which could
# not even start), and gives the one-shot command's annotation of the same evaluations.
"$epdd" annotate ref.pgn --evals-from-input only --engine /nonexistent/engine --store only-ref.db -o only-ref.pgn -q ||
  fail "the one-shot --evals-from-input only failed"
cp epdd.toml submitter.toml
printf '[[engine]]\nname = "absent"\ncommand = "/nonexistent/engine"\n' >> submitter.toml
job=$("$epdd" submit annotate ref.pgn --config submitter.toml --engine absent --evals-from-input only -o "$PWD/only.pgn") ||
  fail "submit of an --evals-from-input only job"
wait_for "select state = 'finished' and delivered = 1 from jobs where id = $job" 60
cmp only-ref.pgn only.pgn || fail "the daemon's --evals-from-input only annotation differs: $(diff only-ref.pgn only.pgn | head -5)"

exactly_once
kill -TERM "$served"; wait "$served"
echo "annotate daemon test passed"
