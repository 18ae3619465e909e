#!/usr/bin/env bash
# `epdd book` with the fake engine on composed inputs (issue 17, "The model", "The command and
# outputs"):
#  1. book.pgn (mates both ways at the leaves, a checkmate, a repetition, a leaf the engine crashes
#     on; book.script scripts the engine leaf by leaf): book_check's own minimax agrees with every
#     ce, bm and c0 (the crashed leaf unvalued, the positions above it incomplete, never 0) and
#     with the Polyglot file; the values written by hand below hold; the report names the
#     unvalued leaf; exit 1; the PGN output reads back without an error (epdd, and pgn-extract
#     when it is installed); a rerun tries the failed leaf again and writes the same bytes.
#  2. BOOKUP's round trip: `book leaves` -> `analyse` fills them -> `backsolve --import` searches
#     nothing and writes the same book as searching the leaves directly; the same with an engine
#     whose bestmove is not the first move of its line.
#  3. A Polyglot book as input, and EPD records linked into the games with --link-epd.
#  4. Bad input: a file that is no book input, a broken .bin, a missing file, an empty book, an
#     import that is no EPD: exit 2, named.
#  5. An engine that answers without a score: the leaf is unvalued, reported, exit 1.
#
#   inputs_test.sh EPDD FAKE_ENGINE BOOK_CHECK
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
epdd=$(realpath "$1")
fake=$(realpath "$2")
check=$(realpath "$3")
work=$(mktemp -d)
trap '[ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
echo "work directory: $work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
printf '#!/bin/sh\nexec "%s" --script "%s"\n' "$fake" "$here/book.script" > scripted.sh
chmod +x scripted.sh
cp "$here/book.pgn" book.pgn
record() { grep -F "id \"$1\";" "$2" || true; }  # the record whose id is $1

# 1. The composed book.
status=0
"$epdd" book backsolve book.pgn --engine ./scripted.sh --depth 2 --store a.db -o a.epd --pgn a.pgn --polyglot a.bin \
  --json a.json 2> a.err || status=$?
