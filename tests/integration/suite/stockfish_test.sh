#!/usr/bin/env bash
# End to end with Debian's Stockfish (Threads=1, node limits: deterministic) on the shared
# suites: the solved counts are pinned. A different count means a change in how epdd runs or
# scores the engine (or a different Stockfish: Debian 12 ships 15.1). For a matetrack suite the
# report's "Mates" line (found, best, better, wrong, bad PVs, no mate) is pinned too, and the
# JSON summary must carry the same counts.
#
#   stockfish_test.sh EPDD SHARED_DATA SUITE NODES EXPECTED_SOLVED [EXPECTED_MATES_LINE]
set -euo pipefail
epdd=$(realpath "$1")
suite="$2/suites/$3"
nodes=$4
expected=$5
mates=${6:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -r "$suite" ] || { echo "FAIL: $suite not found (EPDD_SHARED_DATA)" >&2; exit 1; }
status=0
"$epdd" suite "$suite" --nodes "$nodes" --threads 1 --hash 16 --concurrency 2 --store "$work/s.db" -q \
  --json "$work/run.json" --min-solved "$expected" > "$work/report.txt" || status=$?
cat "$work/report.txt"
solved=$(sed -n 's/^Solved *\([0-9]*\) \/.*/\1/p' "$work/report.txt")
if [ "$status" != 0 ] || [ "$solved" != "$expected" ]; then
  echo "FAIL: $3 at $nodes nodes: solved $solved, pinned $expected (exit status $status)" >&2
  exit 1
fi
if [ -n "$mates" ]; then
  got=$(sed -n 's/^Mates  *//p' "$work/report.txt")
  if [ "$got" != "$mates" ]; then
    echo "FAIL: $3 at $nodes nodes: mates '$got', pinned '$mates'" >&2
    exit 1
  fi
  # "found 35, best 0, ..." as members of the JSON summary's "mates": "found": 35, "best": 0, ...
  summary=$(sed -n '/^    "mates": {/,/^    }/p' "$work/run.json")
  for pair in $(echo "${mates#*: }" | sed 's/bad PVs/bad_pv/; s/no mate/no_mate/; s/, / /g; s/ \([0-9]\)/:\1/g'); do
    echo "$summary" | grep -Eq "^ *\"${pair%%:*}\": ${pair#*:},?$" ||
      { echo "FAIL: the JSON summary's mates have no \"${pair%%:*}\": ${pair#*:}:" >&2; echo "$summary" >&2; exit 1; }
  done
  echo "$3: mates $got, as pinned"
fi
echo "$3: $solved solved at $nodes nodes, as pinned"
