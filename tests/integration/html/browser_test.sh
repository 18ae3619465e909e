#!/usr/bin/env bash
# The HTML pieces in a real browser (issue 20): html_demo's page (every piece of html/, a
# hostile string in every kind of field) loaded by Debian's chromium, headless. Checks: the page
# refers to nothing outside itself; loading it logs no console message (the page has no script
# and a Content-Security-Policy of default-src 'none', so a message means something was refused
# or broke; a control page shows that this chromium's console messages are seen at all); the
# DOM the browser built has the expected boards, squares, pieces, series, bars and marks, no
# <script> element, and the hostile strings back as text; the screenshot is not blank.
#   browser_test.sh HTML_DEMO          (CHROMIUM=path overrides /usr/bin/chromium)
# Exit 77 (a skip) when chromium is missing: apt-get install -y --no-install-recommends chromium
set -euo pipefail
demo=$(realpath "$1")
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "SKIP: $chromium not found: the browser test needs Debian's chromium" \
       "(apt-get install -y --no-install-recommends chromium)"
  exit 77
fi
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the DOM" >&2; exit 1; }
work=$(mktemp -d)
trap '[ -n "${EPDD_KEEP:-}" ] || rm -rf "$work"' EXIT
cd "$work"
echo "work directory: $work"
failed=0
fail() { echo "FAIL: $*" >&2; failed=1; }

browser() { "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$work/profile" "$@"; }
# load PAGE DOM LOG: the DOM chromium built into DOM, its log into LOG; prints the seconds taken.
load() {
  local start end
  start=$(date +%s.%N)
  browser --enable-logging=stderr --v=0 --dump-dom "file://$work/$1" > "$2" 2> "$3"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
console() { grep -E ':CONSOLE[:(]' "$1" || true; }

"$demo" > demo.html
echo "demo page: $(wc -c < demo.html) bytes"

# Nothing outside the page: no src=, no url(, href= only to "#" anchors, no script.
grep -q 'src=' demo.html && fail "the page has a src= attribute: $(grep -o '.\{30\}src=.\{30\}' demo.html | head -1)"
grep -q 'url(' demo.html && fail "the page has a url(: $(grep -o '.\{30\}url(.\{30\}' demo.html | head -1)"
grep -o 'href="[^"]*"' demo.html | grep -v '^href="#' && fail "the page links outside itself"
grep -qi '<script' demo.html && fail "the page has a <script> element"

# The control: a script's console.error and a blocked image must show up in the log.
printf '%s\n' '<!DOCTYPE html><html><head><meta charset="utf-8"><title>control</title></head>' \
  '<body><p>control</p><script>console.error("epdd-control")</script></body></html>' > control.html
load control.html control.dom control.log > /dev/null
console control.log | grep -q 'epdd-control' ||
  fail "the control page's console.error is not in chromium's log: console errors would go unseen ($(tail -3 control.log))"

printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n' > blank.html
blank_seconds=$(load blank.html blank.dom blank.log)
demo_seconds=$(load demo.html demo.dom demo.log)
echo "chromium --dump-dom: blank page ${blank_seconds}s, demo page ${demo_seconds}s (browser start included)"
messages=$(console demo.log)
[ -z "$messages" ] || fail "console messages while loading the demo page:
$messages"

python3 - demo.dom <<'PY' || failed=1
import sys
from html.parser import HTMLParser

HOSTILE = '<script>alert("x")</script>\' " &amp;'
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.elements, self.texts = [], [], []
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        parents = [c for _, cs, _ in self.stack for c in cs]
        self.elements.append((tag, classes, attrs, parents))
        if tag not in VOID:
            self.stack.append((tag, classes, attrs))
    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()
    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break
    def handle_data(self, data):
        if self.stack:
            self.texts.append((self.stack[-1][0], data))

dom = Dom()
dom.feed(open(sys.argv[1], encoding="utf-8").read())

def count(tag, cls=None, parent=None):
    return sum(1 for t, cs, _, ps in dom.elements
               if t == tag and (cls is None or cls in cs) and (parent is None or parent in ps))

dark_squares = sum(a.get("d", "").count("h10v10h-10z") for t, cs, a, _ in dom.elements if t == "path" and "dark" in cs)
expected = [
    ("script elements", count("script"), 0),
    ("sections", count("section"), 5),
    ("board diagrams", count("svg", "board"), 2),
    ("light squares' backgrounds", count("rect", "light"), 2),
    ("dark squares' paths", count("path", "dark"), 2),
    ("dark squares", dark_squares, 2 * 32),
    ("pieces", count("text", parent="pieces"), 32 + 6),
    ("white pieces", count("text", parent="white"), 16 + 2),
    ("coordinates", count("text", parent="coords"), 32),
    ("arrows", count("g", "arrow"), 1),
    ("side-to-move markers", count("circle", "to-move"), 2),
    ("line charts", count("svg", "line-chart"), 1),
    ("series", count("polyline", "series"), 3),
    ("legend entries", count("text", "legend"), 3),
    ("bars", count("rect", "bar"), 5),
    ("evaluation graphs", count("svg", "eval-graph"), 1),
    ("evaluation lines", count("path", "eval"), 1),
    ("inaccuracy marks", count("circle", "inaccuracy"), 1),
    ("mistake marks", count("circle", "mistake"), 1),
    ("blunder marks", count("circle", "blunder"), 2),
    ("table rows", count("tr", parent="positions"), 1 + 3),
    ("details blocks", count("details"), 1),
]
bad = 0
for name, got, want in expected:
    print(f"{'ok  ' if got == want else 'FAIL'} {name}: {got} (expected {want})")
    bad += got != want
series = [a.get("data-series") for t, cs, a, _ in dom.elements if t == "polyline" and "series" in cs]
if HOSTILE not in series:
    print(f"FAIL the hostile series name is not back as text: {series}"); bad += 1
titles = [d for t, d in dom.texts if t == "title"]
if ("epdd html demo " + HOSTILE) not in titles:
    print(f"FAIL the hostile title is not back as text: {titles}"); bad += 1
points = [a.get("points", "") for t, cs, a, _ in dom.elements if t == "polyline" and "series" in cs]
if any(len(p.split()) != 40 for p in points):
    print(f"FAIL a series has not its 40 points: {[len(p.split()) for p in points]}"); bad += 1
sys.exit(1 if bad else 0)
PY

# The screenshot: written, and not blank (a blank page of the same size is the baseline).
browser --screenshot="$work/blank.png" --window-size=1200,2000 "file://$work/blank.html" > /dev/null 2>&1
browser --screenshot="$work/demo.png" --window-size=1200,2000 "file://$work/demo.html" > /dev/null 2>&1
[ -s demo.png ] || fail "no screenshot written"
if [ -s demo.png ] && [ -s blank.png ]; then
  demo_size=$(wc -c < demo.png) blank_size=$(wc -c < blank.png)
  echo "screenshots: demo ${demo_size} bytes, blank page ${blank_size} bytes"
  [ "$demo_size" -gt 20000 ] && [ "$demo_size" -gt $((blank_size * 4)) ] ||
    fail "the screenshot looks blank: $demo_size bytes against $blank_size for a blank page"
  [ -z "${EPDD_SCREENSHOT:-}" ] || cp demo.png "$EPDD_SCREENSHOT"
fi

[ $failed -eq 0 ] && echo "the demo page passes in $("$chromium" --version)"
exit $failed
