#!/usr/bin/env bash
# epdd convert (issue 19): PGN -> PGC -> PGN gives the reduced export byte for byte (and twic's
# full export, which has no comments); a game with comments is refused without --lossy (named,
# nothing written) and written with it (the comments counted); EPD output equals pgn to-epd's;
# a truncated PGC file is an error with its byte offset and writes nothing; a file without a
# known suffix is read by its first byte; an empty file is no games. ChessLive! move files: a
# file written by hand from the grammar goes to PGN and back byte for byte; twic's games go to
# one move file each and back with their moves; a Chess960 game comes back with --start; a
# drop, and a step sequence that is no legal move, are errors with line and column.
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
# --reduced: PGC's reduced-game records (0x01), which give the reduced export back.
"$epdd" convert "$data/twic0920.pgn" -o reduced.pgc --reduced 2> /dev/null || fail "twic -> reduced pgc"
"$epdd" convert reduced.pgc -o back-from-reduced.pgn 2> /dev/null || fail "reduced pgc -> pgn"
cmp back-from-reduced.pgn reduced.pgn || fail "twic0920: PGN -> reduced PGC -> PGN is not the reduced export"
[ "$(od -An -tx1 -N1 reduced.pgc | tr -d ' ')" = 01 ] || fail "reduced.pgc does not start with a reduced-game record"
[ $(( $(stat -c %s reduced.pgc) * 3 )) -le "$(stat -c %s reduced.pgn)" ] ||
  fail "reduced PGC is more than a third of the reduced export: $(stat -c %s reduced.pgc) vs $(stat -c %s reduced.pgn)"

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
grep -q "^cut.pgc: error: byte [0-9]*, game [0-9]*: .* \[pgc-data\]$" err.txt || fail "truncated PGC says: $(cat err.txt)"
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

# ChessLive!: a move file written by hand from the grammar (castling both ways, promotion, en
# passant for both colours; Depth/Score/Time with and without the SANtag; a result and its
# reason) goes to PGN and back byte for byte; pgn check reads both.
printf '%s' 'Alice;Bob;e2:e4/10/25/300/;d7:d5/11/-30/295/;e4:e5;f7:f5;e5:f6:e5:f5;g8:f6;g1:f3;b8:c6;f1:e2;c8:e6;e1:g1:h1:f1;d8:d6;b2:b4;e8:c8:a8:d8;b4:b5;d5:d4;c2:c4;d4:c3:d4:c4/14/-110/250/dx;b5:c6;c3:c2;c6:b7;c8:d7;b7:b8:q:b8;c2:b1:n:b1;+;Bob resigned' > hand.clm
printf '\n' >> hand.clm
"$epdd" convert hand.clm -o hand.pgn 2> err.txt || fail "hand.clm -> pgn: $(cat err.txt)"
movetext_flat=$(sed -n '/^$/,$p' hand.pgn | tr '\n' ' ')
[[ "$movetext_flat" == *'1. e4 {[%eval 0.25,10] [%clk 0:05:00]} 1... d5 {[%eval -0.30,11] [%clk 0:04:55]}'* ]] ||
  fail "hand.clm: Depth/Score/Time are not [%eval] and [%clk] (Score from White's view): $movetext_flat"
for san in 'exf6' 'O-O ' 'O-O-O' 'dxc3' 'b8=Q' 'cxb1=N'; do
  grep -q -- "$san" hand.pgn || fail "hand.clm: no $san in $(cat hand.pgn)"
done
grep -q '{Bob resigned} 1-0$' hand.pgn || fail "hand.clm: the result's reason is not its last comment: $(tail -2 hand.pgn)"
"$epdd" convert hand.pgn -o back.clm 2> err.txt || fail "hand.pgn -> clm: $(cat err.txt)"
cmp hand.clm back.clm || fail "ChessLive! -> PGN -> ChessLive! is not byte-identical: $(cat back.clm)"
"$epdd" pgn check hand.clm > check.txt || fail "pgn check hand.clm: $(cat check.txt)"
grep -q "^hand.clm (ChessLive!): 1 game, 24 main-line plies: 0 errors" check.txt || fail "pgn check hand.clm: $(cat check.txt)"

# Every twic game to its own move file (the tags beyond the players and result counted), and a
# few back to PGN with their moves.
mkdir rounds
"$epdd" convert twic.pgc -o rounds/twic.clm 2> err.txt || fail "twic.pgc -> clm: $(cat err.txt)"
grep -q "written to rounds/twic-0001.clm ... rounds/twic-2245.clm; left out: [0-9]* tags beyond White, Black and Result" err.txt ||
  fail "twic -> clm says: $(cat err.txt)"