[ "$status" = 1 ] || fail "a book with an unvalued leaf: exit $status, not 1"
"$check" a.epd book.pgn a.bin || fail "book_check on the composed book"
grep -q '^no value: leaf 1. e4 e5 2. Bc4 ' a.err || fail "the report does not name the unvalued leaf: $(cat a.err)"
# By hand: Black mates in 3 moves (5 plies) after 2. g3; a level up each side's mate is a ply
# longer; the start's best is 1. d4 (White mates: 2. c4 leaves Black mated in 2 moves, 4 plies).
[[ "$(record "1. f3 e5 2. g3" a.epd)" == *"ce 32762;"* ]] || fail "mate in 3 for Black at the leaf: $(record "1. f3 e5 2. g3" a.epd)"
[[ "$(record "1. f3 e5" a.epd)" == *"bm g3; c0 \"interior\"; ce -32761;"* ]] || fail "1. f3 e5: $(record "1. f3 e5" a.epd)"
[[ "$(record "1. f3 e5 2. g4" a.epd)" == *"bm Qh4#; c0 \"interior\"; ce 32766;"* ]] || fail "the mate in one: $(record "1. f3 e5 2. g4" a.epd)"
[[ "$(record "1. f3 e5 2. g4 Qh4#" a.epd)" == *"c0 \"terminal\"; ce -32767;"* ]] || fail "checkmate: $(record "1. f3 e5 2. g4 Qh4#" a.epd)"
[[ "$(record "start" a.epd)" == *"bm d4; c0 \"incomplete\"; ce 32760;"* ]] || fail "the start: $(record start a.epd)"
[[ "$(record "1. e4 e5 2. Bc4" a.epd)" == *"c0 \"unvalued\";"* ]] || fail "the crashed leaf: $(record "1. e4 e5 2. Bc4" a.epd)"
[[ "$(record "1. e4 e5 2. Bc4" a.epd)" != *" ce "* ]] || fail "the crashed leaf has a value"
[[ "$(record "1. e4 e5" a.epd)" == *"bm Nf3; c0 \"incomplete\"; ce -30;"* ]] || fail "1. e4 e5: $(record "1. e4 e5" a.epd)"
grep -q '"unvalued_leaves": \[' a.json || fail "no unvalued_leaves in the JSON"
"$epdd" pgn check a.pgn > /dev/null || fail "epdd's reader finds problems in the book's PGN: $("$epdd" pgn check a.pgn)"
if command -v pgn-extract > /dev/null || [ -x /usr/games/pgn-extract ]; then
  pe=$(command -v pgn-extract || echo /usr/games/pgn-extract)
  "$pe" -s a.pgn > /dev/null 2> pe.err
  [ ! -s pe.err ] || fail "pgn-extract on the book's PGN: $(head -3 pe.err)"
fi
"$epdd" book backsolve book.pgn --engine ./scripted.sh --depth 2 --store a.db -o a2.epd -q 2> a2.err && fail "rerun: exit 0"
grep -q "leaf 1. e4 e5 2. Bc4 .*not analysed: .*crash" a2.err || fail "the rerun did not try the failed leaf again: $(cat a2.err)"
cmp a.epd a2.epd || fail "a rerun writes another book"
[ "$(sqlite3 a.db "select count(*) from items where state = 'failed'")" = 1 ] || fail "the crashed leaf is not failed in the store"
# A job whose items another version of epdd numbered otherwise (here: two items' numbers swapped
# in the store) is refused on resume, naming both positions, never rendered with each result
# given to the other's leaf.
cp a.db swapped.db
sqlite3 swapped.db "update items set idx = -1 where idx = 0; update items set idx = 0 where idx = 1;
                    update items set idx = 1 where idx = -1"
status=0
"$epdd" book backsolve book.pgn --engine ./scripted.sh --depth 2 --store swapped.db -o swapped.epd -q 2> swapped.err ||
  status=$?
[ "$status" = 2 ] || fail "a store whose items are numbered otherwise: exit $status, not 2: $(cat swapped.err)"
grep -q "item 0 holds 'fen .*', but the job's input plans 'fen .*' there now" swapped.err ||
  fail "the refusal does not name both positions: $(cat swapped.err)"
[ ! -e swapped.epd ] || fail "a book was written from a store whose items are numbered otherwise"

# 2. The round trip, with the plain fake engine (no crash).
"$epdd" book backsolve book.pgn --engine "$fake" --depth 2 --store b.db -o direct.epd -q
# --pv-plies (issue 36): the same job rendered again with each pv cut to its first 2 plies, and
# nothing else changed; no search (an output setting resumes the job).
"$epdd" book backsolve book.pgn --engine "$fake" --depth 2 --store b.db -o short.epd --pv-plies 2 2> short.err ||
  fail "--pv-plies 2: exit status $?: $(tail -2 short.err)"
grep -q "0 leaves searched now" short.err || fail "--pv-plies searched again: $(tail -2 short.err)"
cut_pv() { perl -pe 's/ pv ([^;]*);/" pv " . join(" ", grep { defined } (split(" ", $1))[0 .. 1]) . ";"/e' "$1"; }
[ "$(grep -c ' pv ' direct.epd)" -gt 0 ] || fail "no pv in the book to cut"
grep -q ' pv [^;]* [^;]* [^;]*;' direct.epd || fail "no pv longer than 2 plies in the book to cut"
diff <(cut_pv direct.epd) short.epd >&2 || fail "--pv-plies 2: not each pv's first 2 plies, the rest unchanged (above)"
"$epdd" book leaves book.pgn -o leaves.epd 2> leaves.err
[ "$(grep -c 'c0 "leaf"' leaves.epd)" = 6 ] || fail "book leaves: $(cat leaves.epd)"
"$epdd" analyse leaves.epd --engine "$fake" --depth 2 --store c.db -o filled.epd -q
"$epdd" book backsolve book.pgn --import filled.epd --engine "$fake" --depth 2 --store d.db -o imported.epd 2> imported.err
grep -q "0 leaves searched now" imported.err || fail "the import did not spare the searches: $(tail -3 imported.err)"
cmp direct.epd imported.epd || fail "the imported book differs from the searched one: $(diff direct.epd imported.epd | head -4)"
"$check" imported.epd book.pgn || fail "book_check on the imported book"
# The same with an engine whose bestmove is off its line at every leaf (it changed its mind in
# an iteration it did not finish): line 1 is the analysis for `analyse` as for the book (one
# rule, issue 39 item 6), so the import still gives the searched book's bytes. The leaf's
# second move is the bestmove, its first move and reply the line.
: > off-line.script
while read -r f1 f2 f3 f4 _; do
  lines=$(printf 'uci\nsetoption name MultiPV value 2\nposition fen %s %s %s %s 0 1\ngo depth 1\nquit\n' \
    "$f1" "$f2" "$f3" "$f4" | "$fake" | grep '^info depth 1 ')
  first=$(sed -n 's/.* multipv 1 .* pv \(.*\)$/\1/p' <<< "$lines")
  second=$(sed -n 's/.* multipv 2 .* pv \([^ ]*\).*$/\1/p' <<< "$lines")
  [ -n "$first" ] && [ -n "$second" ] || { fail "no two moves at leaf $f1: $lines"; continue; }
  echo "$f1 $f2 $f3 $f4 | bestmove $second | pv $first" >> off-line.script
done < <(grep 'c0 "leaf"' leaves.epd)
printf '#!/bin/sh\nexec "%s" --script "%s"\n' "$fake" "$work/off-line.script" > off-line.sh
chmod +x off-line.sh
"$epdd" book backsolve book.pgn --engine ./off-line.sh --depth 2 --store f.db -o off-direct.epd -q
"$epdd" analyse leaves.epd --engine ./off-line.sh --depth 2 --store g.db -o off-filled.epd -q
"$epdd" book backsolve book.pgn --import off-filled.epd --engine ./off-line.sh --depth 2 --store h.db \
  -o off-imported.epd -q
cmp off-direct.epd off-imported.epd ||
  fail "bestmove off the line: the imported book differs: $(diff off-direct.epd off-imported.epd | head -4)"
read -r f1 f2 f3 f4 _ < <(grep 'c0 "leaf"' leaves.epd)
[[ "$(grep -F "$f1 $f2 $f3 $f4 " off-filled.epd)" =~ \ bm\ ([^;]*)\;.*\ pm\ ([^;]*)\;\ pv\ ([^ ;]*) ]] &&
  [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[2]}" = "${BASH_REMATCH[3]}" ] ||
  fail "analyse: bm, pm and pv's first move are not one move: $(grep -F "$f1 $f2 $f3 $f4 " off-filled.epd)"

# 3. Polyglot input; EPD records linked to the games.
"$epdd" book backsolve book.pgn --engine "$fake" --depth 2 --store b.db -o all.epd --polyglot all.bin \
  --polyglot-margin 32000 -q
"$epdd" book backsolve all.bin --engine "$fake" --depth 2 --store b.db -o from-bin.epd -q
cut -d' ' -f1-4 all.epd | sort > all.positions
cut -d' ' -f1-4 from-bin.epd | sort > bin.positions
comm -13 all.positions bin.positions | grep -q . && fail "the .bin's book has positions the games do not: $(comm -13 all.positions bin.positions | head -2)"
[ "$(wc -l < bin.positions)" -ge 10 ] || fail "the .bin's book is small: $(wc -l < bin.positions) positions"
printf '%s\n' 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - id "Petrov start";' \
  'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id "two knights";' > more.epd
"$epdd" book backsolve book.pgn more.epd --link-epd --engine "$fake" --depth 2 --store b.db -o linked.epd -q
[[ "$(record "1. e4 e5 2. Nf3" linked.epd)" == *"bm Nc6; c0 \"interior\";"* ]] || fail "the record is not linked: $(record "1. e4 e5 2. Nf3" linked.epd)"
[[ "$(record "1. e4 e5 2. Nf3 Nc6" linked.epd)" == *"c0 \"leaf\";"* ]] || fail "the linked record: $(grep -F 'r1bqkbnr/pppp1ppp/2n5' linked.epd)"

# 4. Bad input.
echo "1. e4 e5" > notes.txt
"$epdd" book backsolve notes.txt --engine "$fake" --store e.db -q 2> txt.err && fail "a .txt input was taken"
grep -q "notes.txt: a book is read from .pgn" txt.err || fail "a .txt input: $(cat txt.err)"
head -c 20 all.bin > broken.bin
"$epdd" book backsolve broken.bin --engine "$fake" --store e.db -q 2> bin.err && fail "a broken .bin was taken"
grep -q "broken.bin: .*20" bin.err || fail "a broken .bin: $(cat bin.err)"
status=0
"$epdd" book backsolve missing.pgn --engine "$fake" --store e.db -q 2> missing.err || status=$?
[ "$status" = 2 ] && grep -q "missing.pgn" missing.err || fail "a missing file: exit $status: $(cat missing.err)"

: > empty.pgn
status=0
"$epdd" book backsolve empty.pgn --engine "$fake" --store e.db -q 2> empty.err || status=$?
[ "$status" = 2 ] && grep -q "empty.pgn: no game, Polyglot entry or EPD record" empty.err || fail "an empty book: exit $status: $(cat empty.err)"
"$epdd" book backsolve book.pgn --import book.pgn --engine "$fake" --store e.db -q 2> import.err && fail "a .pgn --import was taken"
grep -q "import book.pgn: the leaf values come as an EPD file" import.err || fail "a .pgn --import: $(cat import.err)"

# 5. An engine that ends its searches without a score: every leaf without a value, said, exit 1.
# Such an answer is never cached (issue 37): the leaf is failed in the store and a rerun asks the
# engine again; a job that can use a bare bestmove (analyse) gets it, still uncached.
cat > scoreless.sh <<ENGINE
#!/bin/sh
while read -r line; do
  case "\$line" in
    uci) echo "id name Scoreless"
         echo "option name Hash type spin default 16 min 1 max 1024"
         echo "option name Threads type spin default 1 min 1 max 1"
         echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo go >> "$work/go.log"; echo "info depth 1 nodes 10"; echo "bestmove a7a6" ;;
    quit) exit 0 ;;
  esac
