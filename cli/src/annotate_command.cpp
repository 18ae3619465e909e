#include "cli/annotate_command.hpp"

#include <map>
#include <optional>
#include <ostream>

#include <fmt/core.h>
#include <fmt/ostream.h>

#include "cli/progress.hpp"
#include "daemon/files.hpp"
#include "daemon/job_kind.hpp"
#include "daemon/jobs.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

int run_annotate(const AnnotateOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& message) {
    fmt::print(err, "epdd annotate: {}\n", message);
    return kExitBadInput;
  };
  for (const auto& path : {o.output, o.json})
    if (path)
      if (auto w = check_writable_output(*path); !w) return fail(w.error());
  Progress progress(stderr, o.analysis.quiet);
  auto outcome = run_analysis("annotate", o.analysis, {}, progress, err);
  if (outcome.status != kExitOk) return outcome.status;
  AnalysisRun& run = outcome.run;
  if (run.interrupted) {
    fmt::print(err, "epdd annotate: interrupted; nothing written. Run the same command again to resume.\n");
    return kExitInterrupted;
  }
  const JobKind& kind = kind_of(outcome.spec);
  // Each game is written as it is rendered from the store: a file of many games is never held
  // whole. The output file appears, whole, when the last game is written.
  std::optional<AtomicFileWriter> file;
  if (o.output) {
    file.emplace(*o.output);
    run.write_output = [&file](std::string_view part) { file->write(part); };
  } else {
    run.write_output = [&out](std::string_view part) { out << part; };
  }
  std::map<std::string, std::string> texts;
  try {
    texts = kind.render(run, outcome.spec);
  } catch (const store::StoreError& e) {
    return fail(e.what());
  }
  if (file) {
    if (auto w = file->commit(); !w) return fail(w.error());
  } else {
    out << std::flush;
  }
  if (o.json)
    if (auto w = write_file_atomically(*o.json, texts.at("json")); !w) return fail(w.error());
  const std::size_t failed = kind.failures(run);
  // The summary (and every game kept unchanged, with its line) on stderr; only the failures
  // with --quiet.
  if (!o.analysis.quiet) {
    err << texts.at("report");
    fmt::print(err, "epdd annotate: {} positions searched now, {} from the cache, {} from an earlier run of this command\n",
               run.searches, run.cache_hits, run.resumed);
  } else if (failed) {
    err << texts.at("report");
  }
  return failed ? kExitRecordsFailed : kExitOk;
}

}  // namespace epdd::cli
