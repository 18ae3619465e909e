// The top levels of a backsolved book as JSON (issue 20): what the book job's JSON report carries
// as "tree" and the book page (book/html_page.hpp) draws. Only the top levels: a big book (the
// 12,000 games of 2moves_v2.pgn, 30,000 positions) would make a report of megabytes and a page
// nobody reads, while the decisions a reader looks for (which first moves, which replies, how
// they compare) sit near the root. The full book is in the EPD and PGN outputs.
#pragma once

#include <cstddef>
#include <vector>

#include <nlohmann/json.hpp>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/first_paths.hpp"

namespace epdd::book {

// How much of the tree is written.
struct TreeOptions {
  // widths[k]: the most children listed for a node at ply k from the root (the rest counted in
  // "more"); the tree has widths.size() plies. The default {32, 5, 3}: every first move (no
  // position has 32 good ones in a book), the 5 best replies to each, the 3 best answers to
  // those: at most 32 + 160 + 480 nodes (2moves_v2.pgn: 20 + 100 + 300), about 60 KB of JSON.
  std::vector<std::size_t> widths{32, 5, 3};
};

// The tree from the book's first root (first_paths: node 0, the start position, when it has
// moves) as an object:
//   root: "label" (first_paths' label: "start", an EPD record's name), "position" (the four EPD
//         fields), then the node fields below;
//   node: "move" (SAN from its parent), then games through the move when games played it
//         ("games", "white_wins", "draws", "black_wins": the edge's GameStats; absent for a move
//         no game gave, from Polyglot or EPD);
//   both: "ce" (Backsolved's value from the node's side to move, EPD ce, mates as 32767 - plies;
//         null when unvalued), "incomplete", "best" (SAN of the first best move; null for none),
//         "terminal" ("checkmate", "stalemate", "insufficient_material"; only when the rules end
//         the game there), "moves" (the book moves out of the node), "repeats" (true, only for a
//         move back into a position of the line above it: not expanded), "children" (only above
//         the last ply: the listed moves, best for the mover first: by ce_through_move of the
//         child's ce, greatest first, unvalued last, ties in edge order) and "more" (only when
//         some were left out: how many).
// Each node shows its own value (Backsolved's: the game from that node on); inside a repetition
// cycle that may differ from what the node contributes to its parent's value (the parent's line
// counts a return to the parent as a draw), so the parent's "best" is the move to trust.
// A move that repeats has only "move", its games, "ce", "incomplete" and "repeats".
// An empty object for a book without a reached node.
nlohmann::ordered_json tree_json(const Dag& dag, const Backsolved& values, const FirstPaths& paths,
                                 const TreeOptions& options = {});

}  // namespace epdd::book
