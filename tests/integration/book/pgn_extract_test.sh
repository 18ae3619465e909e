#!/bin/bash
# Debian's pgn-extract reads the PGN that book::write_book_pgn writes (issue 17): the small book
# of tests/unit/book/pgn_output_test.cpp, the book of the first 200 lines of 2moves_v2.pgn and
# that of twic0920.pgn to 12 plies, each one game of nested variations: without a word on stderr
# (pgn-extract exits 0 even on an illegal move, so its messages are what is checked) and with the
# same number of moves as epdd wrote (pgn-extract writes the game again; both counted alike).
# Usage: pgn_extract_test.sh BOOK_TESTS
set -euo pipefail
book_tests=$1
extract=/usr/games/pgn-extract
[ -x "$extract" ] || { echo "pgn-extract is not installed (Debian package pgn-extract)"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export EPDD_BOOK_PGN_DIR=$dir
"$book_tests" "[.book-pgn-write]" >/dev/null
# The SAN moves of a PGN file: comments, tags, NAGs, move numbers, parentheses and the result
# taken out.
moves() {
  grep -vE '^\[[A-Za-z0-9_]+ "' "$1" | tr '\n' ' ' | sed -e 's/{[^}]*}//g' | tr ' ()' '\n\n\n' | grep -cE '^[a-hKQRBNO]' || true
}
status=0
for book in small 2moves twic; do
  log=$("$extract" -s -r "$dir/$book.pgn" 2>&1)
  if [ -n "$log" ]; then echo "FAIL: pgn-extract on $book.pgn: $(head -5 <<< "$log")"; status=1; fi
  "$extract" -s "$dir/$book.pgn" -o "$dir/$book.again.pgn" 2>/dev/null
  ours=$(moves "$dir/$book.pgn")
  theirs=$(moves "$dir/$book.again.pgn")
  echo "$book.pgn: $ours moves, pgn-extract wrote $theirs"
  [ "$ours" -gt 0 ] && [ "$ours" = "$theirs" ] || { echo "FAIL: $book.pgn: move counts differ"; status=1; }
done
exit $status
