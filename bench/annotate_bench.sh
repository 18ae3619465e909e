#!/usr/bin/env bash
# `epdd annotate` against its ideal, measured in one run (issue 16, point 4):
#  1. GAMES games of twic0920.pgn at --movetime MS --concurrency C on a fresh store: the wall
#     time beside the ideal, the positions searched x MS / C (positions answered from the cache
#     inside the run, e.g. shared openings, and final checkmates/stalemates cost no search).
#     Target: within 5%.
#  2. The same games again under another file name (a new job, every position in the cache):
#     positions/s. Target: >= 20,000.
#  3. Peak memory (max RSS) with the fake engine at depth 1 for 100, 500 and 2000 games: flat
#     in the number of games is the target (the growth per game from one size to the next is
#     printed).
#  4. Reading the input back from the store (issue 39): twic0920.pgn repeated to 1.9, 7.5, 15,
#     30 and 300 MB, annotated with nothing to search (--from-ply 10000), then again (a rerun on
#     the same store): wall time and the store's read calls (strace -c: pread64), each per MB.
#     Linear in the input is the target: the figures per MB stay level from one size to the next
#     (before: 0.9, 3.9, 10.8, 35.5 s, 3.4 M pread64 at 15 MB). Needs strace.
#
#  5. Judging from the input (issue 35, item 5): the first 500 games of twic0920.pgn annotated
#     with the fake engine at depth 1 (an [%eval] on every position), repeated to 100 MB
#     (ANNOTATE_BENCH_EVAL_MB), judged with --evals-from-input only: plies/s and max RSS, beside
#     `epdd pgn check` reading the same file (the PGN reader's speed) in the same run. Target:
#     >= 1 M plies/s with flat memory.
#
#   bench/annotate_bench.sh [EPDD] [FAKE_ENGINE] [GAMES] [MOVETIME_MS] [CONCURRENCY]
# Defaults: build/cli/epdd, build/tests/fake_engine/fake_engine, 100, 50, 2. Run it on an idle
# machine with at least C cores. ANNOTATE_BENCH_SECTIONS="3 4" runs only those sections (default
# all; 1 and 2 run together: 2 reads 1's store).
set -euo pipefail
cd "$(dirname "$0")/.."
epdd=$(realpath "${1:-build/cli/epdd}")
fake=$(realpath "${2:-build/tests/fake_engine/fake_engine}")
games=${3:-100}
movetime=${4:-50}
concurrency=${5:-2}
twic=$(realpath ../shared/data/pgn/twic0920.pgn)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
q() { sqlite3 -batch -noheader "$1" "$2"; }
first_games() { awk -v n="$1" '/^\[Event /{k++} k<=n' "$twic"; }
ms() { echo $(( $(date +%s%N) / 1000000 )); }

want() { [[ " ${ANNOTATE_BENCH_SECTIONS:-1 2 3 4 5} " == *" $1 "* ]]; }

if want 1 || want 2; then
first_games "$games" > games.pgn
echo "== 1. $games games of twic0920.pgn, movetime $movetime ms, concurrency $concurrency, $(nproc) cores" \
     "(load average $(cut -d' ' -f1 /proc/loadavg))"
start=$(ms)
"$epdd" annotate games.pgn --movetime "$movetime" --concurrency "$concurrency" --store a.db -q -o out.pgn || true
wall=$(( $(ms) - start ))
total=$(q a.db "select total from jobs")
searches=$(q a.db "select searches from jobs")
hits=$(q a.db "select cache_hits from jobs")
ideal=$(( (searches * movetime + concurrency - 1) / concurrency ))
echo "positions: $total ($searches searched, $hits from the cache within the run)"
awk -v w="$wall" -v i="$ideal" -v s="$searches" -v m="$movetime" -v c="$concurrency" 'BEGIN {
  printf "wall %d ms, ideal %d x %d ms / %d = %d ms: %+.2f%% (target: within 5%%)\n", w, s, m, c, i, (w - i) * 100 / i }'

echo
echo "== 2. the same games as another file: every position from the cache"
cp games.pgn again.pgn
start=$(ms)
"$epdd" annotate again.pgn --movetime "$movetime" --concurrency "$concurrency" --store a.db -q -o again.out.pgn || true
wall=$(( $(ms) - start ))
hits=$(q a.db "select cache_hits from jobs where input like '%again.pgn'")
awk -v w="$wall" -v n="$hits" 'BEGIN {
  printf "%d positions in %d ms: %.0f positions/s (target: >= 20000)\n", n, w, n * 1000 / (w > 0 ? w : 1) }'
echo
fi

