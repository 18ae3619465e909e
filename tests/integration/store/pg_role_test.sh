#!/usr/bin/env bash
# The database roles of docs/scaling.md (issue 18): examples/postgresql_roles.sql run as it is,
# the schema created by the owner role, then a daemon and submit/status/cancel/results as the
# worker role, which has only the rights that file grants: the job completes with the output of
# a one-shot SQLite run, the worker is refused DDL, DELETE and TRUNCATE, and its password (given
# by ~/.pgpass, a service file, PGPASSWORD, and once inside the URL) is never shown. Runs inside
# pg_virtualenv (the ctest wraps it; PGHOST, PGPORT, PGUSER and PGPASSWORD are its superuser's).
#   pg_role_test.sh EPDD FAKE_ENGINE SHARED_DATA SOURCE_DIR [ROLES_SQL]
# ROLES_SQL (default SOURCE_DIR/examples/postgresql_roles.sql) tries another file, e.g. one with a
# GRANT left out, to see what it breaks.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -n "${PGHOST:-}" ] || fail "no PostgreSQL cluster (PGHOST unset): run under pg_virtualenv -v 15"
epdd=$(realpath "$1")
fake=$(realpath "$2")
data=$(realpath "$3")
src=$(realpath "$4")
roles_sql=$(realpath "${5:-$src/examples/postgresql_roles.sql}")
work=$(mktemp -d)
daemon=
trap '[ -z "$daemon" ] || kill -9 "$daemon" 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"

# docs/scaling.md shows the statements of the file this test runs (comments aside), in order.
grep -v -e '^--' -e '^$' "$src/examples/postgresql_roles.sql" > statements.sql
awk '/^```sql$/ { on = 1; next } /^```$/ { on = 0 } on' "$src/docs/scaling.md" | grep -v -e '^--' -e '^$' |
  grep -Fx -f statements.sql > shown.sql || true
cmp -s statements.sql shown.sql || { diff statements.sql shown.sql >&2 || true; fail "docs/scaling.md does not show the statements of examples/postgresql_roles.sql"; }

# The superuser's session, as pg_virtualenv set it up; epdd never runs with it.
super() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
owner_pw="owner-$RANDOM-$RANDOM-pw"
worker_pw="worker-$RANDOM-$RANDOM-pw"
super -f "$roles_sql" > /dev/null
super -c "ALTER ROLE epdd_owner PASSWORD '$owner_pw'" -c "ALTER ROLE epdd_worker PASSWORD '$worker_pw'"
host=$PGHOST
port=$PGPORT
unset PGUSER PGPASSWORD PGDATABASE
# As one of the two roles: `as_role ROLE PASSWORD COMMAND...` (PGPASSWORD for this command only).
as_role() { local role=$1 pw=$2; shift 2; PGUSER=$role PGPASSWORD=$pw PGDATABASE=epdd "$@"; }

# The owner creates the schema: its first epdd command on the database.
as_role epdd_owner "$owner_pw" "$epdd" status --store "postgresql://epdd_owner@$host:$port/epdd" > owner_status.txt
tables=$(as_role epdd_owner "$owner_pw" psql -X -Atc "SELECT string_agg(tablename, ' ' ORDER BY tablename) FROM pg_tables WHERE schemaname = 'public' AND tableowner = 'epdd_owner'")
case " $tables " in *" jobs "*" items "* | *" items "*" jobs "*) ;; *) fail "the owner did not create the schema: tables '$tables'" ;; esac
echo "schema created by epdd_owner: $tables"

# The worker's password three ways: ~/.pgpass (the daemon), a service file (submit), PGPASSWORD.
printf '%s:%s:epdd:epdd_worker:%s\n' "$host" "$port" "$worker_pw" > pgpass
chmod 600 pgpass
printf '[epdd]\nhost=%s\nport=%s\ndbname=epdd\nuser=epdd_worker\npassword=%s\n' "$host" "$port" "$worker_pw" > services
chmod 600 services
url="postgresql://epdd_worker@$host:$port/epdd"
cat > epdd.toml <<TOML
[store]
location = "$url?application_name=epdd-role-test"
[daemon]
lease_seconds = 4
poll_ms = 100
stop_deadline_seconds = 2
[logging]
level = "debug"
file = "daemon.log"
[[engine]]
name = "fake"
command = "$fake"
instances = 2
TOML
head -30 "$data/suites/wac.epd" > in.epd
"$epdd" analyse in.epd --config epdd.toml --engine fake --movetime 10 --store ref.db -q -o ref.epd

PGPASSFILE=$work/pgpass "$epdd" serve --config epdd.toml > daemon.out 2>&1 &
daemon=$!
job=$(PGSERVICEFILE=$work/services "$epdd" submit analyse in.epd --store "postgresql://?service=epdd" --engine fake \
  --movetime 10 2> submit.err) || { cat submit.err daemon.out >&2; fail "submit as epdd_worker failed"; }
