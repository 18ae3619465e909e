# The preamble of an integration script that takes epdd and the fake engine first:
#   source "$(dirname "$0")/../lib/common.sh" "$1" "$2"
# Sets `set -euo pipefail`, epdd and fake (absolute paths), a fresh work directory $work as the
# current directory (removed on exit; kept with EPDD_KEEP=1, and named either way), failed=0,
# and:
#   fail MESSAGE     says "FAIL: MESSAGE" on stderr and marks the script failed; it goes on, so
#                    that one run says every point that does not hold
#   finish MESSAGE   at the end: prints MESSAGE when nothing failed; exits 0 or 1
# (The older scripts still carry this preamble themselves; tests/integration/daemon/lib.sh is the
# daemons' own, whose fail stops at once.)
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
work=$(mktemp -d)
trap '[ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
[ -z "${EPDD_KEEP:-}" ] || echo "work directory: $work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }
finish() {
  [ "$failed" = 0 ] && echo "$*"
  exit "$failed"
}
