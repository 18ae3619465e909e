// Polyglot opening books (.bin) for the book module: writing a backsolved book, and reading a
// book as input. The format (Fabien Letouzey's, as hgm.nubati.net/book_format.html gives it):
// 16-byte big-endian entries, key u64 (core::Board::polyglot_key), move u16, weight u16,
// learn u32, sorted by key so that a reader finds a position's entries by binary search.
// A move is bits 0-2 to file, 3-5 to row, 6-8 from file, 9-11 from row, 12-14 the promotion
// piece (0 none, 1 knight, 2 bishop, 3 rook, 4 queen); castling is the king taking its own
// rook (e1h1, e1a1, e8h8, e8a8), in Chess960 the same way, which is how core::Move holds it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "core/expected.hpp"
#include "core/move.hpp"

namespace epdd::book {

// A move in the Polyglot encoding (see the top of this file), and back: the entry's move
// matched against the position's legal moves (none when no legal move has that encoding).
std::uint16_t polyglot_move(core::Move move);
core::Move move_from_polyglot(const core::Board& board, std::uint16_t encoded);

// How a backsolved book becomes weights.
struct PolyglotOptions {
  // A move losing more than this many centipawns against its node's value (ce through the move
  // compared with the node's ce, both from the mover's side) is a losing move.
  int margin_cp = 100;
  // Losing moves are written with weight 0 (a reader knows them and never plays them) instead
  // of being left out.
  bool keep_losing = false;
};

// The weight of a book move (see write_polyglot): the best moves kMaxWeight, every other kept
// move 1 .. kMaxWeight - 1, a losing move kept with keep_losing 0.
inline constexpr std::uint16_t kMaxWeight = 65535;

// The bytes of a .bin holding every interior node's book moves (a node with edges, a position
// key and a backsolved value). Weights:
//   - the node's best moves (Backsolved::best_moves): kMaxWeight;
//   - another move whose child has a value: v = ce_through_move(child ce), loss = ce - v in
//     centipawns; loss > margin_cp: a losing move (weight 0 with keep_losing, else left out);
//     otherwise, with W = annotate::winning_chances (the one rule annotate judges moves by),
//     d = W(ce) - W(v), d_margin = W(ce) - W(ce - margin_cp), f = d / d_margin clamped to
//     [0, 1] (0 when d_margin is 0, e.g. both are mates), weight = 1 + round((kMaxWeight - 2) *
//     (1 - f)): a move losing nothing is just below the best, one losing the whole margin is 1.
//   - a move into an unvalued child: left out (no value to weigh it by).
// Unvalued nodes (no value: every leaf below lacks one) get no entries: a weight needs a value,
// and a move written with an invented weight would be played as if it were known. Terminal nodes
// with moves (insufficient material) get none either: the game is over there.
// Each node's Polyglot key comes from the board met first on a walk from the book's roots (node 0,
// nodes without parents, then any node the walks missed), so the en passant rule of Polyglot's key (a pawn beside, legal or
// not) is applied to a real position. Entries are sorted by key, then by descending weight (as
// polyglot make-book sorts them), then by move; learn is 0.
std::string write_polyglot(const Dag& dag, const Backsolved& values, const PolyglotOptions& options = {});
// The same handed to `sink` 64 KB at a time (the entries are sorted first: 16 bytes an entry
// held, not the file's text as well).
void write_polyglot(const Dag& dag, const Backsolved& values, const PolyglotOptions& options,
                    const std::function<void(std::string_view)>& sink);

// A book read from a .bin: the Dag of the positions reached from the start position through its
// entries, each entry's weight by EdgeId (Edge has no room for it), and how many entries the walk
// met whose move is not legal in the position (key collisions, other variants): skipped.
struct PolyglotBook {
  Dag dag;
  std::vector<std::uint16_t> weights;  // by EdgeId
  std::size_t illegal_entries = 0;
};

// What add_polyglot added to a book.
struct PolyglotAdded {
  std::size_t entries = 0;          // entries the walk met (legal or not)
  std::size_t nodes_added = 0;      // positions new to the book
  std::size_t edges_added = 0;      // moves new to the book (a move already there is kept as it is)
  std::size_t illegal_entries = 0;  // entries whose move is not legal in the position: skipped
};

// Walks a .bin into an existing book (any mix of inputs: a position already there is the same
// node): from the start position (its node, made if the book has none), each position's entries
// (found by binary search on the key) become edges, breadth first, up to max_ply plies (a
// position is expanded once, at the fewest plies it is reached in). With `weights` non-null,
// each edge's entry weight is stored by EdgeId (resized to the book's edge count; edges that
// were there before keep what they had). Errors, before anything is added: a size that is not a
// multiple of 16 (the message names the size), entries not sorted by key (names the entry's byte
// offset).
Expected<PolyglotAdded, std::string> add_polyglot(Dag& dag, std::string_view bytes, int max_ply,
                                                  std::vector<std::uint16_t>* weights = nullptr);

// Reads a .bin as a book of its own (add_polyglot into a new Dag): from the start position, each position's entries (found by binary
// search on the key) become edges, breadth first, up to max_ply plies (a position is expanded
// once, at the fewest plies it is reached in). Errors: a size that is not a multiple of 16 (the
// message names the size), entries not sorted by key (names the entry's byte offset).
Expected<PolyglotBook, std::string> read_polyglot(std::string_view bytes, int max_ply);

}  // namespace epdd::book
