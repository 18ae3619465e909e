// Suite-run reports: the summary's counts, the text report, JSON written and read back, and
// runs compared side by side.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "suites/report.hpp"

using namespace epdd;
using namespace epdd::suites;

namespace {

RecordResult bm_record(std::size_t line, std::string id, bool solved) {
  RecordResult r;
  r.line = line;
  r.id = std::move(id);
  r.position = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -";
  r.rule = Rule::Bm;
  r.solved = solved;
  r.expected = "bm Bb5";
  r.found = solved ? "Bb5" : "Bc4";
  r.score = "cp 35";
  r.depth = 12;
  r.nodes = 1000 * line;
  r.time_ms = 10 * line;
  if (solved) r.to_solution = ToSolution{3, 100 * line, line};
  return r;
}

RecordResult sts_record(std::size_t line, std::string id, std::string theme, int points) {
  RecordResult r = bm_record(line, std::move(id), points == 10);
  r.sts = true;
  r.theme = std::move(theme);
  r.points = points;
  r.max_points = 10;
  r.expected = "bm f5";
  r.found = points == 10 ? "f5" : "Bf2";
  return r;
}

// Seven records: two plain (one solved), one unscored, one failed, three STS in two themes.
SuiteRun sample_run() {
  SuiteRun run;
  run.suite = "suites/sample.epd";
  run.engine = "Stockfish 15.1";
  run.limits = "nodes 50000";
  run.settings = "Threads=1, Hash=16";
  run.records.push_back(bm_record(1, "plain.001", true));
  run.records.push_back(bm_record(2, "plain.002", false));
  RecordResult unscored;
  unscored.line = 3;
  unscored.id = "no key";
  unscored.position = "8/8/8/8/8/8/8/K6k w - -";
  unscored.found = "Kb1";
  unscored.nodes = 5;
  unscored.time_ms = 7;
  run.records.push_back(unscored);
  RecordResult failed = bm_record(4, "broken.004", false);
  failed.found.clear();
  failed.score.clear();
  failed.to_solution.reset();
  failed.error = "bm 'Qz9': 'Qz9' is not a move";
  run.records.push_back(failed);
  run.records.push_back(sts_record(5, "STS(v1.0) Undermine.001", "Undermine", 10));
  run.records.push_back(sts_record(6, "STS(v1.0) Undermine.002", "Undermine", 3));
  auto open = sts_record(7, "STS(v2.2) Open Files and Diagonals.001", "Open Files and Diagonals", 10);
  open.note = "a note";
  run.records.push_back(open);
  return run;
}

void check_equal(const RecordResult& a, const RecordResult& b) {
  INFO("record at line " << a.line);
  CHECK(a.line == b.line);
  CHECK(a.id == b.id);
  CHECK(a.position == b.position);
  CHECK(a.rule == b.rule);
  CHECK(a.solved == b.solved);
  CHECK(a.sts == b.sts);
  CHECK(a.points == b.points);
  CHECK(a.max_points == b.max_points);
  CHECK(a.theme == b.theme);
  CHECK(a.expected == b.expected);
  CHECK(a.found == b.found);
  CHECK(a.pv == b.pv);
  CHECK(a.score == b.score);
  CHECK(a.depth == b.depth);
  CHECK(a.nodes == b.nodes);
  CHECK(a.time_ms == b.time_ms);
  REQUIRE(a.to_solution.has_value() == b.to_solution.has_value());
  if (a.to_solution) {
    CHECK(a.to_solution->depth == b.to_solution->depth);
    CHECK(a.to_solution->nodes == b.to_solution->nodes);
    CHECK(a.to_solution->time_ms == b.to_solution->time_ms);
  }
  CHECK(a.note == b.note);
  CHECK(a.error == b.error);
  CHECK(a.missing == b.missing);
}

void check_equal(const SuiteRun& a, const SuiteRun& b) {
  CHECK(a.suite == b.suite);
  CHECK(a.engine == b.engine);
  CHECK(a.limits == b.limits);
  CHECK(a.settings == b.settings);
  REQUIRE(a.records.size() == b.records.size());
  for (std::size_t i = 0; i < a.records.size(); ++i) check_equal(a.records[i], b.records[i]);
}

// The text's lines with runs of white space made one space and the ends trimmed: column widths
// are the renderer's business, the words and their order are what is checked.
std::vector<std::string> words_per_line(const std::string& text) {
  std::vector<std::string> out;
  std::string line;
  bool space = false;
  for (char c : text) {
    if (c == '\n') {
      out.push_back(line);
      line.clear();
      space = false;
    } else if (c == ' ') {
      space = !line.empty();
    } else {
      if (space) line += ' ';
      space = false;
      line += c;
    }
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

bool contains(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

}  // namespace

TEST_CASE("summarize: counts, STS points and themes", "[suites][report]") {
  const Summary s = summarize(sample_run());
  CHECK(s.records == 7);
  CHECK(s.scored == 5);
  CHECK(s.solved == 3);
  CHECK(s.unscored == 1);
  CHECK(s.failed == 1);
  CHECK(s.sts_records == 3);
  CHECK(s.points == 23);
  CHECK(s.max_points == 30);
  // Every search counts for time and nodes, the failed one too.
  CHECK(s.time_ms == 10 + 20 + 7 + 40 + 50 + 60 + 70);
  CHECK(s.nodes == 1000 + 2000 + 5 + 4000 + 5000 + 6000 + 7000);
  // To solution: the solved records (lines 1, 5 and 7).
  CHECK(s.solution_time_ms == 1 + 5 + 7);
  CHECK(s.solution_nodes == 100 + 500 + 700);
  CHECK(s.solved_percent() == Approx(60.0));
  CHECK(s.points_percent() == Approx(100.0 * 23 / 30));
  REQUIRE(s.themes.size() == 2);
  CHECK(s.themes[0].theme == "Undermine");
  CHECK(s.themes[0].records == 2);
  CHECK(s.themes[0].solved == 1);
  CHECK(s.themes[0].points == 13);
  CHECK(s.themes[0].max_points == 20);
  CHECK(s.themes[1].theme == "Open Files and Diagonals");
  CHECK(s.themes[1].records == 1);
  CHECK(s.themes[1].solved == 1);
  CHECK(s.themes[1].points == 10);
  CHECK(s.themes[1].max_points == 10);
}

TEST_CASE("summarize: a partial report's records not analysed yet are missing, not failed", "[suites][report]") {
  // Issue 39, item 11: `results --partial` of a cancelled suite counted them as failed.
  SuiteRun run = sample_run();
  const Summary whole = summarize(run);
  auto missing = bm_record(8, "missing.008", false);
  missing.missing = true;
  missing.found.clear();
  missing.time_ms = missing.nodes = 0;
  run.records.push_back(missing);
  const Summary s = summarize(run);
  CHECK(s.records == whole.records + 1);
  CHECK(s.missing == 1);
  CHECK(s.failed == whole.failed);
  CHECK(s.scored == whole.scored);
  CHECK(s.solved_percent() == whole.solved_percent());
  const std::string text = render_text(run);
  CHECK_THAT(text, Catch::Contains("(missing 1: not analysed, a partial report)"));
  CHECK_THAT(text, !Catch::Contains("missing.008"));  // neither unsolved nor failed
  const std::string json = to_json(run);
  CHECK_THAT(json, Catch::Contains("\"missing\": 1"));
  const auto back = run_from_json(json);
  REQUIRE(back);
  CHECK(back->records.back().missing);
  CHECK(summarize(*back).missing == 1);
  CHECK_THAT(to_json(sample_run()), !Catch::Contains("\"missing\""));  // a whole report has no such key
}

TEST_CASE("summarize: an empty run", "[suites][report]") {
  const Summary s = summarize(SuiteRun{});
  CHECK(s.records == 0);
  CHECK(s.solved_percent() == 0.0);
  CHECK(s.points_percent() == 0.0);
  CHECK(s.themes.empty());
}

TEST_CASE("sts_rating: 80 percent", "[suites][report]") { CHECK(sts_rating(80) == 44.523 * 80 - 242.85); }

TEST_CASE("render_text: summary, themes, unsolved and failed records", "[suites][report]") {
  const std::string text = render_text(sample_run());
  INFO(text);
  const auto lines = words_per_line(text);
  CHECK(lines.at(0) == "Suite suites/sample.epd (7 records)");
  CHECK(lines.at(1) == "Engine Stockfish 15.1, nodes 50000");
  CHECK(lines.at(2) == "Settings Threads=1, Hash=16");
  CHECK(lines.at(3) == "Solved 3 / 5 60.0% (unscored 1, failed 1)");
  CHECK(lines.at(4) == fmt::format("STS 23 / 30 points 76.67% rating {:.0f}", sts_rating(100.0 * 23 / 30)));
  // Means over the six records that were analysed (257 ms, 25005 nodes); to solution over the
  // three solved (13 ms, 1300 nodes).
  CHECK(lines.at(5) == "Time total 0.26 s mean 42 ms to solution mean 4 ms");
  CHECK(lines.at(6) == "Nodes total 25.0 k mean 4167 to solution mean 433");
  CHECK(contains(lines, "theme records solved points %"));
  CHECK(contains(lines, "Undermine 2 1 13/20 65.0"));
  CHECK(contains(lines, "Open Files and Diagonals 1 1 10/10 100.0"));
  // Unsolved: lines 2 and 6, not the solved, unscored or failed ones.
  const auto unsolved = text.find("\nUnsolved\n");
  const auto failed = text.find("\nFailed (not analysed");
  REQUIRE(unsolved != std::string::npos);
  REQUIRE(failed != std::string::npos);
  REQUIRE(unsolved < failed);
  const auto unsolved_part = words_per_line(text.substr(unsolved, failed - unsolved));
  CHECK(unsolved_part == std::vector<std::string>{"", "Unsolved", "line id expected found score note",
                                                  "2 plain.002 bm Bb5 Bc4 cp 35",
                                                  "6 STS(v1.0) Undermine.002 bm f5 Bf2 cp 35"});
  const auto failed_part = words_per_line(text.substr(failed));
  REQUIRE(failed_part.size() == 4);
  CHECK_THAT(failed_part[1], Catch::StartsWith("Failed (not analysed"));
  CHECK(failed_part[2] == "line id error");
  CHECK(failed_part[3] == "4 broken.004 bm 'Qz9': 'Qz9' is not a move");
  // No line ends in white space.
  CHECK(text.find(" \n") == std::string::npos);
}

TEST_CASE("render_text: a run with everything solved has no unsolved or failed section", "[suites][report]") {
  SuiteRun run;
  run.suite = "s.epd";
  run.records.push_back(bm_record(1, "a", true));
  const std::string text = render_text(run);
  INFO(text);
  const auto lines = words_per_line(text);
  CHECK(lines.at(1) == "Engine -,");
  CHECK(lines.at(2) == "Solved 1 / 1 100.0%");
  CHECK_THAT(text, !Catch::Contains("Unsolved"));
  CHECK_THAT(text, !Catch::Contains("Failed"));
  CHECK_THAT(text, !Catch::Contains("STS"));
  CHECK_THAT(text, !Catch::Contains("Settings"));
}

TEST_CASE("render_text: the note says why a record is not solved", "[suites][report]") {
  SuiteRun run;
  auto r = bm_record(12, "mate.012", false);
  r.rule = Rule::Dm;
  r.expected = "dm 2 (bm Qf6)";
  r.found = "Qf6";
  r.score = "mate 3";
  r.note = "mate in 3, longer than dm 2";
  run.records.push_back(r);
  auto none = bm_record(13, "none.013", false);
  none.found.clear();
  none.note = "the engine had no move";
  run.records.push_back(none);
  const auto lines = words_per_line(render_text(run));
  CHECK(contains(lines, "12 mate.012 dm 2 (bm Qf6) Qf6 mate 3 mate in 3, longer than dm 2"));
  CHECK(contains(lines, "13 none.013 bm Bb5 - cp 35 the engine had no move"));
}

TEST_CASE("to_json and run_from_json: a run reads back equal", "[suites][report]") {
  SuiteRun run = sample_run();
  // Text that JSON must escape, and the largest counts.
  run.records[1].note = "quote \" backslash \\ tab \t newline \n and \xc3\xa9";
  run.records[1].nodes = std::numeric_limits<std::uint64_t>::max();
  run.records[1].pv = "Bg4 Nxf4 Qe5+";
  run.records[2].rule = Rule::Unscored;
  auto dm = bm_record(8, "dm.008", true);
  dm.rule = Rule::Dm;
  dm.score = "mate 2";
  dm.expected = "dm 2 (bm Qf6)";
  run.records.push_back(dm);
  auto am = bm_record(9, "am.009", false);
  am.rule = Rule::Am;
  run.records.push_back(am);
  auto bmam = bm_record(10, "bmam.010", true);
  bmam.rule = Rule::BmAm;
  bmam.to_solution = ToSolution{0, 0, 0};
  run.records.push_back(bmam);

  const std::string json = to_json(run);
  CHECK_THAT(json, Catch::Contains("\"format\": \"epdd suite run 1\""));
  CHECK_THAT(json, Catch::EndsWith("}\n"));
  auto back = run_from_json(json);
  REQUIRE(back);
  check_equal(run, *back);
  // And again: what was read writes the same text.
  CHECK(to_json(*back) == json);
}

TEST_CASE("run_from_json: a report written before the PV was kept reads with no PV", "[suites][report]") {
  SuiteRun run = sample_run();
  run.records[0].pv = "Qg6 hxg6";
  const std::string with = to_json(run);
  CHECK_THAT(with, Catch::Contains("\"pv\": \"Qg6 hxg6\""));
  // The old form: no "pv" key anywhere.
  run.records[0].pv.clear();
  const std::string without = to_json(run);
  CHECK_THAT(without, !Catch::Contains("\"pv\""));
  auto back = run_from_json(without);
  REQUIRE(back);
  CHECK(back->records[0].pv.empty());
  auto back_with = run_from_json(with);
  REQUIRE(back_with);
  CHECK(back_with->records[0].pv == "Qg6 hxg6");
}

TEST_CASE("to_json: the summary for machines", "[suites][report]") {
  const std::string json = to_json(sample_run());
  CHECK_THAT(json, Catch::Contains("\"solved\": 3"));
  CHECK_THAT(json, Catch::Contains("\"scored\": 5"));
  CHECK_THAT(json, Catch::Contains("\"failed\": 1"));
  CHECK_THAT(json, Catch::Contains("\"max_points\": 30"));
  CHECK_THAT(json, Catch::Contains(fmt::format("\"rating\": {:.1f}", std::round(sts_rating(100.0 * 23 / 30)))));
}

TEST_CASE("run_from_json: what is not a report is an error that says so", "[suites][report]") {
  const auto [text, message] = GENERATE(table<std::string, std::string>({
      {"{\"suite\": \"x\"}", "not an epdd suite report"},
      {"{\"format\": \"epdd suite run 2\"}", "not an epdd suite report"},
      {"[1, 2]", ""},
      {"42", ""},
      {"not json at all", "not JSON (it fails to parse at byte 2)"},
      {"", "not JSON (it fails to parse at byte 1)"},
      // Past a double's range: the JSON library throws out_of_range, not parse_error.
      {"{\"format\": \"epdd suite run 1\", \"x\": 1e616}", "not JSON (a number past a double's range"},
      {"{\"format\": \"epdd suite run 1\", \"suite\": \"s\"}", "engine"},
      {"{\"format\": \"epdd suite run 1\", \"suite\": \"s\", \"engine\": \"e\", \"limits\": \"\", \"settings\": \"\","
       " \"records\": [{\"line\": 1, \"id\": \"\", \"position\": \"\", \"rule\": \"xm\", \"solved\": false,"
       " \"expected\": \"\", \"found\": \"\", \"score\": \"\", \"depth\": 0, \"nodes\": 0, \"time_ms\": 0}]}",
       "unknown rule 'xm'"},
      {"{\"format\": \"epdd suite run 1\", \"suite\": \"s\", \"engine\": \"e\", \"limits\": \"\", \"settings\": \"\","
       " \"records\": [{\"line\": \"one\"}]}",
       "records[0].line: \"one\" is not a whole number"},
  }));
  INFO(text);
  auto run = run_from_json(text);
  REQUIRE_FALSE(run);
  CHECK_FALSE(run.error().empty());
  CHECK_THAT(run.error(), Catch::Contains(message));
}

TEST_CASE("render_compare: runs side by side and the records where they differ", "[suites][report]") {
  SuiteRun a;
  a.suite = "s.epd";
  a.engine = "A";
  a.limits = "nodes 1000";
  a.records = {bm_record(1, "one", true), bm_record(2, "two", false), bm_record(3, "three", false),
               bm_record(4, "four", true)};
  SuiteRun b = a;
  b.engine = "B";
  b.limits = "nodes 9000";
  b.records[1] = bm_record(2, "two", true);
  b.records[3] = bm_record(4, "four", false);
  const std::string text = render_compare({{"first", a}, {"second", b}});
  INFO(text);
  CHECK_THAT(text, Catch::StartsWith(fmt::format("{:<22} {:>24} {:>24}\n", "", "first", "second")));
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<22} {:>24} {:>24}\n", "engine", "A", "B")));
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<22} {:>24} {:>24}\n", "limits", "nodes 1000", "nodes 9000")));
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<22} {:>24} {:>24}\n", "solved", "2/4", "2/4")));
  CHECK_THAT(text, !Catch::Contains("STS"));
  CHECK_THAT(text, Catch::EndsWith("\nRecords where the runs differ: 2\n" +
                                   fmt::format("{:<22} {:>24} {:>24}\n", "2 two", "-", "solved") +
                                   fmt::format("{:<22} {:>24} {:>24}\n", "4 four", "solved", "-")));
}

