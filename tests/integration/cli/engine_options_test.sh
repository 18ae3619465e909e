#!/usr/bin/env bash
# --option NAME=VALUE and --engine-arg ARG (issue 22, point 2), with the fake engine, whose
# --log FILE (given through --engine-arg, which so shows that the argument reached its argument
# vector) records every line it receives:
#   1. each option reaches the engine as `setoption`, in the engine's spelling and canonical
#      value: a spin, a check, a combo, a string (with spaces), a button; over the TOML's value;
#   2. a misspelt name stops the command before any search: exit 2, the closest declared name,
#      no `position` and no `go` in the engine's log, no job in the store; on every command that
#      starts an engine (analyse, suite, annotate, book backsolve);
#   3. a spin out of range, a combo value that is no choice, a check that is not true/false: the same;
#   4. --option without '=', --threads with --option Threads, --option MultiPV (epdd's, from
#      --multipv): errors in words, before the engine starts;
#   5. check-engine prints the command line and the setoptions it sent, and fails its handshake
#      on a misspelt option with the suggestion;
#   6. an engine that declares no Hash (or no option at all) is sent none of epdd's defaults it
#      lacks, refuses a Hash the user asks for, and check-engine sends what the other commands do.
#
#   engine_options_test.sh EPDD FAKE_ENGINE
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

cat > two.epd <<'EPD'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "after e4";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - id "mate in one";
EPD
printf '[Event "t"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 2. Nf3 *\n' > one.pgn

# has LOG LINE: the log holds exactly this line.
has() { grep -qxF -- "$2" "$1" || fail "$1 has no line '$2'"; }
# no_search LOG: the engine was told no position and no search.
no_search() { ! grep -qE '^(position|go)( |$)' "$1" || fail "$1: the engine got a position or a search: $(grep -E '^(position|go)' "$1" | head -2 | tr '\n' ' ')"; }
# no_job STORE: the store has no job (or was not even made).
no_job() { [ ! -e "$1" ] || [ "$(sqlite3 "$1" 'select count(*) from jobs')" = 0 ] || fail "$1 has a job"; }

# 1. Every type of option arrives, as the engine spells it.
"$epdd" analyse two.epd -o out.epd --store s.db --depth 2 --engine "$fake" --engine-arg=--log="$work/ok.log" \
  --option "Hash=32" --option "ponder=TRUE" --option "Style=risky" --option "Debug Log File=/tmp/a b.log" \
  --option "Clear Hash=" 2> ok.txt || fail "analyse with good options: status $? ($(cat ok.txt))"
[ -s ok.log ] || fail "--engine-arg=--log=... did not reach the engine's argument vector: no log"
has ok.log "setoption name Hash value 32"
has ok.log "setoption name Ponder value true"
has ok.log "setoption name Style value Risky"
has ok.log "setoption name Debug Log File value /tmp/a b.log"
has ok.log "setoption name Clear Hash"
grep -q '^go ' ok.log || fail "the engine was not asked to search"
grep -q '2 records analysed' ok.txt || fail "analyse did not analyse: $(cat ok.txt)"

# --option over the configuration's value of the same name (in another case).
cat > engines.toml <<TOML
[[engine]]
name = "fake"
command = "$fake"
args = ["--log", "$work/toml.log"]
[engine.options]
Style = "Solid"
Hash = 8
TOML
"$epdd" analyse two.epd -o out2.epd --store s.db --depth 2 --config engines.toml --engine fake --option style=Risky \
  2> toml.txt || fail "analyse with --config and --option: status $? ($(cat toml.txt))"
has toml.log "setoption name Style value Risky"
has toml.log "setoption name Hash value 8"
! grep -q 'Style value Solid' toml.log || fail "the configuration's Style was sent as well as --option's"

