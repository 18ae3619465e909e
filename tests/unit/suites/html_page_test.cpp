// The suite page (issue 20) from the golden suite runs (tests/golden/suites/suite.json and
// suite-b.json, made by tests/integration/suite/golden_test.sh with the fake engine): every run,
// every unsolved or failed position, every theme is there. The expectations are read from the
// golden JSON here with nlohmann, not through run_from_json.
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstddef>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "html/escape.hpp"
#include "suites/html_page.hpp"
#include "json_mutations.hpp"
#include "test_support.hpp"

using namespace epdd;
using namespace epdd::suites;
using nlohmann::json;

namespace {

std::string golden(const std::string& name) { return epdd::test::read_file(std::string(EPDD_GOLDEN_DIR) + "/suites/" + name); }

SuiteRun golden_run(const std::string& name) {
  auto run = run_from_json(golden(name));
  REQUIRE(run);
  return std::move(*run);
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The markup of the table with this class ("" when there is none).
std::string table(const std::string& page, const std::string& css_class) {
  const std::size_t start = page.find("<table class=\"" + css_class + "\">");
  if (start == std::string::npos) return {};
  return page.substr(start, page.find("</table>", start) - start);
}

// Body rows of that table.
std::size_t rows(const std::string& page, const std::string& css_class) {
  const std::string t = table(page, css_class);
  return t.empty() ? 0 : count(t, "<tr>") - 1;
}

// The number of points of each series of the page's line chart, in order.
std::vector<std::size_t> series_points(const std::string& page) {
  std::vector<std::size_t> out;
  for (std::size_t at = page.find("<polyline class=\"series\""); at != std::string::npos;
       at = page.find("<polyline class=\"series\"", at + 1)) {
    const std::size_t start = page.find("points=\"", at) + 8;
    const std::string points = page.substr(start, page.find('"', start) - start);
    out.push_back(points.empty() ? 0 : count(points, " ") + 1);
  }
  return out;
}

// The golden run's records, by the JSON: ids of the unsolved-or-failed ones, in file order.
std::vector<std::string> troubled_ids(const std::string& name) {
  std::vector<std::string> out;
  const json j = json::parse(golden(name));
  for (const auto& r : j.at("records"))
    if (!r.at("solved").get<bool>() && (r.contains("error") || r.at("rule").get<std::string>() != "unscored"))
      out.push_back(r.at("id").get<std::string>());
  return out;
}

// The body rows of that table, each as its markup.
std::vector<std::string> row_markups(const std::string& page, const std::string& css_class) {
  const std::string t = table(page, css_class);
  std::vector<std::string> out;
  const std::size_t body = t.find("<tbody>");
  for (std::size_t at = t.find("<tr>", body); at != std::string::npos;) {
    const std::size_t next = t.find("<tr>", at + 1);
    out.push_back(t.substr(at, next == std::string::npos ? std::string::npos : next - at));
    at = next;
  }
  return out;
}

// The cells of a row, as text (tags left out, entities as written).
std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> out;
  for (std::size_t at = row.find("<td"); at != std::string::npos; at = row.find("<td", at + 1)) {
    const std::size_t start = row.find('>', at) + 1;
    out.push_back(row.substr(start, row.find("</td>", start) - start));
  }
  return out;
}

// What the records table must say of a record (by the JSON, not by run_from_json): its move,
// score, verdict, time, depth and nodes, or a dash for a run that lacks it.
std::vector<std::string> expected_run_cells(const json& r, bool all_columns) {
  const bool failed = r.contains("error");
  const bool missing = r.value("missing", false);
  const bool analysed = !failed && !missing;
  const std::string rule = r.at("rule").get<std::string>();
  const std::string verdict = failed ? "failed" : missing ? "missing" : rule == "unscored" ? "unscored"
                              : r.at("solved").get<bool>() ? "solved" : "not solved";
  std::string found = r.value("found", std::string());
  if (analysed && found.empty()) found = "no move";
  std::vector<std::string> out{html::escape(analysed ? found : ""), html::escape(analysed ? r.value("score", std::string()) : ""),
                               verdict};
  char time[32];
  std::snprintf(time, sizeof time, "%.2f s", r.value("time_ms", 0.0) / 1000.0);
  out.push_back(analysed ? time : "");
  if (all_columns) {
    out.push_back(analysed ? std::to_string(r.value("depth", 0)) : "");
    out.push_back(analysed ? std::to_string(r.value("nodes", 0)) : "");
  }
  return out;
}

}  // namespace

