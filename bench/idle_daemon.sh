#!/usr/bin/env bash
# An idle `epdd serve` (issue 7, point 5): CPU and resident memory of the daemon process itself
# (its engines are other processes, excluded) while it has nothing to do but watch the store and
# the spool directory, with Stockfish and a second engine started. Targets: under 1% of one core,
# under 30 MB resident.
#   bench/idle_daemon.sh EPDD FAKE_ENGINE [SECONDS]   (default 60; CI runs it for 10)
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
seconds=${3:-60}
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
cat > epdd.toml <<TOML
[daemon]
store = "epdd.db"
[spool]
directory = "spool"
[logging]
level = "info"
file = "epdd.log"
[[engine]]
name = "stockfish"
command = "/usr/games/stockfish"
options = { Threads = 1, Hash = 16 }
[[engine]]
name = "fake"
command = "$fake"
TOML
"$epdd" serve --config epdd.toml 2> serve.err &
pid=$!
for _ in $(seq 1 100); do grep -q "engine fake:" epdd.log 2>/dev/null && break; sleep 0.1; done
sleep 2  # settled
ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat"; }  # utime + stime
hz=$(getconf CLK_TCK)
t0=$(ticks)
start=$(date +%s%N)
sleep "$seconds"
t1=$(ticks)
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
rss_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid"
cpu=$(awk -v t=$((t1 - t0)) -v hz="$hz" -v ms="$elapsed_ms" 'BEGIN { printf "%.3f", 100 * t / hz / (ms / 1000) }')
printf '%-28s %12s %12s\n' "idle epdd serve, ${seconds} s" "CPU %" "RSS MB (peak)"
printf '%-28s %12s %12s\n' "measured" "$cpu" "$(awk -v r="$rss_kb" -v h="$hwm_kb" 'BEGIN { printf "%.1f (%.1f)", r / 1024, h / 1024 }')"
printf '%-28s %12s %12s\n' "target" "< 1" "< 30"
awk -v c="$cpu" 'BEGIN { exit !(c < 1.0) }' || { echo "FAIL: ${cpu}% CPU while idle" >&2; exit 1; }
[ "$rss_kb" -lt $((30 * 1024)) ] || { echo "FAIL: ${rss_kb} kB resident while idle" >&2; exit 1; }
echo PASS
