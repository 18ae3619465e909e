#!/usr/bin/env bash
# A job kind is one place: the "count" kind, registered only in count_kind.cpp, goes through
# submit -> serve -> status -> results like analyse and suite. The plain epdd does not know it.
#
#   count_kind_test.sh EPDD_WITH_COUNT EPDD FAKE_ENGINE
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plain=$(realpath "$2")
source "$here/../daemon/lib.sh" "$1" "$3"
config epdd.toml
cat > three.epd <<'EPD'
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id "start";
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - id "two knights";
6k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - id "back rank";
EPD
"$plain" submit count three.epd --config epdd.toml --engine fake --depth 2 > /dev/null 2> plain.err \
  && fail "the plain epdd took a kind it does not have"
grep -q "count" plain.err || fail "the plain epdd's refusal does not name the kind: $(cat plain.err)"
id=$("$epdd" submit count three.epd --config epdd.toml --engine fake --depth 2)
serve epdd.toml daemon.log
wait_for "select state = 'finished' from jobs where id = $id" 30
"$epdd" status "$id" --config epdd.toml | grep -q "finished" || fail "status: $("$epdd" status "$id" --config epdd.toml)"
"$epdd" results "$id" --config epdd.toml > report.txt
grep -q "three.epd: 3 positions, 3 analysed; moves: [a-h][1-8][a-h][1-8] [a-h][1-8][a-h][1-8] c1c8$" report.txt \
  || fail "results: $(cat report.txt)"
kill -TERM "$served"
wait "$served" || true
echo "a kind registered in one file ran through submit, serve, status and results"
