// The first path to every node of a book: breadth first from the root (node 0), a node's edges
// in the order its moves arrived, so a node is first reached at its shortest path and, among
// paths of equal length, the earliest. Every output that names a node by a line of moves (the
// EPD `id`, the PGN's transposition comments, the contradictions report) names it by this path,
// so the names agree across outputs.
#pragma once

#include <string>
#include <vector>

#include "book/dag.hpp"
#include "core/board.hpp"
#include "core/types.hpp"

namespace epdd::book {

// Where each node was first reached breadth first from the root: its parent, the edge from it
// and the SAN of that edge's move; the reached nodes in that order. Anonymous nodes (no
// position) are never reached; an empty book or one whose root is anonymous reaches nothing.
struct FirstPaths {
  std::vector<NodeId> order;      // the root first, then by ply
  std::vector<NodeId> parent;     // by NodeId; Dag::kNoNode for the root and unreached nodes
  std::vector<EdgeId> edge;       // by NodeId: the edge of the first arrival; kNoEdge as parent
  std::vector<std::string> san;   // by NodeId: that edge's move in SAN
  std::vector<bool> reached;      // by NodeId
};
FirstPaths first_paths(const Dag& dag);

// The SAN moves of n's first path from the root, in order (empty for the root).
std::vector<std::string> first_path_moves(const FirstPaths& f, NodeId n);

// A line of SAN moves with move numbers from 1: "1. e4 c5 2. Nf3"; when Black moves first
// (root_side Black) "1... e5 2. Nf3".
std::string numbered_line(const std::vector<std::string>& sans, core::Color root_side);

// The EPD `id` of a node: "start" for the root, else numbered_line of its first path.
std::string first_path_id(const FirstPaths& f, NodeId n, core::Color root_side);

// A node's position as a board, from its own four fields (no path replayed); the start position
// for an anonymous node.
core::Board board_of(const Dag& dag, NodeId n);

}  // namespace epdd::book