TEST_CASE("render_compare: records are matched by line, not by place", "[suites][report]") {
  // Runs keep records in the order results arrived (several threads), and a stopped run has
  // only some of them.
  SuiteRun a;
  a.records = {bm_record(1, "one", true), bm_record(2, "two", false), bm_record(3, "three", false)};
  SuiteRun b;
  b.records = {bm_record(3, "three", false), bm_record(1, "one", true), bm_record(2, "two", true)};
  SuiteRun c;
  c.records = {bm_record(2, "two", false)};
  const std::string text = render_compare({{"a", a}, {"b", b}});
  INFO(text);
  CHECK_THAT(text, Catch::EndsWith("\nRecords where the runs differ: 1\n" +
                                   fmt::format("{:<22} {:>24} {:>24}\n", "2 two", "-", "solved")));
  // Only in later runs, or missing from one: shown by line, blank where a run has no record.
  const std::string partial = render_compare({{"c", c}, {"b", b}});
  INFO(partial);
  CHECK_THAT(partial, Catch::EndsWith("\nRecords where the runs differ: 2\n" +
                                      fmt::format("{:<22} {:>24} {:>24}\n", "1 one", "", "solved") +
                                      fmt::format("{:<22} {:>24} {:>24}\n", "2 two", "-", "solved")));
}

