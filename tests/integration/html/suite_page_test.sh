#!/usr/bin/env bash
# The suite page in a real browser (issue 20), rendered by `epdd report` from the golden runs
# (tests/golden/suites/suite.json and suite-b.json: rules.epd with two fake engines, made by
# tests/integration/suite/golden_test.sh). Checks, for one run and for two side by side: the page
# refers to nothing outside itself; chromium logs no console message loading it (a control page
# shows that console messages are seen at all); the DOM chromium built has a series per run, a
# bar per theme and run, a row per unsolved or failed position (counted here from the golden
# JSON, with python), a diagram for each that is a legal position, the differing positions in
# their own table first; input strings (a hostile copy of the golden run) come back as text; the
# screenshot is not blank (EPDD_SCREENSHOT=path copies the two-run one there).
# Then issue 20's point 4: a 3,000-position suite. sts.epd (1,500 records) written twice into one
# file, the second copy's ids renumbered (Undermine.001 becomes Undermine.2001: distinct ids, the
# same STS themes), is run with the fake engine at depth 5 (the
# second copy answered from the analysis cache): one run of 3,000 records; its page made from the
# JSON file, from the job id and by --html at the end of the run is the same. Its page must be under
# 2 MB (asserted); its load time is printed twice: chromium --dump-dom minus a blank page's
# (browser start left out), and as measured inside the browser (a timing page, not ours, loads it
# in an iframe and reads its height, which lays it out). The time is printed, not checked: a wall
# clock in a test measures how loaded the machine is (it took 6.3 s under CI's ctest -j4 on a
# slow day); bench/suite_page_bench.sh runs this script with EPDD_PAGE_LOAD_TARGET_MS=2000, which
# makes a load over that target a failure.
#   suite_page_test.sh EPDD FAKE_ENGINE SHARED_DATA    (CHROMIUM=path overrides /usr/bin/chromium)
# Exit 77 (a skip) when chromium is missing: apt-get install -y --no-install-recommends chromium
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
shared=$(realpath "$3")
golden=$(cd "$(dirname "$0")/../../golden/suites" && pwd)
source "$(dirname "$0")/browser_lib.sh"

cp "$golden/suite.json" "$golden/suite-b.json" .
"$epdd" report suite.json -o one.html
"$epdd" report suite.json suite-b.json -o two.html

# A hostile copy of the golden run: every string field of the run and of its records.
python3 - <<'PY'
import json
HOSTILE = '<script>alert(1)</script>"\'&'
run = json.load(open("suite.json"))
for key in ("suite", "engine", "limits", "settings"):
    run[key] = HOSTILE + key
for i, r in enumerate(run["records"]):
    for key in ("id", "expected", "found", "pv", "score", "note", "theme", "error"):
        if key in r or key in ("id", "note", "pv"):
            r[key] = f"{HOSTILE}{key}{i}"
json.dump(run, open("hostile.json", "w"))
PY
"$epdd" report hostile.json -o hostile.html

self_contained one.html
self_contained two.html
self_contained hostile.html
control_page
for page in one two hostile; do
  seconds=$(load $page.html $page.dom $page.log)
  echo "$page.html: $(wc -c < $page.html) bytes, loaded in ${seconds}s (browser start included)"
  messages=$(console $page.log)
  [ -z "$messages" ] || fail "console messages while loading $page.html:
$messages"
done

# The oracle: from the golden JSON, per run the unsolved or failed records, the themes, the
# solved records' distinct times to solution; the records the two runs disagree on.
cat > oracle.py <<'PY'
import json
def troubled(r):
    return not r["solved"] and ("error" in r or r["rule"] != "unscored")
runs = [json.load(open(f)) for f in ("suite.json", "suite-b.json")]
a, b = (run["records"] for run in runs)
unsolved_one = [r["id"] for r in a if troubled(r)]
unsolved_two = [ra["id"] for ra, rb in zip(a, b) if troubled(ra) or troubled(rb)]
differ = [ra["id"] for ra, rb in zip(a, b) if ra["solved"] != rb["solved"]]
themes = [len(run["summary"]["sts"]["themes"]) for run in runs]
# A curve's points: 0 at the first time, one per distinct time, level to the longest run's end.
times = [len({r["to_solution"]["time_ms"] for r in run["records"] if r["solved"]}) + 2 for run in runs]
illegal = sum(1 for r in a if troubled(r) and r.get("error", "").startswith("illegal position"))
def rows(cls):
    return count("tr", parent=cls) - 1
