#!/usr/bin/env bash
# Golden outputs of `epdd suite` and `epdd analyse` with the fake engine on tests/golden/suites/
# rules.epd: every scoring rule (bm, am, bm+am, dm, STS c0 and c7/c8, time to solution,
# unscored), an illegal position, an unreadable bm, checkmate and stalemate on the board, and an
# engine that crashes on one record (reported; the run goes on; the rest of the file intact).
# A second engine's run for the suite page. Then the same commands again: everything answered from the store, the outputs identical.
# And matetrack.epd: every matetrack category (best, better, found, wrong, bad PV, no mate).
#
#   golden_test.sh EPDD FAKE_ENGINE
# EPDD_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing (review the diff).
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
golden=$(cd "$(dirname "$0")/../../golden/suites" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$golden/rules.epd" "$golden/rules.script" "$golden/rules-b.script" "$golden/matetrack.epd" "$golden/matetrack.script" "$work/"
cd "$work"
cat > fake.toml <<TOML
[[engine]]
name = "fake"
command = "$fake"
args = ["--script", "rules.script"]

[[engine]]
name = "fake-b"
command = "$fake"
args = ["--script", "rules-b.script"]

[[engine]]
name = "fake-matetrack"
command = "$fake"
args = ["--script", "matetrack.script"]
TOML

failed=0
# expect STATUS COMMAND...: runs it, checks its exit status.
expect() {
  local want=$1
  shift
  local got=0
  "$@" || got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: exit status $got, expected $want: $*" >&2
    failed=1
  fi
}
# same GOLDEN_NAME FILE: compares FILE with the golden file (or updates it). The engine
# identity's hash of the fake engine's executable differs from build to build (Release, ASan):
# it is written as xxh64 HASH.
same() {
  sed -i 's/xxh64 [0-9a-f]\{16\}/xxh64 HASH/g' "$2"
  if [ "${EPDD_UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$2" "$golden/$1"
  elif ! diff -u "$golden/$1" "$2" >&2; then
    echo "FAIL: $2 differs from tests/golden/suites/$1 (EPDD_UPDATE_GOLDEN=1 regenerates)" >&2
    failed=1
  fi
}

common=(--config fake.toml --store run.db --depth 5 -q)
# Status 1: some records failed (the illegal position, the crash, the unreadable bm).
expect 1 "$epdd" suite rules.epd "${common[@]}" --json suite.json -o suite.epd > suite.txt 2> suite.err
expect 1 "$epdd" analyse rules.epd "${common[@]}" -o analyse.epd 2> analyse.err
expect 1 "$epdd" analyse rules.epd "${common[@]}" --ce-for-white > analyse-white.epd 2> /dev/null
expect 0 "$epdd" suite compare suite.json suite.json > compare.txt
same suite.txt suite.txt
same suite.json suite.json
same suite.epd suite.epd
same analyse.epd analyse.epd
same analyse-white.epd analyse-white.epd
same compare.txt compare.txt
# The same suite with a second fake engine (rules-b.script; a store of its own: both scripts are
# the same engine to the analysis cache), solving some records the first does not and missing
# one it solves: the suite page's golden pair with suite.json (tests/unit/suites/
# html_page_test.cpp, tests/integration/html/suite_page_test.sh).
expect 1 "$epdd" suite rules.epd --config fake.toml --engine fake-b --store b.db --depth 5 -q --json suite-b.json > /dev/null
same suite-b.json suite-b.json
# Matetrack keys: every record scored (none fails), the counts in the text and the JSON. A store
# of its own: rules.epd has some of these positions, and both scripts are the same engine to
# the analysis cache (same id name, same options).
expect 0 "$epdd" suite matetrack.epd --config fake.toml --engine fake-matetrack --store matetrack.db --depth 5 -q \
  --json matetrack.json > matetrack.txt
expect 0 "$epdd" suite compare matetrack.json matetrack.json > matetrack-compare.txt
same matetrack.txt matetrack.txt
same matetrack.json matetrack.json
same matetrack-compare.txt matetrack-compare.txt
# The crash is reported with its record's line and the engine's exit status in words.
grep -q "rules.epd:15: not analysed: engine 'fake': crash during search.*SIGSEGV" suite.err ||
  { echo "FAIL: the crash is not reported on stderr" >&2; cat suite.err >&2; failed=1; }
grep -q "rules.epd:12: kept unchanged: illegal position" analyse.err ||
  { echo "FAIL: the illegal position is not reported" >&2; failed=1; }

# Again: the finished job answers from the store (no engine search), the outputs are the same.
expect 1 "$epdd" suite rules.epd --config fake.toml --store run.db --depth 5 --json again.json -o again.epd \
  > again.txt 2> again.err
grep -q "suite: 0 searched now" again.err || { echo "FAIL: the rerun searched again:" >&2; cat again.err >&2; failed=1; }
sed -i 's/xxh64 [0-9a-f]\{16\}/xxh64 HASH/g' again.txt again.json
cmp suite.txt again.txt && cmp suite.epd again.epd && cmp suite.json again.json || failed=1
# The crashed record is retried on a rerun (and crashes again: the script says so).
grep -q "rules.epd:15: not analysed" again.err || { echo "FAIL: the failed record was not retried" >&2; failed=1; }
# A different command on the same positions: answered from the cache.
expect 1 "$epdd" analyse rules.epd --config fake.toml --store run.db --depth 5 -o cached.epd 2> cached.err
grep -q "from the cache" cached.err && cmp analyse.epd cached.epd || { echo "FAIL: cache" >&2; failed=1; }
[ "$failed" = 0 ] && echo "golden outputs match"
exit $failed