TEST_CASE("suite_page: every record of a golden run in the records table, with the run's figures", "[suites][html_page]") {
  for (const char* name : {"suite.json", "suite-b.json"}) {
    INFO(name);
    const std::string page = suite_page({{name, golden_run(name)}});
    const json j = json::parse(golden(name));
    const auto rows = row_markups(page, "records");
    REQUIRE(rows.size() == j.at("records").size());
    REQUIRE(rows.size() >= 15);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const json& r = j.at("records")[i];
      INFO("record " << i << ": " << r.dump());
      std::vector<std::string> want{std::to_string(r.at("line").get<int>()), html::escape(r.value("id", std::string())),
                                    html::escape(r.value("expected", std::string()))};
      for (auto& c : expected_run_cells(r, true)) want.push_back(c);
      CHECK(cells_of(rows[i]) == want);
    }
  }
}

TEST_CASE("suite_page: two golden runs, every record with a column group each, the differing first",
          "[suites][html_page]") {
  const std::string page = suite_page({{"suite.json", golden_run("suite.json")}, {"suite-b.json", golden_run("suite-b.json")}});
  const json a = json::parse(golden("suite.json")), b = json::parse(golden("suite-b.json"));
  CHECK(count(table(page, "differ"), "<th>suite-b.json: time</th>") == 1);
  CHECK(count(page, ": nodes</th>") == 0);
  CHECK_THAT(page, Catch::Contains("depth and nodes are left out"));
  const auto differ = row_markups(page, "differ"), agree = row_markups(page, "agree");
  REQUIRE(differ.size() + agree.size() == a.at("records").size());
  std::size_t d = 0, g = 0;
  for (std::size_t i = 0; i < a.at("records").size(); ++i) {
    const json &ra = a.at("records")[i], &rb = b.at("records")[i];
    INFO("record " << i);
    std::vector<std::string> want{std::to_string(ra.at("line").get<int>()), html::escape(ra.value("id", std::string())),
                                  html::escape(ra.value("expected", std::string()))};
    for (auto& c : expected_run_cells(ra, false)) want.push_back(c);
    for (auto& c : expected_run_cells(rb, false)) want.push_back(c);
    const bool differs = ra.at("solved").get<bool>() != rb.at("solved").get<bool>();
    const std::string& row = differs ? differ.at(d++) : agree.at(g++);
    CHECK(cells_of(row) == want);
  }
  // Four runs: the move and the verdict only, and the page says so.
  const std::string four = suite_page({{"a", golden_run("suite.json")},
                                       {"b", golden_run("suite-b.json")},
                                       {"c", golden_run("suite.json")},
                                       {"d", golden_run("suite-b.json")}});
  CHECK(count(four, ": time</th>") == 0);
  CHECK(count(table(four, "differ"), "<th>d: solved</th>") == 1);
  CHECK_THAT(four, Catch::Contains("only the move and the verdict are shown"));
}

