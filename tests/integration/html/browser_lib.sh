# browser_lib.sh: what every page test in a real browser needs (issue 20). Source it after
# `set -euo pipefail`; it exits 77 (a skip) when Debian's chromium is missing, makes a work
# directory ($work, removed at exit unless EPDD_KEEP is set), cds into it and defines:
#   fail MESSAGE              note a failure (the test ends with `exit $failed`)
#   browser ARGS...           headless chromium with a profile of its own
#   load PAGE DOM LOG         the DOM chromium built from PAGE (a file in $work) into DOM, its
#                             log into LOG; prints the seconds taken (browser start included)
#   console LOG               the console messages in LOG
#   control_page              proves that a console.error is seen in the log (else fails)
#   self_contained PAGE       fails for src=, url(, an href= that is not "#...", a <script>
#   screenshot PAGE PNG       a 1200x2000 screenshot; fails when it looks blank
#   dom_check DOM <<'PY' ...  runs python with DOM parsed: count(tag, cls, parent),
#                             texts (tag, text) pairs, elements (tag, classes, attrs, parents);
#                             the snippet sets `bad` for its failures
# CHROMIUM=path overrides /usr/bin/chromium.
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "SKIP: $chromium not found: the browser test needs Debian's chromium" \
       "(apt-get install -y --no-install-recommends chromium)"
  exit 77
fi
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the DOM" >&2; exit 1; }
browser_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d)
trap '[ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
echo "work directory: $work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

browser() { "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" "$@"; }
load() {
  local start end
  start=$(date +%s.%N)
  browser --enable-logging=stderr --v=0 --dump-dom "file://$work/$1" > "$2" 2> "$3"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
console() { grep -E ':CONSOLE[:(]' "$1" || true; }

control_page() {
  printf '%s\n' '<!DOCTYPE html><html><head><meta charset="utf-8"><title>control</title></head>' \
    '<body><p>control</p><script>console.error("epdd-control")</script></body></html>' > control.html
  load control.html control.dom control.log > /dev/null
  console control.log | grep -q 'epdd-control' ||
    fail "the control page's console.error is not in chromium's log: console errors would go unseen ($(tail -3 control.log))"
}

self_contained() {
  grep -q 'src=' "$1" && fail "$1 has a src= attribute: $(grep -o '.\{30\}src=.\{30\}' "$1" | head -1)"
  grep -q 'url(' "$1" && fail "$1 has a url(: $(grep -o '.\{30\}url(.\{30\}' "$1" | head -1)"
  grep -o 'href="[^"]*"' "$1" | grep -v '^href="#' && fail "$1 links outside itself"
  grep -qi '<script' "$1" && fail "$1 has a <script> element"
  return 0
}

screenshot() {
  [ -s blank.png ] || {
    printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n' > blank.html
    browser --screenshot="$work/blank.png" --window-size=1200,2000 "file://$work/blank.html" > /dev/null 2>&1
  }
  browser --screenshot="$work/$2" --window-size=1200,2000 "file://$work/$1" > /dev/null 2>&1
  [ -s "$2" ] || { fail "no screenshot of $1 written"; return 0; }
  local size blank_size
  size=$(wc -c < "$2") blank_size=$(wc -c < blank.png)
  echo "screenshot of $1: ${size} bytes (a blank page: ${blank_size})"
  [ "$size" -gt 20000 ] && [ "$size" -gt $((blank_size * 4)) ] ||
    fail "the screenshot of $1 looks blank: $size bytes against $blank_size for a blank page"
}

dom_check() {
  local snippet
  snippet=$(cat)
  python3 - "$1" "$browser_lib_dir" "$snippet" <<'PY' || failed=1
import sys
sys.path.insert(0, sys.argv[2])
from dom import parse
dom = parse(sys.argv[1])
count, texts, elements = dom.count, dom.texts, dom.elements
bad = 0
def expect(name, got, want):
    global bad
    print(f"{'ok  ' if got == want else 'FAIL'} {name}: {got} (expected {want})")
    bad += got != want
exec(sys.argv[3])
sys.exit(1 if bad else 0)
PY
}
