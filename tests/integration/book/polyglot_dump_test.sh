#!/bin/bash
# Debian's polyglot reads the .bin that book::write_polyglot writes: `polyglot dump-book` for
# each colour, and book_tests checks its lines (every node's moves, the best first, the
# percentages of our weights). Usage: polyglot_dump_test.sh BOOK_TESTS
set -euo pipefail
book_tests=$1
polyglot=$(command -v polyglot || echo /usr/games/polyglot)
[ -x "$polyglot" ] || { echo "polyglot is not installed (Debian package polyglot; dev.sh installs it)"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export EPDD_POLYGLOT_DIR=$dir
"$book_tests" "[.polyglot-write]"
for colour in white black; do
  (cd "$dir" && "$polyglot" dump-book -bin book.bin -color "$colour" -out "$colour.txt" >/dev/null)
  echo "--- dump-book -color $colour"
  cat "$dir/$colour.txt"
done
"$book_tests" "[.polyglot-dump]"
