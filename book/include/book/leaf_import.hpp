// Leaf values from an external analyst's EPD (BOOKUP's round trip, issue 17 "Values"): the book's
// leaves are written with write_leaves_epd (book/epd_output.hpp), someone analyses them and fills
// in ce / pv / acd, and the file comes back here as leaf values beside or instead of the engine's.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/epd_output.hpp"

namespace epdd::book {

// Which value a leaf keeps when it has one already (from the engine or an earlier import).
enum class Merge : std::uint8_t {
  Replace,  // the imported record wins
  Deeper,   // the greater depth wins (acd; a value without a known depth counts as depth 0); equal: keep
};

struct ImportOptions {
  Merge merge = Merge::Replace;
  // `ce` in the file is White's point of view (a file written with --ce-for-white), not the side
  // to move's as the standard has it: negated on records with Black to move.
  bool ce_for_white = false;
  // KQkq means the outermost rooks (X-FEN) from the start (see read_epd_position).
  bool chess960 = false;
};

// What an import did, record by record: every record is counted once in records, and then in
// exactly one of not_in_book, not_a_leaf, terminal, errors (as a line) or matched; every matched
// record once in exactly one of added, kept, replaced.
struct ImportReport {
  std::size_t records = 0;
  std::size_t matched = 0;      // a leaf of the book with a usable ce
  std::size_t added = 0;        // the leaf had no value before
  std::size_t kept = 0;         // the leaf's value stayed (deeper: the import was not deeper)
  std::size_t replaced = 0;     // the import's value took the place of the leaf's
  std::size_t not_in_book = 0;  // the position is no node of the book
  std::size_t not_a_leaf = 0;   // the node has book moves: its value is backsolved, not imported
  std::size_t terminal = 0;     // a leaf the rules decide (mate, stalemate, no material): not imported
  // "FILE:LINE: why", in line order: an illegal position, no ce, a bad ce or count; and the EPD
  // reader's errors (a line that is no record, an operation that cannot be read), whose record,
  // if the line is one, is counted as above too.
  std::vector<std::string> errors;
  std::vector<std::string> notes;   // "FILE:LINE: ...": a pv cut at its first illegal move
};

// Reads the EPD `text` (named `name` in messages) and gives each record whose position is a
// non-terminal leaf of `dag` a value: `ce` (side to move, or White with options.ce_for_white;
// an integer in the EPD encoding, mates 32767 - p) into `values`, and when the record has any
// of pv, acd, acn, acs an uci::Analysis into `analyses`: depth acd, nodes acn, time_ms acs * 1000,
// one line with that score and depth and the pv as UCI moves (pv read as SAN or UCI, cut at its
// first illegal move with a note). A record without those four has a value but no analysis (an
// analysis the leaf had goes with the value it replaces). A leaf's record without `ce`, or with
// a ce that is no EPD score, is an error; records that are not leaves are counted, not read.
// Records are taken in file order: a second record of one leaf merges like any other.
ImportReport import_leaf_values(const Dag& dag, std::string_view text, std::string_view name,
                                const ImportOptions& options, LeafValues& values, LeafAnalyses& analyses);

}  // namespace epdd::book
