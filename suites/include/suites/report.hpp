// A test-suite run as data, and its reports: text for the terminal, JSON for machines (read
// back by `epdd suite compare`), and a side-by-side table of several runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "suites/scoring.hpp"

namespace epdd::suites {

// One record of the suite, as scored.
struct RecordResult {
  std::size_t line = 0;  // 1-based, in the suite file
  std::string id;
  std::string position;  // the four EPD fields
  Rule rule = Rule::Unscored;
  bool solved = false;
  bool sts = false;
  int points = 0, max_points = 0;
  std::string theme;     // STS theme, from the id
  std::string expected;  // "bm Qg6", ...
  std::string found;     // the engine's move in SAN
  std::string pv;        // the engine's line in SAN ("Bg4 Nxf4"); empty in reports written before it
  std::string score;     // line 1's score, UCI form ("cp 35", "mate 3"); empty if none
  int depth = 0;
  std::uint64_t nodes = 0, time_ms = 0;
  std::optional<ToSolution> to_solution;
  std::string note;   // why a scored record is not solved, when it is not plain
  std::string error;  // the record could not be analysed or read (it is then neither solved nor scored)
  // Not analysed yet, and not failed: a partial report (`results --partial` of a job cancelled
  // or still running, a run interrupted) has no result for it. Neither solved, scored nor failed.
  bool missing = false;
  std::optional<MateResult> mate;  // matetrack records (rule Matetrack)
  bool scored() const { return rule != Rule::Unscored && error.empty() && !missing; }
};

struct SuiteRun {
  std::string suite;     // the file as given
  std::string engine;    // the engine's id name
  std::string limits;    // "nodes 50000", "movetime 100"
  std::string settings;  // engine options and run settings, in words
  std::vector<RecordResult> records;
};

struct ThemeRow {
  std::string theme;
  std::size_t records = 0, solved = 0;
  long long points = 0, max_points = 0;
};

struct Summary {
  std::size_t records = 0, scored = 0, solved = 0, unscored = 0, failed = 0, missing = 0;
  std::size_t sts_records = 0;
  long long points = 0, max_points = 0;
  std::uint64_t time_ms = 0, nodes = 0;  // all searches
  std::uint64_t solution_time_ms = 0, solution_nodes = 0;  // solved records, to solution
  std::vector<ThemeRow> themes;  // STS, in order of first appearance
  MateCounts mates;              // matetrack records; shown only when there are some
  double solved_percent() const { return scored ? 100.0 * static_cast<double>(solved) / static_cast<double>(scored) : 0.0; }
  double points_percent() const {
    return max_points ? 100.0 * static_cast<double>(points) / static_cast<double>(max_points) : 0.0;
  }
};

Summary summarize(const SuiteRun& run);

// The report for a terminal: summary, STS themes, unsolved and failed records.
std::string render_text(const SuiteRun& run);

// The run as JSON (summary included), and back. Reading back never throws: text that is not a
// run is an error naming the place and what was wanted ("records[3].depth: \"x\" is not a whole
// number", "records[1].mate: has no \"outcome\""); numbers are range-checked (times 0 to 10^12 ms,
// depths 0 to 100000, nodes any uint64 but not negative, ...) so that a -1 is not read as 2^64-1.
std::string to_json(const SuiteRun& run);
Expected<SuiteRun, std::string> run_from_json(std::string_view text);

// Whether runs are of one suite: each run's positions are among those of the run with the most
// (a stopped run has only some of them). Records of one suite are matched by line, of
// different suites by position.
bool same_suite(const std::vector<std::pair<std::string, SuiteRun>>& runs);

// Runs side by side: one column per run, headed by its label.
std::string render_compare(const std::vector<std::pair<std::string, SuiteRun>>& runs);

}  // namespace epdd::suites