TEST_CASE("suite_page: the records table for a missing record, a failed one and a run that lacks them",
          "[suites][html_page]") {
  auto record = [](std::size_t line, const char* id) {
    RecordResult r;
    r.line = line;
    r.id = id;
    r.position = "8/8/8/4k3/8/8/4P3/4K3 w - -";
    r.rule = Rule::Bm;
    r.expected = "bm e4";
    return r;
  };
  SuiteRun a;
  a.suite = "s.epd";
  RecordResult solved = record(1, "one");
  solved.solved = true, solved.found = "e4", solved.score = "cp 80", solved.depth = 12, solved.nodes = 3456,
  solved.time_ms = 1250;
  RecordResult missing = record(2, "two");
  missing.missing = true;
  RecordResult failed = record(3, "three");
  failed.error = "crash during search";
  a.records = {solved, missing, failed};
  SuiteRun b;
  b.suite = "s.epd";
  b.records = {solved};
  const std::string page = suite_page({{"a", a}, {"b", b}});
  // Record 1 both solved: agree; records 2 and 3: solved by neither (b lacks them): agree too.
  const auto agree = row_markups(page, "agree");
  REQUIRE(agree.size() == 3);
  CHECK(row_markups(page, "differ").empty());
  CHECK(cells_of(agree[0]) == std::vector<std::string>{"1", "one", "bm e4", "e4", "cp 80", "solved", "1.25 s", "e4", "cp 80",
                                                       "solved", "1.25 s"});
  CHECK(cells_of(agree[1]) == std::vector<std::string>{"2", "two", "bm e4", "", "", "missing", "", "-", "", "-", ""});
  CHECK(cells_of(agree[2]) == std::vector<std::string>{"3", "three", "bm e4", "", "", "failed", "", "-", "", "-", ""});
}

TEST_CASE("suite_page: one golden run, every unsolved and failed position, every theme", "[suites][html_page]") {
  const std::string page = suite_page({{"suite.json", golden_run("suite.json")}});
  const json j = json::parse(golden("suite.json"));
  const auto troubled = troubled_ids("suite.json");
  REQUIRE(troubled.size() >= 5);  // the golden run has unsolved and failed records

  CHECK_THAT(page, Catch::StartsWith("<!DOCTYPE html>"));
  CHECK(count(page, "<script") == 0);
  for (const char* section : {"runs", "curve", "themes", "unsolved", "records"})
    CHECK(count(page, std::string("<section id=\"") + html::anchor_id(section) + "\"") == 1);
  // One run: no side-by-side section.
  CHECK(count(page, "<table class=\"differ\">") == 0);
  CHECK(count(page, "<table class=\"agree\">") == 0);

  // The summary: the run's engine, limits, solved / scored, STS rating.
  const auto& s = j.at("summary");
  CHECK(rows(page, "runs") >= 8);
  CHECK_THAT(page, Catch::Contains(html::escape(j.at("engine").get<std::string>())));
  CHECK_THAT(page, Catch::Contains(std::to_string(s.at("solved").get<int>()) + " / " + std::to_string(s.at("scored").get<int>())));
  CHECK_THAT(page, Catch::Contains("rating " + std::to_string(s.at("sts").at("rating").get<long long>())));

  // The curve: one series, from 0 at the first time, a point per distinct time to solution, level
  // to the end.
  CHECK(count(page, "<polyline class=\"series\"") == 1);
  std::set<long long> times;
  for (const auto& r : j.at("records"))
    if (r.at("solved").get<bool>()) times.insert(r.at("to_solution").at("time_ms").get<long long>());
  CHECK(series_points(page) == std::vector<std::size_t>{times.size() + 2});
  CHECK(rows(page, "curve") == 1);

  // Themes: one bar per theme.
  CHECK(count(page, "<rect class=\"bar\"") == s.at("sts").at("themes").size());
  CHECK(rows(page, "themes") == s.at("sts").at("themes").size());

  // Unsolved: every one, in file order, each with a diagram (fewer than the cap) or its FEN.
  CHECK(rows(page, "unsolved") == troubled.size());
  CHECK_THAT(page, Catch::Contains("Each is drawn as a board diagram"));
  const std::string unsolved = table(page, "unsolved");
  std::size_t at = 0;
  for (const auto& id : troubled) {
    INFO(id);
    const std::size_t here = unsolved.find(">" + html::escape(id) + "<", at);
    REQUIRE(here != std::string::npos);
    at = here;
  }
  // The illegal position has no diagram: its FEN is shown instead.
  CHECK(count(unsolved, "<svg class=\"board\"") == troubled.size() - 1);
  CHECK_THAT(unsolved, Catch::Contains("1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2KK w - -"));
  // The engine's move, the key and the PV of an unsolved record, and the error of a failed one.
  CHECK_THAT(unsolved, Catch::Contains("bm d4 e4"));
  CHECK_THAT(unsolved, Catch::Contains("PV: a3 a5"));
  CHECK_THAT(unsolved, Catch::Contains("failed: crash during search"));
}

