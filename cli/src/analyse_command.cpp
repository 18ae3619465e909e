#include "cli/analyse_command.hpp"

#include <ostream>

#include <fmt/core.h>
#include <fmt/ostream.h>

#include "cli/progress.hpp"
#include "core/text.hpp"
#include "daemon/files.hpp"
#include "daemon/jobs.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

// The closing line on stderr: what was done and where it came from.
std::string summary(const AnalysisRun& run, std::size_t analysed, std::size_t failed) {
  return fmt::format("{} records analysed ({} searched now, {} from the cache, {} from an earlier run of this command), {} failed",
                     analysed, run.searches, run.cache_hits, run.resumed, failed);
}

}  // namespace

int run_analyse(const AnalyseOptions& o, std::ostream& out, std::ostream& err) {
  if (auto files = check_command_files("analyse", o.analysis.spec, {o.output}); !files) {
    fmt::print(err, "epdd analyse: {}\n", files.error());
    return kExitBadInput;
  }
  Progress progress(stderr, o.analysis.quiet);
  auto outcome = run_analysis("analyse", o.analysis, {}, progress, err);
  if (outcome.status != kExitOk) return outcome.status;
  AnalysisRun& run = outcome.run;
  if (run.interrupted) {
    fmt::print(err, "epdd analyse: interrupted; nothing written. Run the same command again to resume.\n");
    return kExitInterrupted;
  }
  const AnalysedEpd rendered = render_analysed(run, outcome.spec);
  for (const auto& [line, why] : rendered.kept)
    fmt::print(err, "{}:{}: kept unchanged: {}\n", core::escaped(o.analysis.spec.input), line, core::one_line(why));
  const std::size_t analysed = rendered.analysed, failed = rendered.kept.size();
  const std::string& text = rendered.text;
  if (o.output) {
    if (auto w = write_file_atomically(*o.output, text); !w) {
      fmt::print(err, "epdd analyse: {}\n", w.error());
      return kExitBadInput;
    }
  } else {
    out << text << std::flush;
  }
  if (!o.analysis.quiet) fmt::print(err, "epdd analyse: {}\n", summary(run, analysed, failed));
  // Always said, even with --quiet: operations of the input are gone or keys differ.
  if (!rendered.changes.empty())
    fmt::print(err, "epdd analyse: of the input's operations: {}\n", rendered.changes.describe());
  return failed || outcome.unread_lines ? kExitRecordsFailed : kExitOk;
}

}  // namespace epdd::cli
