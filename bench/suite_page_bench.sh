#!/usr/bin/env bash
# The suite page's load time (issue 20, point 4): a 3,000-position suite run's page, loaded and laid
# out in headless chromium, under 2 s; and beside it, the same browser loading a blank page, in the
# same run. It runs the page test (tests/integration/html/suite_page_test.sh, which checks the
# page's contents in every CI run and prints the time without judging it) with the target set:
# a load over 2 s is then a failure. Run it on an otherwise idle machine: the load average is
# printed before the run.
#
#   bench/suite_page_bench.sh [EPDD] [FAKE_ENGINE] [SHARED_DATA]
# Defaults: build/cli/epdd, build/tests/fake_engine/fake_engine, ../shared/data.
# Exit status: 0 target met, 1 missed (or a content check failed), 77 chromium missing.
set -euo pipefail
cd "$(dirname "$0")/.."
epdd=$(realpath "${1:-build/cli/epdd}")
fake=$(realpath "${2:-build/tests/fake_engine/fake_engine}")
shared=$(realpath "${3:-../shared/data}")
echo "suite_page_bench: load average $(cut -d' ' -f1-3 /proc/loadavg) before the run"
status=0
EPDD_PAGE_LOAD_TARGET_MS=2000 bash tests/integration/html/suite_page_test.sh "$epdd" "$fake" "$shared" > "${TMPDIR:-/tmp}/suite_page_bench.log" 2>&1 ||
  status=$?
grep -E "^(blank|3,000-position|large|under 2 s|FAIL)" "${TMPDIR:-/tmp}/suite_page_bench.log" || true
echo "suite_page_bench: target (load and layout under 2,000 ms inside the browser): $([ $status -eq 0 ] && echo met || echo "MISSED or failed, exit $status; the whole output is in ${TMPDIR:-/tmp}/suite_page_bench.log")"
exit $status
