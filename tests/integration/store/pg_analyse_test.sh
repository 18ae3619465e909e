#!/usr/bin/env bash
# Two `epdd analyse` processes on one file and one PostgreSQL store (issue 18): both finish, the
# job is done once (each position searched once: the cache's max searches is 1), and both
# outputs equal the output of the same command on an SQLite store. Runs inside pg_virtualenv
# (the ctest wraps it), which gives a throwaway cluster.
#   pg_analyse_test.sh EPDD SHARED_DATA
set -euo pipefail
epdd=$1
data=$2
[ -n "${PGHOST:-}" ] || { echo "no PostgreSQL cluster (PGHOST unset): run under pg_virtualenv -v 15" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -40 "$data/suites/wac.epd" > "$work/in.epd"
psql -qc "CREATE DATABASE epdd_analyse_test" > /dev/null
url=postgresql:///epdd_analyse_test
"$epdd" analyse "$work/in.epd" --store "$url" --nodes 20000 -q -o "$work/pg1.epd" & one=$!
"$epdd" analyse "$work/in.epd" --store "$url" --nodes 20000 -q -o "$work/pg2.epd" & two=$!
wait $one
wait $two
"$epdd" analyse "$work/in.epd" --store "$work/sqlite.db" --nodes 20000 -q -o "$work/sqlite.epd"
cmp "$work/pg1.epd" "$work/sqlite.epd"
cmp "$work/pg2.epd" "$work/sqlite.epd"
counts=$(psql -Atc "SELECT count(*) || ' ' || max(searches) FROM cache" epdd_analyse_test)
jobs=$(psql -Atc "SELECT count(*) || ' ' || min(state) || ' ' || sum(done) FROM jobs" epdd_analyse_test)
[ "$counts" = "40 1" ] || { echo "cache: expected '40 1' (entries, max searches), got '$counts'" >&2; exit 1; }
[ "$jobs" = "1 finished 40" ] || { echo "jobs: expected '1 finished 40', got '$jobs'" >&2; exit 1; }
echo "two processes, one PostgreSQL store: 40 positions searched once each, outputs equal SQLite's"
