#include "daemon/suite_command.hpp"

#include <filesystem>
#include <ostream>

#include <fmt/core.h>
#include <fmt/ostream.h>

#include "daemon/files.hpp"
#include "suites/report.hpp"
#include "suites/write_back.hpp"

namespace epdd::daemon {

namespace {

// What each record of the document expects, by line (an error for a record that cannot be scored).
std::vector<std::optional<Expected<suites::Expectation, std::string>>> expectations(const epd::CheckedDocument& doc) {
  std::vector<std::optional<Expected<suites::Expectation, std::string>>> out(doc.doc.lines.size());
  for (std::size_t i = 0; i < doc.doc.lines.size(); ++i)
    if (doc.doc.lines[i].record && doc.checked[i].board)
      out[i] = suites::expectation_of(*doc.doc.lines[i].record, *doc.checked[i].board);
  return out;
}

suites::RecordResult result_of(const AnalysisRun& run, std::size_t i,
                               const std::optional<Expected<suites::Expectation, std::string>>& expected) {
  const epd::EpdRecord& record = *run.doc.doc.lines[i].record;
  suites::RecordResult r;
  r.line = record.line();
  r.id = std::string(record.single_operand("id").value_or(""));
  r.position = record.position();
  if (!run.errors[i].empty()) {
    r.error = run.errors[i];
    return r;
  }
  if (expected && !*expected) {
    r.error = "cannot score: " + expected->error();
    return r;
  }
  if (!run.analyses[i] || !expected) {
    r.error = "not analysed";
    return r;
  }
  const auto& e = **expected;
  const auto& a = *run.analyses[i];
  const auto v = suites::score(e, *run.doc.checked[i].board, a);
  r.rule = e.rule;
  r.solved = v.solved;
  r.sts = e.sts();
  r.points = v.points;
  r.max_points = v.max_points;
  if (r.sts) r.theme = suites::sts_theme(r.id);
  r.expected = e.text;
  r.found = v.found;
  if (!a.lines.empty()) r.score = a.lines.front().score.to_uci_string();
  r.depth = a.depth;
  r.nodes = a.nodes;
  r.time_ms = a.time_ms;
  r.to_solution = v.to_solution;
  r.note = v.note;
  return r;
}

}  // namespace

int run_suite(const SuiteOptions& o, std::ostream& out, std::ostream& err) {
  // Expectations are read as results arrive (progress shows solved-so-far), then kept.
  std::vector<std::optional<Expected<suites::Expectation, std::string>>> expected;
  const SolvedCheck solved = [&](const epd::CheckedDocument& doc, std::size_t line, const uci::Analysis& a) {
    if (expected.empty()) expected = expectations(doc);
    return expected[line] && *expected[line] && suites::score(**expected[line], *doc.checked[line].board, a).solved;
  };
  auto outcome = run_analysis("suite", o.analysis, solved, err);
  if (outcome.status != kExitOk) return outcome.status;
  AnalysisRun& run = outcome.run;
  if (run.interrupted) {
    fmt::print(err, "epdd suite: interrupted; no report. Run the same command again to resume.\n");
    return kExitInterrupted;
  }
  if (expected.empty()) expected = expectations(run.doc);

  suites::SuiteRun report;
  report.suite = o.analysis.input;
  report.engine = run.engine;
  report.limits = describe_limits(o.analysis.limits, o.analysis.multipv);
  report.settings = fmt::format("{}, concurrency {}", run.engine_settings, o.analysis.concurrency);
  for (std::size_t i = 0; i < run.doc.doc.lines.size(); ++i)
    if (run.doc.doc.lines[i].record) report.records.push_back(result_of(run, i, expected[i]));
  out << suites::render_text(report) << std::flush;

  if (o.json)
    if (auto w = write_file_atomically(*o.json, suites::to_json(report)); !w) {
      fmt::print(err, "epdd suite: {}\n", w.error());
      return kExitBadInput;
    }
  if (o.output) {
    suites::WriteBackOptions wb;
    wb.solution_opcodes = false;  // bm/am/dm are the suite's key
    for (std::size_t i = 0; i < run.doc.doc.lines.size(); ++i)
      if (run.doc.doc.lines[i].record && run.analyses[i])
        suites::write_analysis(*run.doc.doc.lines[i].record, *run.doc.checked[i].board, *run.analyses[i], wb);
    if (auto w = write_file_atomically(*o.output, epd::write_document(run.doc.doc, epd::WriteStyle::Preserved)); !w) {
      fmt::print(err, "epdd suite: {}\n", w.error());
      return kExitBadInput;
    }
  }
  const auto summary = suites::summarize(report);
  if (!o.analysis.quiet)
    fmt::print(err, "epdd suite: {} searched now, {} from the cache, {} from an earlier run of this command\n", run.searches,
               run.cache_hits, run.resumed);
  if (o.min_solved && summary.solved < *o.min_solved) {
    fmt::print(err, "epdd suite: {} solved, fewer than --min-solved {}\n", summary.solved, *o.min_solved);
    return kExitMinSolved;
  }
  return summary.failed ? kExitRecordsFailed : kExitOk;
}

int run_suite_compare(const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
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

}  // namespace epdd::daemon
