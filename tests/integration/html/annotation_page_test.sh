#!/usr/bin/env bash
# The annotation page in a real browser (issue 20, point 2): `epdd report` renders the golden
# summaries (tests/golden/annotate: kasparov-stockfish.json, Stockfish 15.1 at 20,000 nodes; and
# it with mates.json, two inputs on one page), and Debian's chromium, headless, loads the pages.
# Checks: the page refers to nothing outside itself; loading it logs no console message (with
# the control page showing that messages are seen at all); the DOM chromium built has a section,
# an evaluation graph and an evaluation line per game, a mark per judged ply of each kind, a row
# per player and per judged move, no <script>: every count worked out by python from the JSON
# itself; the screenshot is not blank. `epdd report JOB` from the store of a run and the run's
# --html give the page `epdd report FILE` gives from the run's --json (but for the input's name).
# The golden summary equals a fresh run with Stockfish (where /usr/games/stockfish is).
#   annotation_page_test.sh EPDD FAKE_ENGINE SHARED_DATA
# EPDD_SCREENSHOT=path copies the screenshot there. EPDD_UPDATE_GOLDEN=1 first remakes
# kasparov-stockfish.json with /usr/games/stockfish (review the diff); chromium is not needed
# for that. Exit 77 (a skip) when chromium is missing.
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
data=$(realpath "$3")/pgn
golden=$(cd "$(dirname "$0")/../../golden/annotate" && pwd)

# The golden summary is what this epdd and Debian's Stockfish 15.1 make (remade with
# EPDD_UPDATE_GOLDEN=1); without that Stockfish the comparison is left out, said so.
remake_failed=""
if [ -x /usr/games/stockfish ]; then
  remake=$(mktemp -d)
  "$epdd" annotate "$data/kasparov-deep-blue-1997.pgn" --engine /usr/games/stockfish --nodes 20000 --threads 1 \
    --hash 16 -q --store "$remake/sf.db" -o /dev/null --json "$remake/sf.json"
  if [ "${EPDD_UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$remake/sf.json" "$golden/kasparov-stockfish.json"
    echo "remade $golden/kasparov-stockfish.json"
  elif ! diff -u "$golden/kasparov-stockfish.json" "$remake/sf.json" >&2; then
    remake_failed="a fresh run differs from tests/golden/annotate/kasparov-stockfish.json (EPDD_UPDATE_GOLDEN=1 remakes it)"
  fi
  rm -rf "$remake"
else
  echo "/usr/games/stockfish not found: kasparov-stockfish.json not compared with a fresh run"
fi

source "$(dirname "$0")/browser_lib.sh"
[ -z "$remake_failed" ] || fail "$remake_failed"

# From the golden directory: the page names its inputs as given.
(cd "$golden" && "$epdd" report kasparov-stockfish.json -o "$work/page.html")
(cd "$golden" && "$epdd" report kasparov-stockfish.json mates.json -o "$work/two.html")
echo "pages: $(wc -c < page.html) bytes (one input), $(wc -c < two.html) bytes (two)"

self_contained page.html
self_contained two.html
control_page

for page in page two; do
  seconds=$(load "$page.html" "$page.dom" "$page.log")
  echo "chromium --dump-dom $page.html: ${seconds}s (browser start included)"
  messages=$(console "$page.log")
  [ -z "$messages" ] || fail "console messages while loading $page.html:
$messages"
done

# dom_check_of DOM JSON...: the DOM against the counts python works out from the summaries.
dom_check_of() {
  local dom=$1
  shift
  dom_check "$dom" <<PY
import json
runs = [json.load(open(f)) for f in "$*".split()]
games = [g for r in runs for g in r["games"]]
judged = [p["judgement"] for g in games for p in g["plies"] if "judgement" in p]
paths = [a.get("d", "") for t, cs, a, _ in dom.elements if t == "path" and cs == ["eval"]]
points = sorted(d.count("M") + d.count("L") for d in paths)
valued = sorted(sum(p["wc"] is not None for p in g["plies"]) for g in games)
expected = [
    ("script elements", count("script"), 0),
    ("sections (runs, players, the games)", count("section"), 2 + len(games)),
    ("evaluation graphs", count("svg", "eval-graph"), len(games)),
    ("evaluation lines", len(paths), len(games)),
    ("points of the lines, sorted", points, valued),
    ("inaccuracy marks", count("circle", "inaccuracy"), judged.count("inaccuracy")),
    ("mistake marks", count("circle", "mistake"), judged.count("mistake")),
    ("blunder marks", count("circle", "blunder"), judged.count("blunder")),
    ("judged moves' rows", count("tr", parent="judged") - count("table", "judged"), len(judged)),
    ("players' rows", count("tr", parent="players") - len(runs), sum(len(r["players"]) for r in runs)),
    ("runs' rows", count("tr", parent="runs") - 1, len(runs)),
    ("moves blocks", count("details"), sum(1 for g in games if g["plies"])),
]
for name, got, want in expected:
    expect(name, got, want)
names = [d for t, d in texts if t == "td"]
for r in runs:
    for p in r["players"]:
        if (p["name"] or "(no name)") not in names:
            print(f"FAIL player {p['name']!r} is not in a table cell"); bad += 1
PY
}
dom_check_of page.dom "$golden/kasparov-stockfish.json"
dom_check_of two.dom "$golden/kasparov-stockfish.json $golden/mates.json"

# From the store: the run's job gives the same page as its --json, and so does the run's --html
# (the input's name aside).
cp "$data/kasparov-deep-blue-1997.pgn" games.pgn
"$epdd" annotate games.pgn --engine "$fake" --store fake.db -q --depth 3 -o /dev/null --json fake.json --html run.html
"$epdd" report 1 --store fake.db -o job.html
"$epdd" report fake.json -o file.html
sed 's/job 1/fake.json/g' job.html | cmp -s - file.html || fail "epdd report 1 and epdd report fake.json differ: $(diff job.html file.html | head -5)"
sed 's/games\.pgn/fake.json/g' run.html | cmp -s - file.html || fail "epdd annotate --html and epdd report fake.json differ: $(diff run.html file.html | head -5)"

# The screenshot: written, and not blank.
screenshot page.html page.png
[ -z "${EPDD_SCREENSHOT:-}" ] || [ ! -s page.png ] || cp page.png "$EPDD_SCREENSHOT"

[ $failed -eq 0 ] && echo "the annotation page passes in $("$chromium" --version)"
exit $failed
