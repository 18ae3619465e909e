#include "cli/pgn_command.hpp"

#include <optional>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "core/text.hpp"
#include "daemon/files.hpp"
#include "pgn/collate.hpp"
#include "pgn/formats.hpp"
#include "pgn/reader.hpp"
#include "pgn/to_epd.hpp"
#include "pgn/writer.hpp"
#include "report.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

int run_pgn_check(const PgnCheckOptions& o, std::ostream& out, std::ostream& err) {
  if (auto once = check_stdio_once(o.files, {}); !once) {
    fmt::print(err, "epdd pgn check: {}\n", once.error());
    return 2;
  }
  int status = 0;
  for (const std::string& file : o.files) {
    if (auto readable = check_readable_file(file); !readable) {
      fmt::print(err, "epdd pgn check: {}\n", readable.error());
      status = 2;
      continue;
    }
    const auto in = open_input_stream(file);
    const detail::ReportOptions report{o.all, static_cast<int>(o.min_severity)};
    pgn::Diagnostics diags;
    detail::print_as_they_come(diags, out, file, report, detail::pgn_game_prefix);
    const auto said = o.from ? pgn::game_format_named(*o.from) : pgn::game_format_of_suffix(file);
    pgn::AnyGameReader reader(*in, said, diags);
    std::size_t games = 0, plies = 0;
    for (pgn::Game g; reader.next(g);) {
      ++games;
      plies += g.main.moves.size();
    }
    const std::size_t errors = diags.count(pgn::Severity::Error);
    // The format is named where it is not PGN, or where the content chose it.
    const std::string format = reader.format() == pgn::GameFormat::Pgn && said
                                   ? ""
                                   : fmt::format(" ({}{})", pgn::to_string(reader.format()), said ? "" : ", by its content");
    fmt::print(out, "{}{}: {}, {}: {}, {}, {}\n", file, format, core::counted(games, "game", "games"),
               core::counted(plies, "main-line ply", "main-line plies"), core::counted(errors, "error", "errors"),
               core::counted(diags.count(pgn::Severity::Warning), "warning", "warnings"),
               core::counted(diags.count(pgn::Severity::Note), "note", "notes"));
    detail::print_kind_counts(out, diags, report);
    if (errors && status == 0) status = 1;
  }
  return status;
}

int run_pgn_write(const PgnWriteOptions& o, std::ostream& out, std::ostream& err) {
  const char* command = o.action == PgnAction::Export ? "export" : o.action == PgnAction::Sort ? "sort" : "to-epd";
  const auto fail = [&](const std::string& message) {
    fmt::print(err, "epdd pgn {}: {}\n", command, message);
    return 2;
  };
  if (auto once = check_stdio_once({o.file}, {o.output}); !once) return fail(once.error());
  if (auto readable = check_readable_file(o.file); !readable) return fail(readable.error());
  if (o.output)
    if (auto w = check_writable_output(*o.output); !w) return fail(w.error());
  const auto in = open_input_stream(o.file);
  pgn::Diagnostics diags;
  const detail::ReportOptions errors_only{false, static_cast<int>(pgn::Severity::Error)};
  detail::print_as_they_come(diags, err, o.file, errors_only, detail::pgn_game_prefix);
  pgn::AnyGameReader reader(*in, o.from ? pgn::game_format_named(*o.from) : pgn::game_format_of_suffix(o.file), diags);
  pgn::ExportOptions export_options;
  export_options.reduced = o.reduced;
  pgn::ToEpdOptions epd_options;
  epd_options.comments = o.comments;
  // Each game is written as it is read (sort excepted: it needs them all): a filter's memory
  // stays flat and its output flows. A file appears whole at the end (AtomicFileWriter).
  OutputStream output(o.output, out);
  std::string text;
  const auto emit = [&] {
    output.write(text);
    text.clear();
  };
  std::vector<pgn::Game> kept;  // sort only
  std::size_t games = 0;
  for (pgn::Game g; !output.failed() && out && reader.next(g);) {
    ++games;
    switch (o.action) {
      case PgnAction::Export: pgn::append_game(text, g, export_options); break;
      case PgnAction::Sort: kept.push_back(std::move(g)); break;
      case PgnAction::ToEpd:
        for (const std::string& line : pgn::game_to_epd(g, epd_options)) text += line + '\n';
        break;
    }
    emit();
  }
  if (o.action == PgnAction::Sort) {
    pgn::sort_games(kept);
    for (const pgn::Game& g : kept) {
      pgn::append_game(text, g, export_options);
      emit();
    }
  }
  if (auto w = output.commit(); !w) return fail(w.error());
  const std::size_t errors = diags.count(pgn::Severity::Error);
  fmt::print(err, "{}: {}{}\n", o.file, core::counted(games, "game", "games"),
             errors ? fmt::format("; {}: those games are written up to the error", core::counted(errors, "error", "errors")) : "");
  return errors ? 1 : 0;
}

}  // namespace epdd::cli
