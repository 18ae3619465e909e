// The backsolved book as EPD: one record per position of the book, for engines' and GUIs' EPD
// readers and for importers such as BOOKUP's (issue 17, "The command and outputs").
#pragma once

#include <string>
#include <unordered_map>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "uci/analysis.hpp"

namespace epdd::book {

// What the engine gave for a leaf, by node; a leaf absent from the map was not analysed
// (terminal, unvalued, or given a value without an analysis, e.g. imported).
using LeafAnalyses = std::unordered_map<NodeId, uci::Analysis>;

// How the EPD is written.
struct EpdOutputOptions {
  // `ce` from White's point of view instead of the side to move's (BOOKUP's importer wants it).
  bool ce_for_white = false;
};

// The book as EPD text, one record per line ("\n"), each written canonically with its
// operations in ASCII order. The order of the records: the root first, then the nodes by ply
// (breadth first from the root, a node's children in the order its moves arrived), so a node of
// equal ply comes where it was first arrived at, and a transposed node gets one record, at its
// first (shortest, then earliest) path. Nodes the root cannot reach and anonymous nodes (no
// position) get none. Each record holds:
//   the four fields (PositionKey::epd());
//   ce  the backsolved value (side to move, or White with ce_for_white; mates 32767 - p);
//       absent for an unvalued node;
//   bm  the backsolved best moves in SAN; absent when there are none;
//   pv  principal_line from the node in SAN, continued where it ends on an analysed leaf by that
//       leaf's engine PV (line 1, converted to SAN up to its first illegal move); absent if empty;
//   acd acn acs  on analysed leaves only: the Analysis's depth, nodes and whole seconds;
//   id  "start" for the root, else the first path from the root in SAN with move numbers
//       ("1. e4 c5 2. Nf3"; "1... e5" when Black moves first at the root), numbered from 1;
//       a path longer than the standard's 255 bytes keeps its first 252 and ends in "...";
//   c0  what the node is, the first that applies: "terminal" (the rules decide: mate,
//       stalemate, no mating material), "unvalued" (no ce), "incomplete" (some leaf below lacks
//       a value), "leaf" (no book moves), "interior".
// Strings are quoted with '"' (they never contain one: SAN and the fixed words above).
std::string write_book_epd(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                           const EpdOutputOptions& options = {});

}  // namespace epdd::book