TEST_CASE("suite_page: two golden runs side by side, the positions where they differ first", "[suites][html_page]") {
  const std::string page = suite_page({{"suite.json", golden_run("suite.json")}, {"suite-b.json", golden_run("suite-b.json")}});
  // The oracle: ids solved by one run and not the other, and those unsolved or failed in either.
  const json a = json::parse(golden("suite.json")), b = json::parse(golden("suite-b.json"));
  REQUIRE(a.at("records").size() == b.at("records").size());
  std::vector<std::string> differ, agree, troubled_differ, troubled_same;
  for (std::size_t i = 0; i < a.at("records").size(); ++i) {
    const auto &ra = a.at("records")[i], &rb = b.at("records")[i];
    REQUIRE(ra.at("line") == rb.at("line"));
    const bool sa = ra.at("solved").get<bool>(), sb = rb.at("solved").get<bool>();
    const auto troubled = [](const json& r) {
      return !r.at("solved").get<bool>() && (r.contains("error") || r.at("rule").get<std::string>() != "unscored");
    };
    (sa != sb ? differ : agree).push_back(ra.at("id").get<std::string>());
    if (troubled(ra) || troubled(rb)) (sa != sb ? troubled_differ : troubled_same).push_back(ra.at("id").get<std::string>());
  }
  REQUIRE(differ.size() == 3);  // suite-b solves two that suite misses, misses one it solves

  // Both runs: two series, two bar charts, a column each in the summary.
  CHECK(series_points(page).size() == 2);
  CHECK(count(page, "data-series=\"suite.json\"") == 1);
  CHECK(count(page, "data-series=\"suite-b.json\"") == 1);
  CHECK(count(page, "<svg class=\"chart bar-chart\"") == 2);
  CHECK(count(table(page, "runs"), "<th>suite-b.json</th>") == 1);

  // Side by side: the differing positions in their table, the rest in the other, in line order.
  CHECK(rows(page, "differ") == differ.size());
  CHECK(rows(page, "agree") == agree.size());
  CHECK(page.find("<table class=\"differ\">") < page.find("<table class=\"agree\">"));
  for (const auto& id : differ) CHECK_THAT(table(page, "differ"), Catch::Contains(">" + html::escape(id) + "<"));

  // Unsolved: the differing ones first, then those neither run solved.
  CHECK(rows(page, "unsolved") == troubled_differ.size() + troubled_same.size());
  const std::string unsolved = table(page, "unsolved");
  std::size_t at = 0;
  for (const auto* list : {&troubled_differ, &troubled_same})
    for (const auto& id : *list) {
      INFO(id);
      const std::size_t here = unsolved.find(">" + html::escape(id) + "<", at);
      REQUIRE(here != std::string::npos);
      at = here;
    }
}

TEST_CASE("suite_page: diagrams up to the cap, then the FEN, and the page says so", "[suites][html_page]") {
  SuitePageOptions options;
  options.max_diagrams = 2;
  const std::string page = suite_page({{"suite.json", golden_run("suite.json")}}, options);
  const std::string unsolved = table(page, "unsolved");
  CHECK(count(unsolved, "<svg class=\"board\"") == 2);
  CHECK(rows(page, "unsolved") == troubled_ids("suite.json").size());
  CHECK_THAT(page, Catch::Contains("The first 2 are drawn as board diagrams"));
  // A position past the cap: its FEN in the table.
  CHECK_THAT(unsolved, Catch::Contains("k7/8/1K6/8/8/8/8/5R2 w - -"));
}

