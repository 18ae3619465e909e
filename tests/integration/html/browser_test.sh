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
source "$(dirname "$0")/browser_lib.sh"

"$demo" > demo.html
echo "demo page: $(wc -c < demo.html) bytes"

# Nothing outside the page; console messages are seen at all (the control).
self_contained demo.html
control_page

printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n' > blank.html
blank_seconds=$(load blank.html blank.dom blank.log)
demo_seconds=$(load demo.html demo.dom demo.log)
echo "chromium --dump-dom: blank page ${blank_seconds}s, demo page ${demo_seconds}s (browser start included)"
messages=$(console demo.log)
[ -z "$messages" ] || fail "console messages while loading the demo page:
$messages"

dom_check demo.dom <<'PY'
HOSTILE = '<script>alert("x")</script>\' " &amp;'
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
for name, got, want in expected:
    expect(name, got, want)
series = [a.get("data-series") for t, cs, a, _ in dom.elements if t == "polyline" and "series" in cs]
if HOSTILE not in series:
    print(f"FAIL the hostile series name is not back as text: {series}"); bad += 1
titles = [d for t, d in dom.texts if t == "title"]
if ("epdd html demo " + HOSTILE) not in titles:
    print(f"FAIL the hostile title is not back as text: {titles}"); bad += 1
points = [a.get("points", "") for t, cs, a, _ in dom.elements if t == "polyline" and "series" in cs]
if any(len(p.split()) != 40 for p in points):
    print(f"FAIL a series has not its 40 points: {[len(p.split()) for p in points]}"); bad += 1
PY

# The screenshot: written, and not blank (a blank page of the same size is the baseline).
screenshot demo.html demo.png
[ -z "${EPDD_SCREENSHOT:-}" ] || [ ! -s demo.png ] || cp demo.png "$EPDD_SCREENSHOT"

[ $failed -eq 0 ] && echo "the demo page passes in $("$chromium" --version)"
exit $failed
