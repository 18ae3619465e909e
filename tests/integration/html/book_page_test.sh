#!/usr/bin/env bash
# The book page in a real browser (issue 20, points 1 and 2):
# - the golden JSON of tests/golden/book is what a real run with the fake engine makes now
#   (regenerate.sh into the work directory, compared byte for byte);
# - `epdd report JOBID` (the JSON rendered from the store) and `epdd report FILE.json` give the
#   same page;
# - for each golden file, the page `epdd report` makes refers to nothing outside itself, loads in
#   Debian's chromium without a console message (a control page shows that messages are seen),
#   and its DOM has every node of the JSON's tree at its ply, the best line, a bar per valued
#   first move, a row per contradiction and per unvalued leaf; the screenshot is not blank.
#   book_page_test.sh EPDD FAKE_ENGINE SHARED_DATA       (CHROMIUM=path overrides /usr/bin/chromium)
# EPDD_SCREENSHOT=path copies the twic0920 page's screenshot there. Exit 77 (a skip) without chromium.
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
data=$(realpath "$3")
golden=$(cd "$(dirname "$0")/../../golden/book" && pwd)
source "$(dirname "$0")/browser_lib.sh"

# The golden JSON is a real run's, as the code makes it now.
mkdir fresh
"$golden/regenerate.sh" "$epdd" "$fake" "$data" fresh
for f in twic.json scripted.json; do
  cmp "$golden/$f" "fresh/$f" ||
    fail "tests/golden/book/$f is not what a run makes now (tests/golden/book/regenerate.sh rewrites it; review the diff): $(diff "$golden/$f" "fresh/$f" | head -5)"
done

# A job of the store and its JSON file: the same page.
(cd "$data/pgn" && "$epdd" book backsolve twic0920.pgn --engine "$fake" --depth 3 --max-ply 6 --min-games 3 \
   --store "$work/job.db" -o "$work/job.epd" --json "$work/job.json" -q)
job=$(sqlite3 -batch -noheader job.db 'select max(id) from jobs')
"$epdd" report "$job" --store job.db -o from-job.html 2> report.err || fail "epdd report $job: $(cat report.err)"
"$epdd" report job.json -o from-file.html 2> report.err || fail "epdd report job.json: $(cat report.err)"
cmp from-job.html from-file.html || fail "epdd report JOBID and epdd report FILE.json give other pages"

control_page
for name in twic scripted; do
  cp "$golden/$name.json" book.json
  "$epdd" report book.json -o "$name.html" 2> report.err || fail "epdd report $name.json: $(cat report.err)"
  echo "$name page: $(wc -c < "$name.html") bytes"
  self_contained "$name.html"
  seconds=$(load "$name.html" "$name.dom" "$name.log")
  echo "chromium --dump-dom of the $name page: ${seconds}s (browser start included)"
  messages=$(console "$name.log")
  [ -z "$messages" ] || fail "console messages while loading the $name page:
$messages"
  dom_check "$name.dom" <<'PY'
import json
j = json.load(open("book.json"))
by_ply = {}
def walk(node, ply):
    by_ply[ply] = by_ply.get(ply, 0) + 1
    for c in node.get("children", []):
        walk(c, ply + 1)
walk(j["tree"], 0)
best = 0
node = j["tree"]
while node.get("best") and any(c["move"] == node["best"] for c in node.get("children", [])):
    node = next(c for c in node["children"] if c["move"] == node["best"])
    best += 1
nodes = [a for t, cs, a, _ in dom.elements if t == "li" and "node" in cs]
expected = [
    ("script elements", count("script"), 0),
    ("sections", count("section"), 4),
    ("tree nodes", len(nodes), sum(by_ply.values())),
    ("the best line's nodes (the root included)", count("li", "best-line"), best + 1),
    ("bar charts", count("svg", "bar-chart"), 1),
    ("bars", count("rect", "bar"), sum(1 for c in j["tree"]["children"] if c["ce"] is not None)),
    ("contradiction rows", count("tr", parent="contradictions"), len(j["contradictions"]) + 1 if j["contradictions"] else 0),
    ("unvalued leaf rows", count("tr", parent="unvalued"), len(j["unvalued_leaves"]) + 1 if j["unvalued_leaves"] else 0),
]
for ply, n in sorted(by_ply.items()):
    expected.append((f"tree nodes at ply {ply}", sum(1 for a in nodes if a.get("data-ply") == str(ply)), n))
for name, got, want in expected:
    expect(name, got, want)
bars = [a.get("data-label") for t, cs, a, _ in dom.elements if t == "rect" and "bar" in cs]
want = [c["move"] for c in j["tree"]["children"] if c["ce"] is not None]
if bars != want:
    print(f"FAIL the bars are not the first moves in the tree's order: {bars} against {want}"); bad += 1
lines = [d for t, d in texts if t == "td"]
missing = [c["line"] for c in j["contradictions"] if c["line"] not in lines]
if missing:
    print(f"FAIL contradictions not in the table: {missing}"); bad += 1
PY
  screenshot "$name.html" "$name.png"
done
[ -z "${EPDD_SCREENSHOT:-}" ] || [ ! -s twic.png ] || cp twic.png "$EPDD_SCREENSHOT"

# Every string of the JSON (inputs, engine, moves, lines, positions, ...) a hostile one: the
# browser builds no script element and shows the strings as text.
python3 - "$golden/twic.json" > hostile.json <<'PY'
import json, sys
HOSTILE = '<script>alert(1)</script>\' " &amp;'
def walk(x):
    if isinstance(x, dict):
        return {k: (v if k == "format" else walk(v)) for k, v in x.items()}
    if isinstance(x, list):
        return [walk(v) for v in x]
    return HOSTILE if isinstance(x, str) else x
print(json.dumps(walk(json.load(open(sys.argv[1])))))
PY
"$epdd" report hostile.json -o hostile.html 2> report.err || fail "epdd report hostile.json: $(cat report.err)"
self_contained hostile.html
load hostile.html hostile.dom hostile.log > /dev/null
messages=$(console hostile.log)
[ -z "$messages" ] || fail "console messages while loading the hostile page:
$messages"
dom_check hostile.dom <<'PY'
import json
HOSTILE = '<script>alert(1)</script>\' " &amp;'
j = json.load(open("hostile.json"))
expect("script elements", count("script"), 0)
titles = [d for t, d in texts if t == "title"]
if "epdd book: " + HOSTILE not in titles:
    print(f"FAIL the hostile input is not back as text in the title: {titles}"); bad += 1
nodes = count("li", "node")
shown = sum(1 for t, d in texts if HOSTILE in d)
# input, engine, limits; every tree node's move (the root's label); the contradictions' line,
# mover and kind; the intro's label and position
want = 3 + nodes + 3 * len(j["contradictions"]) + 1
if shown < want:
    print(f"FAIL {shown} texts hold the hostile string, expected at least {want}"); bad += 1
else:
    print(f"ok   the hostile string back as text {shown} times")
PY

[ $failed -eq 0 ] && echo "the book page passes in $("$chromium" --version)"
exit $failed
