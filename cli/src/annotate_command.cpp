#include "cli/annotate_command.hpp"
#include "cli/report_command.hpp"
#include "core/text.hpp"

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>

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
  if (auto files = check_command_files("annotate", o.analysis.spec, {o.output.value_or("-"), o.json, o.html}); !files)
    return fail(files.error());
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
  OutputStream output(o.output, out);
  run.write_output = [&output](std::string_view part) { output.write(part); };
  std::optional<AtomicFileWriter> json;
  if (o.json) json.emplace(*o.json);
  std::string json_text;  // --html's page is made from it at the end
  run.json_wanted = o.json || o.html;
  if (o.json || o.html)
    run.write_json = [&json, &json_text, html = o.html.has_value()](std::string_view part) {
      if (json) json->write(part);
      if (html) json_text += part;
    };
  // The summary (and every game kept unchanged, with its line) on stderr as it is made. With
  // --quiet the games kept unchanged are said all the same, and the summary only when a
  // position failed, so meanwhile it waits in a temporary file.
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> held(o.analysis.quiet ? std::tmpfile() : nullptr, std::fclose);
  if (!o.analysis.quiet) run.write_report = [&err](std::string_view part) { err << part; };
  else if (held) run.write_report = [&held](std::string_view part) { std::fwrite(part.data(), 1, part.size(), held.get()); };
  if (o.analysis.quiet) run.write_problem = [&err](std::string_view part) { err << part; };
  std::map<std::string, std::string> texts;
  try {
    texts = kind.render(run, outcome.spec);
  } catch (const std::runtime_error& e) {  // the store, or an input read in place that changed (store::StoreError is one)
    return fail(e.what());
  }
  if (auto w = output.commit(); !w) return fail(w.error());
  if (json)
    if (auto w = json->commit(); !w) return fail(w.error());
  if (o.html)
    if (auto w = write_report_page(*o.html, core::escaped(o.analysis.spec.input), std::move(json_text)); !w)
      return fail(w.error());
  const std::size_t failed = kind.failures(run);  // positions and the games kept unchanged
  if (!o.analysis.quiet) {
    fmt::print(err, "epdd annotate: {} positions searched now, {} from the cache, {} from an earlier run of this command\n",
               run.searches, run.cache_hits, run.resumed);
  } else if (kind.JobKind::failures(run) > 0) {  // the positions alone (the base class's count)
    if (held) {
      std::rewind(held.get());
      char buffer[1 << 14];
      for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, held.get())) > 0;) err.write(buffer, static_cast<std::streamsize>(n));
    }
    err << texts["report"];  // when no temporary file could be made
  }
  return failed ? kExitRecordsFailed : kExitOk;
}

}  // namespace epdd::cli
