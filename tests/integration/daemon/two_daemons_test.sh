#!/usr/bin/env bash
# Two daemons on one store (issue 7, point 3): they finish one job together, each position
# searched exactly once, both doing part of the work; the job is delivered once.
#   two_daemons_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
source "$(dirname "$0")/lib.sh" "$1" "$2"
head -120 "$data/suites/wac.epd" > wac120.epd
config epdd.toml
"$epdd" analyse wac120.epd --config epdd.toml --engine fake --movetime 30 --store ref.db -o ref.epd -q
job=$("$epdd" submit analyse wac120.epd --config epdd.toml --engine fake --movetime 30 -o "$work/out.epd")
serve epdd.toml a.log
a=$served
serve epdd.toml b.log
b=$served
wait_for "select state = 'finished' from jobs where id = $job" 120
kill -TERM "$a" "$b"
wait "$a" "$b"
cmp out.epd ref.epd || fail "the output differs from a one-shot run's"
exactly_once
[ "$(q "select searches from jobs where id = $job")" = 120 ] || fail "$(q "select searches from jobs where id = $job") searches for 120 positions"
na=$(grep -c "job $job item .*: searched" a.log || true)
nb=$(grep -c "job $job item .*: searched" b.log || true)
echo "daemon A searched $na, daemon B $nb"
[ "$na" -gt 0 ] && [ "$nb" -gt 0 ] || fail "one daemon did all the work"
[ $((na + nb)) = 120 ] || fail "$na + $nb searches for 120 positions"
[ "$(grep -h "job $job: finished" a.log b.log | wc -l)" = 1 ] || fail "the job was delivered more than once"
echo "PASS"
