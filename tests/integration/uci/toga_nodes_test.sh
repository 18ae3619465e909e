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

# First, that Toga still ignores go nodes: a search of 10,000 nodes that runs on until told. Its
# reports are read until one passes 100,000 nodes (then it is stopped) or it ends the search by
# itself (bestmove: it kept to the limit); never a guess of how fast it counts on a loaded machine
# (a one-second sleep saw only 100,000 nodes under tools/flake_check.sh's load).
coproc TOGA { "$toga"; }
printf 'uci\nisready\nposition startpos\ngo nodes 10000\n' >&"${TOGA[1]}"
last=0
deadline=$((SECONDS + 120))
while [ "$last" -le 100000 ] && [ "$SECONDS" -lt "$deadline" ] && IFS= read -r -t 10 line <&"${TOGA[0]}"; do
  [[ $line =~ nodes\ ([0-9]+) ]] && last=${BASH_REMATCH[1]}
  [[ $line == bestmove* ]] && break
done
printf 'stop\nquit\n' >&"${TOGA[1]}"
wait "$TOGA_PID" 2> /dev/null || true
[ "$last" -gt 100000 ] || fail "Toga kept to go nodes 10000 ($last nodes): this test no longer tests anything"

start=$(date +%s%N)
status=0
"$epdd" analyse "$work/six.epd" -o "$work/out.epd" --engine "$toga" --nodes 200000 --hash 16 \
  --store "$work/s.db" 2> "$work/err.txt" || status=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$work/err.txt"
[ "$status" = 0 ] || fail "epdd analyse exited with $status"
grep -q '6 records analysed .*, 0 failed' "$work/err.txt" || fail "not every record analysed"
# Six searches of about 0.1-0.7 s each on an idle machine; what the test must tell apart is a
# search stopped by epdd from one that ran to the 60 s search timeout (which would also fail its
# record: "0 failed" above), so the bound is that, not a guess of the machine's speed.
[ "$ms" -lt 360000 ] || fail "took $ms ms: as long as six searches running to the 60 s timeout"
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
