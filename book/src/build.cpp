// A book from its input files (book/build.hpp).
#include "book/build.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"
#include "epd/document.hpp"
#include "book/first_paths.hpp"
#include "book/polyglot.hpp"
#include "pgn/reader.hpp"

namespace epdd::book {

namespace {

bool ends_with_ignoring_case(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && core::iequals(s.substr(s.size() - suffix.size()), suffix);
}

// Whether `line` opens with the four position fields of an EPD record: a piece placement (rank
// separators, piece letters, empty-square counts) and a side to move, then two more fields.
// PGN never does: its tag pairs, comments, escape lines and move numbers fail the first test.
bool starts_like_epd_record(std::string_view line) {
  const auto field = [&line]() {
    const auto start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) return std::string_view();
    line.remove_prefix(start);
    const auto field = line.substr(0, line.find_first_of(" \t"));
    line.remove_prefix(field.size());
    return field;
  };
  const std::string_view placement = field();
  const bool placement_like = placement.find('/') != std::string_view::npos &&
                              placement.find_first_not_of("pnbrqkPNBRQK12345678/") == std::string_view::npos;
  const std::string_view side = field();
  const bool side_like = side.size() == 1 && std::string_view("wbWB").find(side[0]) != std::string_view::npos;
  return placement_like && side_like && !field().empty() && !field().empty();
}

void note(BuiltBook& book, std::string text) {
  if (++book.note_count <= BuiltBook::kMaxNotes) book.notes.push_back(std::move(text));
}

void add_pgn(BuiltBook& book, const InputFile& file, const BookInputOptions& options) {
  pgn::Diagnostics diags;
  diags.keep_per_kind(BuiltBook::kMaxNotes);
  // Only what changes the book is worth a note: a move that could not be read ends its line.
  diags.on_add([&](const pgn::Diagnostic& d) {
    if (d.severity == pgn::Severity::Error)
      note(book, fmt::format("{}:{}:{}: {}", core::escaped(file.name), d.line, d.column, core::one_line(d.message)));
  });
  pgn::ReadOptions read;
  read.verify_check_marks = false;
  pgn::GameReader reader(file.bytes, diags, read);
  BuildOptions build;
  build.max_ply = options.max_ply;
  // The reader runs a thread ahead of the build: its notes go to book.notes (on its thread), the
  // games to the DAG (on this one).
  pgn::read_ahead(reader, [&](pgn::Game& game) {
    book.dag.add_game(game, build);
    ++book.games;
  });
}

}  // namespace

std::optional<InputType> input_type_of(std::string_view file_name) {
  if (ends_with_ignoring_case(file_name, ".pgn")) return InputType::Pgn;
  if (ends_with_ignoring_case(file_name, ".bin")) return InputType::Polyglot;
  if (ends_with_ignoring_case(file_name, ".epd")) return InputType::Epd;
  return std::nullopt;
}

namespace {

// Whether the bytes are a Polyglot book: whole 16-byte entries whose keys (big-endian, the
// first 8 bytes) do not go down, over the first 256, and a byte no text file holds (a control
// byte but tab, newline, carriage return, form feed, vertical tab and DOS's end-of-file ^Z).
bool looks_like_polyglot(std::string_view bytes) {
  if (bytes.empty() || bytes.size() % 16 != 0) return false;
  const std::string_view head = bytes.substr(0, 4096);
  const bool binary = std::any_of(head.begin(), head.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 && u != '\t' && u != '\n' && u != '\r' && u != '\f' && u != '\v' && u != 0x1a;
  });
  if (!binary) return false;
  for (std::size_t at = 16; at < bytes.size() && at < 256 * 16; at += 16)
    if (bytes.substr(at, 8) < bytes.substr(at - 16, 8)) return false;  // (bytewise: big-endian order)
  return true;
}

}  // namespace

