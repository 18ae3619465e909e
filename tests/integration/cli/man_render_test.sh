#!/usr/bin/env bash
# Every generated man page renders without a warning (issue 22): `groff -man -ww -z -Tutf8 PAGE`
# prints nothing and exits 0, `man --warnings -l PAGE` (MANWIDTH=80) renders it with nothing
# on stderr, and its NAME line reads as whatis entry "NAME - description" (lexgrog). Then the check is shown to fail: a copy of a page with a text line that starts with
# '.' (a request roff does not know: the text would be lost) gets a warning from both.
#
#   man_render_test.sh DOCS_DIR     (epdd_docs's output: man1/*.1, man5/*.5)
set -uo pipefail
docs=$1
failed=0
fail() { echo "FAIL: $*"; failed=1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for tool in groff man; do
  command -v $tool > /dev/null || { echo "FAIL: $tool is not installed (Debian packages groff-base, man-db)"; exit 1; }
done

# check PAGE: prints each warning; returns 1 if there is one.
check() {
  local page=$1 bad=0 out name
  out=$(groff -man -ww -z -Tutf8 "$page" 2>&1) || { echo "$page: groff exits $?"; bad=1; }
  [ -z "$out" ] || { echo "$page: groff -ww: $out"; bad=1; }
  MANWIDTH=80 man --warnings -l "$page" > "$tmp/text" 2> "$tmp/err" || { echo "$page: man -l exits non-zero"; bad=1; }
  [ -s "$tmp/err" ] && { echo "$page: man --warnings: $(head -3 "$tmp/err")"; bad=1; }
  [ "$(wc -l < "$tmp/text")" -ge 10 ] || { echo "$page: man -l rendered $(wc -l < "$tmp/text") lines"; bad=1; }
  # The NAME line as whatis/apropos (and lintian) read it: "name - description".
  name=$(basename "$page"); name=${name%.*}
  lexgrog "$page" 2>&1 | grep -qF ": \"$name - " || { echo "$page: lexgrog: $(lexgrog "$page" 2>&1)"; bad=1; }
  return $bad
}

count=0
for page in "$docs"/man1/*.1 "$docs"/man5/*.5; do
  [ -f "$page" ] || continue
  check "$page" || fail "$page does not render cleanly"
  count=$((count + 1))
done
[ $count -ge 20 ] || fail "only $count pages in $docs"
[ -f "$docs/man1/epdd-suite.1" ] && [ -f "$docs/man5/epdd.toml.5" ] || fail "no epdd-suite(1) or epdd.toml(5)"

# A planted line that starts with '.': both warn.
sed '/^\.SH DESCRIPTION$/a .tar files are read as they are' "$docs/man1/epdd-suite.1" > "$tmp/bad.1"
check "$tmp/bad.1" > "$tmp/bad.out" && fail "a page with an unescaped '.tar' line rendered without a warning"
grep -q "groff -ww: .*tar" "$tmp/bad.out" || fail "groff did not name the bad line: $(cat "$tmp/bad.out")"
grep -q "man --warnings: .*tar" "$tmp/bad.out" || fail "man --warnings did not name the bad line: $(cat "$tmp/bad.out")"

[ $failed -eq 0 ] && echo "$count pages render without warnings (groff -ww, man --warnings)"
exit $failed
