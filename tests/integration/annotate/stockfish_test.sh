#!/usr/bin/env bash
# `epdd annotate` with Stockfish (issue 16, point 3): 20 games of twic0920.pgn at fixed nodes with
# Threads=1, annotated twice on two stores: the same bytes; killed with SIGKILL at several points
# and run again to the end: the same bytes as the uninterrupted run (a game interrupted in the
# middle is searched again from its start, its positions committed together), no position
# searched twice by the runs that committed, and annotate_check's oracle agrees with every NAG.
# Then the same file with --concurrency 2 and --new-game clear (every search independent of
# the others): the same bytes run after run, whatever the order the games are taken in.
#
#   stockfish_test.sh EPDD ANNOTATE_CHECK SHARED_DATA [NODES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
epdd=$(realpath "$1")
check=$(realpath "$2")
data=$(realpath "$3")/pgn
nodes=${4:-10000}
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; [ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
echo "work directory: $work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

awk '/^\[Event /{n++} n<=20' "$data/twic0920.pgn" > games.pgn
args=(annotate games.pgn --engine /usr/games/stockfish --nodes "$nodes" --threads 1 --hash 16 -q)
q() { sqlite3 -batch -noheader -cmd ".timeout 10000" "$1" "$2"; }

start=$(date +%s)
"$epdd" "${args[@]}" --store a.db -o a.pgn --json a.json
echo "uninterrupted run: $(($(date +%s) - start)) s, $(q a.db 'select total from jobs') positions"
"$check" a.pgn games.pgn || fail "annotate_check on Stockfish's annotation"
"$epdd" "${args[@]}" --store b.db -o b.pgn --json b.json
cmp a.pgn b.pgn || fail "two runs of the same command on two stores differ: $(diff a.pgn b.pgn | head -5)"
cmp a.json b.json || fail "their summaries differ"

# SIGKILL when the store has N positions committed (polled: WAL lets a reader in), then again.
total=$(q a.db "select total from jobs")
# shellcheck source=../lib/sigkill.sh
source "$here/../lib/sigkill.sh"
kill_when_done 1 k.pgn 0.3
kill_when_done $((total / 3)) k.pgn 0.3
kill_when_done $((2 * total / 3)) k.pgn 0.3
"$epdd" "${args[@]}" --store k.db -o k.pgn --json k.json
cmp a.pgn k.pgn || fail "the resumed output differs from the uninterrupted one: $(diff a.pgn k.pgn | head -5)"
cmp a.json k.json || fail "the resumed summary differs"
max=$(q k.db "select max(searches) from cache")
[ "$max" = 1 ] || fail "a position was committed from more than one search ($max)"

# Games in parallel, each search on a cleared hash: the same output whatever the scheduling.
"$epdd" "${args[@]}" --concurrency 2 --new-game clear --store c.db -o c.pgn
"$epdd" "${args[@]}" --concurrency 2 --new-game clear --store d.db -o d.pgn
cmp c.pgn d.pgn || fail "--concurrency 2 --new-game clear: two runs differ: $(diff c.pgn d.pgn | head -5)"
"$check" c.pgn games.pgn || fail "annotate_check on the --concurrency 2 output"

[ "$failed" = 0 ] && echo "annotate Stockfish test passed"
exit $failed
