# Shared by the annotate tests that pin golden outputs (golden_test.sh, mates_test.sh): a
# temporary working directory (kept with EPDD_KEEP=1), fail, and same.
#   source golden.sh
# EPDD_UPDATE_GOLDEN=1 makes same rewrite the golden files instead of comparing.
golden=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../golden/annotate" && pwd)
work=$(mktemp -d)
trap '[ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
echo "work directory: $work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

# same GOLDEN_NAME FILE: compares FILE with tests/golden/annotate/GOLDEN_NAME (or updates it).
# An engine's identity hash (xxh64 of its executable, other with each build) is written as HASH.
same() {
  sed -i 's/xxh64 [0-9a-f]\{16\}/xxh64 HASH/g' "$2"
  if [ "${EPDD_UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$2" "$golden/$1"
  elif ! diff -u "$golden/$1" "$2" >&2; then
    fail "$2 differs from tests/golden/annotate/$1"
  fi
}