# 2 and 3. Refused options: exit 2 before any search, with the reason; no job in a new store.
# refused NAME EXPECTED ARGS...: epdd analyse with ARGS fails so.
refused() {
  local name=$1 expected=$2
  shift 2
  local status=0
  "$epdd" analyse two.epd -o "$name.epd" --store "$name.db" --depth 2 --engine "$fake" \
    --engine-arg=--log="$work/$name.log" "$@" 2> "$name.txt" || status=$?
  [ "$status" = 2 ] || fail "$name: exit status $status, not 2 ($(cat "$name.txt"))"
  grep -qF -- "$expected" "$name.txt" || fail "$name: the message does not say \"$expected\": $(cat "$name.txt")"
  ! grep -q 'last lines' "$name.txt" || fail "$name: the message has the engine's transcript"
  [ ! -e "$name.epd" ] || fail "$name: an output was written"
  [ -s "$name.log" ] || fail "$name: the engine was not even started"
  no_search "$name.log"
  no_job "$name.db"
}
refused typo "engine FakeEngine 1.0 declares no option 'Hahs' (did you mean 'Hash'?)" --option Hahs=64
refused typo2 "declares no option 'Stlye' (did you mean 'Style'?)" --option Hash=32 --option Stlye=Risky
refused spin "option 'Hash' wants an integer from 1 to 1024, not '99999'" --option Hash=99999
refused spin_text "option 'Threads' wants an integer from 1 to 64, not 'two'" --option Threads=two
refused combo "option 'Style' is one of Solid, Normal, Risky, not 'Wild'" --option Style=Wild
refused check "option 'Ponder' is true or false, not 'yes'" --option Ponder=yes
refused two_bad "option 'Ponder' is true or false, not 'yes'" --option Ponder=yes --option Hahs=1
grep -qF "(did you mean 'Hash'?)" two_bad.txt || fail "two bad options: only one is reported: $(cat two_bad.txt)"
# --threads beyond what the engine declares (64) is the engine's verdict, said of --threads.
refused threads "--threads: option 'Threads' wants an integer from 1 to 64, not '100'" --threads 100

# The other commands that start an engine.
status=0
"$epdd" suite two.epd --store suite.db --depth 2 --engine "$fake" --engine-arg=--log="$work/suite.log" \
  --option Hahs=1 > suite.out 2> suite.txt || status=$?
[ "$status" = 2 ] && grep -qF "(did you mean 'Hash'?)" suite.txt || fail "suite: status $status: $(cat suite.txt)"
no_search suite.log
no_job suite.db
status=0
"$epdd" annotate one.pgn -o one.out.pgn --store annotate.db --depth 2 --engine "$fake" \
  --engine-arg=--log="$work/annotate.log" --option Hahs=1 2> annotate.txt || status=$?
[ "$status" = 2 ] && grep -qF "(did you mean 'Hash'?)" annotate.txt || fail "annotate: status $status: $(cat annotate.txt)"
no_search annotate.log
no_job annotate.db
status=0
"$epdd" book backsolve one.pgn -o book.epd --store book.db --depth 2 --engine "$fake" \
  --engine-arg=--log="$work/book.log" --option Hahs=1 2> book.txt || status=$?
[ "$status" = 2 ] && grep -qF "(did you mean 'Hash'?)" book.txt || fail "book backsolve: status $status: $(cat book.txt)"
no_search book.log
no_job book.db

# 4. Command-line mistakes, said before any engine starts.
status=0
"$epdd" analyse two.epd --store form.db --engine "$fake" --option Hash 2> form.txt || status=$?
[ "$status" = 2 ] && grep -qF -- '--option Hash: give NAME=VALUE, for example --option "Skill Level=5"' form.txt ||
  fail "--option without '=': status $status: $(cat form.txt)"
status=0
"$epdd" analyse two.epd --store both.db --engine "$fake" --threads 2 --option Threads=4 2> both.txt || status=$?
[ "$status" = 2 ] && grep -qF -- "--threads 2 and --option 'Threads=4' both set Threads: give one of them" both.txt ||
  fail "--threads and --option Threads: status $status: $(cat both.txt)"
no_job both.db
status=0
"$epdd" analyse two.epd --store mpv.db --engine "$fake" --engine-arg=--log="$work/mpv.log" --option MultiPV=3 2> mpv.txt ||
  status=$?
[ "$status" = 2 ] && grep -qF -- "--option 'MultiPV=3': epdd sets MultiPV itself for each search, from --multipv" mpv.txt ||
  fail "--option MultiPV: status $status: $(cat mpv.txt)"
[ ! -e mpv.log ] || fail "--option MultiPV: the engine was started"
# --option takes one value: the input after it is the input.
"$epdd" analyse --option Hash=32 two.epd -o after.epd --store s.db --depth 2 --engine "$fake" 2> after.txt ||
  fail "--option before the input: status $? ($(cat after.txt))"

# 5. check-engine shows the command line and what it sent; a typo fails the handshake.
"$epdd" check-engine --timeout-scale 0.2 --option "Style=risky" --option "Debug Log File=/tmp/a b.log" \
  --engine-arg=--name --engine-arg "Fake Args 2.0" -- "$fake" > check.txt 2>&1 || fail "check-engine with options: status $?"
grep -qF "Checking engine '$fake': $fake --name 'Fake Args 2.0'" check.txt ||
  fail "check-engine does not print the command line: $(head -2 check.txt)"
