#!/usr/bin/env bash
# Store throughput (issue 18, point 3): results committed per second through the store by
# `epdd serve` daemons whose engine answers at once (the fake engine at depth 1), so that the
# store's claim and commit are all that is measured. For 1, 4, 16 and 64 workers (engine
# instances) over 1, 2 and 4 daemons (W/D instances each; a combination with fewer workers than
# daemons is skipped), on an SQLite file and on PostgreSQL, side by side in one table.
#
# A configuration is one fresh store (a new SQLite file, a new PostgreSQL database) and one job:
# `epdd submit analyse` of POSITIONS distinct positions (the four FEN fields of every record of
# the shared suites, duplicates removed), so that the cache answers none. The daemons are started
# first and the job submitted once all are up. results/s is measured from the store: from the
# job's first claim (jobs.started_ms) to its last commit (the newest cache entry's created_ms),
# both in the database's clock. Each run is checked: the job finished, done = searches = total,
# every position searched once.
#
# Then the idle cost on PostgreSQL: 2 daemons of 16 workers each with nothing to do (one small job
# run and finished first), for IDLE_SECONDS: the database's transactions, rows written and WAL
# bytes per second over that time (pg_stat_database of the store's database, read from another
# one; the WAL position). Target: no row written (a read-only probe per poll, no write).
#
# Last, the engine case (issue 18): ENGINE_POSITIONS positions (default 60) analysed by
# /usr/games/stockfish (Threads 1) at --movetime 100 on one daemon, then on two daemons of one
# engine each, on PostgreSQL: the speed-up, first claim to last commit. Target >= 1.8x. 0: skip.
#
#   bench/store_bench.sh [EPDD] [FAKE_ENGINE] [POSITIONS] [IDLE_SECONDS] [ENGINE_POSITIONS]
# Defaults: build/cli/epdd, build/tests/fake_engine/fake_engine, 3000, 20, 60. Needs PostgreSQL 15's
# pg_virtualenv (postgresql-common): without PGHOST set, the script runs itself under
# `pg_virtualenv -t -v 15`, a throwaway cluster in a temporary directory. STORE_BENCH_WORKERS="16" STORE_BENCH_DAEMONS="1 2"
# (environment) run only those combinations. Takes 3 to 10 minutes. Target: >= 1,000 results/s
# on PostgreSQL at 16 workers.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PGHOST:-}" ]; then
  command -v pg_virtualenv > /dev/null || { echo "store_bench: pg_virtualenv not found (apt install postgresql-common postgresql-15)" >&2; exit 2; }
  exec pg_virtualenv -t -v 15 "$0" "$@"
fi
epdd=$(realpath "${1:-build/cli/epdd}")
fake=$(realpath "${2:-build/tests/fake_engine/fake_engine}")
positions=${3:-3000}
idle_seconds=${4:-20}
engine_positions=${5:-60}
data=$(realpath ../shared/data 2> /dev/null || realpath /work/shared/data)
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2> /dev/null || true; rm -rf "$work"' EXIT
die() { echo "store_bench: $*" >&2; exit 1; }

# The positions: the four FEN fields of each suite record, each once, in a temporary file.
awk -v n="$positions" 'NF >= 4 && $1 !~ /^#/ && !seen[$1 " " $2 " " $3 " " $4]++ && ++count <= n {
  print $1, $2, $3, $4 }' "$data"/suites/*.epd > "$work/positions.epd"
have=$(wc -l < "$work/positions.epd")
[ "$have" -eq "$positions" ] || die "only $have distinct positions in $data/suites (asked for $positions)"

# sql BACKEND STORE QUERY: one value from the store.
sql() {
  if [ "$1" = sqlite ]; then sqlite3 -batch -noheader -cmd ".timeout 10000" "$2" "$3"
  else psql -XAtqc "$3" "$2"; fi
}

# config FILE STORE ENGINE_TOML: a daemon's configuration with one [[engine]] table.
config() {
  cat > "$1" <<TOML
[store]
location = "$2"
[daemon]
lease_seconds = 30
poll_ms = 200
stop_deadline_seconds = 2
[logging]
level = "info"
file = "$1.log"
$3
TOML
}

# The fake engine with N instances; Stockfish, one instance.
fake_toml() { printf '[[engine]]\nname = "fake"\ncommand = "%s"\ninstances = %s\n' "$fake" "$1"; }
stockfish_toml() {
  printf '[[engine]]\nname = "stockfish"\ncommand = "/usr/games/stockfish"\noptions = { Threads = 1, Hash = 16 }\n'
}

