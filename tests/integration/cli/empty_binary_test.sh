#!/usr/bin/env bash
# One rule for input with nothing to read, and binary files are not read as PGN (issue 39,
# item 9): an empty file (or only white space) was "0 records", exit 0, for suite and analyse,
# an error in the spool and in `book backsolve`, while `book leaves` wrote the start position; a
# binary file given to annotate or book was read as PGN ('ELF' is not a move...). Now every
# command and submit refuse both with exit 2, the file's name and why, before any search.
#
#   empty_binary_test.sh EPDD FAKE_ENGINE
source "$(dirname "$0")/../lib/common.sh" "$1" "$2"
exec < /dev/null  # no command reads a terminal; the one that reads standard input is given it
# The fake engine logs what it is sent: a refused input must not reach a go.
cat > engine.sh <<SH
#!/bin/sh
exec "$fake" --log "$work/engine.log"
SH
chmod +x engine.sh
engine=(--engine "$work/engine.sh" --depth 1 --store s.db)

# refused WHAT EXPECTED COMMAND...: exit 2 and EXPECTED (fixed text) on stderr.
refused() {
  local what=$1 expected=$2 status=0
  shift 2
  "$@" > out.txt 2> err.txt || status=$?
  [ "$status" = 2 ] || fail "$what: exit status $status, not 2 ($(cat err.txt))"
  grep -qF -- "$expected" err.txt || fail "$what: the message does not say '$expected': $(cat err.txt)"
}

: > empty.epd
: > empty.pgn
printf '  \n\n\t\n' > blank.epd
printf '\n \n' > blank.pgn
refused "suite, empty" "empty.epd: no EPD record in the file" "$epdd" suite empty.epd "${engine[@]}"
refused "analyse, empty" "empty.epd: no EPD record in the file" "$epdd" analyse empty.epd "${engine[@]}"
refused "analyse, white space" "blank.epd: no EPD record in the file" "$epdd" analyse blank.epd "${engine[@]}"
refused "annotate, empty" "empty.pgn: no game in the file" "$epdd" annotate empty.pgn "${engine[@]}"
refused "annotate, white space" "blank.pgn: no game in the file" "$epdd" annotate blank.pgn "${engine[@]}"
refused "book leaves, empty" "empty.pgn: no game, Polyglot entry or EPD record to make a book of" "$epdd" book leaves empty.pgn
refused "book leaves, two empty files" "empty.pgn, empty.epd: no game, Polyglot entry or EPD record" \
  "$epdd" book leaves empty.pgn empty.epd
refused "book backsolve, empty" "empty.pgn: no game, Polyglot entry or EPD record to make a book of" \
  "$epdd" book backsolve empty.pgn "${engine[@]}"
refused "submit analyse, empty" "empty.epd: no EPD record in the file" "$epdd" submit analyse empty.epd --store s.db
refused "submit annotate, empty" "empty.pgn: no game in the file" "$epdd" submit annotate empty.pgn --store s.db

# A binary file named .pgn: the start of this machine's epdd executable (ELF: NUL bytes early).
head -c 5000 "$epdd" > program.pgn
refused "annotate, binary" "program.pgn: a binary file, not PGN text (a NUL byte at offset" \
  "$epdd" annotate program.pgn "${engine[@]}"
refused "annotate from standard input, binary" "-: a binary file, not PGN text" "$epdd" annotate - "${engine[@]}" < program.pgn
refused "submit annotate, binary" "program.pgn: a binary file, not PGN text" "$epdd" submit annotate program.pgn --store s.db
refused "book leaves, binary" "program.pgn: a binary file, not PGN text" "$epdd" book leaves program.pgn
refused "book backsolve, binary" "program.pgn: a binary file, not PGN text" "$epdd" book backsolve program.pgn "${engine[@]}"
# As EPD (whose reader takes a stray NUL and reads on): no record in it, and the lines said.
cp program.pgn program.epd
refused "book leaves, binary EPD" "program.epd: no game, Polyglot entry or EPD record to make a book of" \
  "$epdd" book leaves program.epd
grep -q "^program.epd:1: " err.txt || fail "book leaves does not say why the binary EPD's lines are no records: $(cat err.txt)"
# (analyse and suite say each of its lines that is not a record and exit 1: unread_lines_test.sh.)
grep -q '^go' engine.log 2> /dev/null && fail "the engine searched for a refused input: $(grep -c '^go' engine.log) go"

# What is not refused: a file that holds one record or game, and a Polyglot book (binary by name).
printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "start";\n' > one.epd
"$epdd" analyse one.epd "${engine[@]}" -q -o one.out.epd 2> err.txt || fail "analyse of one record: $(cat err.txt)"
printf '[Event "?"]\n\n1. e4 e5 *\n' > one.pgn
"$epdd" book leaves one.pgn > leaves.epd 2> err.txt || fail "book leaves of one game: $(cat err.txt)"
finish "empty and binary inputs refused alike on every path"
