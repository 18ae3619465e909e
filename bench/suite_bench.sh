#!/usr/bin/env bash
# The bridge overhead of a whole suite run: `epdd suite SUITE --movetime MS --concurrency C`
# against the ideal wall time (records x movetime / C), measured in the same run. Everything
# epdd adds shows up in the difference: engine start and handshake, ucinewgame and isready per
# position, the position and go commands, reading the info lines, checking the output, the
# store's claim and commit per result, progress and the report. Target (issue 13): within 2% of
# ideal.
#
# Each run also prints where the time per position went, from epdd's own debug log (one
# "timing" line per search, -v): the engine's search (go to bestmove, and the engine's own
# time), and ours: the claim of the item in the store, preparing the search (ucinewgame +
# isready, position), go to the first info line, after bestmove (checks), the hand-offs between
# threads, the commit (and progress); and the start (process start to the first go) and end
# (the last result to exit). Searches of mates end before movetime, so a run can even beat the
# "ideal"; the per-position figures say what each part costs either way.
#
#   bench/suite_bench.sh [EPDD] [SUITE] [MOVETIME_MS] [CONCURRENCY] [RUNS]
# Defaults: build/cli/epdd, ../shared/data/suites/wac.epd, 100, 2, 3 runs. Each run uses a
# fresh store (no cache hits). Run it on an otherwise idle machine with at least C cores: the
# load average is printed with each run.
set -euo pipefail
cd "$(dirname "$0")/.."
epdd=$(realpath "${1:-build/cli/epdd}")
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
for run in $(seq 1 "$runs"); do
  rm -f "$work"/s.db*
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s%N)
  TZ=UTC "$epdd" suite "$suite" --movetime "$movetime" --concurrency "$concurrency" --store "$work/s.db" -q -v \
    --json "$work/run.json" > /dev/null 2> "$work/log.txt" || true
  end=$(date +%s%N)
  wall_ms=$(( (end - start) / 1000000 ))
  overhead=$(awk -v w="$wall_ms" -v i="$ideal_ms" 'BEGIN { printf "%+.2f%%", (w - i) * 100 / i }')
  echo
  echo "run $run: wall $wall_ms ms, ideal $ideal_ms ms, overhead $overhead (load average before the run: $load)"
  # One "timing" line per search (key=ms); spdlog's timestamps (local time: TZ=UTC above) say
  # when the first and the last result came.
  awk -v start_ns="$start" -v wall="$wall_ms" -v c="$concurrency" -v movetime="$movetime" '
    function stamp(   t, parts) {  # "08:16:33.327]" to ms since midnight
      t = substr($2, 1, length($2) - 1); split(t, parts, ":")
      return (parts[1] * 3600 + parts[2] * 60 + parts[3]) * 1000
    }
    / timing job / {
      n++
      for (i = 1; i <= NF; ++i) if (split($i, kv, "=") == 2) { sum[kv[1]] += kv[2]; v[kv[1]] = kv[2] }
      if (n == 1) { first = stamp(); first_go = first - v["commit"] - v["after"] - v["search"] }
      last = stamp()
    }
    END {
      if (n == 0) { print "  no timing lines in the log (an epdd without them?)"; exit }
      printf "  mean per position, per engine instance (%d searches):\n", n
      printf "    %-58s %8.3f ms\n", "engine: go to bestmove", sum["search"] / n
      printf "    %-58s %8.3f ms\n", "  (its own time, as it reports it)", sum["engine"] / n
      printf "    %-58s %8.3f ms\n", "  (go to its first info line)", sum["first_info"] / n
      printf "    %-58s %8.3f ms\n", "ours, engine waiting: between two searches (hand-offs)", sum["idle"] / n
      printf "    %-58s %8.3f ms\n", "ours, engine waiting: prepare (ucinewgame+isready, position)", sum["prepare"] / n
      printf "    %-58s %8.3f ms\n", "ours, engine waiting: after bestmove (output checks)", sum["after"] / n
      ours = (sum["idle"] + sum["prepare"] + sum["after"]) / n
      printf "    %-58s %8.3f ms\n", "ours, engine waiting, in all", ours
      printf "    %-58s %8.3f ms\n", "ours, beside the next search: claim (store)", sum["claim"] / n
      printf "    %-58s %8.3f ms\n", "ours, beside the next search: commit and progress", sum["commit"] / n
      printf "    %-58s %8.3f ms\n", "  (a request queued behind the running search)", sum["queued"] / n
      per_instance = n / c
      printf "  engine waiting per instance: %.0f ms over %.0f positions\n", ours * per_instance, per_instance
      start_ms = (start_ns / 1000000) % 86400000
      printf "  whole run: the first go %.0f ms after the start (engine start, store, job), the last result\n",
             first_go - start_ms
      printf "  %.0f ms before the end (engines quit, the report)\n", start_ms + wall - last
      ours_all = first_go - start_ms + ours * per_instance + start_ms + wall - last
      printf "  ours in all (start, engine waiting, end): %.0f ms, %.2f%% of the wall time\n", ours_all, ours_all * 100 / wall
    }' "$work/log.txt"
done
