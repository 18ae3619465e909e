#!/usr/bin/env bash
# The bridge overhead of a whole suite run: `epdd suite SUITE --movetime MS --concurrency C`
# against the ideal wall time (records x movetime / C), measured in the same run. Everything
# epdd adds shows up in the difference: engine start and handshake, ucinewgame and isready per
# position, the position and go commands, reading the info lines, checking the output, the
# store's commit per result, progress and the report. Target (issue 6): within 3% of ideal.
#
#   bench/suite_bench.sh [EPDD] [SUITE] [MOVETIME_MS] [CONCURRENCY] [RUNS]
# Defaults: build/daemon/epdd, ../shared/data/suites/wac.epd, 100, 2, 3 runs. Each run uses a
# fresh store (no cache hits). Run it on an otherwise idle machine with at least C cores.
set -euo pipefail
cd "$(dirname "$0")/.."
epdd=$(realpath "${1:-build/daemon/epdd}")
suite=$(realpath "${2:-../shared/data/suites/wac.epd}")
movetime=${3:-100}
concurrency=${4:-2}
runs=${5:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

records=$(grep -c -v -e '^[[:space:]]*$' -e '^#' "$suite")
ideal_ms=$(( (records * movetime + concurrency - 1) / concurrency ))
echo "suite: $suite ($records records), movetime $movetime ms, concurrency $concurrency, $(nproc) cores"
echo "ideal wall time: $records x $movetime ms / $concurrency = $ideal_ms ms"
printf '%-6s %12s %12s %10s %14s\n' run "wall ms" "ideal ms" overhead "engine ms/pos"
for run in $(seq 1 "$runs"); do
  rm -f "$work"/s.db*
  start=$(date +%s%N)
  "$epdd" suite "$suite" --movetime "$movetime" --concurrency "$concurrency" --store "$work/s.db" -q \
    --json "$work/run.json" > /dev/null || true
  end=$(date +%s%N)
  wall_ms=$(( (end - start) / 1000000 ))
  # The engines' own time per position (what they spent searching), from the report.
  engine_ms=$(sed -n 's/^ *"time_ms": \([0-9]*\),\{0,1\}$/\1/p' "$work/run.json" | tail -1)
  overhead=$(awk -v w="$wall_ms" -v i="$ideal_ms" 'BEGIN { printf "%+.2f%%", (w - i) * 100 / i }')
  per_pos=$(awk -v t="${engine_ms:-0}" -v n="$records" 'BEGIN { printf "%.1f", t / n }')
  printf '%-6s %12s %12s %10s %14s\n' "$run" "$wall_ms" "$ideal_ms" "$overhead" "$per_pos"
done