grep -qF "Options: Threads=1 (epdd's default, if declared), Hash=16 (epdd's default, if declared), Style=risky (--option), Debug Log File=/tmp/a b.log (--option)" check.txt ||
  fail "check-engine does not print the options asked for: $(head -3 check.txt)"
grep -qF "'Fake Args 2.0' by" check.txt || fail "--engine-arg did not reach check-engine's engine"
grep -qE "sent: setoption name Style value Risky$" check.txt || fail "check-engine does not show the setoption sent"
grep -qE "sent: setoption name Debug Log File value /tmp/a b.log$" check.txt || fail "check-engine does not show the string option"
grep -q "13 of 13 steps passed" check.txt || fail "check-engine with good options: $(tail -1 check.txt)"
status=0
"$epdd" check-engine --timeout-scale 0.2 --option "Hahs=64" -- "$fake" > check_typo.txt 2>&1 || status=$?
[ "$status" = 1 ] || fail "check-engine with a typo: status $status, not 1"
grep -q "^FAIL handshake .*declares no option 'Hahs' (did you mean 'Hash'?)" check_typo.txt ||
  fail "check-engine: the handshake does not fail with the suggestion: $(head -5 check_typo.txt)"
grep -q "0 of 1 steps passed" check_typo.txt || fail "check-engine ran steps after a refused option: $(tail -1 check_typo.txt)"

# 6. An engine without a Hash option (issue 39, item 8): epdd's defaults, Threads=1 and Hash=16,
# reach an engine that declares them and no other; a Hash the user asks for is refused by it;
# check-engine sends what the other commands send, and takes --engine PATH as they do.
for declared in none Threads MultiPV,UCI_Chess960; do
  "$epdd" analyse two.epd -o "bare-$declared.epd" --store bare.db --depth 2 --engine "$fake" \
    --engine-arg=--declare="$declared" --engine-arg=--log="$work/bare-$declared.log" 2> "bare-$declared.txt" ||
    fail "analyse with an engine declaring $declared: status $? ($(cat "bare-$declared.txt"))"
  grep -q '^go ' "bare-$declared.log" || fail "an engine declaring $declared was not asked to search"
  ! grep -q '^setoption name Hash' "bare-$declared.log" || fail "Hash was sent to an engine declaring $declared"
done
has bare-Threads.log "setoption name Threads value 1"
! grep -q '^setoption name Threads' bare-none.log || fail "Threads was sent to an engine declaring no option"
"$epdd" suite two.epd --store bare.db --depth 2 --engine "$fake" --engine-arg=--declare=none > bare-suite.txt 2>&1 ||
  fail "suite with an engine declaring no option: status $? ($(tail -3 bare-suite.txt))"
"$epdd" annotate one.pgn -o bare.pgn --store bare.db --depth 2 --engine "$fake" --engine-arg=--declare=Threads \
  2> bare-annotate.txt || fail "annotate with an engine without Hash: status $? ($(cat bare-annotate.txt))"
has ok.log "setoption name Threads value 1"
refused nohash "engine FakeEngine 1.0 declares no option 'Hash'" --engine-arg=--declare=Threads --hash 64
refused nohash2 "declares no option 'Hash'" --engine-arg=--declare=none --option Hash=16
"$epdd" check-engine --timeout-scale 0.2 -- "$fake" --declare Threads,MultiPV > check_bare.txt 2>&1 ||
  fail "check-engine with an engine without Hash: status $? ($(tail -3 check_bare.txt))"
grep -qE "sent: setoption name Threads value 1$" check_bare.txt || fail "check-engine did not send Threads=1: $(head -8 check_bare.txt)"
! grep -q "setoption name Hash" check_bare.txt || fail "check-engine sent Hash to an engine without it"
grep -q "13 of 13 steps passed" check_bare.txt || fail "check-engine with an engine without Hash: $(tail -1 check_bare.txt)"
grep -qE "sent: setoption name Hash value 16$" check.txt || fail "check-engine did not send Hash=16 as suite does: $(head -8 check.txt)"
"$epdd" check-engine --timeout-scale 0.2 --engine "$fake" --engine-arg=--declare=Threads,MultiPV > check_path.txt 2>&1 ||
  fail "check-engine --engine PATH: status $? ($(tail -3 check_path.txt))"
grep -qF "Checking engine 'fake_engine': $fake --declare=Threads,MultiPV" check_path.txt ||
  fail "check-engine --engine PATH did not run that program: $(head -2 check_path.txt)"

[ "$failed" = 0 ] && echo "engine options: sent as declared, refused before any search with the closest names"
exit "$failed"
