#!/usr/bin/env bash
# `cmake --install` puts the man pages and the bash completion where Debian has them (issue 22):
# share/man/man1/epdd*.1.gz, share/man/man5/epdd.toml.5.gz (gzip -9n: no name, no timestamp),
# share/bash-completion/completions/epdd; and `man -w` finds a page through MANPATH.
#
#   install_test.sh CMAKE BUILD_DIR DOCS_DIR
set -uo pipefail
cmake=$1
build=$2
docs=$3
failed=0
fail() { echo "FAIL: $*"; failed=1; }
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT

"$cmake" --install "$build" --prefix "$prefix" > "$prefix.log" 2>&1 || { fail "cmake --install: $(tail -5 "$prefix.log")"; }
rm -f "$prefix.log"
man1=$prefix/share/man/man1
for plain in "$docs"/man1/*.1 "$docs"/man5/*.5; do
  section=${plain##*.}
  installed=$prefix/share/man/man$section/$(basename "$plain").gz
  [ -f "$installed" ] || { fail "$installed is not installed"; continue; }
  cmp -s <(gzip -dc "$installed") "$plain" || fail "$installed is not $plain compressed"
  # The gzip header: no file name (FLG bit 3) and MTIME 0, as gzip -n writes it.
  header=$(od -An -tx1 -N8 "$installed" | tr -d ' \n')
  [ "${header:6:2}" = 00 ] && [ "${header:8:8}" = 00000000 ] || fail "$installed has a name or a timestamp in its gzip header ($header)"
done
ls "$man1"/*.1 > /dev/null 2>&1 && fail "uncompressed pages installed: $(ls "$man1"/*.1)"
[ "$(ls "$man1" | wc -l)" -ge 20 ] || fail "only $(ls "$man1" | wc -l) pages in $man1"
completion=$prefix/share/bash-completion/completions/epdd
[ -f "$completion" ] || fail "$completion is not installed"
grep -q "complete -F _epdd epdd" "$completion" || fail "$completion does not register _epdd"

found=$(MANPATH=$prefix/share/man man -w epdd-suite 2>&1)
[ "$found" = "$man1/epdd-suite.1.gz" ] || fail "MANPATH=$prefix/share/man man -w epdd-suite: $found"
# A command's other name (analyze, an alias of analyse) is a link to its page, found by man.
[ "$(readlink "$man1/epdd-analyze.1.gz")" = epdd-analyse.1.gz ] || fail "epdd-analyze.1.gz is not a link to epdd-analyse.1.gz"
found=$(MANPATH=$prefix/share/man man -w epdd-analyze 2>&1)
[ "$found" = "$man1/epdd-analyse.1.gz" ] || fail "MANPATH=$prefix/share/man man -w epdd-analyze: $found"
found=$(MANPATH=$prefix/share/man man -w 5 epdd.toml 2>&1)
[ "$found" = "$prefix/share/man/man5/epdd.toml.5.gz" ] || fail "man -w 5 epdd.toml: $found"
MANPATH=$prefix/share/man MANWIDTH=80 man epdd-suite 2> /dev/null | grep -q "^SYNOPSIS" || fail "man epdd-suite does not render"

[ $failed -eq 0 ] && echo "installed: $(ls "$man1" | wc -l) pages in man1, epdd.toml(5), the bash completion; man -w finds them"
exit $failed
