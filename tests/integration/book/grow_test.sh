#!/usr/bin/env bash
# epdd book grow with Stockfish (issue 36, item 2, point 3), from the start position at fixed
# nodes to 300 positions:
#   1. twice, each on a store of its own: the same book (EPD, PGN, Polyglot);
#   2. killed (SIGKILL) once the store holds 100 answers, at --concurrency 2 (answers arrive out of
#      order), then run again: the same book, and what was searched before the kill is not searched
#      again; interrupted (SIGINT) and run again: the same book;
#   3. grown on to --positions 400 on the first store: the book grown straight to 400 on a fresh
#      store, only the new positions searched;
#   4. (with a PostgreSQL cluster: PGHOST set, as pg_virtualenv sets it) two daemons standing in for
#      two hosts grow the job `epdd submit book-grow` queued: the same book, each position searched
#      once, the job delivered once.
#   grow_test.sh EPDD FAKE_ENGINE
source "$(dirname "$0")/../daemon/lib.sh" "$1" "$2"
config epdd.toml
grow=(book grow --config epdd.toml --engine stockfish --nodes 3000 --positions 300 --width 0 --alpha 50)

# Without a limit a growth never ends (and Ctrl-C writes nothing): refused before any search.
status=0; "$epdd" book grow --config epdd.toml --engine stockfish --nodes 3000 --store none.db 2> none.err || status=$?
[ "$status" = 2 ] && grep -q "needs a limit: --positions N, --expansions N or --time T" none.err ||
  fail "a growth without a limit: status $status, $(cat none.err)"

echo "--- 1. twice: the same book"
"$epdd" "${grow[@]}" --store one.db -o one.epd --pgn one.pgn --polyglot one.bin --json one.json --html one.html 2> one.err || fail "status $?: $(tail -5 one.err)"
"$epdd" "${grow[@]}" --store two.db -o two.epd --pgn two.pgn --polyglot two.bin 2> two.err || fail "status $?: $(grep -v ^progress two.err | head -5)"
positions=$(wc -l < one.epd)
[ "$positions" -ge 300 ] && [ "$positions" -lt 340 ] || fail "$positions positions for --positions 300"
grep -q "^expansion 1: root ce" one.err || fail "the report does not say how the root moved: $(head -5 one.err)"
grep -q '^expansion [0-9]*: [0-9]* positions; root ce' one.err || fail "no progress line per expansion"
for f in epd pgn bin; do cmp "one.$f" "two.$f" || fail "two growths differ ($f): $(diff "one.$f" "two.$f" | head -5)"; done
# The JSON report's growth lists every expansion, and its page draws those where the root moved.
expansions=$(grep -c "^expansion [0-9]*: [0-9]* positions; root" one.err)
grep -q "\"expansions\": $expansions," one.json || fail "the JSON's growth does not count $expansions expansions"
[ "$(grep -c '"expansion": ' one.json)" = "$expansions" ] || fail "the JSON does not list every expansion"
grep -q '<section id="id-growth"' one.html || fail "the page has no growth section"
grep -q 'c0 "interior"; ce -\?[0-9]*; id "1\. [a-zA-Z0-9]*"' one.epd || fail "no move of the start was expanded"
# Every position of the book was searched once (the start too: it was the first leaf).
searched=$(sqlite3 one.db "select count(*) from cache")
[ "$searched" = "$positions" ] || fail "$searched positions searched for a book of $positions"

echo "--- 2. SIGKILL, then the same command again"
"$epdd" "${grow[@]}" --concurrency 2 --store killed.db -o killed.epd --pgn killed.pgn --polyglot killed.bin 2> killed.err &
pid=$!
STORE=killed.db wait_for "select count(*) >= 100 from items where state = 'done'" 120
kill -KILL "$pid"; wait "$pid" || true
before=$(STORE=killed.db q "select count(*) from cache")
"$epdd" "${grow[@]}" --concurrency 2 --store killed.db -o killed.epd --pgn killed.pgn --polyglot killed.bin 2> rerun.err ||
  fail "the rerun, status $?: $(grep -v "^progress" rerun.err | tail -12)"
