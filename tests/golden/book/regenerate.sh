#!/usr/bin/env bash
# The book page's golden JSON (issue 20), made by real runs of `epdd book backsolve` with the fake
# engine, never written by hand:
#   twic.json      twic0920.pgn (../shared/data/pgn, 2,245 games with results) at --max-ply 6
#                  --min-games 3, the fake engine at depth 3: a tree of real openings and a list of
#                  contradictions (moves whose score in the games disagrees with their value);
#   scripted.json  tests/integration/book/book.pgn with book.script's answers leaf by leaf:
#                  mates both ways, a checkmate, a repetition, and a crash (a failed, unvalued leaf).
# Inputs are named relative to their directory so that the files do not depend on the machine.
#
#   tests/golden/book/regenerate.sh EPDD FAKE_ENGINE SHARED_DATA [OUTDIR]
# Without OUTDIR it rewrites the files here (review `git diff tests/golden/book` before
# committing); with one it writes there (the browser test compares a fresh run with the files).
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
data=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
out=$(realpath "${4:-$here}")
book=$(cd "$here/../../integration/book" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$data/pgn" && "$epdd" book backsolve twic0920.pgn --engine "$fake" --depth 3 --max-ply 6 --min-games 3 \
   --store "$work/twic.db" -o "$work/twic.epd" --json "$out/twic.json" -q)

printf '#!/bin/sh\nexec "%s" --script "%s"\n' "$fake" "$book/book.script" > "$work/scripted.sh"
chmod +x "$work/scripted.sh"
status=0
(cd "$book" && "$epdd" book backsolve book.pgn --engine "$work/scripted.sh" --depth 2 --store "$work/scripted.db" \
   -o "$work/scripted.epd" --json "$out/scripted.json" -q 2> /dev/null) || status=$?
# The crashed leaf makes the exit status 1; anything else is a broken run.
[ "$status" = 1 ] || { echo "regenerate.sh: book.pgn with book.script exited $status, not 1" >&2; exit 1; }