if want 3; then
echo "== 3. peak memory with the fake engine (depth 1), by number of games"
previous_n=0 previous_rss=0
for n in 100 500 2000; do
  first_games "$n" > "g$n.pgn"
  rss=$(/usr/bin/time -f %M "$epdd" annotate "g$n.pgn" --engine "$fake" --depth 1 --store "m$n.db" -q -o "g$n.out.pgn" \
        2>&1 >/dev/null | tail -1)
  positions=$(q "m$n.db" "select total from jobs")
  growth=""
  [ "$previous_n" -gt 0 ] && growth=", $(( (rss - previous_rss) * 1024 / (n - previous_n) )) bytes more per game than $previous_n games"
  echo "$n games ($positions positions, $(wc -c < "g$n.pgn") bytes): max RSS $rss KB$growth"
  previous_n=$n previous_rss=$rss
done
echo
fi

if want 5; then
echo "== 5. judged from the input's own [%eval]s (--evals-from-input only) beside the PGN reader"
first_games 500 > e500.pgn
"$epdd" annotate e500.pgn --engine "$fake" --depth 1 --store e500.db -q -o e500.out.pgn || true
target_mb=${ANNOTATE_BENCH_EVAL_MB:-100}
: > evals.pgn
while [ "$(wc -c < evals.pgn)" -lt $(( target_mb * 1048576 )) ]; do cat e500.out.pgn >> evals.pgn; done
mb=$(awk -v b="$(wc -c < evals.pgn)" 'BEGIN { printf "%.1f", b / 1048576 }')
evals=$(grep -o '\[%eval ' evals.pgn | wc -l)
games=$(grep -c '^\[Event ' evals.pgn)
plies=$(( evals - games ))  # an [%eval] before each game's first move and after each move
# Wall clock, CPU time (user + system: what the load of other processes changes least) and peak
# memory of each command, in one run. The PGN reader replays the same moves.
measure() {  # prints: wall_ms cpu_ms max_rss_kb
  local start times
  start=$(ms)
  times=$(/usr/bin/time -f '%U %S %M' "$@" 2>&1 >/dev/null | tail -1)
  awk -v w="$(( $(ms) - start ))" -v t="$times" 'BEGIN { split(t, f, " "); printf "%d %d %d\n", w, (f[1] + f[2]) * 1000, f[3] }'
}
read -r wall cpu rss < <(measure "$epdd" annotate evals.pgn --evals-from-input only -q -o evals.out.pgn)
read -r read_wall read_cpu read_rss < <(measure "$epdd" pgn check evals.pgn)
printf '%-44s %8s %10s %8s %10s %12s %12s\n' "$mb MB, $games games, $plies plies" "wall ms" "M plies/s" "CPU ms" \
  "M plies/s" "max RSS KB" "target"
line() {
  awk -v n="$1" -v w="$2" -v c="$3" -v p="$plies" -v r="$4" -v t="$5" 'BEGIN {
    printf "%-44s %8d %10.2f %8d %10.2f %12d %12s\n", n, w, p / w / 1000, c, p / (c > 0 ? c : 1) / 1000, r, t }'
}
line "epdd annotate --evals-from-input only" "$wall" "$cpu" "$rss" ">= 1.00"
line "epdd pgn check (the PGN reader, replayed)" "$read_wall" "$read_cpu" "$read_rss" ""
echo "(load average $(cut -d' ' -f1 /proc/loadavg); the output: $(wc -c < evals.out.pgn) bytes)"
rm -f evals.pgn evals.out.pgn evals.db*
echo
fi

want 4 || exit 0
echo "== 4. the input read back from the store, nothing to search (--from-ply 10000), by input size"
printf '%-8s %10s %10s %12s %12s %14s\n' "input" "MB" "wall ms" "ms per MB" "rerun ms" "pread64 per MB"
for copies in 1 4 8 16 160; do
  for _ in $(seq 1 "$copies"); do cat "$twic"; done > "r$copies.pgn"
  mb=$(awk -v b="$(wc -c < "r$copies.pgn")" 'BEGIN { printf "%.1f", b / 1048576 }')
  start=$(ms)
  strace -f -c -e trace=pread64 -o "r$copies.strace" \
    "$epdd" annotate "r$copies.pgn" --engine "$fake" --depth 1 --from-ply 10000 --store "r$copies.db" -q -o "r$copies.out.pgn" || true
  wall=$(( $(ms) - start ))
  preads=$(awk '$NF == "pread64" { print $4 }' "r$copies.strace")
  start=$(ms)
  "$epdd" annotate "r$copies.pgn" --engine "$fake" --depth 1 --from-ply 10000 --store "r$copies.db" -q -o "r$copies.out.pgn" || true
  rerun=$(( $(ms) - start ))
  awk -v n="x$copies" -v mb="$mb" -v w="$wall" -v r="$rerun" -v p="${preads:-0}" 'BEGIN {
    printf "%-8s %10s %10d %12.0f %12d %14.0f\n", n, mb, w, w / mb, r, p / mb }'
  rm -f "r$copies.pgn" "r$copies.db"* "r$copies.out.pgn"
done
echo "(the first run under strace, which slows system calls; the rerun without)"
