#!/usr/bin/env bash
# `epdd book backsolve` with Stockfish (issue 17, points 2 and 3): the first 200 lines of
# 2moves_v2.pgn (20 games, no variations) at fixed nodes with Threads=1:
#  - book_check's own minimax over the leaf values epdd wrote gives every interior ce and bm, and
#    the Polyglot file's greatest-weight moves are bm;
#  - the same command on another store: the same bytes (the EPD's but its acs, the search's
#    seconds, which the machine's load decides; Polyglot);
#  - killed with SIGKILL at several points while the leaves are analysed, then run again to the
#    end: the same bytes as the uninterrupted run (acs aside), and no leaf searched twice.
#
#   stockfish_test.sh EPDD BOOK_CHECK SHARED_DATA [NODES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
epdd=$(realpath "$1")
check=$(realpath "$2")
data=$(realpath "$3")
nodes=${4:-200000}
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; [ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
echo "work directory: $work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
q() { sqlite3 -batch -noheader -cmd ".timeout 10000" "$1" "$2"; }
# An EPD with its acs (whole seconds a search took: the machine's load, not the engine's answer)
# blanked, for comparing two runs' values.
values() { sed -E 's/ acs [0-9]+;/ acs _;/g' "$1"; }

head -200 "$data/books/2moves_v2.pgn" > book.pgn
args=(book backsolve book.pgn --engine /usr/games/stockfish --nodes "$nodes" --threads 1 --hash 16 -q)

start=$(date +%s)
"$epdd" "${args[@]}" --store a.db -o a.epd --polyglot a.bin --json a.json
echo "uninterrupted run: $(($(date +%s) - start)) s, $(q a.db 'select total from jobs') leaves"
"$check" a.epd book.pgn a.bin || fail "book_check on Stockfish's backsolved book"
grep -q 'c0 "leaf"' a.epd || fail "no leaf record"
grep -q 'acd [0-9]' a.epd || fail "no acd on the analysed leaves"

"$epdd" "${args[@]}" --store b.db -o b.epd --polyglot b.bin --json b.json
cmp <(values a.epd) <(values b.epd) || fail "two runs on two stores differ: $(diff <(values a.epd) <(values b.epd) | head -5)"
cmp a.bin b.bin || fail "their Polyglot files differ"

total=$(q a.db "select total from jobs")
# shellcheck source=../lib/sigkill.sh
source "$here/../lib/sigkill.sh"
kill_when_done 1 k.epd
kill_when_done $((total / 2)) k.epd
"$epdd" "${args[@]}" --store k.db -o k.epd --polyglot k.bin --json k.json
cmp <(values a.epd) <(values k.epd) ||
  fail "the resumed output differs from the uninterrupted one: $(diff <(values a.epd) <(values k.epd) | head -5)"
cmp a.bin k.bin || fail "the resumed Polyglot file differs"
max=$(q k.db "select max(searches) from cache")
[ "$max" = 1 ] || fail "a leaf was committed from more than one search ($max)"

[ "$failed" = 0 ] && echo "book Stockfish test passed"
exit $failed
