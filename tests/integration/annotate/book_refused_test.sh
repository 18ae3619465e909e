#!/usr/bin/env bash
# annotate --book FILE that is not a Polyglot book (issue 39, item 9: it was a note after every
# search): refused before any search, with the file and why, on the command line and through
# submit; a real book (sorted 16-byte entries) is taken.
#
#   book_refused_test.sh EPDD FAKE_ENGINE
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
printf '[Event "t"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 *\n' > one.pgn
printf '[Event "xxxxxxxx"]\n\n1. e4 *\n\n\n\n\n' > notabook.bin   # 32 bytes: two entries' size
: > empty.bin
for book in notabook.bin empty.bin; do
  status=0
  "$epdd" annotate one.pgn -o out.pgn --store s.db --depth 2 --engine "$fake" --engine-arg=--log="$work/$book.log" \
    --book "$book" 2> "$book.err" || status=$?
  [ "$status" = 2 ] || fail "$book: exit status $status, not 2 ($(cat "$book.err"))"
  grep -qF -- "--book $book: " "$book.err" || fail "$book: the message does not name the file: $(cat "$book.err")"
  ! grep -qE '^go( |$)' "$book.log" 2>/dev/null || fail "$book: the engine searched before the refusal"
  [ ! -e out.pgn ] || fail "$book: an output was written"
done
grep -qF "entry 2 has a key smaller than the one before: a Polyglot book is sorted by key, so this file is not one" notabook.bin.err ||
  fail "not a book: $(cat notabook.bin.err)"
grep -qF "the file is empty" empty.bin.err || fail "empty: $(cat empty.bin.err)"
status=0
"$epdd" submit annotate one.pgn --store q.db --depth 2 --engine fake --book notabook.bin -o q.pgn 2> submit.err || status=$?
[ "$status" = 2 ] && grep -qF -- "--book" submit.err || fail "submit took the file: status $status ($(cat submit.err))"
# A book: the start position's key and one after it, sorted.
printf '\x46\x3b\x96\x18\x16\x91\xfc\x9c\x00\x00\x00\x01\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x01\x00\x00\x00\x00' > book.bin
"$epdd" annotate one.pgn -o out.pgn --store s.db --depth 2 --engine "$fake" --book book.bin 2> book.err ||
  fail "a sorted book: exit status $? ($(cat book.err))"
[ "$failed" = 0 ] && echo "a --book that is not a Polyglot book is refused before any search"
exit "$failed"
