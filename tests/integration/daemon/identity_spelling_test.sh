#!/usr/bin/env bash
# A daemon and the one-shot commands know an engine by the same identity however its options are
# spelt (issue 22 follow-up): the daemon's engine has `threads = 1, hash = 16, style = "RISKY"`
# in its TOML; a one-shot `epdd analyse --engine FAKE --option Style=Risky` on the daemon's store
# afterwards is answered wholly from the cache the daemon filled; another value is searched.
#   identity_spelling_test.sh EPDD FAKE_ENGINE
source "$(dirname "$0")/lib.sh" "$1" "$2"

cat > three.epd <<'EPD'
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id "after e4";
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id "two knights";
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - id "mate in one";
EPD
# The same positions in another order: another job, so that a hit can only come from the cache.
sed -n '3p;1p;2p' three.epd > again.epd

config epdd.toml "[[engine]]
name = \"spelt\"
command = \"$fake\"
options = { threads = 1, hash = 16, style = \"RISKY\" }"
serve epdd.toml daemon.log
job=$("$epdd" submit analyse three.epd --config epdd.toml --engine spelt --depth 2 -o "$work/daemon.epd")
wait_for "select state = 'finished' from jobs where id = $job" 60
kill -TERM "$served"
wait "$served" || true
grep -q 'engine spelt: .*Style=Risky' daemon.log || fail "the daemon's identity: $(grep 'engine spelt' daemon.log)"

"$epdd" analyse again.epd --store epdd.db --engine "$fake" --option Style=Risky --depth 2 -o same.epd 2> same.txt
grep -q '(0 searched now, 3 from the cache' same.txt || fail "the one-shot command was not answered from the daemon's cache: $(cat same.txt)"
"$epdd" analyse again.epd --store epdd.db --engine "$fake" --option Style=Solid --depth 2 -o other.epd 2> other.txt
grep -q '(3 searched now, 0 from the cache' other.txt || fail "Style=Solid was answered from Style=Risky's entries: $(cat other.txt)"
echo "the daemon's spelling and the command line's are one engine"
