#include "cli/suite_command.hpp"
#include "cli/report_command.hpp"
#include "core/text.hpp"

#include <filesystem>
#include <ostream>

#include <fmt/core.h>
#include <fmt/ostream.h>

#include "cli/progress.hpp"
#include "daemon/files.hpp"
#include "suites/report.hpp"
#include "daemon/jobs.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

// What each record of the document expects, by line (an error for a record that cannot be scored).
std::vector<std::optional<Expected<suites::Expectation, std::string>>> expectations(const epd::CheckedDocument& doc) {
  std::vector<std::optional<Expected<suites::Expectation, std::string>>> out(doc.doc.lines.size());
  for (std::size_t i = 0; i < doc.doc.lines.size(); ++i)
    if (doc.doc.lines[i].record && doc.checked[i].board)
      out[i] = suites::expectation_of(*doc.doc.lines[i].record, *doc.checked[i].board);
  return out;
}

}  // namespace

int run_suite(const SuiteOptions& o, std::ostream& out, std::ostream& err) {
  if (auto files = check_command_files("suite", o.analysis.spec, {o.output, o.json, o.html}); !files) {
    fmt::print(err, "epdd suite: {}\n", files.error());
    return kExitBadInput;
  }
  // Expectations are read as results arrive (progress shows solved-so-far), then kept.
  std::vector<std::optional<Expected<suites::Expectation, std::string>>> expected;
  const SolvedCheck solved = [&](const epd::CheckedDocument& doc, std::size_t line, const uci::Analysis& a) {
    if (expected.empty()) expected = expectations(doc);
    return expected[line] && *expected[line] && suites::score(**expected[line], *doc.checked[line].board, a).solved;
  };
  Progress progress(stderr, o.analysis.quiet);
  auto outcome = run_analysis("suite", o.analysis, solved, progress, err);
  if (outcome.status != kExitOk) return outcome.status;
  AnalysisRun& run = outcome.run;
  if (run.interrupted) {
    fmt::print(err, "epdd suite: interrupted; no report. Run the same command again to resume.\n");
    return kExitInterrupted;
  }
  const auto report = suite_report(run, o.analysis.spec.input, describe_limits(o.analysis.spec.limits, o.analysis.spec.multipv),
                                   run.engine_settings);
  // Where an output is standard output, it is all there is on it: the text report goes aside.
  (any_on_stdout({o.output, o.json, o.html}) ? err : out) << suites::render_text(report) << std::flush;

  if (o.json)
    if (auto w = write_file_atomically(*o.json, suites::to_json(report)); !w) {
      fmt::print(err, "epdd suite: {}\n", w.error());
      return kExitBadInput;
    }
  if (o.html)
    if (auto w = write_report_page(*o.html, core::escaped(o.analysis.spec.input), suites::to_json(report)); !w) {
      fmt::print(err, "epdd suite: {}\n", w.error());
      return kExitBadInput;
    }
  if (o.output)
    if (auto w = write_file_atomically(*o.output, render_suite_epd(run, outcome.spec)); !w) {
      fmt::print(err, "epdd suite: {}\n", w.error());
      return kExitBadInput;
    }
  const auto summary = suites::summarize(report);
  if (!o.analysis.quiet)
    fmt::print(err, "epdd suite: {} searched now, {} from the cache, {} from an earlier run of this command\n", run.searches,
               run.cache_hits, run.resumed);
  if (o.min_solved && summary.solved < *o.min_solved) {
    fmt::print(err, "epdd suite: {} solved, fewer than --min-solved {}\n", summary.solved, *o.min_solved);
    return kExitMinSolved;
  }
  return summary.failed || outcome.unread_lines ? kExitRecordsFailed : kExitOk;
}

int run_suite_compare(const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
  if (auto once = check_stdio_once(files, {}); !once) {
    fmt::print(err, "epdd suite compare: {}\n", once.error());
    return kExitBadInput;
  }
  std::vector<std::pair<std::string, suites::SuiteRun>> runs;
  for (const auto& file : files) {
    auto text = read_whole_file(file);
    if (!text) {
      fmt::print(err, "epdd suite compare: {}\n", text.error());
      return kExitBadInput;
    }
    auto run = suites::run_from_json(*text);
    if (!run) {
      fmt::print(err, "epdd suite compare: {}: {}\n", file, run.error());
      return kExitBadInput;
    }
    runs.emplace_back(std::filesystem::path(file).filename().string(), std::move(*run));
  }
  out << suites::render_compare(runs) << std::flush;
  return kExitOk;
}

}  // namespace epdd::cli
