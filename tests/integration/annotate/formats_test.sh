#!/usr/bin/env bash
# `epdd annotate` on PGC and ChessLive! input (issue 19): the games are annotated as the PGN
# `epdd convert` gives of them, byte for byte the same output, whether the format comes from
# the suffix or from the content; a damaged PGC file or a move file against its grammar is
# refused with its byte or line, and nothing is written.
#   formats_test.sh EPDD FAKE_ENGINE SHARED_DATA
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
data=$(realpath "$3")/pgn
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
annotate() { "$epdd" annotate "$@" --engine "$fake" --store store.db --depth 3 -q; }

kasparov="$data/kasparov-deep-blue-1997.pgn"
"$epdd" convert "$kasparov" -o games.pgc 2> /dev/null
"$epdd" convert games.pgc -o games.pgn 2> /dev/null
annotate games.pgn -o from-pgn.pgn
annotate games.pgc -o from-pgc.pgn || fail "annotate games.pgc: exit $?"
cmp from-pgn.pgn from-pgc.pgn || fail "PGC input is not annotated as its PGN: $(diff from-pgn.pgn from-pgc.pgn | head -5)"
cp games.pgc games.dat
annotate games.dat -o from-dat.pgn || fail "annotate games.dat (PGC by content): exit $?"
cmp from-pgn.pgn from-dat.pgn || fail "PGC input without its suffix is not annotated as its PGN"
grep -q '^\[Annotator "epdd' from-pgc.pgn && grep -q '%eval' from-pgc.pgn || fail "from-pgc.pgn is not annotated"

# A move file: one game, its Depth/Score/Time as [%eval]/[%clk] in the PGN it gives.
awk '/^\[Event /{g++} g==2' games.pgn > second.pgn
"$epdd" convert second.pgn -o second.clm 2> /dev/null
"$epdd" convert second.clm -o second-back.pgn 2> /dev/null
annotate second-back.pgn -o clm-ref.pgn
annotate second.clm -o from-clm.pgn || fail "annotate second.clm: exit $?"
cmp clm-ref.pgn from-clm.pgn || fail "a move file is not annotated as its PGN"
[ "$(grep -c '^\[Event ' from-clm.pgn)" = 1 ] || fail "from-clm.pgn does not hold one game"

# Damage: refused, located, nothing written.
head -c 1000 games.pgc > cut.pgc
status=0
annotate cut.pgc -o cut-out.pgn 2> err.txt || status=$?
[ "$status" = 2 ] || fail "a damaged PGC input: exit $status"
grep -q "cut.pgc (PGC): byte [0-9]*, game [0-9]*: " err.txt || fail "a damaged PGC input says: $(cat err.txt)"
[ -e cut-out.pgn ] && fail "a damaged PGC input wrote cut-out.pgn"
printf 'A;B;e2:e4;\ne7:e4;=;\n' > bad.clm
status=0
annotate bad.clm -o bad-out.pgn 2> err.txt || status=$?
[ "$status" = 2 ] && grep -q "bad.clm (ChessLive!): line 2, column 1" err.txt || fail "a bad move file: exit $status, $(cat err.txt)"
[ -e bad-out.pgn ] && fail "a bad move file wrote bad-out.pgn"

[ "$failed" = 0 ] && echo "annotate reads PGC and ChessLive! input as the PGN they convert to"
exit "$failed"
