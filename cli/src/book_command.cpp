#include "cli/book_command.hpp"
#include "cli/report_command.hpp"

#include <algorithm>
#include <list>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>

#include <fmt/core.h>
#include <fmt/ostream.h>

#include "book/build.hpp"
#include "book/epd_output.hpp"
#include "cli/progress.hpp"
#include "core/text.hpp"
#include "daemon/files.hpp"
#include "daemon/job_kind.hpp"
#include "daemon/jobs.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

// backsolve and grow: the job of kind `kind` run, and the book written.
int run_book_job(const std::string& kind_name, const std::string& command, BookOptions& o, std::ostream& out,
                 std::ostream& err) {
  const auto fail = [&](const std::string& message) {
    fmt::print(err, "epdd book {}: {}\n", command, message);
    return kExitBadInput;
  };
  JobSpec& spec = o.analysis.spec;
  spec.kind = kind_name;
  spec.input = o.inputs.empty() ? std::string() : o.inputs.front();  // (none: grow from the start)
  if (!o.inputs.empty()) spec.more_inputs.assign(o.inputs.begin() + 1, o.inputs.end());
  // Without -o the book goes to standard output: no other output may go there too.
  if (auto files = check_command_files(kind_name, spec, {o.output.value_or("-"), o.json, o.html}); !files)
    return fail(files.error());
  Progress progress(stderr, o.analysis.quiet);
  auto outcome = run_analysis(kind_name, o.analysis, {}, progress, err);
  if (outcome.status != kExitOk) return outcome.status;
  AnalysisRun& run = outcome.run;
  if (run.interrupted) {
    fmt::print(err, "epdd book {}: interrupted; nothing written. Run the same command again to resume.\n", command);
    return kExitInterrupted;
  }
  const JobKind& kind = kind_of(outcome.spec);
  // The EPD, the PGN and the Polyglot book are written as they are made (a book of millions of
  // positions is never held whole as text); each file appears, whole, when its last part is
  // written.
  OutputStream output(o.output, out);
  run.write_output = [&output](std::string_view part) { output.write(part); };
  std::list<OutputStream> more;  // (the streams stay where they are: the sinks hold them)
  for (const auto& [path, name] : output_paths(outcome.spec)) {
    if (name != "pgn" && name != "polyglot") continue;
    OutputStream& stream = more.emplace_back(is_stdio(path) ? std::nullopt : std::optional<std::string>(path), out);
    run.write_more[name] = [&stream](std::string_view part) { stream.write(part); };
  }
  run.json_wanted = o.json || o.html;
  std::map<std::string, std::string> texts;
  try {
    texts = kind.render(run, outcome.spec);
  } catch (const std::runtime_error& e) {  // the store's errors (store::StoreError is one)
    return fail(e.what());
  }
  if (auto w = output.commit(); !w) return fail(w.error());
  for (OutputStream& stream : more)
    if (auto w = stream.commit(); !w) return fail(w.error());
  JobSpec written = outcome.spec;
  written.output.reset();  // (written above)
  written.json = o.json;
  if (auto w = write_outputs(texts, written); !w) return fail(w.error());
  if (o.html)
    if (auto w = write_report_page(*o.html, spec.input.empty() ? "the start position" : core::escaped(spec.input),
                                   texts.at("json"));
        !w)
      return fail(w.error());
  const std::size_t failed = kind.failures(run);
  if (!o.analysis.quiet || failed) err << texts.at("report");
  if (!o.analysis.quiet)
    fmt::print(err, "epdd book {}: {} searched now, {} from the cache, {} from an earlier run of this command\n", command,
               kind_name == "book" ? core::counted(static_cast<std::size_t>(run.searches), "leaf", "leaves")
                                    : core::counted(static_cast<std::size_t>(run.searches), "position", "positions"), run.cache_hits, run.resumed);
  return failed ? kExitRecordsFailed : kExitOk;
}

}  // namespace

int run_book_backsolve(BookOptions o, std::ostream& out, std::ostream& err) {
  return run_book_job("book", "backsolve", o, out, err);
}

int run_book_grow(BookOptions o, std::ostream& out, std::ostream& err) {
  return run_book_job("book-grow", "grow", o, out, err);
}

}  // namespace epdd::cli

namespace epdd::cli {

int run_book_leaves(const BookLeavesOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& message) {
    fmt::print(err, "epdd book leaves: {}\n", message);
    return kExitBadInput;
  };
  if (auto once = check_stdio_once(o.inputs, {o.output}); !once) return fail(once.error());
  if (o.output)
    if (auto w = check_writable_output(*o.output); !w) return fail(w.error());
  std::vector<std::string> bytes;  // the files' contents, which the inputs view
  std::vector<book::InputFile> files;
  bytes.reserve(o.inputs.size());
  for (const std::string& name : o.inputs) {
    if (!book::input_type_of(name) && !is_stdio(name))
      return fail(fmt::format("{}: a book is read from .pgn (games), .bin (Polyglot) and .epd files", core::escaped(name)));
    auto read = read_whole_file(name);
    if (!read) return fail(read.error());
    const auto type = book::input_type_of(name, *read);
    bytes.push_back(std::move(*read));
    files.push_back({*type, name, bytes.back()});
  }
  book::BookInputOptions options;
  if (o.max_ply > 0) options.max_ply = o.max_ply;
  options.min_games = static_cast<std::uint32_t>(o.min_games);
  options.link_epd = o.link_epd;
  options.chess960 = o.chess960;
  auto built = book::build_book(files, options);
  if (!built) return fail(built.error());
  for (const std::string& note : built->notes) fmt::print(err, "{}\n", note);
  const std::string text = book::write_leaves_epd(built->dag, &built->epd.names);
  if (o.output) {
    if (auto w = write_file_atomically(*o.output, text); !w) return fail(w.error());
  } else {
    out << text << std::flush;
  }
  const auto leaves = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  fmt::print(err, "epdd book leaves: {} of a book of {}\n", core::counted(leaves, "leaf", "leaves"),
             core::counted(book::book_nodes(built->dag, &built->epd.names).size(), "position", "positions"));
  if (built->note_count > built->notes.size())
    fmt::print(err, "({} more notes on the input)\n", built->note_count - built->notes.size());
  // As backsolve: what of the input could not be used is said, and makes the status 1.
  return built->note_count ? kExitRecordsFailed : kExitOk;
}

}  // namespace epdd::cli