TEST_CASE("suite_page: input strings come out as text in every field", "[suites][html_page]") {
  const std::string hostile = "<script>alert(1)</script>\"'&";
  const std::string escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;";
  SuiteRun run = golden_run("suite.json");
  run.suite = run.engine = run.limits = run.settings = hostile;
  for (auto& r : run.records) {
    r.id = r.expected = r.found = r.pv = r.score = r.note = hostile;
    if (!r.error.empty()) r.error = hostile;
    if (r.sts) r.theme = hostile;
    if (!r.solved) r.position = hostile;  // not a FEN: shown as text
  }
  SuiteRun other = run;
  other.records.front().solved = !other.records.front().solved;  // a difference: the side-by-side table
  const std::string page = suite_page({{hostile, run}, {hostile + "2", other}});
  CHECK(count(page, "<script") == 0);
  CHECK(count(page, hostile) == 0);
  CHECK(count(page, "alert(1)") == count(page, escaped));
  CHECK(count(page, escaped) > 20);
  // The labels head the columns, escaped; equal labels are told apart.
  CHECK_THAT(page, Catch::Contains("<th>" + escaped + "</th>"));
  const std::string page2 = suite_page({{"x", run}, {"x", other}});
  CHECK_THAT(page2, Catch::Contains("<th>x (2)</th>"));
}

TEST_CASE("suite_page_from_json: golden JSON with and without PVs, and inputs that are not suite runs",
          "[suites][html_page]") {
  auto page = suite_page_from_json({{"suite.json", golden("suite.json")}});
  REQUIRE(page);
  CHECK_THAT(*page, Catch::Contains("PV: a3 a5"));
  // A report written before the PV was kept: the same page without the PVs.
  json old = json::parse(golden("suite.json"));
  for (auto& r : old.at("records")) r.erase("pv");
  auto old_page = suite_page_from_json({{"suite.json", old.dump()}});
  REQUIRE(old_page);
  CHECK(count(*old_page, "PV: ") == 0);
  CHECK(rows(*old_page, "unsolved") == rows(*page, "unsolved"));

  auto bad = suite_page_from_json({{"suite.json", golden("suite.json")}, {"other.json", "{\"format\": \"x\"}"}});
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::StartsWith("other.json: not an epdd suite report"));
  CHECK_FALSE(suite_page_from_json({}));
}

TEST_CASE("suite_page: a run without records, and the title of runs of one suite and of several", "[suites][html_page]") {
  SuiteRun empty;
  empty.suite = "empty.epd";
  const std::string page = suite_page({{"e", empty}});
  CHECK_THAT(page, Catch::Contains("<title>Suite empty.epd</title>"));
  CHECK_THAT(page, Catch::Contains("No records."));
  CHECK(rows(page, "unsolved") == 0);
  CHECK(series_points(page) == std::vector<std::size_t>{0});

  const SuiteRun a = golden_run("suite.json");
  SuiteRun b = golden_run("matetrack.json");
  CHECK_THAT(suite_page({{"a", a}, {"b", a}}), Catch::Contains("<title>2 runs of rules.epd</title>"));
  CHECK_THAT(suite_page({{"a", a}, {"b", b}}), Catch::Contains("<title>2 runs: rules.epd, matetrack.epd</title>"));
  // Runs of different suites: matched by position; a position a run lacks is a dash there.
  const std::string mixed = suite_page({{"a", a}, {"b", b}});
  CHECK(rows(mixed, "differ") + rows(mixed, "agree") > a.records.size());
  CHECK_THAT(table(mixed, "agree"), Catch::Contains("<td>-</td>"));
}

