#!/usr/bin/env bash
# An idle daemon costs the database almost nothing (issue 18): after its job is finished, a
# daemon of 8 workers polling every 100 ms writes no row, and every statement it runs is a
# read: no INSERT, UPDATE or DELETE, no lock all claims share (pg_advisory_xact_lock). Runs
# under pg_virtualenv with pg_stat_statements loaded (the ctest wraps it:
# -o shared_preload_libraries=pg_stat_statements), which lists the statements run.
#   pg_idle_test.sh EPDD FAKE_ENGINE SHARED_DATA
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
data=$3
[ -n "${PGHOST:-}" ] || { echo "no PostgreSQL cluster (PGHOST unset): run under pg_virtualenv -v 15" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2> /dev/null || true; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"
psql -Xqc "CREATE DATABASE epdd_idle_test" > /dev/null
psql -Xqc "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" postgres > /dev/null ||
  fail "pg_stat_statements is not loaded (pg_virtualenv -o shared_preload_libraries=pg_stat_statements)"
store=postgresql:///epdd_idle_test
cat > epdd.toml <<TOML
[store]
location = "$store"
[daemon]
poll_ms = 100
lease_seconds = 3
[logging]
level = "info"
file = "epdd.log"
[[engine]]
name = "fake"
command = "$fake"
instances = 8
TOML
"$epdd" serve --config epdd.toml 2> serve.err &
daemon=$!
for _ in $(seq 1 600); do grep -q "engine fake:" epdd.log 2> /dev/null && break; sleep 0.1; done
head -20 "$data/suites/wac.epd" > in.epd
job=$("$epdd" submit analyse in.epd --config epdd.toml --engine fake --depth 1 -o out.epd)
for _ in $(seq 1 300); do
  [ "$(psql -XAtqc "select state from jobs where id = $job" epdd_idle_test)" = finished ] && break
  sleep 0.1
done
[ "$(psql -XAtqc "select state from jobs where id = $job" epdd_idle_test)" = finished ] || fail "job $job did not finish"
# Finished is not idle: the daemon still delivers the output (a claim and a row written). Idle
# starts when the store says delivered and the output is there.
for _ in $(seq 1 300); do
  [ "$(psql -XAtqc "select delivered from jobs where id = $job" epdd_idle_test)" = 1 ] && [ -s out.epd ] && break
  sleep 0.1
done
[ "$(psql -XAtqc "select delivered from jobs where id = $job" epdd_idle_test)" = 1 ] || fail "job $job was not delivered"
# A backend flushes its statistics some time after its transactions (PostgreSQL 15 holds them up to
# a second, longer on a loaded machine): wait until the rows written stop changing, as read.
stats="select xact_commit + xact_rollback, tup_inserted + tup_updated + tup_deleted from pg_stat_database
  where datname = 'epdd_idle_test'"
settled=0 last=
for _ in $(seq 1 120); do
  now=$(psql -XAtqc "$stats" postgres)
  [ -n "$last" ] && [ "${now##*|}" = "${last##*|}" ] && settled=$((settled + 1)) || settled=0
  [ "$settled" -ge 3 ] && break
  last=$now
  sleep 0.5
done
[ "$settled" -ge 3 ] || fail "the rows written never settled after the delivery (last read: $now)"

# From another database: the test's own statements do not count.
psql -XAtqc "select pg_stat_statements_reset()" postgres > /dev/null
before=$(psql -XAtqc "$stats" postgres)
sleep 5
after=$(psql -XAtqc "$stats" postgres)
kill -0 "$daemon" || fail "the daemon is gone: $(cat serve.err)"
statements=$(psql -XAtqc "select calls || ' ' || regexp_replace(query, '\s+', ' ', 'g') from pg_stat_statements s
  join pg_database d on d.oid = s.dbid where d.datname = 'epdd_idle_test' order by calls desc" postgres)
kill -TERM "$daemon"
wait "$daemon" || true

transactions=$(( ${after%%|*} - ${before%%|*} ))
written=$(( ${after##*|} - ${before##*|} ))
echo "idle 5 s, 8 workers polling every 100 ms: $transactions transactions, $written rows written; statements:"
echo "$statements" | sed 's/^/  /'
[ "$transactions" -gt 0 ] || fail "no transaction at all: the daemon did not poll (or the statistics were not read)"
[ "$written" = 0 ] || fail "$written rows written while idle"
if echo "$statements" | grep -Eiq '(^[0-9]+ (with .*)?(insert|update|delete) )|advisory_xact_lock'; then
  fail "an idle daemon ran a write or took the claim lock (above)"
fi
echo "PASS"
