# Shared by the daemon's integration tests: a temporary directory, a configuration with the
# fake engine and Stockfish, a daemon started and stopped, and store queries.
#   source lib.sh EPDD FAKE_ENGINE
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; [ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
echo "work directory: $work"

fail() { echo "FAIL: $*" >&2; exit 1; }

# config FILE [extra TOML]: a daemon configuration on ./epdd.db (or $STORE_LOCATION: a
# PostgreSQL URL) with a spool in ./spool; $FAKE_TOML: more keys of the fake engine's table.
config() {
  cat > "$1" <<TOML
[store]
location = "${STORE_LOCATION:-epdd.db}"
[daemon]
lease_seconds = 4
poll_ms = 100
stop_deadline_seconds = 2
[spool]
directory = "spool"
settle_seconds = 1
engine = "fake"
depth = 5
[logging]
level = "debug"
[[engine]]
name = "fake"
command = "$fake"
instances = 2
${FAKE_TOML:-}
[[engine]]
name = "stockfish"
command = "/usr/games/stockfish"
options = { Threads = 1, Hash = 16 }
${2:-}
TOML
}

# serve CONFIG LOG: starts a daemon in the background; its pid in $served.
serve() {
  "$epdd" serve --config "$1" > "$2" 2>&1 &
  served=$!
  for _ in $(seq 1 600); do grep -q "engine stockfish:" "$2" 2>/dev/null && return 0; sleep 0.1; done
  cat "$2" >&2
  fail "the daemon did not start"
}

q() { sqlite3 -batch -noheader -cmd ".timeout 10000" "${STORE:-epdd.db}" "$1"; }

# wait_for CONDITION_SQL SECONDS: until the query prints 1.
wait_for() {
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    [ "$(q "$1" 2>/dev/null || true)" = 1 ] && return 0
    sleep 0.1
  done
  fail "timed out waiting for: $1"
}

# job_state ID
job_state() { q "select state from jobs where id = $1"; }

# No position was searched twice: every cache entry has one search.
exactly_once() {
  local max total distinct
  max=$(q "select coalesce(max(searches), 0) from cache")
  total=$(q "select coalesce(sum(searches), 0) from cache")
  distinct=$(q "select count(distinct key) from items")
  [ "$max" -le 1 ] || fail "a position was searched $max times"
  echo "searches $total for $distinct distinct positions"
}