for f in epd pgn bin; do cmp "one.$f" "killed.$f" || fail "killed and rerun, the book differs ($f)"; done
[ "$(STORE=killed.db q "select max(searches) from cache")" = 1 ] || fail "a position was searched twice after the kill"
now=$(grep -o '[0-9]* positions searched now' rerun.err | cut -d' ' -f1)
[ $((before + now)) = "$positions" ] || fail "$before searched before the kill and $now after, for $positions"

echo "--- 2b. Ctrl-C (SIGINT), then the same command again"
"$epdd" "${grow[@]}" --store stopped.db -o stopped.epd 2> stopped.err &
pid=$!
STORE=stopped.db wait_for "select count(*) >= 60 from items where state = 'done'" 120
kill -INT "$pid"
status=0; wait "$pid" || status=$?
[ "$status" = 130 ] || fail "interrupted, the command exited $status, not 130: $(tail -3 stopped.err)"
[ ! -e stopped.epd ] || fail "an interrupted growth wrote its book"
"$epdd" "${grow[@]}" --store stopped.db -o stopped.epd 2> stopped2.err || fail "after Ctrl-C: $(tail -5 stopped2.err)"
cmp one.epd stopped.epd || fail "interrupted and rerun, the book differs"

echo "--- 3. grown on to 400 positions"
more=(book grow --config epdd.toml --engine stockfish --nodes 3000 --positions 400 --width 0 --alpha 50)
"$epdd" "${more[@]}" --store one.db -o on.epd 2> on.err || fail "growing on: $(tail -5 on.err)"
"$epdd" "${more[@]}" --store straight.db -o straight.epd 2> straight.err || fail "$(tail -5 straight.err)"
cmp on.epd straight.epd || fail "grown on to 400 differs from grown straight to 400"
[ "$(wc -l < on.epd)" -ge 400 ] || fail "$(wc -l < on.epd) positions for --positions 400"
grep -q "$(( $(wc -l < on.epd) - positions )) positions searched now, 0 from the cache, $positions from an earlier run" on.err ||
  fail "growing on searched more than the new positions: $(tail -1 on.err)"

if [ -z "${PGHOST:-}" ]; then echo "PASS (no PostgreSQL cluster: part 4 runs under pg_virtualenv)"; exit 0; fi
echo "--- 4. two daemons on PostgreSQL grow one book"
createdb grow
STORE_LOCATION="postgresql:///grow" config pg.toml
pq() { psql -qAtX -d grow -c "$1"; }
EPDD_HOST=a serve pg.toml a.log; a=$served
EPDD_HOST=b serve pg.toml b.log; b=$served
job=$(EPDD_HOST=a "$epdd" submit book-grow --config pg.toml --engine stockfish --nodes 3000 --positions 300 --width 0 --alpha 50)
for _ in $(seq 1 1800); do
  [ "$(pq "select (state = 'finished' and delivered = 1)::int from jobs where id = $job")" = 1 ] && break
  kill -0 "$a" "$b" 2> /dev/null || break
  sleep 0.1
done
[ "$(pq "select state from jobs where id = $job")" = finished ] || { tail -n 20 a.log b.log >&2; fail "the job did not finish"; }
kill -TERM "$a" "$b"; wait "$a" "$b" || true
"$epdd" results "$job" --store postgresql:///grow -o pg.epd --pgn pg.pgn --polyglot pg.bin
for f in epd pgn bin; do cmp "one.$f" "pg.$f" || fail "the daemons' book differs ($f): $(diff "one.$f" "pg.$f" | head -5)"; done
[ "$(pq "select count(*) || ' ' || max(searches) from cache")" = "$positions 1" ] ||
  fail "cache entries and most searches of one position: $(pq "select count(*) || ' ' || max(searches) from cache")"
[ "$(grep -h "job $job: finished" a.log b.log | wc -l)" = 1 ] || fail "the job was delivered more than once"
echo "daemon a searched $(grep -c "job $job item .*: searched" a.log || true), b $(grep -c "job $job item .*: searched" b.log || true)"
echo "PASS"
