#include "cli/convert_command.hpp"

#include <functional>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "core/fen.hpp"
#include "core/text.hpp"
#include "daemon/files.hpp"
#include "pgn/chesslive.hpp"
#include "pgn/formats.hpp"
#include "pgn/pgc.hpp"
#include "pgn/reader.hpp"
#include "pgn/to_epd.hpp"
#include "pgn/writer.hpp"
#include "report.hpp"

namespace epdd::cli {

using namespace daemon;  // files: readable, writable, written atomically

namespace {

enum class Format { Pgn, Pgc, Clm, Epd };

// The output formats: the game formats (pgn/formats.hpp names them), and EPD.
Format output_format(pgn::GameFormat f) {
  switch (f) {
    case pgn::GameFormat::Pgn: return Format::Pgn;
    case pgn::GameFormat::Pgc: return Format::Pgc;
    case pgn::GameFormat::ChessLive: return Format::Clm;
  }
  return Format::Pgn;
}

std::optional<Format> format_named(std::string_view name) {
  if (auto f = pgn::game_format_named(name)) return output_format(*f);
  if (name == "epd" || name == "EPD") return Format::Epd;
  return std::nullopt;
}

// The output format a file's suffix names (case aside), if any.
std::optional<Format> format_of_suffix(const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return std::nullopt;
  return format_named(std::string_view(path).substr(dot + 1));
}

struct Totals {
  std::size_t games = 0;
  std::size_t refused = 0;  // games the output format cannot hold without --lossy
  pgn::PgcWriteReport left_out;
  pgn::ClmWriteReport clm_left_out;
};

// A move file holds one game, so the number of games decides the names: OUT itself, or
// OUT-1.clm, OUT-2.clm ... The texts are kept until the end (a refused game then writes
// nothing, as for the other formats), and each file is written atomically; move files are small
// (about 8 bytes a ply).
class MoveFiles {
 public:
  void add(std::string text) { texts_.push_back(std::move(text)); }
  std::size_t size() const { return texts_.size(); }
  // The files' names: `output` for one game, else the stem with the game's number (padded).
  std::vector<std::string> names(const std::string& output) const {
    if (texts_.size() == 1) return {output};
    const auto dot = output.rfind('.');
    const bool suffix = dot != std::string::npos && output.find('/', dot) == std::string::npos;
    const std::string stem = suffix ? output.substr(0, dot) : output, ext = suffix ? output.substr(dot) : ".clm";
    const std::size_t width = std::to_string(texts_.size()).size();
    std::vector<std::string> out;
    for (std::size_t i = 1; i <= texts_.size(); ++i) out.push_back(fmt::format("{}-{:0{}}{}", stem, i, width, ext));
    return out;
  }
  Expected<void, std::string> commit(const std::optional<std::string>& output, std::ostream& out) const {
    if (!output) {
      if (texts_.size() > 1)
        return unexpected(fmt::format("a move file holds one game and the input has {}: name the output (-o OUT.clm "
                                      "writes OUT-1.clm ...)", texts_.size()));
      for (const auto& t : texts_) out << t;
      return {};
    }
    const auto files = names(*output);
    // Every name first, so that one that cannot be written (a folder of that name) leaves none.
    for (const std::string& file : files)
      if (auto w = check_writable_output(file); !w) return w;
    for (std::size_t i = 0; i < files.size(); ++i)
      if (auto w = write_file_atomically(files[i], texts_[i]); !w) return w;
    return {};
  }

 private:
  std::vector<std::string> texts_;
};

// Writes each game as `to` says; a game the format refuses is named on `err` and counted.
class GameWriter {
 public:
  GameWriter(Format to, const ConvertOptions& o, OutputStream& sink, std::ostream& err)
      : to_(to), sink_(sink), err_(err), input_(o.input) {
    export_.reduced = o.reduced;
    reduced_ = o.reduced;
    pgc_.lossy = o.lossy;
    clm_.lossy = o.lossy;
    clm_.santags = !o.no_santags;
  }
  void write(const pgn::Game& game) {
    ++totals_.games;
    text_.clear();
    // --reduced: PGC and move files get what the reduced export holds (PGC: 0x01 records).
    const bool reduce = reduced_ && (to_ == Format::Pgc || to_ == Format::Clm);
    const pgn::Game& g = reduce ? (reduced_copy_ = pgn::reduced_game(game)) : game;
    switch (to_) {
      case Format::Pgn: pgn::append_game(text_, g, export_); break;
      case Format::Epd:
        for (const std::string& line : pgn::game_to_epd(g, {})) text_ += line + '\n';
        break;
      case Format::Pgc:
        if (auto report = pgn::append_pgc(text_, g, pgc_); !report) return refuse(pgn::to_string(report.error()));
        else totals_.left_out += *report;
        break;
      case Format::Clm: {
        pgn::ClmWriteReport report;
        auto text = pgn::write_chesslive(g, clm_, &report);
        if (!text) return refuse(pgn::to_string(text.error()));  // it names the game
        add(totals_.clm_left_out, report);
        move_files_.add(std::move(*text));
        return;
      }
    }
    sink_.write(text_);
  }
  const Totals& totals() const { return totals_; }
  const MoveFiles& move_files() const { return move_files_; }