TEST_CASE("render_compare: STS rows per theme, a dash where a run has none", "[suites][report]") {
  SuiteRun a;
  a.records = {sts_record(1, "STS(v1.0) Undermine.001", "Undermine", 10)};
  SuiteRun b;
  b.records = {sts_record(1, "STS(v1.0) Undermine.001", "Undermine", 4),
               sts_record(2, "STS(v14.0) 7th Rank.001", "7th Rank", 10)};
  const std::string text = render_compare({{"a", a}, {"b", b}});
  INFO(text);
  // The first column is as wide as the longest record label ("2 STS(v14.0) 7th Rank.001").
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<25} {:>24} {:>24}\n", "STS points", "10/10", "14/20")));
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<25} {:>24} {:>24}\n", "Undermine", "10/10", "4/10")));
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<25} {:>24} {:>24}\n", "7th Rank", "-", "10/10")));
  // Line 2 is only in run b, which solved it.
  CHECK_THAT(text, Catch::Contains("Records where the runs differ: 2\n"));
}

TEST_CASE("render_compare: ids are kept whole, so records can be told apart", "[suites][report]") {
  SuiteRun a;
  a.records = {bm_record(1, "STS(v13.0) Pawn Play in the Center.001", true),
               bm_record(2, "STS(v13.0) Pawn Play in the Center.002", false)};
  SuiteRun b = a;
  b.records[0].solved = false;
  b.records[1].solved = true;
  const std::string text = render_compare({{"a", a}, {"b", b}});
  INFO(text);
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<40} {:>24} {:>24}\n", "1 STS(v13.0) Pawn Play in the Center.001", "solved", "-")));
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<40} {:>24} {:>24}\n", "2 STS(v13.0) Pawn Play in the Center.002", "-", "solved")));
}

