#!/usr/bin/env bash
# Two hosts on one PostgreSQL store (issue 18 point 5), hosts A and B stood in for by EPDD_HOST:
#  1. A job submitted on A with -o is written by A's daemon, never by B's: B alone finishes the
#     job and leaves its output waiting (status says for which host); `epdd results` writes it
#     on B from the store; once A's daemon runs, it writes the file.
#  2. A book job whose --import file (and an annotate job whose --book file) is deleted after
#     submit still runs and is delivered on B: the files are in the store.
#  3. A job naming an engine B does not configure waits on B (never runs, never fails) and runs
#     on A; a spec in the store that carries a command, or names a program as its engine, is
#     failed when read, and runs nothing.
# Runs inside pg_virtualenv (the ctest wraps it).
#   pg_hosts_test.sh EPDD FAKE_ENGINE SHARED_DATA SOURCE_DIR
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
data=$(realpath "$3")
src=$(realpath "$4")
[ -n "${PGHOST:-}" ] || { echo "no PostgreSQL cluster (PGHOST unset): run under pg_virtualenv -v 15" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; [ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; for f in a.log b.log; do [ -f $f ] && { echo "--- $f" >&2; tail -20 $f >&2; }; done; exit 1; }
psql -qc "CREATE DATABASE epdd_hosts_test" > /dev/null
url=postgresql:///epdd_hosts_test
q() { psql -Atc "$1" epdd_hosts_test; }
# wait_for CONDITION_SQL SECONDS: until the query prints t.
wait_for() {
  local deadline=$((SECONDS + $2))
  while [ $SECONDS -lt $deadline ]; do
    [ "$(q "$1" 2> /dev/null || true)" = t ] && return 0
    sleep 0.1
  done
  fail "timed out waiting for: $1"
}
# config FILE ENGINES...: a daemon on the shared store with these engines (all the fake engine).
config() {
  local file=$1
  shift
  printf '[store]\nlocation = "%s"\n[daemon]\nlease_seconds = 4\npoll_ms = 100\nstop_deadline_seconds = 2\n' "$url" > "$file"
  for name in "$@"; do printf '[[engine]]\nname = "%s"\ncommand = "%s"\n' "$name" "$fake" >> "$file"; done
}
config a.toml fake only-a
config b.toml fake
# serve HOST CONFIG LOG: a daemon of that host in the background; its pid in $served.
serve() {
  EPDD_HOST=$1 "$epdd" serve --config "$2" > "$3" 2>&1 &
  served=$!
  for _ in $(seq 1 600); do grep -q "engine fake:" "$3" 2> /dev/null && return 0; sleep 0.1; done
  fail "the daemon of $1 did not start"
}
mkdir a b
head -20 "$data/suites/wac.epd" > in.epd
"$epdd" analyse in.epd --engine "$fake" --depth 5 --store ref.db -q -o ref.epd

# 1. Host A submits with an output; only B's daemon runs.
job=$(EPDD_HOST=host-a "$epdd" submit analyse in.epd --store "$url" --engine fake --depth 5 -o "$work/a/out.epd")
serve host-b b.toml b.log
b=$served
wait_for "SELECT planned = 1 AND done + failed >= total FROM jobs WHERE id = $job" 30
sleep 1  # ten polls of B's: it delivers what it may deliver
[ ! -e a/out.epd ] || fail "B's daemon wrote the output of a job submitted on A"
[ "$(q "SELECT delivered FROM jobs WHERE id = $job")" = 0 ] || fail "the job of host A was delivered by B"
EPDD_HOST=host-b "$epdd" status --store "$url" > status.txt
grep -q "finished: outputs wait for a daemon on host host-a; \`epdd results $job\` writes them anywhere" status.txt ||
  fail "status: $(cat status.txt)"
EPDD_HOST=host-b "$epdd" results "$job" --store "$url" -o b/results.epd
cmp b/results.epd ref.epd || fail "results on B differ from a one-shot run's"
echo "1. B finished job $job and left its output to A; results wrote it on B"

# 2. Inputs named by options, deleted after submit, run on B from the store.
cp "$src/tests/integration/book/book.pgn" book.pgn
"$epdd" book leaves book.pgn -o leaves.epd 2> /dev/null
"$epdd" analyse leaves.epd --engine "$fake" --depth 2 --store c.db -q -o filled.epd
"$epdd" book backsolve book.pgn --import filled.epd --engine "$fake" --depth 2 --store d.db -o book-ref.epd \
  --polyglot book.bin 2> /dev/null
book_job=$(EPDD_HOST=host-a "$epdd" submit book book.pgn --import "$work/filled.epd" --store "$url" --engine fake --depth 2)
rm filled.epd
wait_for "SELECT delivered = 1 AND state = 'finished' FROM jobs WHERE id = $book_job" 60
grep -q "job $book_job: finished" b.log || fail "B did not deliver the book job"
[ "$(q "SELECT total FROM jobs WHERE id = $book_job")" = 0 ] || fail "the import was not used: leaves were searched"
EPDD_HOST=host-b "$epdd" results "$book_job" --store "$url" -o b/book.epd
cmp b/book.epd book-ref.epd || fail "the book job differs from a one-shot run with the import"
# Annotate's --book, read when the games are rendered.
game=$data/pgn/kasparov-deep-blue-1997.pgn
"$epdd" annotate "$game" --book book.bin --engine "$fake" --depth 3 --store e.db -q -o annotate-ref.pgn \
  --json annotate-ref.json
annotate_job=$(EPDD_HOST=host-a "$epdd" submit annotate "$game" --book "$work/book.bin" --store "$url" --engine fake --depth 3)
rm book.bin
wait_for "SELECT delivered = 1 AND state = 'finished' FROM jobs WHERE id = $annotate_job" 60
grep -q "job $annotate_job: finished" b.log || fail "B did not deliver the annotate job"
EPDD_HOST=host-b "$epdd" results "$annotate_job" --store "$url" -o b/annotate.pgn --json b/annotate.json
grep -q "book" b/annotate.json && fail "the book was not read from the store: $(grep -o '.\{0,60\}book.\{0,60\}' b/annotate.json)"
cmp b/annotate.pgn annotate-ref.pgn || fail "the annotate job differs from a one-shot run with the book"
cmp b/annotate.json annotate-ref.json || fail "the annotate summary differs from a one-shot run with the book"
echo "2. the book job (--import deleted) and the annotate job (--book deleted) ran on B from the store"

# 3. An engine B does not have waits there; hand-made specs with a program are refused.
only_a=$(EPDD_HOST=host-a "$epdd" submit analyse in.epd --store "$url" --engine only-a --depth 4)
spec_of() {  # spec_of EXTRA_KEYS ENGINE: a spec as something other than epdd could write it
  printf '{"kind":"analyse","input":"x.epd","engine":"%s","limits":{"depth":3},"multipv":1,"keep_existing":false,"chess960":false%s}' "$2" "$1"
}
for evil in "$(spec_of ',"command":"touch '"$work"'/pwned"' fake)" "$(spec_of '' "$fake")"; do
  q "INSERT INTO jobs (kind, input, identity, settings, state, created_ms, updated_ms, spec)
     VALUES ('analyse', 'x.epd', md5('$evil'), '', 'queued', 0, 0, '$evil') RETURNING id" > /dev/null
done
q "INSERT INTO job_sources (job, source) SELECT id, convert_to('$(head -1 in.epd)', 'UTF8') FROM jobs WHERE input = 'x.epd'" > /dev/null
wait_for "SELECT count(*) = 2 FROM jobs WHERE input = 'x.epd' AND state = 'failed'" 20
q "SELECT message FROM jobs WHERE input = 'x.epd' ORDER BY id" > refused.txt
grep -q "'command' is not a key of a job spec" refused.txt || fail "a spec with a command: $(cat refused.txt)"
grep -q "'engine' is .*not a program" refused.txt || fail "a spec naming a program: $(cat refused.txt)"
[ ! -e pwned ] || fail "a command from the store ran"
sleep 1
[ "$(q "SELECT state || ' ' || planned FROM jobs WHERE id = $only_a")" = "queued 0" ] ||
  fail "the job for an engine B does not have: $(q "SELECT state, message FROM jobs WHERE id = $only_a")"
echo "3. the job for only-a waits on B; two hand-made specs with a program were failed when read"

# A's daemon delivers A's job and runs the one for its own engine.
serve host-a a.toml a.log
a=$served
wait_for "SELECT delivered = 1 FROM jobs WHERE id = $job" 30
wait_for "SELECT delivered = 1 AND state = 'finished' FROM jobs WHERE id = $only_a" 30
cmp a/out.epd ref.epd || fail "A's output differs from a one-shot run's"
grep -q "job $job: wrote $work/a/out.epd" a.log || fail "A did not write the output"
! grep -q "job $job: wrote" b.log || fail "B wrote the output of A's job"
kill -TERM "$a" "$b"
wait "$a" "$b" || true
echo "PASS: A's daemon wrote job $job's output, B's never did"
