#!/usr/bin/env bash
# Two daemons on one store (issue 7, point 3): they finish one job together, each position
# searched exactly once, both doing part of the work; the job is delivered once.
#   two_daemons_test.sh EPDD FAKE_ENGINE SHARED_DATA
# The sharing is made to happen, not hoped for from the scheduler (issue 34): the fake engines
# hold every search (--hold-go) until ./go exists, and the test creates it only once the store
# shows leases of both daemons. Each then has claimed positions that only it may search.
data=$(realpath "$3")
source "$(dirname "$0")/lib.sh" "$1" "$2"
head -120 "$data/suites/wac.epd" > wac120.epd
# A held search must not count as hung: the margin past movetime is ten minutes here.
FAKE_TOML="args = [\"--hold-go\", \"$work/go\"]
timeouts = { search_margin = 600000 }" config epdd.toml
touch go
"$epdd" analyse wac120.epd --config epdd.toml --engine fake --movetime 30 --store ref.db -o ref.epd -q
rm go
job=$("$epdd" submit analyse wac120.epd --config epdd.toml --engine fake --movetime 30 -o "$work/out.epd")
serve epdd.toml a.log
a=$served
owners="select count(distinct lease_owner) from items where job = $job and state = 'pending' and lease_owner is not null"
wait_for "select ($owners) >= 1" 120
serve epdd.toml b.log
b=$served
wait_for "select ($owners) = 2" 120
[ "$(q "select count(*) from items where job = $job and state <> 'pending'")" = 0 ] ||
  fail "a position was answered while every search was held"
touch go
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
