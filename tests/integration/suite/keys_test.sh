#!/usr/bin/env bash
# epdd analyse on a suite's keys: by default bm is replaced and a dm the engine does not confirm
# removed, and the summary counts both; --keep-keys leaves bm/am/dm as they are and writes the
# engine's move as pm only; --counters ops writes FEN counters as hmvc/fmvn. Every operation
# epdd wrote reads back (`epdd epd check` finds no error), whatever tail the record had.
#
#   keys_test.sh EPDD FAKE_ENGINE
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# The fake engine plays captures first: Nxe5 here, never a mate.
cat > keys.epd <<'EPD'
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 bm Bb5 Ng5; dm 3; id "keys";
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 id "tail"; 1 e4!
EPD
failed=0
fail() { echo "FAIL: $*"; failed=1; }
run() { "$epdd" analyse keys.epd --engine "$fake" --depth 2 "$@"; }

run -o default.epd --store default.db 2> default.err
grep -q "of the input's operations: 1 dm removed, 1 bm changed" default.err || fail "summary: $(cat default.err)"
grep -q 'bm Nxe5; ce 0; id "keys"; pm Nxe5;' default.epd || fail "default output: $(cat default.epd)"
grep -q "dm 3" default.epd && fail "dm 3 should be gone by default: $(cat default.epd)"

run -o kept.epd --store kept.db --keep-keys 2> kept.err
grep -q "removed\|changed" kept.err && fail "--keep-keys summary: $(cat kept.err)"
grep -q 'bm Bb5 Ng5; ce [0-9-]*; dm 3; id "keys"; pm Nxe5;' kept.epd || fail "--keep-keys output: $(cat kept.epd)"

run -o ops.epd --store ops.db --keep-keys --counters ops 2> ops.err
grep -q ' KQkq - acd 2;.*fmvn 3; hmvc 2; id "keys"' ops.epd || fail "--counters ops: $(cat ops.epd)"
grep -q ' - 2 3 ' ops.epd && fail "--counters ops left counters: $(cat ops.epd)"

# Everything epdd wrote reads back: no error the input did not have (its '1 e4!' is one), the
# tail kept and the operations after it read.
errors() { { "$epdd" epd check "$1" || true; } | sed -n 's/.*: [0-9]* records* in [0-9]* lines*: \([0-9]*\) errors*.*/\1/p'; }
input_errors=$(errors keys.epd)
for f in default.epd kept.epd ops.epd; do
  [ "$(errors "$f")" = "$input_errors" ] || fail "epd check $f: $("$epdd" epd check "$f")"
  grep -q '1 e4!; pm Nxe5;' "$f" || fail "$f: the tail or the pm after it: $(cat "$f")"
done
[ $failed -eq 0 ] && echo "keys replaced and counted, kept with --keep-keys, counters as operations, all re-read"
exit $failed