[ "$(ls rounds | wc -l)" = 2245 ] || fail "twic -> clm wrote $(ls rounds | wc -l) files"
movetext() { awk -v n="$2" '/^\[Event /{g++} g==n && !/^\[/ && NF' "$1"; }
for n in 1 1000 2245; do
  file=rounds/twic-$(printf %04d "$n").clm
  "$epdd" convert "$file" -o one.pgn 2> err.txt || fail "$file -> pgn: $(cat err.txt)"
  [ "$(movetext one.pgn 1)" = "$(movetext reduced.pgn "$n")" ] || fail "twic game $n through a move file lost its moves"
done
status=0
"$epdd" convert twic.pgc --to clm > /dev/null 2> err.txt || status=$?
[ "$status" = 2 ] && grep -q "a move file holds one game and the input has 2245" err.txt ||
  fail "several games to a move file on stdout: exit $status, $(cat err.txt)"

# Chess960: the move file cannot say its start (--lossy), --start gives it back.
awk '/^\[Event /{g++} g==1' "$data/chess960-cutechess.pgn" > c960-1.pgn
fen=$(sed -n 's/^\[FEN "\(.*\)"\]$/\1/p' c960-1.pgn)
"$epdd" convert c960-1.pgn -o c960-1.clm --lossy 2> err.txt || fail "chess960 -> clm: $(cat err.txt)"
grep -q "set-up start positions" err.txt || fail "chess960 -> clm does not say the start was left out: $(cat err.txt)"
"$epdd" convert c960-1.clm --start "$fen" -o c960-back.pgn 2> err.txt || fail "clm --start -> pgn: $(cat err.txt)"
"$epdd" convert c960-1.pgn --reduced -o c960-1r.pgn 2> /dev/null
[ "$(movetext c960-back.pgn 1 | sed 's/ {[^}]*}//')" = "$(movetext c960-1r.pgn 1)" ] || fail "a Chess960 game through a move file lost its moves"
"$epdd" pgn check c960-back.pgn > check.txt || fail "the Chess960 game back from its move file does not read: $(cat check.txt)"

# Errors: a drop is not chess; steps that are no legal move; both with line and column.
printf 'A;B;e2:e4;\nq:d4;+;x\n' > drop.clm
printf 'A;B;e2:e4;\ne7:e4;+;x\n' > illegal.clm
for bad in drop illegal; do
  status=0
  "$epdd" convert $bad.clm -o $bad.pgn 2> err.txt || status=$?
  [ "$status" = 2 ] || fail "$bad.clm: exit $status"
  grep -q "^$bad.clm:2:1: error: game A - B, move 1 (Black): .* \[move-file\]$" err.txt || fail "$bad.clm says: $(cat err.txt)"
  [ -e $bad.pgn ] && fail "$bad.clm wrote $bad.pgn"
done

# --no-santags: a file of four-field MoveSpecs back byte for byte.
printf 'A;B;e2:e4/12/35/60;e7:e5/11/-20/58;=;agreed\n' > four.clm
"$epdd" convert four.clm -o four.pgn 2> /dev/null && "$epdd" convert four.pgn -o four-back.clm --no-santags 2> /dev/null ||
  fail "four.clm round trip: exit $?"
cmp four.clm four-back.clm || fail "--no-santags: four-field MoveSpecs do not come back: $(cat four-back.clm)"

# A set of move files is written whole or not at all: a folder where the third would go.
awk '/^\[Event /{g++} g<=5' reduced.pgn > five.pgn
mkdir -p sets/t-3.clm
status=0
"$epdd" convert five.pgn -o sets/t.clm 2> err.txt || status=$?
[ "$status" = 2 ] || fail "a move file that cannot be written: exit $status, $(cat err.txt)"
[ -z "$(find sets -name '*.clm' -type f)" ] || fail "a refused set of move files left some: $(ls sets)"

# --from over the suffix and the content; pgn check names a format its content chose.
cp twic.pgc games.txt
"$epdd" pgn check games.txt > check.txt || fail "pgn check games.txt: $(cat check.txt)"
grep -q "^games.txt (PGC, by its content): 2245 games" check.txt || fail "pgn check games.txt: $(cat check.txt)"
cp hand.clm hand.txt
"$epdd" convert hand.txt --from clm --to pgn > from.pgn 2> /dev/null || fail "convert --from clm: exit $?"
cmp from.pgn hand.pgn || fail "convert --from clm differs from the .clm's conversion"
status=0
"$epdd" pgn check --from pgc hand.clm > check.txt || status=$?
[ "$status" = 1 ] && grep -q "pgc-data" check.txt || fail "pgn check --from pgc on a move file: exit $status, $(cat check.txt)"

[ "$failed" = 0 ] && echo "epdd convert: round trips, refusals and damage as documented"
exit "$failed"