echo "job $job submitted as epdd_worker (service file)"
state=
for _ in $(seq 1 300); do
  state=$(as_role epdd_worker "$worker_pw" "$epdd" status "$job" --store "$url" 2>&1 | tee status.txt |
    awk -v job="$job" '$1 == job { print $3; exit }') || true
  [ "$state" = finished ] && break
  kill -0 "$daemon" 2>/dev/null || { cat daemon.out >&2; fail "the daemon (epdd_worker) died"; }
  sleep 0.1
done
if [ "$state" != finished ]; then cat status.txt daemon.out >&2; fail "job $job is '$state', not finished"; fi
as_role epdd_worker "$worker_pw" "$epdd" status --store "$url" > status_all.txt
# Once with the password in the URL: it must not come back out.
"$epdd" status --store "postgresql://epdd_worker:$worker_pw@$host:$port/epdd" > status_url.txt 2>&1
as_role epdd_worker "$worker_pw" "$epdd" results "$job" --store "$url" -o out.epd 2> results.err
cmp out.epd ref.epd || fail "the job's output differs from a one-shot SQLite run's"
kill -TERM "$daemon"
wait "$daemon" || fail "the daemon exited with status $?"
daemon=
grep -q "job $job: finished" daemon.log || fail "daemon.log does not say job $job finished"
echo "job $job finished by a daemon running as epdd_worker; output equals the SQLite run's"
# cancel, as the worker, of a job no daemon runs now.
head -5 in.epd > second.epd
second=$(as_role epdd_worker "$worker_pw" "$epdd" submit analyse second.epd --store "$url" --engine fake --depth 3)
as_role epdd_worker "$worker_pw" "$epdd" cancel "$second" --store "$url" > cancel.txt 2>&1 || fail "cancel as epdd_worker: $(cat cancel.txt)"
as_role epdd_worker "$worker_pw" "$epdd" status --store "$url" > status_cancel.txt
grep -qE "^ +$second +analyse +cancelled" status_cancel.txt || fail "job $second is not cancelled: $(cat status_cancel.txt)"
echo "job $second cancelled by epdd_worker"

# The worker is refused what epdd never does as it. `refused SQL`: PostgreSQL's own refusal.
refused() {
  local out
  if out=$(as_role epdd_worker "$worker_pw" psql -X -v ON_ERROR_STOP=1 -Atc "$1" 2>&1); then
    fail "epdd_worker may: $1"
  fi
  case $out in
    *"permission denied"* | *"must be owner"*) echo "refused: $1" ;;
    *) fail "'$1' failed otherwise than by a refusal: $out" ;;
  esac
}
refused "CREATE TABLE intruder (x int)"
refused "CREATE TEMP TABLE intruder (x int)"
refused "DROP TABLE cache"
refused "ALTER TABLE jobs ADD COLUMN x int"
refused "TRUNCATE items"
refused "DELETE FROM cache"
refused "CREATE INDEX intruder ON items (result)"
refused "CREATE FUNCTION intruder() RETURNS int LANGUAGE sql AS 'SELECT 1'"
refused "CREATE SCHEMA intruder"
refused "CREATE ROLE intruder"
# ... and so is epdd purge (DELETE, VACUUM), which the owner runs.
if as_role epdd_worker "$worker_pw" "$epdd" purge --store "$url" --older-than 0h > purge_worker.txt 2>&1; then
  fail "epdd purge as epdd_worker succeeded"
fi
grep -q "permission denied" purge_worker.txt || fail "purge as epdd_worker: $(cat purge_worker.txt)"
as_role epdd_owner "$owner_pw" "$epdd" purge --store "postgresql://epdd_owner@$host:$port/epdd" --older-than 0h > purge_owner.txt 2>&1 ||
  fail "purge as epdd_owner: $(cat purge_owner.txt)"
[ "$(as_role epdd_owner "$owner_pw" psql -X -Atc "SELECT count(*) FROM jobs")" = 0 ] || fail "the owner's purge left jobs"
echo "epdd purge: refused to epdd_worker, done by epdd_owner"

# A table added by a later upgrade is the owner's too: the worker gets its rights with no GRANT.
as_role epdd_owner "$owner_pw" psql -X -q -v ON_ERROR_STOP=1 -c "CREATE TABLE later_upgrade (x int)"
as_role epdd_worker "$worker_pw" psql -X -q -v ON_ERROR_STOP=1 -c "INSERT INTO later_upgrade VALUES (1)" \
  -c "UPDATE later_upgrade SET x = 2" > /dev/null || fail "no rights on a table the owner adds later"

# The passwords appear nowhere epdd writes.
for pw in "$worker_pw" "$owner_pw"; do
  if grep -rlF -- "$pw" daemon.log daemon.out submit.err status.txt status_all.txt status_url.txt results.err \
    cancel.txt status_cancel.txt owner_status.txt purge_worker.txt purge_owner.txt; then
    fail "a password is shown in the files above"
  fi
done
grep -qF "store postgresql://epdd_worker@$host:$port/epdd?application_name" daemon.log ||
  fail "the daemon's log does not name its store (without the password)"
grep -qE "^ +$job +analyse +finished" status_url.txt || fail "status with the password in the URL: $(cat status_url.txt)"
echo "PASS: epdd_worker ran the daemon, submit, status and results with only the documented rights"