TEST_CASE("render_compare: a run without STS records shows no STS score", "[suites][report]") {
  SuiteRun sts;
  sts.records = {sts_record(1, "STS(v1.0) Undermine.001", "Undermine", 10)};
  SuiteRun plain;
  plain.records = {bm_record(1, "STS(v1.0) Undermine.001", true)};
  const std::string text = render_compare({{"sts", sts}, {"plain", plain}});
  INFO(text);
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<22} {:>24} {:>24}\n", "STS points", "10/10", "-")));
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<22} {:>24} {:>24}\n", "STS rating", "4209", "-")));
  CHECK_THAT(text, !Catch::Contains("-243"));
  CHECK_THAT(text, !Catch::Contains("0/0"));
}

TEST_CASE("render_compare: runs of different suites are said so and compared on their shared positions",
          "[suites][report]") {
  const auto at = [](RecordResult r, std::string position) {
    r.position = std::move(position);
    return r;
  };
  SuiteRun wac;
  wac.suite = "wac.epd";
  wac.records = {at(bm_record(1, "WAC.001", true), "p1"), at(bm_record(2, "WAC.002", true), "p2"),
                 at(bm_record(3, "WAC.003", false), "p3")};
  SuiteRun bk;
  bk.suite = "bk.epd";
  bk.records = {at(bm_record(7, "BK.01", false), "p2"), at(bm_record(8, "BK.02", false), "p9")};
  const std::string text = render_compare({{"wac", wac}, {"bk", bk}});
  INFO(text);
  CHECK_THAT(text, Catch::StartsWith("The runs are of different suites (wac.epd: 3 positions, bk.epd: 2 positions): "
                                     "compared on the 1 position they share.\n"));
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<22} {:>24} {:>24}\n", "solved", "1/1", "0/1")));
  // Matched by position, not by line: WAC.002 (line 2) is BK.01 (line 7).
  CHECK_THAT(text, Catch::EndsWith("Records where the runs differ: 1\n" +
                                   fmt::format("{:<22} {:>24} {:>24}\n", "2 WAC.002", "solved", "-")));
}

TEST_CASE("render_compare: one run has no differences section", "[suites][report]") {
  SuiteRun a;
  a.records = {bm_record(1, "one", true)};
  const std::string text = render_compare({{"only", a}});
  CHECK_THAT(text, Catch::Contains(fmt::format("{:<22} {:>24}\n", "solved", "1/1")));
  CHECK_THAT(text, !Catch::Contains("differ"));
}
