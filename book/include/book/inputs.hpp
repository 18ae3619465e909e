// The book's inputs other than PGN games (issue 17, "The model: Input"): EPD records as nodes,
// linked by legal moves with --link-epd, into the same Dag as the games and Polyglot books
// (add_polyglot, in book/polyglot.hpp). Every input adds to one Dag, so a position that two
// inputs share is one node. Bad input never throws: each record that cannot be used is an error
// "FILE:LINE: why" in the result, and the rest is read.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "book/dag.hpp"
#include "core/board.hpp"
#include "core/expected.hpp"

namespace epdd::book {

// The position of an EPD record's four fields, as every EPD input of the book reads it: strictly,
// castling KQkq first as standard chess (or as X-FEN when `chess960`), then, when that is no legal
// position, as X-FEN (the outermost rooks: a Chess960 position written without its variant, the
// only reading left, so nothing is guessed); file letters (Shredder-FEN) always mean Chess960.
// The error is the first reading's ("castling availability: ...").
Expected<core::Board, std::string> read_epd_position(std::string_view four_fields, bool chess960 = false);

// How EPD records enter the book.
struct EpdInputOptions {
  // A legal move from one record's position to another record's position (of this file or of
  // any earlier add_epd into the same EpdInputs) becomes an edge. Without it each record is a
  // node of its own (a root, unless a game or another input reaches it).
  bool link_epd = false;
  // KQkq means the outermost rooks (X-FEN) from the start (see read_epd_position).
  bool chess960 = false;
};

// What add_epd keeps across files: the nodes records gave and their names. One per book.
struct EpdInputs {
  std::vector<NodeId> records;  // every node a record gave, once, in the order first given
  // A name by record node, the first one given, for the outputs (EpdOutputOptions::root_names):
  // the record's `id` when it has one, else "FILE:LINE" (where the record stands).
  RootNames names;
};

// What one EPD file added.
struct EpdAdded {
  std::size_t records = 0;      // lines that are records (legal position or not)
  std::size_t nodes_added = 0;  // new nodes (a position already in the book is not new)
  std::size_t duplicates = 0;   // records whose position an earlier record of the book already gave
  std::size_t links = 0;        // edges added by link_epd
  std::vector<std::string> errors;  // "FILE:LINE: why" (an illegal position, a line that is no record)
};

// Adds each record of the EPD `text` (named `name` in errors) as a node: its four fields, read
// by read_epd_position. Operations are not read, except `id` (a single string), which names the
// node in `inputs.names` (else "FILE:LINE" does). With options.link_epd, every legal move of every record of `inputs`
// (this file's and earlier ones') is checked against the book's index (Dag::find): a move into
// a node that some record gave is an edge. Moves into positions only games or Polyglot books gave
// are not linked (that would graft the records onto the other inputs' lines). Each linking call
// checks every record so far: for many files, add them without link_epd and call link_records
// once at the end. A '"' in a name becomes '\'' (the outputs quote names).
EpdAdded add_epd(Dag& dag, std::string_view text, std::string_view name, const EpdInputOptions& options,
                 EpdInputs& inputs);

// The linking of add_epd (link_epd) on its own, for a caller that adds several files first:
// every legal move from each of `records` into another of them becomes an edge. Returns the
// number of edges added.
std::size_t link_records(Dag& dag, const std::vector<NodeId>& records);

}  // namespace epdd::book
