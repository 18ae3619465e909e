#!/usr/bin/env bash
# Inputs and outputs that cannot be used are refused before any work: a directory as input (not
# read as an empty file), a PGN file where EPD is read, an output path that cannot be written.
# A store that is not there is not made by the commands that only read or change jobs. Every
# command exits 2, names the path and the reason, and writes nothing.
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
check convert somedir -o result.pgn
check perft somedir
check analyse somedir -o result.epd --store store.db --engine /usr/games/stockfish --nodes 1000
check suite somedir -o result.epd --store store.db --engine /usr/games/stockfish --nodes 1000

# A PGN file given where EPD is read: one message that points to the PGN commands, exit 2,
# instead of one "illegal position" per line.
printf '[Event "x"]\n[Result "*"]\n\n1. e4 e5 *\n' > games.pgn
for command in "epd check games.pgn" "epd format games.pgn -o result.epd" \
               "analyse games.pgn -o result.epd --store store.db --engine /usr/games/stockfish --nodes 1000"; do
  status=0
  "$epdd" $command > out.txt 2> err.txt || status=$?
  if [ "$status" -ne 2 ] || ! grep -q "games.pgn: this is a PGN file.*epdd pgn to-epd" err.txt \
     || grep -q "illegal" err.txt out.txt || [ -e result.epd ]; then
    echo "FAIL: epdd $command -> status $status, stderr: $(cat err.txt)"
    failed=1
  fi
done

# An output that cannot be written is found before the run: nothing searched, no store made.
printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "start";\n' > one.epd
engine="--store store.db --engine /usr/games/stockfish --nodes 1000"
for command in "analyse one.epd -o somedir $engine" "suite one.epd -o somedir $engine" \
               "suite one.epd --json somedir $engine" "analyse one.epd -o missing/out.epd $engine" \
               "epd format one.epd -o somedir" "pgn export games.pgn -o somedir"; do
  status=0
  "$epdd" $command > out.txt 2> err.txt || status=$?
  if [ "$status" -ne 2 ] || ! grep -q "cannot write the output" err.txt || [ -e store.db ]; then
    echo "FAIL: epdd $command -> status $status, stderr: $(cat err.txt)"
    failed=1
  fi
done
# A file that cannot be opened says why, in every command (as root, permissions do not bite:
# a path through a plain file gives "Not a directory").
touch plain
for command in "epd check plain/x.epd" "epd format plain/x.epd" "pgn check plain/x.pgn" "pgn export plain/x.pgn" \
               "perft plain/x.epd" "analyse plain/x.epd --store store.db" "suite plain/x.epd --store store.db" \
               "check-engine --config plain/x.toml" "serve --config plain/x.toml" \
               "submit analyse plain/x.epd --store store.db" "suite compare plain/x.json"; do
  status=0
  "$epdd" $command > out.txt 2> err.txt || status=$?
  if [ "$status" -ne 2 ] || ! grep -q "plain/x\.[a-z]*: cannot open for reading: Not a directory" err.txt; then
    echo "FAIL: epdd $command -> status $status, stderr: $(cat err.txt)"
    failed=1
  fi
done
# A store that is not there: the commands that read or change jobs refuse it and make none (only
# submit, analyse and suite make a store), at the default ./epdd.db and at a --store path.
for command in "status" "status 1" "cancel 1" "results 1" "purge --older-than 1d" "report 1" \
               "status --store none.db" "results 1 --store none.db" "purge --before 2020-01-01 --store none.db"; do
  status=0
  "$epdd" $command > out.txt 2> err.txt || status=$?
  if [ "$status" -ne 2 ] || ! grep -Eq "(epdd|none)\.db: no store there" err.txt || [ -e epdd.db ] || [ -e none.db ]; then
    echo "FAIL: epdd $command -> status $status, stderr: $(cat err.txt), files: $(ls ./*.db 2>/dev/null)"
    failed=1
    rm -f epdd.db none.db
  fi
done
[ $failed -eq 0 ] && echo "every command refused a directory, a PGN file for EPD, an output it cannot write, a store that is not there, and said why it could not read"
exit $failed
