#include "cli/convert_command.hpp"

#include <fstream>
#include <functional>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "daemon/files.hpp"
#include "pgn/pgc.hpp"
#include "pgn/reader.hpp"
#include "pgn/to_epd.hpp"
#include "pgn/writer.hpp"
#include "report.hpp"

namespace epdd::cli {

using namespace daemon;  // files: readable, writable, written atomically

namespace {

enum class Format { Pgn, Pgc, Epd };

std::optional<Format> format_named(std::string_view name) {
  if (name == "pgn") return Format::Pgn;
  if (name == "pgc") return Format::Pgc;
  if (name == "epd") return Format::Epd;
  return std::nullopt;
}

// The format a file's suffix names (case aside), if any.
std::optional<Format> format_of_suffix(const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return std::nullopt;
  std::string suffix = path.substr(dot + 1);
  for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return format_named(suffix);
}

// An input whose suffix says nothing: PGC starts with a record marker (0x00..0x0a), which no
// PGN text does (a tab or a newline aside, which are PGN's whitespace).
Format sniffed(std::istream& in) {
  const int first = in.peek();
  if (first != EOF && first <= 0x0a && first != '\t' && first != '\n') return Format::Pgc;
  return Format::Pgn;
}

// Where the output goes: a file written atomically (nothing of it until commit) or stdout.
class Sink {
 public:
  Sink(const std::optional<std::string>& path, std::ostream& out) : out_(out) {
    if (path) file_.emplace(*path);
  }
  void write(std::string_view part) {
    if (file_) file_->write(part);
    else out_ << part;
  }
  Expected<void, std::string> commit() { return file_ ? file_->commit() : Expected<void, std::string>{}; }

 private:
  std::ostream& out_;
  std::optional<AtomicFileWriter> file_;
};

std::string game_prefix(const pgn::Diagnostic& d) { return d.game ? fmt::format("game {}: ", d.game) : std::string(); }

struct Totals {
  std::size_t games = 0;
  std::size_t refused = 0;  // games PGC cannot hold without --lossy
  pgn::PgcWriteReport left_out;
};

// Writes each game as `to` says; a game PGC refuses is named on `err` and counted.
class GameWriter {
 public:
  GameWriter(Format to, const ConvertOptions& o, Sink& sink, std::ostream& err)
      : to_(to), sink_(sink), err_(err), input_(o.input) {
    export_.reduced = o.reduced;
    pgc_.lossy = o.lossy;
  }
  void write(const pgn::Game& g) {
    ++totals_.games;
    text_.clear();
    switch (to_) {
      case Format::Pgn: pgn::append_game(text_, g, export_); break;
      case Format::Epd:
        for (const std::string& line : pgn::game_to_epd(g, {})) text_ += line + '\n';
        break;
      case Format::Pgc:
        if (auto report = pgn::append_pgc(text_, g, pgc_); !report) {
          ++totals_.refused;
          fmt::print(err_, "{}: {}\n", input_, pgn::to_string(report.error()));
          return;
        } else {
          totals_.left_out += *report;
        }
        break;
    }
    sink_.write(text_);
  }
  const Totals& totals() const { return totals_; }

 private:
  Format to_;
  Sink& sink_;
  std::ostream& err_;
  const std::string& input_;
  pgn::ExportOptions export_;
  pgn::PgcWriteOptions pgc_;
  std::string text_;
  Totals totals_;
};

// Reads the input a game at a time into `write`; the PGN reader's errors (and a PGC input's
// damage) are said on `err`. Returns 2 for a damaged PGC input, else the number of PGN games
// with errors (at most 1: an exit status).
int read_games(Format from, std::istream& in, const std::string& name, std::ostream& err,
               const std::function<void(const pgn::Game&)>& write) {
  if (from == Format::Pgc) {
    pgn::PgcReader reader(in);
    pgn::Game g;
    for (;;) {
      auto more = reader.next(g);
      if (!more) {
        fmt::print(err, "{}: {}\n", name, pgn::to_string(more.error()));
        return 2;
      }
      if (!*more) return 0;
      write(g);
    }
  }
  pgn::Diagnostics diags;
  const detail::ReportOptions errors_only{false, static_cast<int>(pgn::Severity::Error)};
  detail::print_as_they_come(diags, err, name, errors_only, game_prefix);
  pgn::GameReader reader(in, diags);
  for (pgn::Game g; reader.next(g);) write(g);
  return diags.count(pgn::Severity::Error) ? 1 : 0;
}

}  // namespace

int run_convert(const ConvertOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& why) {
    fmt::print(err, "epdd convert: {}\n", why);
    return 2;
  };
  std::optional<Format> to = o.to ? format_named(*o.to) : (o.output ? format_of_suffix(*o.output) : Format::Pgn);
  if (o.to && !to) return fail(fmt::format("--to {}: pgn, pgc or epd", *o.to));
  if (!to) return fail(fmt::format("{}: which format? name it .pgn, .pgc or .epd, or say --to", *o.output));
  if (auto readable = check_readable_file(o.input); !readable) return fail(readable.error());
  if (o.output)
    if (auto w = check_writable_output(*o.output); !w) return fail(w.error());
  std::ifstream in(o.input, std::ios::binary);
  const Format from = format_of_suffix(o.input).value_or(sniffed(in));
  if (from == Format::Epd) return fail(fmt::format("{}: EPD holds positions, not games: convert reads .pgn and .pgc", o.input));
  Sink sink(o.output, out);
  GameWriter writer(*to, o, sink, err);
  const int read = read_games(from, in, o.input, err, [&](const pgn::Game& g) { writer.write(g); });
  const Totals& t = writer.totals();
  if (read == 2) return 2;  // a damaged PGC input: nothing written
  if (t.refused) {
    fmt::print(err, "{}: {} of {} games hold what PGC cannot (named above): nothing written; --lossy writes them "
                    "without it, counted\n",
               o.input, t.refused, t.games);
    return 1;
  }
  if (auto committed = sink.commit(); !committed) return fail(committed.error());
  std::string lost;
  if (!t.left_out.lossless())
    lost = fmt::format("; left out (--lossy): {} comments, {} characters beyond Latin-1, {} termination markers",
                       t.left_out.comments, t.left_out.characters, t.left_out.result_marks);
  fmt::print(err, "{}: {} games{}{}\n", o.input, t.games, lost,
             read ? "; some with errors: those games are written up to the error" : "");
  return read;
}

}  // namespace epdd::cli
