// The suite page (issue 20): one self-contained HTML document (html/page.hpp: no script, no
// external URL, every input string escaped) from one or more suite runs as their JSON reports
// carry them (to_json: what `epdd suite --json` writes and `epdd results --json` renders from the
// store), so `epdd report FILE.json`, `epdd report JOBID` and `--html` give the same page.
//
// What the page shows, in this order:
// - Runs: per run its suite, engine, limits, settings, solved / scored, unscored and failed
//   records, STS points with the rating estimate (sts_rating), matetrack counts, times.
// - Solve-time curve: per run one series (<polyline class="series">) of the number of positions
//   solved by each time to solution (the Arasan/STS style), log time axis; under it a table of
//   how many were solved within 1 ms, 10 ms, ... for readers without the chart.
// - STS themes (when a run has STS records): per run a bar chart of the points per theme in
//   percent, titled with the run's rating estimate, and a table of the themes by run.
// - Unsolved positions: every position some run did not solve or could not analyse, the ones
//   where the runs differ first: the position (a board diagram for the first
//   `max_diagrams`, its FEN after that: a diagram is about 3 KB, and a 3,000-position suite's
//   page must stay under 2 MB), line, id, key, and per run the engine's move, score, PV, note or
//   error. The page says how many have a diagram.
// - Every record: line, id, key, and per run (a group of columns each) the engine's move, score,
//   verdict (solved, not solved, unscored, failed, missing), search time, depth and nodes. One
//   run: one table (class "records"), in line order. Several: the records solved by some runs
//   but not all first (table class "differ"), then the rest (class "agree"). From two runs on
//   depth and nodes are left out, from four on score and time too (the page says so), so that a
//   3,000-position suite's page stays near 2 MB.
// Records of several runs are matched by line when the runs are of one suite (same_suite), by
// position otherwise; a run that lacks a position shows a dash (and has not solved it).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "suites/report.hpp"

namespace epdd::suites {

struct SuitePageOptions {
  // Unsolved positions drawn as a board diagram; the rest are listed with their FEN.
  std::size_t max_diagrams = 200;
};

// The page for runs given as (label, run): labels head the runs' columns and series (two equal
// labels get " (2)", ... so that columns can be told apart). No runs is a programmer error
// (std::invalid_argument).
std::string suite_page(const std::vector<std::pair<std::string, SuiteRun>>& runs,
                       const SuitePageOptions& options = {});

// The page from suite runs' JSON reports given as (name, JSON text), each name the run's label;
// an input that is not a suite run is an error that names it.
Expected<std::string, std::string> suite_page_from_json(const std::vector<std::pair<std::string, std::string>>& inputs,
                                                        const SuitePageOptions& options = {});

}  // namespace epdd::suites