TEST_CASE("suite_page: a run that solved everything at one time is a line, level to the longest run", "[suites][html_page]") {
  SuiteRun fast = golden_run("suite.json"), slow = fast;
  for (auto& r : fast.records)
    if (r.to_solution) r.to_solution->time_ms = 3;
  for (auto& r : slow.records)
    if (r.to_solution) r.to_solution->time_ms = 3000;
  const std::string page = suite_page({{"fast", fast}, {"slow", slow}});
  // (3 ms, 0), (3 ms, n), (3 s, n) and (3 s, 0), (3 s, n), (3 s, n).
  CHECK(series_points(page) == std::vector<std::size_t>{3, 3});
  CHECK_THAT(page, Catch::Contains("<th>within 1 s</th><th>within 10 s</th></tr>"));
}

TEST_CASE("suite_page: no runs is a programmer error", "[suites][html_page]") {
  CHECK_THROWS_AS(suite_page({}), std::invalid_argument);
}

// Issue 20 review: a time of -1 read as 2^64-1 and the curve's limits loop overflowing ate memory.
TEST_CASE("suite_page_from_json: a negative or huge time is refused with its record and key", "[suites][html_page]") {
  for (const json& bad : {json(-1), json(UINT64_MAX), json(1e15), json(2.5)}) {
    json j = json::parse(golden("suite.json"));
    j["records"][0]["to_solution"]["time_ms"] = bad;
    const auto page = suite_page_from_json({{"x.json", j.dump()}});
    INFO(bad.dump());
    REQUIRE_FALSE(page);
    CHECK_THAT(page.error(), Catch::StartsWith("x.json: records[0].to_solution.time_ms: "));
  }
}

TEST_CASE("suite_page: the largest times still give a page with the figures up to them", "[suites][html_page]") {
  for (const std::uint64_t ms : {UINT64_MAX, UINT64_MAX / 2, std::uint64_t{10'000'000'000'000'000'000u}}) {
    SuiteRun run = golden_run("suite.json");
    for (auto& r : run.records)
      if (r.to_solution) r.to_solution->time_ms = ms;
    const std::string page = suite_page({{"slow", run}});
    CHECK_THAT(page, Catch::Contains("<th>within 10000000000000000 s</th>"));
  }
}

TEST_CASE("suite_page_from_json: a value of the wrong type is named by its place, not by nlohmann", "[suites][html_page]") {
  json j = json::parse(golden("suite.json"));
  j["records"][3]["depth"] = "deep";
  auto page = suite_page_from_json({{"x.json", j.dump()}});
  REQUIRE_FALSE(page);
  CHECK(page.error() == "x.json: records[3].depth: \"deep\" is not a whole number");
  j = json::parse(golden("suite.json"));
  j.erase("suite");
  page = suite_page_from_json({{"x.json", j.dump()}});
  REQUIRE_FALSE(page);
  CHECK(page.error() == "x.json: has no \"suite\"");
  j = json::parse(golden("matetrack.json"));
  j["records"][1]["mate"].erase("outcome");
  page = suite_page_from_json({{"x.json", j.dump()}});
  REQUIRE_FALSE(page);
  CHECK(page.error() == "x.json: records[1].mate: has no \"outcome\"");
}

// Every key of the golden runs made wrong in every way: a page or an error naming the place.
TEST_CASE("suite_page_from_json: every key of the golden runs mutated gives a page or an error with its place",
          "[suites][html_page]") {
  std::size_t pages = 0, errors = 0;
  for (const char* name : {"suite.json", "matetrack.json"})
    for (const auto& m : epdd::test::json_mutations(golden(name))) {
      INFO(name);
      const bool page = epdd::test::page_or_placed_error(
          m, "x.json", [](const std::string& text) { return suite_page_from_json({{"x.json", text}}); });
      ++(page ? pages : errors);
    }
  CHECK(pages > 0);
  CHECK(errors > 500);
}
