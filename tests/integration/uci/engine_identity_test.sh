#!/usr/bin/env bash
# The analysis cache knows an engine by what makes it a different engine (issue 14, point 1):
# the executable's content, its argument vector, its options and its `id name`. Wrapper scripts
# around one fake engine binary, all saying `id name FakeEngine 1.0` with the same options:
#   play.sh   scripted to play another move on the first position;
#   crash.sh  crashes at go;
#   the fake engine itself with two argument vectors (--script or not), from a TOML file, and
#   from --engine-arg; with an option from --option or from the TOML (issue 22).
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

# The command line's engine settings (issue 22) are the identity too: --engine-arg, like args in
# the TOML, and --option, like [engine.options]; the same ones again are answered from the cache.
run cli_args --engine "$fake" --engine-arg=--script --engine-arg "$work/play.script"
grep -q '3 searched now, 0 from the cache' cli_args.txt || fail "--engine-arg was answered from the cache of other arguments"
[ "$(pm_of cli_args)" = Nf6 ] || fail "--engine-arg --script: the first record's move is $(pm_of cli_args), not Nf6"
run cli_args_again --engine "$fake" --engine-arg=--script --engine-arg "$work/play.script"
grep -q '(0 searched now' cli_args_again.txt || fail "the same --engine-arg again was not answered from the cache"
run option --engine "$fake" --option Style=Risky
grep -q '3 searched now, 0 from the cache' option.txt || fail "--option Style=Risky was answered from the cache without it"
run option_again --engine "$fake" --option Style=Risky
grep -q '(0 searched now' option_again.txt || fail "the same --option again was not answered from the cache"
run option_other --engine "$fake" --option Style=Solid
grep -q '3 searched now, 0 from the cache' option_other.txt || fail "--option Style=Solid was answered from Style=Risky's entries"
# The TOML's options and the same ones from the command line (--option on top of the built-in
# Threads 1 and Hash 16) are one engine: answered from the cache.
cat >> engines.toml <<TOML
[[engine]]
name = "risky"
command = "$fake"
[engine.options]
Threads = 1
Hash = 16
Style = "Risky"
TOML
run toml_option --config engines.toml --engine risky
grep -q '(0 searched now' toml_option.txt || fail "Style = \"Risky\" in the TOML is not the engine of --option Style=Risky"

# The identity is the options as the engine is told them (issue 22 follow-up): the engine's
# spelling of a name, the canonical value (spin in decimal, check true/false, a combo's declared
# var); another spelling of the same setting is answered from the cache, another value is not.
# same_as NAME WHAT ARGS...: a run answered wholly from the cache.
same_as() {
  local name=$1 what=$2
  shift 2
  run "$name" --engine "$fake" "$@"
  grep -q '(0 searched now' "$name.txt" || fail "$what was not answered from the cache"
}
# other_than NAME WHAT ARGS...: a run searched wholly.
other_than() {
  local name=$1 what=$2
  shift 2
  run "$name" --engine "$fake" "$@"
  grep -q '3 searched now, 0 from the cache' "$name.txt" || fail "$what was answered from the cache"
}
same_as style_lower "--option style=Risky (Style=Risky before)" --option style=Risky
same_as style_upper "--option STYLE=Risky" --option STYLE=Risky
same_as combo_lower "--option Style=risky (the combo var in other case)" --option Style=risky
same_as combo_upper "--option 'style=RISKY'" --option "style=RISKY"
other_than log_file "--option 'Debug Log File=x.log' (a new option)" --option "Debug Log File=x.log"
same_as log_lower "--option 'debug log file=x.log'" --option "debug log file=x.log"
same_as log_upper "--option 'DEBUG LOG FILE=x.log'" --option "DEBUG LOG FILE=x.log"
other_than log_other "--option 'Debug Log File=X.log' (a string is kept as given)" --option "Debug Log File=X.log"
other_than hash_32 "--option Hash=32 (another value)" --option Hash=32
same_as hash_032 "--option Hash=032" --option Hash=032
same_as hash_lower "--option hash=32" --option hash=32
same_as hash_16 "--option Hash=016 (the built-in Hash=16)" --option Hash=016
other_than ponder_true "--option Ponder=true" --option Ponder=true
same_as ponder_upper "--option Ponder=TRUE" --option Ponder=TRUE
same_as ponder_name "--option ponder=True" --option ponder=True
other_than ponder_false "--option Ponder=false (another value)" --option Ponder=false
# The TOML's names in another case and values in another spelling: the engine of Style=Risky.
cat >> engines.toml <<TOML
[[engine]]
name = "risky-spelt"
command = "$fake"
options = { threads = 1, hash = 16, style = "RISKY" }
TOML
run toml_spelt --config engines.toml --engine risky-spelt
grep -q '(0 searched now' toml_spelt.txt || fail "hash = 16, style = \"RISKY\" in the TOML is not the engine of --option Style=Risky"

# The identity is shown: in check-engine -v and in the report's settings.
"$epdd" check-engine -v --timeout-scale 0.2 -- "$work/play.sh" > check.txt 2>&1 || true
grep -q 'identity:.*FakeEngine 1.0.*program xxh64 [0-9a-f]\{16\}' check.txt || fail "check-engine -v does not show the identity"
"$epdd" suite three.epd --store s.db --depth 2 --engine "$work/play.sh" --json run.json > report.txt 2>&1 || true
grep -q 'program xxh64 [0-9a-f]\{16\}' run.json || fail "the JSON report does not show the identity"

[ "$failed" = 0 ] && echo "engine identity: wrappers and arguments kept apart, a copy recognised"
exit "$failed"