def series_points():
    return [len(a.get("points", "").split()) for t, cs, a, _ in elements if t == "polyline" and "series" in cs]
PY

dom_check one.dom <<'PY'
exec(open("oracle.py").read())
expect("script elements", count("script"), 0)
expect("sections", count("section"), 5)
expect("rows of the records table (every record)", rows("records"), len(a))
expect("series", count("polyline", "series"), 1)
expect("points of the series (one per distinct time to solution, and the two ends)", series_points(), times[:1])
expect("bar charts", count("svg", "bar-chart"), 1)
expect("bars", count("rect", "bar"), themes[0])
expect("unsolved rows", rows("unsolved"), len(unsolved_one))
expect("board diagrams (not the illegal position)", count("svg", "board"), len(unsolved_one) - illegal)
expect("dark squares' paths", count("path", "dark"), len(unsolved_one) - illegal)
ids = [d for t, d in texts if t == "td"]
missing = [i for i in unsolved_one if i not in ids]
expect("unsolved ids missing from the page", missing, [])
PY

dom_check two.dom <<'PY'
exec(open("oracle.py").read())
expect("script elements", count("script"), 0)
expect("sections", count("section"), 5)
expect("series", count("polyline", "series"), 2)
expect("points of the series", series_points(), times)
expect("series names", [a.get("data-series") for t, cs, a, _ in elements if t == "polyline"], ["suite.json", "suite-b.json"])
expect("bar charts", count("svg", "bar-chart"), 2)
expect("bars", count("rect", "bar"), sum(themes))
expect("summary columns", count("th", parent="runs"), 3)
expect("unsolved rows", rows("unsolved"), len(unsolved_two))
expect("positions where the runs differ", rows("differ"), len(differ))
expect("the other positions", rows("agree"), len(a) - len(differ))
# The unsolved table comes first on the page: its ids, the differing positions first.
order = [d for t, d in texts if t == "td" and d in unsolved_two][:len(unsolved_two)]
expect("unsolved table: the differing positions first, then the rest",
       order, [i for i in unsolved_two if i in differ] + [i for i in unsolved_two if i not in differ])
PY

dom_check hostile.dom <<'PY'
HOSTILE = '<script>alert(1)</script>"\'&'
expect("script elements", count("script"), 0)
back = {d for t, d in texts if HOSTILE in d}
for field in ("engine", "limits", "settings", "id1", "expected1", "found1", "pv1", "score1", "note1", "error9", "theme8"):
    if not any(field in d for d in back):
        print(f"FAIL the hostile {field} is not back as text"); bad += 1
titles = [d for t, d in texts if t == "title"]
expect("the page title, as text", titles[0], "Suite " + HOSTILE + "suite")
PY

screenshot two.html two.png
[ -z "${EPDD_SCREENSHOT:-}" ] || [ ! -s two.png ] || cp two.png "$EPDD_SCREENSHOT"

# Point 4 (and the page made three ways alike): 3,000 records, sts.epd twice (distinct ids), the fake engine at depth 5: one run.
{ cat "$shared/suites/sts.epd"; echo; sed 's/id "\([^"]*\)\.\([0-9]*\)"/id "\1.2\2"/' "$shared/suites/sts.epd"; } > sts3000.epd
ids=$(grep -o 'id "[^"]*"' sts3000.epd | sort -u | wc -l)
[ "$ids" = 3000 ] || fail "sts3000.epd has $ids distinct ids, not 3,000"
printf '[[engine]]\nname = "fake"\ncommand = "%s"\n' "$fake" > fake.toml
"$epdd" suite sts3000.epd --config fake.toml --store run.db --depth 5 -q --json sts3000.json --html run.html \
  > /dev/null || fail "epdd suite on sts3000.epd failed"