std::optional<InputType> input_type_of(std::string_view file_name, std::string_view bytes) {
  if (file_name != "-") return input_type_of(file_name);
  if (looks_like_polyglot(bytes)) return InputType::Polyglot;
  std::string_view head = bytes.substr(0, 4096);
  if (head.substr(0, 3) == "\xef\xbb\xbf") head.remove_prefix(3);  // a UTF-8 byte-order mark
  epd::LineSplitter lines(head);
  for (std::string_view line, ending; lines.next(line, ending);) {
    const auto start = line.find_first_not_of(" \t\r");
    if (start == std::string_view::npos || line[start] == '#') continue;  // blank, or an EPD comment
    return starts_like_epd_record(line) ? InputType::Epd : InputType::Pgn;
  }
  return InputType::Epd;  // nothing to read: EPD, whose reader says so
}

const char* to_string(InputType type) {
  switch (type) {
    case InputType::Pgn: return "PGN";
    case InputType::Polyglot: return "Polyglot";
    case InputType::Epd: return "EPD";
  }
  return "?";
}

namespace {

// Why a file read as PGN is not PGN text: a NUL byte in its first 4 KiB, which no PGN file holds
// and almost every binary file does (as git and grep tell binary files). An EPD file may hold a
// stray NUL (its reader notes it and reads on, epd/diagnostic.hpp); a binary one has no record.
std::optional<std::string> binary_problem(const InputFile& f) {
  if (f.type != InputType::Pgn) return std::nullopt;
  const auto nul = f.bytes.substr(0, 4096).find('\0');
  if (nul == std::string_view::npos) return std::nullopt;
  return fmt::format("{}: a binary file, not {} text (a NUL byte at offset {}); a Polyglot book is read by its .bin "
                     "name",
                     core::escaped(f.name), to_string(f.type), nul);
}

}  // namespace

void number_in_output_order(BuiltBook& book) {
  const std::vector<NodeId> rank = book.dag.renumber(output_order(book.dag, &book.epd.names));
  for (NodeId& n : book.epd.records) n = rank[n];
  RootNames names;
  for (auto& [n, name] : book.epd.names) names.emplace(rank[n], std::move(name));
  book.epd.names = std::move(names);
}

Expected<BuiltBook, std::string> build_book(std::span<const InputFile> files, const BookInputOptions& options) {
  BuiltBook book;
  for (const InputFile& f : files)
    if (auto why = binary_problem(f)) return unexpected(*why);
  for (const InputFile& f : files)
    if (f.type == InputType::Pgn) add_pgn(book, f, options);
  if (options.min_games > 1) book.dag = book.dag.filtered(options.min_games);
  for (const InputFile& f : files) {
    if (f.type != InputType::Polyglot) continue;
    auto added = add_polyglot(book.dag, f.bytes, options.max_ply);
    if (!added) return unexpected(fmt::format("{}: {}", core::escaped(f.name), added.error()));
    book.book_entries += added->entries - added->illegal_entries;
    if (added->illegal_entries)
      note(book, fmt::format("{}: {} entries whose move is not legal in their position (skipped)", core::escaped(f.name),
                             added->illegal_entries));
  }
  EpdInputOptions epd;
  epd.chess960 = options.chess960;
  for (const InputFile& f : files) {
    if (f.type != InputType::Epd) continue;
    const EpdAdded added = add_epd(book.dag, f.bytes, f.name, epd, book.epd);
    book.epd_records += added.nodes_added + added.duplicates;
    for (const std::string& e : added.errors) note(book, e);
  }
  if (options.link_epd) link_records(book.dag, book.epd.records);
  // An input with nothing in it is an error on every path, as for the other commands: not a book
  // of the start position alone.
  if (book.games == 0 && book.book_entries == 0 && book.epd_records == 0) {
    std::string names;
    for (const InputFile& f : files) names += (names.empty() ? "" : ", ") + core::escaped(f.name);
    std::string why = fmt::format("{}: no game, Polyglot entry or EPD record to make a book of", names);
    for (const std::string& n : book.notes) why += "\n" + n;  // why what was there is not usable
    if (book.note_count > book.notes.size()) why += fmt::format("\n({} more notes)", book.note_count - book.notes.size());
    return unexpected(why);
  }
  number_in_output_order(book);
  return book;
}

}  // namespace epdd::book