done
ENGINE
chmod +x scoreless.sh
printf '1. f3 e5 2. g3 *\n' > one.pgn   # one leaf
status=0
"$epdd" book backsolve one.pgn --engine ./scoreless.sh --depth 1 --store s.db -o scoreless.epd 2> scoreless.err || status=$?
[ "$status" = 1 ] || fail "a scoreless engine: exit $status, not 1"
grep -q "no score" scoreless.err || fail "the scoreless leaf is not reported: $(cat scoreless.err)"
grep -q 'c0 "unvalued"' scoreless.epd || fail "the scoreless leaf has a value: $(cat scoreless.epd)"
[ "$(sqlite3 s.db 'select count(*) from cache')" = 0 ] || fail "an answer without a score was cached"
[ "$(sqlite3 s.db "select state from items")" = failed ] || fail "the scoreless leaf is not failed in the store"
"$epdd" book backsolve one.pgn --engine ./scoreless.sh --depth 1 --store s.db -o scoreless2.epd 2> /dev/null || true
[ "$(wc -l < go.log)" = 2 ] || fail "the rerun did not ask the engine again: $(wc -l < go.log) searches"
# analyse: the bestmove is written (bm), the answer not cached: another job searches it again.
printf '%s\n' 'rnbqkbnr/pppp1ppp/8/4p3/8/5PP1/PPPPP2P/RNBQKBNR b KQkq - id "a";' > a.epd
"$epdd" analyse a.epd --engine ./scoreless.sh --depth 1 --store s.db -o a.out -q || fail "analyse with a scoreless engine: exit $?"
grep -q ' bm a6;' a.out || fail "analyse did not write the bare bestmove: $(cat a.out)"
cp a.epd b.epd && printf '%s\n' 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "b";' >> b.epd
"$epdd" analyse b.epd --engine ./scoreless.sh --depth 1 --store s.db -o b.out -q || fail "analyse b.epd: exit $?"
[ "$(wc -l < go.log)" = 5 ] || fail "a scoreless answer served another job from the cache: $(wc -l < go.log) searches, not 5"
[ "$(sqlite3 s.db 'select count(*) from cache')" = 0 ] || fail "analyse cached an answer without a score"

[ "$failed" = 0 ] && echo "book inputs test passed"
exit $failed