"$epdd" report sts3000.json -o large.html
# The same page three ways: from the JSON file, from the job in the store, and --html at the end
# of the run; only the run's label differs (the file, "job 1", the suite file).
"$epdd" report 1 --store run.db -o job.html
for page in large job run; do
  sed -e 's/sts3000\.json/LABEL/g' -e 's/job 1/LABEL/g' -e 's/sts3000\.epd/LABEL/g' $page.html > $page.same
done
cmp -s large.same job.same || fail "epdd report JOBID differs from epdd report FILE.json: $(diff large.same job.same | head -5)"
cmp -s large.same run.same || fail "epdd suite --html differs from epdd report FILE.json: $(diff large.same run.same | head -5)"
records=$(python3 -c 'import json; print(len(json.load(open("sts3000.json"))["records"]))')
size=$(wc -c < large.html)
[ "$records" -ge 3000 ] || fail "the large run has $records records, not 3,000"
echo "3,000-position page: $records records, $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.2f", s / 1048576 }') MiB)"
[ "$size" -lt 2000000 ] || fail "the 3,000-position page is $size bytes, not under 2 MB"
self_contained large.html

printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>blank</title></head><body></body></html>\n' > blank.html
blank_seconds=$(load blank.html blank.dom blank.log)
large_seconds=$(load large.html large.dom large.log)
[ -z "$(console large.log)" ] || fail "console messages while loading large.html: $(console large.log)"
cat > timing.html <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"><title>timing</title></head><body>
<script>const start = performance.now();
function loaded(frame) {
  let height = -1;
  try { height = frame.contentDocument.body.scrollHeight; } catch (e) { height = -1; }
  console.log("epdd-load-ms " + Math.round(performance.now() - start) + " height " + height);
}</script>
<iframe src="large.html" width="1200" height="800" onload="loaded(this)"></iframe></body></html>
HTML
browser --allow-file-access-from-files --enable-logging=stderr --v=0 --dump-dom "file://$work/timing.html" \
  > timing.dom 2> timing.log || true
inside=$(grep -o 'epdd-load-ms [0-9]* height -\?[0-9]*' timing.log | head -1 || true)
inside_ms=$(echo "$inside" | awk '{ print $2 }')
height=$(echo "$inside" | awk '{ print $4 }')
dump_ms=$(awk -v a="$blank_seconds" -v b="$large_seconds" 'BEGIN { printf "%d", (b - a) * 1000 }')
echo "3,000-position page load: ${dump_ms} ms by --dump-dom (${large_seconds}s less a blank page's ${blank_seconds}s)," \
  "${inside_ms:-?} ms inside the browser (laid out: height ${height:-?} px)"
if [ -z "$inside_ms" ] || [ "${height:-0}" -le 0 ]; then
  fail "the in-browser timing did not report (timing.log: $(tail -3 timing.log))"
else
  [ "$inside_ms" -lt 2000 ] && echo "under 2 s: yes" || echo "under 2 s: NO (${inside_ms} ms)"
  target=${EPDD_PAGE_LOAD_TARGET_MS:-}
  [ -z "$target" ] || [ "$inside_ms" -lt "$target" ] ||
    fail "the 3,000-position page took ${inside_ms} ms to load and lay out (target: under $target ms)"
fi
dom_check large.dom <<PY
expect("large page: board diagrams (the cap)", count("svg", "board"), 200)
expect("large page: bars (the STS themes of the JSON, each copy's records in their theme)", count("rect", "bar"),
       $(python3 -c 'import json; t = json.load(open("sts3000.json"))["summary"]["sts"]["themes"]; print(len(t) if len(t) < 30 else -len(t))'))
expect("large page: rows of the records table (every record)", count("tr", parent="records") - 1,
       $(python3 -c 'import json; print(len(json.load(open("sts3000.json"))["records"]))'))
expect("large page: unsolved rows", count("tr", parent="unsolved") - 1,
       $(python3 -c 'import json; print(sum(1 for r in json.load(open("sts3000.json"))["records"] if not r["solved"] and ("error" in r or r["rule"] != "unscored")))'))
PY

[ $failed -eq 0 ] && echo "the suite page passes in $("$chromium" --version)"
exit $failed
