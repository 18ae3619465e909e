#!/usr/bin/env bash
# `epdd annotate` with the fake engine (issue 16, points 1 and 2):
# - golden outputs: the six Kasparov - Deep Blue games (PGN and JSON summary), the default rule
#   and the cp: rule with every option on, pinned byte for byte;
# - every output, and the annotation of each PGN of ../shared/data/pgn (edge cases included), is
#   re-read by epdd's reader and by pgn-extract without errors, its main lines equal the input's,
#   every main-line node and the root carry an [%eval] in python-chess's form, every comment, NAG
#   and variation of the input is still there, and the NAGs equal the rule recomputed from the
#   written evaluations by annotate_check (an oracle of its own, not the annotator's code);
# - a second run is answered from the store and writes the same bytes;
# - a game the reader cannot read is written back byte for byte.
#
#   golden_test.sh EPDD FAKE_ENGINE ANNOTATE_CHECK SHARED_DATA
# EPDD_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing (review the diff).
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
check=$(realpath "$3")
data=$(realpath "$4")/pgn
source "$(dirname "$0")/golden.sh"

# readable OUT IN: pgn-extract (Debian's, /usr/games) reads OUT without a word when it reads IN
# so: with -s -r it says nothing about a file it reads clean, and names the file and line of
# anything else. (Some edge cases are not clean to it: a null move in a main line, a result tag
# that contradicts the movetext; annotate keeps those as they are.)
readable() {
  local log
  [ -z "$(/usr/games/pgn-extract -s -r "$2" 2>&1 | grep -v '^Games: ')" ] || return 0
  log=$(/usr/games/pgn-extract -s -r "$1" 2>&1) || { fail "pgn-extract failed on $1: $log"; return; }
  [ -z "$log" ] || fail "pgn-extract on $1: $(head -5 <<< "$log")"
}

fake_args=(--engine "$fake" --store fake.db -q)
# The fake engine's first move is known to annotate_check: a move equal to it is not judged.
check_args=(--fake-engine)
kasparov="$data/kasparov-deep-blue-1997.pgn"
"$epdd" annotate "$kasparov" "${fake_args[@]}" --depth 3 -o kasparov.pgn --json kasparov.json
same kasparov.pgn kasparov.pgn
same kasparov.json kasparov.json
"$check" kasparov.pgn "$kasparov" "${check_args[@]}" || fail "annotate_check on kasparov.pgn"

# Progress (not a terminal: plain lines) counts games and positions, and its last line has them
# all; a second run of the same file from the cache counts the games as done by it.
"$epdd" annotate "$kasparov" --engine "$fake" --store progress.db --depth 3 -o /dev/null 2> progress.err
grep -qx 'progress: 6 games, 0 already done' progress.err || fail "progress: no games line: $(head -3 progress.err)"
last=$(grep '^progress: games' progress.err | tail -1)
[[ "$last" =~ ^progress:\ games\ 6/6\ \ positions\ ([0-9]+)/([0-9]+)\  ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] ||
  fail "progress: the last line is not 6 of 6 games and every position: $last"
cp "$kasparov" again.pgn
"$epdd" annotate again.pgn --engine "$fake" --store progress.db --depth 3 -o /dev/null 2> again.err
[ -c /dev/null ] || fail "-o /dev/null replaced the device with a file (run as root)"
grep -q '^progress: games 6/6  positions' again.err || fail "progress from the cache: $(head -4 again.err)"
readable kasparov.pgn "$kasparov"

# Every option: the cp: rule, only moves (MultiPV 2), position NAGs, shorter lines, from ply 10,
# White's moves only.
"$epdd" annotate "$kasparov" "${fake_args[@]}" --depth 3 -o options.pgn --judge cp:50,100,300 --only-moves --position-nags \
  --variation-plies 4 --from-ply 10 --side white --position-limits 20,60,150
same options.pgn options.pgn
"$check" options.pgn "$kasparov" "${check_args[@]}" --judge cp:50,100,300 --from-ply 10 --side white --only-moves ||
  fail "annotate_check on options.pgn"
readable options.pgn "$kasparov"

# Answered from the store: the same bytes, nothing searched.
"$epdd" annotate "$kasparov" --engine "$fake" --depth 3 --store fake.db -o again.pgn 2> again.log
cmp kasparov.pgn again.pgn || fail "a second run writes other bytes"
grep -q "0 positions searched now" again.log || fail "a second run searched: $(tail -2 again.log)"

# Every PGN of the shared data (twic0920: its first 40 games), the edge cases included.
awk '/^\[Event /{n++} n<=40' "$data/twic0920.pgn" > twic40.pgn
for input in twic40.pgn "$data"/heavily-annotated.pgn "$data"/lichess-eval-clk.pgn "$data"/tcec-engine-comments.pgn \
             "$data"/chess960-cutechess.pgn "$data"/edge-cases/*.pgn; do
  name=$(basename "$input" .pgn)
  status=0
  "$epdd" annotate "$input" "${fake_args[@]}" --depth 2 -o "$name.out.pgn" 2> "$name.log" || status=$?
  if [ "$status" -gt 1 ]; then fail "annotate $name: exit status $status: $(tail -3 "$name.log")"; continue; fi
  "$check" "$name.out.pgn" "$input" "${check_args[@]}" || fail "annotate_check on $name"
  # Games written back unchanged are said with their line; the others must read clean.
  if [ "$status" = 0 ]; then readable "$name.out.pgn" "$input"; fi
  if [ "$status" = 1 ] && ! grep -q "kept unchanged" "$name.log"; then fail "$name: exit 1 without a game named"; fi
done

# A game with an illegal move between two good ones: written back byte for byte.
cat > mixed.pgn <<'PGN'
[Event "good"]
[White "A"]
[Black "B"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "bad"]
[White "C"]
[Black "D"]
[Result "*"]

1. e4 {a comment   with  spaces} e5 2. Ke3?? Nc6 *

[Event "good too"]
[White "A"]
[Black "D"]
[Result "1/2-1/2"]

1. d4 d5 1/2-1/2
PGN
status=0
"$epdd" annotate mixed.pgn "${fake_args[@]}" --depth 3 -o mixed.out.pgn 2> mixed.log || status=$?
[ "$status" = 1 ] || fail "an unreadable game: exit status $status, expected 1"
grep -q "mixed.pgn:8" mixed.log || fail "the unreadable game's line is not said: $(cat mixed.log)"
grep -qF '1. e4 {a comment   with  spaces} e5 2. Ke3?? Nc6 *' mixed.out.pgn || fail "the unreadable game was not kept byte for byte"
grep -q '4. Qxf7# {\[%eval #0\]}\|Qxf7# { *\[%eval #0\]' mixed.out.pgn || fail "a final checkmate has no [%eval #0]: $(grep -n Qxf7 mixed.out.pgn)"
# Quiet (fake_args has -q; issue 39, item 11): the game kept unchanged is said, the summary is not
# (no position failed).
grep -q "^mixed.pgn:8: kept unchanged: " mixed.log || fail "-q: the unreadable game is not said: $(cat mixed.log)"
! grep -q "^game 1: \|judged)$" mixed.log || fail "-q printed the summary: $(cat mixed.log)"

[ "$failed" = 0 ] && echo "annotate golden test passed"
exit $failed