# start_daemons DIR STORE DAEMONS HOST_PREFIX ENGINE_NAME ENGINE_TOML: daemon d runs as host
# HOST_PREFIXd (EPDD_HOST: one machine each); pids in $daemons; returns once every one is up.
start_daemons() {
  daemons=()
  for d in $(seq 1 "$3"); do
    config "$1/d$d.toml" "$2" "$6"
    EPDD_HOST="$4$d" "$epdd" serve --config "$1/d$d.toml" > "$1/d$d.err" 2>&1 &
    daemons+=($!)
  done
  for d in $(seq 1 "$3"); do
    for _ in $(seq 1 200); do grep -q "engine $5:" "$1/d$d.toml.log" 2> /dev/null && break; sleep 0.1; done
    grep -q "engine $5:" "$1/d$d.toml.log" || { cat "$1/d$d.err" >&2; die "daemon $d did not start"; }
  done
}

stop_daemons() {
  kill -TERM "${daemons[@]}"
  for pid in "${daemons[@]}"; do wait "$pid" || true; done
}

# run BACKEND WORKERS DAEMONS: prints results/s of one configuration.
run() {
  local backend=$1 workers=$2 ndaemons=$3 dir store job
  dir="$work/$backend-$workers-$ndaemons"
  mkdir -p "$dir"
  if [ "$backend" = sqlite ]; then store="$dir/epdd.db"
  else createdb "bench_${workers}_$ndaemons"; store="postgresql:///bench_${workers}_$ndaemons"; fi
  start_daemons "$dir" "$store" "$ndaemons" bench fake "$(fake_toml $((workers / ndaemons)))"
  job=$("$epdd" submit analyse "$work/positions.epd" --store "$store" --config "$dir/d1.toml" --engine fake \
    --depth 1 -o "$dir/out.epd")
  local deadline=$((SECONDS + 600))
  until [ "$(sql "$backend" "$store" "select state from jobs where id = $job")" = finished ]; do
    [ $SECONDS -lt $deadline ] || die "$backend, $workers workers, $ndaemons daemons: job $job not finished in 600 s"
    sleep 0.2
  done
  stop_daemons
  local check
  check=$(sql "$backend" "$store" "select total || ' ' || done || ' ' || searches || ' ' || failed from jobs where id = $job")
  [ "$check" = "$positions $positions $positions 0" ] ||
    die "$backend, $workers workers, $ndaemons daemons: total done searches failed = $check (expected $positions each, 0 failed)"
  [ "$(sql "$backend" "$store" "select max(searches) from cache")" = 1 ] || die "$backend: a position searched twice"
  [ "$(grep -c . "$dir/out.epd")" = "$positions" ] || die "$backend: the output has not $positions records"
  sql "$backend" "$store" "select (select max(created_ms) from cache) - started_ms from jobs where id = $job" |
    awk -v n="$positions" '{ printf "%.0f", n * 1000 / ($1 > 0 ? $1 : 1) }'
}

# idle_cost DAEMONS WORKERS SECONDS: the database's work while DAEMONS daemons of WORKERS workers
# each have nothing to do (after one small job, finished, so that there is a job to watch), from
# pg_stat_database (read from another database, so that reading does not count) and the WAL.
# Prints "transactions/s rows_written/s wal_bytes/s".
idle_cost() {
  local dir="$work/idle" db=bench_idle store
  mkdir -p "$dir"
  createdb "$db"
  store="postgresql:///$db"
  start_daemons "$dir" "$store" "$1" idle fake "$(fake_toml "$2")"
  head -20 "$work/positions.epd" > "$dir/small.epd"
  local job
  job=$("$epdd" submit analyse "$dir/small.epd" --store "$store" --config "$dir/d1.toml" --engine fake --depth 1 -o "$dir/out.epd")
  until [ "$(sql postgresql "$store" "select state from jobs where id = $job")" = finished ]; do sleep 0.2; done
  sleep 3  # settled: the daemons' statistics are flushed within a second
  local stats="select xact_commit + xact_rollback, tup_inserted + tup_updated + tup_deleted,
    pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') from pg_stat_database where datname = '$db'"
  local before after t0 t1
  before=$(psql -XAtqc "$stats" postgres); t0=$(date +%s%N)
  sleep "$3"
  after=$(psql -XAtqc "$stats" postgres); t1=$(date +%s%N)
  stop_daemons
  awk -F'|' -v b="$before" -v s=$(( (t1 - t0) / 1000000 )) '{
    split(b, x, "|"); printf "%.1f %.1f %.0f", ($1 - x[1]) * 1000 / s, ($2 - x[2]) * 1000 / s, ($3 - x[3]) * 1000 / s
  }' <<< "$after"
}

