#!/usr/bin/env bash
# Inputs that are not readable files: a directory must not be read as an empty file. Every
# command that reads an input exits 2, names the path and the reason, and writes nothing.
#
#   input_paths_test.sh EPDD
set -euo pipefail
epdd=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir somedir
failed=0
check() {  # check COMMAND...: exit 2, "somedir: cannot read: is a directory", no output files
  local status=0
  "$epdd" "$@" > out.txt 2> err.txt || status=$?
  if [ "$status" -ne 2 ] || ! grep -q "somedir: cannot read: is a directory" err.txt; then
    echo "FAIL: epdd $* -> status $status, stderr: $(cat err.txt)"
    failed=1
  fi
  if [ -e result.epd ] || [ -e result.pgn ] || [ -e store.db ]; then
    echo "FAIL: epdd $* wrote $(ls result.* store.db 2>/dev/null)"
    failed=1
  fi
}
check epd check somedir
check epd format somedir -o result.epd
check pgn check somedir
check pgn export somedir -o result.pgn
check pgn to-epd somedir -o result.epd
check perft somedir
check analyse somedir -o result.epd --store store.db --engine /usr/games/stockfish --nodes 1000
check suite somedir -o result.epd --store store.db --engine /usr/games/stockfish --nodes 1000
[ $failed -eq 0 ] && echo "every command refused a directory"
exit $failed
