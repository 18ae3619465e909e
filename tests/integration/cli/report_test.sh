#!/usr/bin/env bash
# epdd report (issue 20), what is not one page's own: the page chosen by the JSON's "format"
# for each kind; results of different kinds, a file that is not JSON, JSON without a format and
# an unknown format refused with the input named and nothing written; a job id of a job that is
# not finished refused; --html at the end of a book run equal to `epdd report` of its JSON (the
# suite and annotation pages' tests check theirs).
#   report_test.sh EPDD FAKE_ENGINE GOLDEN_DIR
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
golden=$(realpath "$3")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# refused WHAT PATTERN RESULT...: exit 2, the message matching, no page written.
refused() {
  local what=$1 pattern=$2 status=0
  shift 2
  "$epdd" report "$@" -o page.html 2> err.txt || status=$?
  [ "$status" = 2 ] || fail "$what: exit $status"
  grep -q -- "$pattern" err.txt || fail "$what says: $(cat err.txt)"
  [ -e page.html ] && { fail "$what wrote page.html"; rm -f page.html; }
  return 0
}

# Each kind's page, by its format.
for pair in "suites/suite.json:<title>" "annotate/kasparov.json:Annotated games" "book/twic.json:<title>"; do
  json=${pair%%:*}
  "$epdd" report "$golden/$json" -o kind.html 2> err.txt || fail "report $json: $(cat err.txt)"
  grep -q "^<!DOCTYPE html>" kind.html && grep -q -- "${pair#*:}" kind.html || fail "report $json: not its page"
done

refused "a suite run and an annotation" "one page shows results of one kind" "$golden/suites/suite.json" \
  "$golden/annotate/kasparov.json"
refused "an EPD file" "rules.epd: not JSON" "$golden/suites/rules.epd"
printf '{"engine": "x"}\n' > plain.json
refused "JSON without a format" 'plain.json: not an epdd report (its JSON has no "format")' plain.json
printf '{"format": "epdd something 9"}\n' > other.json
refused "an unknown format" 'no page for format "epdd something 9" (known: "epdd suite run 1"' other.json
refused "a missing file" "missing.json" missing.json
refused "a job id beyond 64 bits" "99999999999999999999: no such file, and too large for a job id" 99999999999999999999

# A job id with no store here: refused, no store made.
refused "a job id without a store" "epdd.db: no store there" 7
[ -e epdd.db ] && fail "epdd report JOB made an empty store"

# A job that is not finished: submitted, no daemon.
cat > epdd.toml <<TOML
[store]
location = "epdd.db"
[[engine]]
name = "fake"
command = "$fake"
TOML
job=$("$epdd" submit suite "$golden/suites/rules.epd" --config epdd.toml --engine fake --depth 3)
refused "a job not finished" "job $job is queued" "$job" --config epdd.toml

# --html of a book run is epdd report of its JSON.
"$epdd" book backsolve "$golden/annotate/kasparov.pgn" --engine "$fake" --store book.db --depth 3 -q -o book.epd \
  --json book.json --html book.html || fail "book backsolve --html: exit $?"
"$epdd" report book.json -o book-report.html 2> /dev/null
cmp book.html book-report.html || fail "book backsolve --html differs from epdd report of its JSON"

[ "$failed" = 0 ] && echo "epdd report: pages by format, refusals named, --html as report"
exit "$failed"
