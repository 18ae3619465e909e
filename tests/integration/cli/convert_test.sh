#!/usr/bin/env bash
# epdd convert (issue 19): PGN -> PGC -> PGN gives the reduced export byte for byte (and twic's
# full export, which has no comments); a game with comments is refused without --lossy (named,
# nothing written) and written with it (the comments counted); EPD output equals pgn to-epd's;
# a truncated PGC file is an error with its byte offset and writes nothing; a file without a
# known suffix is read by its first byte; an empty file is no games.
#   convert_test.sh EPDD SHARED_DATA
set -euo pipefail
epdd=$(realpath "$1")
data=$(realpath "$2")/pgn
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# twic0920: every game through PGC and back, reduced and full.
"$epdd" convert "$data/twic0920.pgn" -o twic.pgc 2> err.txt || fail "twic -> pgc: $(cat err.txt)"
grep -q "2245 games$" err.txt || fail "twic -> pgc says: $(cat err.txt)"
"$epdd" pgn export --reduced "$data/twic0920.pgn" -o reduced.pgn 2> /dev/null
"$epdd" pgn export "$data/twic0920.pgn" -o full.pgn 2> /dev/null
"$epdd" convert twic.pgc -o back-reduced.pgn --reduced 2> /dev/null || fail "pgc -> reduced pgn"
"$epdd" convert twic.pgc -o back-full.pgn 2> /dev/null || fail "pgc -> pgn"
cmp back-reduced.pgn reduced.pgn || fail "twic0920: PGN -> PGC -> PGN is not the reduced export"
cmp back-full.pgn full.pgn || fail "twic0920: PGN -> PGC -> PGN is not the export (the file has no comments)"
echo "twic0920.pgn: $(stat -c %s "$data/twic0920.pgn") bytes of PGN, $(stat -c %s twic.pgc) of PGC"

# Comments: refused, named, nothing written; with --lossy, written and counted.
status=0
"$epdd" convert "$data/chess960-cutechess.pgn" -o c960.pgc 2> err.txt || status=$?
[ "$status" = 1 ] || fail "chess960 with comments without --lossy: exit $status"
grep -q "comments (PGC has no comment record)" err.txt || fail "no game named for its comments: $(cat err.txt)"
[ -e c960.pgc ] && fail "a refused conversion wrote c960.pgc"
"$epdd" convert "$data/chess960-cutechess.pgn" -o c960.pgc --lossy 2> err.txt || fail "chess960 --lossy: $(cat err.txt)"
grep -Eq "left out \(--lossy\): [1-9][0-9]* comments" err.txt || fail "the comments left out are not counted: $(cat err.txt)"
"$epdd" pgn export --reduced "$data/chess960-cutechess.pgn" -o c960-reduced.pgn 2> /dev/null
"$epdd" convert c960.pgc -o c960-back.pgn --reduced 2> /dev/null
cmp c960-back.pgn c960-reduced.pgn || fail "chess960: PGN -> PGC -> PGN is not the reduced export"

# EPD: every position, as pgn to-epd writes it.
"$epdd" pgn to-epd "$data/twic0920.pgn" -o ref.epd 2> /dev/null
"$epdd" convert twic.pgc -o twic.epd 2> /dev/null
cmp twic.epd ref.epd || fail "PGC -> EPD differs from pgn to-epd"

# A truncated PGC file: the byte offset, exit 2, nothing written.
head -c 5000 twic.pgc > cut.pgc
status=0
"$epdd" convert cut.pgc -o cut.pgn 2> err.txt || status=$?
[ "$status" = 2 ] || fail "truncated PGC: exit $status"
grep -q "^cut.pgc: byte [0-9]*, game [0-9]*: " err.txt || fail "truncated PGC says: $(cat err.txt)"
[ -e cut.pgn ] && fail "a damaged input wrote cut.pgn"

# No suffix: the first byte tells; --to for the output; an unknown output suffix is refused.
cp twic.pgc games.bin
"$epdd" convert games.bin --to pgn --reduced > sniffed.pgn 2> /dev/null
cmp sniffed.pgn reduced.pgn || fail "a PGC file without its suffix was not read as PGC"
status=0
"$epdd" convert "$data/twic0920.pgn" -o out.txt 2> err.txt || status=$?
[ "$status" = 2 ] && grep -q "which format?" err.txt || fail "an output named .txt: exit $status, $(cat err.txt)"
: > empty.pgn
"$epdd" convert empty.pgn -o empty.pgc 2> err.txt || fail "empty input: $(cat err.txt)"
[ -e empty.pgc ] && [ ! -s empty.pgc ] || fail "an empty input should give an empty PGC file"

[ "$failed" = 0 ] && echo "epdd convert: round trips, refusals and damage as documented"
exit "$failed"