# engine_case DAEMONS: seconds from the first claim to the last commit of ENGINE_POSITIONS
# positions at --movetime 100 on DAEMONS daemons of one Stockfish each (Threads 1), PostgreSQL.
engine_case() {
  local n=$1 dir="$work/engine-$1" store job
  mkdir -p "$dir"
  createdb "bench_engine_$n"
  store="postgresql:///bench_engine_$n"
  start_daemons "$dir" "$store" "$n" engine stockfish "$(stockfish_toml)"
  head -n "$engine_positions" "$work/positions.epd" > "$dir/in.epd"
  job=$("$epdd" submit analyse "$dir/in.epd" --store "$store" --config "$dir/d1.toml" --engine stockfish \
    --movetime 100 -o "$dir/out.epd")
  until [ "$(sql postgresql "$store" "select state from jobs where id = $job")" = finished ]; do sleep 0.2; done
  stop_daemons
  [ "$(sql postgresql "$store" "select done || ' ' || searches from jobs where id = $job")" = "$engine_positions $engine_positions" ] ||
    die "engine case, $n daemons: not every position searched once"
  sql postgresql "$store" "select ((select max(created_ms) from cache) - started_ms) / 1000.0 from jobs where id = $job"
}

echo "store throughput: $positions distinct positions per job, fake engine at depth 1, $(nproc) cores," \
  "$(psql -XAtqc 'show server_version' postgres | cut -d' ' -f1) PostgreSQL on loopback, load $(cut -d' ' -f1-3 /proc/loadavg)"
# First the idle cost, on a cluster nothing else has used yet: the WAL position is the cluster's,
# and the autovacuum of the throughput runs' databases would write in it.
read -r tps rows wal <<< "$(idle_cost 2 16 "$idle_seconds")"
echo "idle: 2 daemons x 16 workers (poll 200 ms), one finished job, ${idle_seconds} s, PostgreSQL:"
printf '  %-28s %10s\n' "transactions/s" "$tps" "rows written/s" "$rows" "WAL bytes/s (the cluster's)" "$wal"
status=0
if awk -v r="$rows" 'BEGIN { exit !(r == 0) }'; then echo "target: no row written while idle: met"
else echo "target: no row written while idle: NOT met"; status=1; fi
echo

printf '%-8s %-8s %16s %16s\n' workers daemons "SQLite results/s" "PostgreSQL r/s"
pg16=0
for workers in ${STORE_BENCH_WORKERS:-1 4 16 64}; do
  for ndaemons in ${STORE_BENCH_DAEMONS:-1 2 4}; do
    [ "$workers" -ge "$ndaemons" ] || continue
    s=$(run sqlite "$workers" "$ndaemons")
    p=$(run postgresql "$workers" "$ndaemons")
    printf '%-8s %-8s %16s %16s\n' "$workers" "$ndaemons" "$s" "$p"
    if [ "$workers" = 16 ] && [ "$p" -gt "$pg16" ]; then pg16=$p; fi
  done
done
if [ "$pg16" -ge 1000 ]; then echo "target: >= 1,000 results/s on PostgreSQL at 16 workers: met ($pg16)"
else echo "target: >= 1,000 results/s on PostgreSQL at 16 workers: NOT met (best $pg16)"; status=1; fi

if [ "$engine_positions" -gt 0 ]; then
  echo
  one=$(engine_case 1)
  two=$(engine_case 2)
  echo "engine case: $engine_positions positions, Stockfish (Threads 1) at movetime 100, PostgreSQL:"
  printf '  %-28s %8.2f s\n' "1 daemon, 1 engine" "$one" "2 daemons, 1 engine each" "$two"
  speedup=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", a / b }')
  if awk -v x="$speedup" 'BEGIN { exit !(x >= 1.8) }'; then echo "target: 2 daemons >= 1.8x one: met (${speedup}x)"
  else echo "target: 2 daemons >= 1.8x one: NOT met (${speedup}x)"; status=1; fi
fi
exit $status
