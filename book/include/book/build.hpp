// A book from its input files, any mix of PGN games, Polyglot books and EPD records (issue 17,
// "The model": Input): one Dag, what the reading met, and the counts a report gives.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "book/dag.hpp"
#include "book/inputs.hpp"
#include "core/expected.hpp"

namespace epdd::book {

// What a file holds, by its extension.
enum class InputType : std::uint8_t { Pgn, Polyglot, Epd };
// ".pgn" Pgn, ".bin" Polyglot, ".epd" Epd (letter case ignored); nothing for any other name.
std::optional<InputType> input_type_of(std::string_view file_name);
// The same, and for "-" (standard input, which has no name to go by) the type its bytes show:
// Polyglot when they hold control characters (binary entries; no text does); EPD when the first
// line that is not blank or a '#' comment (a UTF-8 byte-order mark aside) opens with four
// FEN-like fields (placement with '/', side w or b, two more), or when there is no such line;
// PGN otherwise, so games that open with a '%' escape line, a comment or bare movetext are PGN.
std::optional<InputType> input_type_of(std::string_view file_name, std::string_view bytes);
// "PGN", "Polyglot", "EPD".
const char* to_string(InputType type);

// One input: its type, its name as messages show it, its bytes (not owned).
struct InputFile {
  InputType type = InputType::Pgn;
  std::string name;
  std::string_view bytes;
};

// How the files become a book.
struct BookInputOptions {
  // Plies from each game's start (PGN), and from the start position (Polyglot), that enter.
  int max_ply = std::numeric_limits<int>::max();
  // A move of the PGN games enters when at least this many games played it (Dag::filtered; 1:
  // every move). Polyglot entries and EPD links are not games: they are never filtered out.
  std::uint32_t min_games = 1;
  // EPD input: a legal move from one record's position to another record's is an edge.
  bool link_epd = false;
  // EPD input: KQkq means the outermost rooks (X-FEN) from the start (read_epd_position).
  bool chess960 = false;
};

// The book, and what reading its files met.
struct BuiltBook {
  Dag dag;
  // "FILE:LINE: message" for what could not be read as it stands (an illegal move ends its
  // line; a record whose position is illegal is left out), at most `kMaxNotes` of them, and
  // how many there were in all.
  std::vector<std::string> notes;
  std::size_t note_count = 0;
  static constexpr std::size_t kMaxNotes = 100;
  std::size_t games = 0;         // PGN games read
  std::size_t book_entries = 0;  // Polyglot entries that became edges
  std::size_t epd_records = 0;   // EPD records that became nodes
  EpdInputs epd;                 // the records' nodes and names (EpdOutputOptions::root_names)
};

// Reads every file into one book; node 0 is the start position. The PGN files come first, in
// the order given, then min_games filters their moves, then the Polyglot files and the EPD
// files are added (so the filter, which counts games, never removes what they bring). An error
// (a Polyglot file whose size is not a multiple of 16, or not sorted; a PGN file with a NUL byte
// in its first 4 KiB, which is binary; no game, Polyglot entry or EPD record in any file, with
// the notes that say why) names the file; problems inside a file are notes.
// The book's nodes are numbered in the order its outputs walk them (output_order, the records'
// names as roots' names): every phase after the build reads its arrays front to back, which at
// millions of positions is a fifth of the time (bench/book_bench --scale).
Expected<BuiltBook, std::string> build_book(std::span<const InputFile> files, const BookInputOptions& options);

// Renumbers a built book so (Dag::renumber(output_order)), its EPD records and names with it;
// build_book does it last.
void number_in_output_order(BuiltBook& book);

}  // namespace epdd::book
