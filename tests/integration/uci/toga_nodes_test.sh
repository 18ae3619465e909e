#!/usr/bin/env bash
# Toga II ignores `go nodes` (issue 13, defect 8): epdd stops it once its reports pass the limit,
# so `epdd analyse --nodes` on a few WAC positions finishes in seconds (each search would
# otherwise run to the 60 s search timeout), every record is analysed with a result, and the log
# says so once.
#
#   toga_nodes_test.sh EPDD SHARED_DATA
set -euo pipefail
epdd=$(realpath "$1")
wac="$2/suites/wac.epd"
toga=/usr/games/toga2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -x "$toga" ] || fail "$toga not installed (Debian package toga2; ./dev.sh installs it)"
[ -r "$wac" ] || fail "$wac not found (EPDD_SHARED_DATA)"
head -n 6 "$wac" > "$work/six.epd"

# First, that Toga still ignores go nodes: a search of 10,000 nodes that runs on until told.
transcript=$( (printf 'uci\nisready\nposition startpos\ngo nodes 10000\n'; sleep 1; printf 'stop\nquit\n') | "$toga")
last=$(printf '%s\n' "$transcript" | grep -o 'nodes [0-9]*' | tail -n 1 | cut -d' ' -f2)
[ "${last:-0}" -gt 100000 ] || fail "Toga kept to go nodes 10000 ($last nodes): this test no longer tests anything"

start=$(date +%s%N)
status=0
"$epdd" analyse "$work/six.epd" -o "$work/out.epd" --engine "$toga" --nodes 200000 --hash 16 \
  --store "$work/s.db" 2> "$work/err.txt" || status=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$work/err.txt"
[ "$status" = 0 ] || fail "epdd analyse exited with $status"
grep -q '6 records analysed .*, 0 failed' "$work/err.txt" || fail "not every record analysed"
# Six searches of about 0.1-0.7 s each on Toga's 1-2 M nodes/s; 30 s is far below 6 x 60 s.
[ "$ms" -lt 30000 ] || fail "took $ms ms"
said=$(grep -c 'engine ignores go nodes: stopped by epdd at [0-9,]* nodes' "$work/err.txt" || true)
[ "$said" = 1 ] || fail "the log says it $said times, not once"
# Every record has its analysis: a depth, nodes past the limit, a score and a legal PV (epdd
# checked it before writing it).
n=0
while IFS= read -r line; do
  n=$((n + 1))
  for op in acd acn ce pm pv; do
    [[ "$line" == *" $op "* ]] || fail "record $n has no $op: $line"
  done
done < "$work/out.epd"
[ "$n" = 6 ] || fail "$n records written"
echo "toga2 --nodes 200000: 6 records in $ms ms, stopped by epdd (said once)"
