// `epdd suite`: a test-suite run scored by bm/am/dm and STS points, with a report on the
// terminal, JSON for machines, the analysed EPD, and `epdd suite compare` for several runs.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "daemon/analysis_run.hpp"

namespace epdd::cli {

struct SuiteOptions {
  daemon::AnalysisSettings analysis;
  std::optional<std::string> output;  // the EPD with analysis opcodes (bm/am/dm kept: they are the key)
  std::optional<std::string> json;    // the run as JSON
  std::optional<std::string> html;    // the page of that JSON (epdd report), self-contained HTML
  std::optional<std::size_t> min_solved;  // exit 13 when fewer are solved
};

// Exit status: see analysis_run.hpp (0, 1 some records failed, 2, 3, 13 fewer solved than
// --min-solved, 130 interrupted).
int run_suite(const SuiteOptions& options, std::ostream& out, std::ostream& err);

// Runs side by side from their JSON reports. Exit status 0, or 2 when a file cannot be read.
int run_suite_compare(const std::vector<std::string>& files, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