 private:
  void refuse(const std::string& why) {
    ++totals_.refused;
    fmt::print(err_, "{}: {}\n", input_, why);
  }
  static void add(pgn::ClmWriteReport& sum, const pgn::ClmWriteReport& r) {
    sum.tags += r.tags;
    sum.comments += r.comments;
    sum.nags += r.nags;
    sum.variations += r.variations;
    sum.characters += r.characters;
    sum.start = sum.start || r.start;
  }
  Format to_;
  OutputStream& sink_;
  std::ostream& err_;
  const std::string& input_;
  pgn::ExportOptions export_;
  bool reduced_ = false;
  pgn::Game reduced_copy_;
  pgn::PgcWriteOptions pgc_;
  pgn::ClmWriteOptions clm_;
  std::string text_;
  Totals totals_;
  MoveFiles move_files_;
};

// What the output left out, in words ("" when nothing).
std::string left_out(Format to, const Totals& t) {
  if (to == Format::Pgc && !t.left_out.lossless())
    return fmt::format("; left out (--lossy): {} comments, {} characters beyond Latin-1, {} termination markers",
                       t.left_out.comments, t.left_out.characters, t.left_out.result_marks);
  if (to != Format::Clm) return {};
  const pgn::ClmWriteReport& r = t.clm_left_out;
  std::string s = r.tags ? fmt::format("; left out: {} tags beyond White, Black and Result (a move file has no place "
                                       "for them)", r.tags)
                         : std::string();
  if (!r.lossless())
    s += fmt::format("; left out (--lossy): {} comments, {} NAGs, {} variations, {} characters (';' '/'){}", r.comments,
                     r.nags, r.variations, r.characters, r.start ? ", set-up start positions" : "");
  return s;
}

// The input read a game at a time into `write` (until it returns false), its problems said on
// `err` as they come. Returns 2 for an input that cannot be read on (damaged PGC, a move file
// against its grammar), 1 when PGN games had errors (kept up to them), else 0.
int read_games(const ConvertOptions& o, std::istream& in, const core::Board& start, std::ostream& err,
               const std::function<bool(const pgn::Game&)>& write) {
  pgn::Diagnostics diags;
  const detail::ReportOptions errors_only{false, static_cast<int>(pgn::Severity::Error)};
  detail::print_as_they_come(diags, err, o.input, errors_only, detail::pgn_game_prefix);
  pgn::AnyReadOptions options;
  options.chesslive_start = start;
  const auto said = o.from ? pgn::game_format_named(*o.from) : pgn::game_format_of_suffix(o.input);
  pgn::AnyGameReader reader(in, said, diags, options);
  for (pgn::Game g; reader.next(g);)
    if (!write(g)) break;
  if (diags.count(pgn::Problem::PgcData) || diags.count(pgn::Problem::MoveFile)) return 2;
  return diags.count(pgn::Severity::Error) ? 1 : 0;
}

}  // namespace

int run_convert(const ConvertOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& why) {
    fmt::print(err, "epdd convert: {}\n", why);
    return 2;
  };
  if (auto once = check_stdio_once({o.input}, {o.output}); !once) return fail(once.error());
  // `-o -` is standard output, as without -o: PGN unless --to says otherwise.
  const std::optional<std::string> output = o.output && !is_stdio(*o.output) ? o.output : std::nullopt;
  std::optional<Format> to = o.to ? format_named(*o.to) : (output ? format_of_suffix(*output) : Format::Pgn);
  if (o.to && !to) return fail(fmt::format("--to {}: pgn, pgc, clm or epd", *o.to));
  if (!to) return fail(fmt::format("{}: which format? name it .pgn, .pgc, .clm or .epd, or say --to", *o.output));
  core::Board start;
  if (o.start) {
    core::FenReadOptions fen;
    fen.fields = core::FenFields::FourOrSix;
    auto board = core::parse_fen(*o.start, fen);
    if (!board && board.error().field == core::FenField::Castling) {
      fen.chess960 = true;  // KQkq for rooks off the a- and h-files: X-FEN, as Chess960 tools write it
      if (auto chess960 = core::parse_fen(*o.start, fen)) board = std::move(chess960);
    }
    if (!board) return fail(fmt::format("--start: {}", core::to_string(board.error())));
    start = *board;
  }
  if (!o.from && format_of_suffix(o.input) == Format::Epd)
    return fail(fmt::format("{}: EPD holds positions, not games: convert reads .pgn, .pgc and .clm", o.input));
  if (auto readable = check_readable_file(o.input); !readable) return fail(readable.error());
  if (o.output)
    if (auto w = check_writable_output(*o.output); !w) return fail(w.error());
  const auto in = open_input_stream(o.input);
  OutputStream sink(to == Format::Clm ? std::nullopt : o.output, out);
  GameWriter writer(*to, o, sink, err);
  const int read = read_games(o, *in, start, err, [&](const pgn::Game& g) {
    writer.write(g);
    return !sink.failed();
  });
  const Totals& t = writer.totals();
  if (sink.failed()) {  // (said by the commit: standard output's error)
    if (auto committed = sink.commit(); !committed) return fail(committed.error());
    return 2;
  }
  if (read == 2) return 2;  // an input that cannot be read on: nothing written
  if (t.refused) {
    fmt::print(err, "{}: {} of {} games hold what {} cannot (named above): nothing written; --lossy writes them "
                    "without it, counted\n",
               o.input, t.refused, t.games, to == Format::Clm ? "a move file" : "PGC");
    return 1;
  }
  if (auto committed = to == Format::Clm ? writer.move_files().commit(output, out) : sink.commit(); !committed)
    return fail(committed.error());
  std::string where;
  if (to == Format::Clm && output && writer.move_files().size() > 1) {
    const auto names = writer.move_files().names(*output);
    where = fmt::format("; a move file holds one game: written to {} ... {}", names.front(), names.back());
  }
  fmt::print(err, "{}: {}{}{}{}\n", o.input, core::counted(t.games, "game", "games"), where, left_out(*to, t),
             read ? "; some with errors: those games are written up to the error" : "");
  return read;
}

}  // namespace epdd::cli
