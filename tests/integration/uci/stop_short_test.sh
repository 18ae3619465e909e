#!/usr/bin/env bash
# An engine that answers `go nodes` far short of the limit (issue 39, item 7: Ethereal 12.75
# answers go nodes 10000 at depth 1 after 21 nodes, and a --nodes 100000 suite scored 1/40 with
# no word): every command that searches says so once per engine, with the figures; a search that
# keeps to the limit (a limit the engine's 21 nodes are a tenth of) is not reported. The fake
# engine's --stop-short 21 stands in for Ethereal, and Ethereal itself is checked to still do it.
#
#   stop_short_test.sh EPDD FAKE_ENGINE SHARED_DATA
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
wac="$3/suites/wac.epd"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
head -n 12 "$wac" > twelve.epd

# Ethereal still answers far short: otherwise the fake engine stands in for nothing real.
last=$( (printf 'uci\nisready\nposition startpos\ngo nodes 100000\n'; sleep 1; printf 'quit\n') |
        /usr/games/ethereal-chess | grep -o ' nodes [0-9]*' | tail -n 1 | cut -d' ' -f3)
[ "${last:-100000}" -lt 10000 ] || echo "note: Ethereal searched $last nodes for go nodes 100000: it no longer stops short"

short=(--engine "$fake" --engine-arg=--stop-short=21)
# said KIND FILE COUNT: FILE has COUNT lines of the warning.
said() {
  local n
  n=$(grep -c "engine stopped far short of go nodes 100,000: 21 nodes, depth 1 (said once; " "$2" || true)
  [ "$n" = "$3" ] || fail "$1: the warning is said $n times, not $3: $(head -5 "$2")"
}
"$epdd" suite twelve.epd --nodes 100000 --concurrency 2 "${short[@]}" --store s.db > suite.txt 2> suite.err ||
  [ $? = 1 ] || fail "suite: exit status $?"
said suite suite.err 1
"$epdd" analyse twelve.epd -o out.epd --nodes 100000 "${short[@]}" --store a.db 2> analyse.err ||
  fail "analyse: exit status $? ($(tail -3 analyse.err))"
said analyse analyse.err 1
[ "$(wc -l < out.epd)" = 12 ] || fail "analyse wrote $(wc -l < out.epd) records of 12: the weak results are still results"
grep -q ' acn 21;' out.epd || fail "the engine's own node count is not written: $(head -1 out.epd)"
# A limit the engine keeps to (its 21 nodes are more than a tenth of 200): no warning.
"$epdd" analyse twelve.epd -o kept.epd --nodes 200 "${short[@]}" --store k.db 2> kept.err ||
  fail "analyse --nodes 200: exit status $?"
! grep -q "far short" kept.err || fail "a search within the limit is reported: $(grep "far short" kept.err)"
# An engine that keeps to the limit: no warning either.
"$epdd" analyse twelve.epd -o fake.epd --nodes 100000 --engine "$fake" --store f.db 2> fake.err || fail "analyse with the fake engine"
! grep -q "far short" fake.err || fail "an engine without --stop-short is reported"

[ "$failed" = 0 ] && echo "an engine that stops far short of go nodes is said once per engine, with its figures"
exit "$failed"
