// The first path to every node of a book, root by root: every output that names a node by a
// line of moves (the EPD `id`, the leaves file, the PGN's transposition comments, the
// contradictions report) names it by this path, so the names agree across outputs.
//
// The roots, in this order: node 0 (the start position, or the Dag's own root) when it has
// edges, is the only node or is named; every other node without parents (a game's FEN start, an
// EPD record) in node order; then any node no walk reached (one only a cycle leads to) in node
// order. From each root in turn, breadth first (a node's edges in the order its moves arrived),
// the nodes no earlier walk reached: a node is first reached at its shortest path from the first
// root that reaches it and, among paths of equal length, the earliest. Anonymous nodes (no
// position) are never reached. Node 0 left out (a Dag made for EPD records alone still holds the
// start position) is no part of the book.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "book/dag.hpp"
#include "core/board.hpp"
#include "core/types.hpp"

namespace epdd::book {

// A move's SAN in 8 bytes, as a book keeps one a node (SAN is at most 7 characters: "exd8=Q#",
// "Qa1xb2+"; a longer text is cut, which core's SAN never is).
class SanText {
 public:
  SanText() = default;
  explicit SanText(std::string_view san) { std::copy_n(san.begin(), std::min(san.size(), chars_.size()), chars_.begin()); }
  std::string_view view() const {
    return {chars_.data(), static_cast<std::size_t>(std::find(chars_.begin(), chars_.end(), '\0') - chars_.begin())};
  }

 private:
  std::array<char, 8> chars_{};
};

struct FirstPaths {
  std::vector<NodeId> order;      // the reached nodes: root by root, each breadth first
  std::vector<NodeId> parent;     // by NodeId; Dag::kNoNode for roots and unreached nodes
  std::vector<SanText> san;      // by NodeId: that edge's move in SAN
  std::vector<NodeId> root;       // by NodeId: the root whose walk reached it; kNoNode: unreached
  std::unordered_map<NodeId, std::string> label;  // by root: "start", its name, or "root K"
  bool reached(NodeId n) const { return root[n] != Dag::kNoNode; }
};
// The first paths; `names` names roots other than the start (EpdInputs::names, RootNames); a
// root without a name is "root K", the K-th such root.
FirstPaths first_paths(const Dag& dag, const RootNames* names = nullptr);

// Every node in the order the outputs walk them: node 0 first (whether the book holds it or
// not), then the other nodes of first_paths(dag, names).order, then the nodes no walk reaches
// (anonymous ones), in node order. Dag::renumber(output_order(dag, names)) numbers a book so
// that its outputs read its arrays front to back (its first paths' order is then 0, 1, 2, ...,
// but for node 0 where the book leaves it out and another root's walk reaches it).
std::vector<NodeId> output_order(const Dag& dag, const RootNames* names = nullptr);

// The SAN moves of n's first path from its root, in order (empty for a root).
std::vector<std::string> first_path_moves(const FirstPaths& f, NodeId n);

// A line of SAN moves with move numbers from 1: "1. e4 c5 2. Nf3"; when Black moves first
// (root_side Black) "1... e5 2. Nf3".
std::string numbered_line(const std::vector<std::string>& sans, core::Color root_side);

// The name of a node: a root's label ("start" for node 0); below node 0 the numbered line of its
// first path ("1. e4 c5 2. Nf3"); below another root its label, ": " and the line from it
// ("Sicilian: 1... d6 2. d4"). Empty for a node no walk reached.
std::string first_path_id(const Dag& dag, const FirstPaths& f, NodeId n);

// The ids of f.order's nodes made one after another, each from its parent's (breadth first, a
// node's parent comes before it), where first_path_id walks each node's whole path back to its
// root: for writing every node's id in order. next() takes every node of f.order in turn and
// gives its id (as first_path_id) cut to its first `keep` characters, and the whole length of
// the id. It must be given every node of f.order, in order (a node whose parent it was not
// given, or no longer holds, is an error: std::out_of_range); the view it returns lasts until
// the next call. It holds the nodes whose children may still come (breadth first, the parents
// of the nodes given come in the order they were given): about two levels of the book, their
// texts back to back in one buffer.
class FirstPathIds {
 public:
  FirstPathIds(const Dag& dag, const FirstPaths& f, std::size_t keep);
  std::string_view next(NodeId n, std::size_t& length);

 private:
  struct Id {
    NodeId node;
    std::size_t at;      // its text in texts_, from texts_base_
    std::size_t kept;    // the text's characters kept (at most `keep`)
    std::size_t length;  // the whole id's
    std::size_t plies;   // moves from the root
  };
  std::string_view text(const Id& id) const { return std::string_view(texts_).substr(id.at - texts_base_, id.kept); }
  const Dag& dag_;
  const FirstPaths& f_;
  std::size_t keep_;
  core::Color root_side_ = core::Color::White;
  std::vector<Id> window_;  // the nodes given that may still be a parent, in order, from front_
  std::size_t front_ = 0;
  std::string texts_;         // their texts back to back (the line the children extend)
  std::size_t texts_base_ = 0;  // the offset of texts_[0] among all texts
  std::string shown_;  // a root's id (its label), cut
};

// A node's position as a board, from its own four fields (no path replayed); the start position
// for an anonymous node.
core::Board board_of(const Dag& dag, NodeId n);

// A position's four fields as the outputs write them: en passant only when a capture is legal,
// a Chess960 position's castling in Shredder-FEN (the rooks' files, which marks the variant for
// any reader, as pgn::game_to_epd writes it).
std::string fields_of(const core::Board& board);

}  // namespace epdd::book
