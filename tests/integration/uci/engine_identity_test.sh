#!/usr/bin/env bash
# The analysis cache knows an engine by what makes it a different engine (issue 14, point 1):
# the executable's content, its argument vector, its options and its `id name`. Wrapper scripts
# around one fake engine binary, all saying `id name FakeEngine 1.0` with the same options:
#   play.sh   scripted to play another move on the first position;
#   crash.sh  crashes at go;
#   the fake engine itself with two argument vectors (--script or not), from a TOML file.
# (Before the fix, each run after the first was even taken for a resumption of the first.)
# None of them may be answered from another's cache entries; a copy of play.sh under another
# name and directory is the same engine (content, not path) and is answered from the cache.
#
#   engine_identity_test.sh EPDD FAKE_ENGINE
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

cat > three.epd <<'EPD'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "after e4";
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id "two knights";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - id "mate in one";
EPD
echo 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - | bestmove g8f6' > play.script
printf '#!/bin/sh\nexec "%s" --script "%s"\n' "$fake" "$work/play.script" > play.sh
printf '#!/bin/sh\nexec "%s" --crash-at go\n' "$fake" > crash.sh
chmod +x play.sh crash.sh
mkdir elsewhere && cp play.sh elsewhere/same-as-play.sh
cat > engines.toml <<TOML
[[engine]]
name = "plain"
command = "$fake"
[[engine]]
name = "scripted"
command = "$fake"
args = ["--script", "$work/play.script"]
TOML

# run NAME ARGS...: epdd analyse three.epd into NAME.epd on one store; its summary in NAME.txt.
run() {
  local name=$1
  shift
  "$epdd" analyse three.epd -o "$name.epd" --store s.db --depth 2 "$@" 2> "$name.txt" || true
  grep -h 'records analysed' "$name.txt" || cat "$name.txt"
}
# pm_of NAME: the first record's pm.
pm_of() { sed -n '1s/.* pm \([^;]*\);.*/\1/p' "$1.epd"; }

run default --engine "$fake"
run play --engine "$work/play.sh"
grep -q '3 searched now, 0 from the cache' play.txt || fail "play.sh was answered from the fake engine's entries"
[ "$(pm_of play)" = Nf6 ] || fail "play.sh's move on the first record is $(pm_of play), not Nf6"
[ "$(pm_of default)" != Nf6 ] || fail "the fake engine itself plays Nf6: the test cannot tell them apart"

run crash --engine "$work/crash.sh"
grep -q '0 records analysed.*3 failed' crash.txt || fail "crash.sh, which crashes at go, did not fail every record"

run copy --engine "$work/elsewhere/same-as-play.sh"
grep -q '(0 searched now' copy.txt || fail "a copy of play.sh elsewhere is not the same engine"
cmp -s play.epd copy.epd || fail "the copy's output differs from play.sh's"

run plain --config engines.toml --engine plain
grep -q '3 records analysed' plain.txt || fail "the fake engine from TOML did not analyse"
run scripted --config engines.toml --engine scripted
grep -q '3 searched now, 0 from the cache' scripted.txt || fail "other arguments were answered from the cache"
[ "$(pm_of scripted)" = Nf6 ] || fail "the scripted engine's move is $(pm_of scripted), not Nf6"

# The identity is shown: in check-engine -v and in the report's settings.
"$epdd" check-engine -v --timeout-scale 0.2 -- "$work/play.sh" > check.txt 2>&1 || true
grep -q 'identity:.*FakeEngine 1.0.*program xxh64 [0-9a-f]\{16\}' check.txt || fail "check-engine -v does not show the identity"
"$epdd" suite three.epd --store s.db --depth 2 --engine "$work/play.sh" --json run.json > report.txt 2>&1 || true
grep -q 'program xxh64 [0-9a-f]\{16\}' run.json || fail "the JSON report does not show the identity"

[ "$failed" = 0 ] && echo "engine identity: wrappers and arguments kept apart, a copy recognised"
exit "$failed"
