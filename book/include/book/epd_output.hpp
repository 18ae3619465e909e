// The backsolved book as EPD: one record per position of the book, for engines' and GUIs' EPD
// readers and for importers such as BOOKUP's (issue 17, "The command and outputs").
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/first_paths.hpp"
#include "uci/analysis.hpp"

namespace epdd::book {

// What the engine gave for a leaf, by node; a leaf absent from the map was not analysed
// (terminal, unvalued, or given a value without an analysis, e.g. imported).
using LeafAnalyses = std::unordered_map<NodeId, uci::Analysis>;

// How the EPD is written.
struct EpdOutputOptions {
  // `ce` from White's point of view instead of the side to move's (BOOKUP's importer wants it).
  bool ce_for_white = false;
  // Names of roots other than the start (EpdInputs::names); a root without one is "root K".
  const RootNames* root_names = nullptr;
  // At most this many plies in each record's pv (its principal line first, then the leaf's engine
  // line); 0: no pv; unset: all of both (--pv-plies).
  std::optional<std::size_t> pv_plies;
};

// The book as EPD text, one record per line ("\n"), each written canonically with its
// operations in ASCII order. Every node with a position gets one record. The order of the
// records: root by root, each root's nodes breadth first (by ply, a node's children in the order
// its moves arrived), so a node of equal ply comes where it was first arrived at, and a
// transposed node gets one record, at its first (shortest, then earliest) path from the first
// root that reaches it. The roots, in this order:
//   node 0 (the start position, or the Dag's own root), when it has edges, is the only node or
//     is named in root_names; otherwise it is no part of the book (a Dag made for EPD records
//     alone still holds the start position) and gets no record;
//   every other node without parents (a game's FEN start, an EPD record), in node order;
//   then any node no walk reached (one only a cycle leads to), in node order.
// Anonymous nodes (no position) get no record. Each record holds:
//   the four fields (PositionKey::epd(); a Chess960 position's castling in Shredder-FEN, the
//       rooks' files, which marks the variant for any reader, as pgn::game_to_epd writes it);
//   ce  the backsolved value (side to move, or White with ce_for_white; mates 32767 - p);
//       absent for an unvalued node;
//   bm  the backsolved best moves in SAN; absent when there are none;
//   pv  principal_line from the node in SAN, continued where it ends on an analysed leaf by that
//       leaf's engine PV (line 1, converted to SAN up to its first illegal move), cut after
//       pv_plies plies when that is set; absent if empty;
//   acd acn acs  on analysed leaves only: the Analysis's depth, nodes and whole seconds;
//   id  "start" for node 0, else the first path from node 0 in SAN with move numbers
//       ("1. e4 c5 2. Nf3"; "1... e5" when Black moves first at the root), numbered from 1;
//       for another root its name (root_names), or "root K" (the K-th root written, node 0 not
//       counted) when it has none, and below it that name, ": " and the path from it
//       ("Sicilian: 1... d6 2. d4"); a path longer than the standard's 255 bytes keeps its first
//       252 and ends in "...";
//   c0  what the node is, the first that applies: "terminal" (the rules decide: mate,
//       stalemate, no mating material), "unvalued" (no ce), "incomplete" (some leaf below lacks
//       a value), "leaf" (no book moves), "interior".
// Strings are quoted with '"' (they never contain one: SAN and the fixed words above).
std::string write_book_epd(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                           const EpdOutputOptions& options = {});
// The same text given to `write` a part at a time (whole records, parts of about 64 KB, in
// order): a book of millions of positions is not held whole as text. `paths`: the book's
// first_paths (with options.root_names) where the caller has them, else made here.
void write_book_epd(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                    const EpdOutputOptions& options, const std::function<void(std::string_view)>& write,
                    const FirstPaths* paths = nullptr);

// The nodes write_book_epd writes a record for, in its order: the book as the outputs see it
// (the unused start position of a Dag made for other inputs is not in it), for a caller that
// counts or walks what the user will read (unvalued leaves, the roots of a PGN output).
std::vector<NodeId> book_nodes(const Dag& dag, const RootNames* root_names = nullptr);

// The book's leaves as EPD, for an external analyst to fill in (BOOKUP's round trip; the file
// comes back through import_leaf_values, book/leaf_import.hpp): every leaf with a position that
// the rules do not decide (terminal leaves need no analysis), once, in write_book_epd's order,
// each record the four fields (as write_book_epd writes them), `c0 "leaf"` and `id` as
// write_book_epd gives it.
std::string write_leaves_epd(const Dag& dag, const RootNames* root_names = nullptr);

}  // namespace epdd::book
