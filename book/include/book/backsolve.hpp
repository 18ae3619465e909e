// Backsolving: the value of every node of a book from the values of its leaves, by negamax, as
// EPD `ce` integers from the side to move (core::Score's encoding: mate in p plies = 32767 - p,
// mated in p plies = -(32767 - p)).
//
// The definition (what every result below means; tests/unit/book/backsolve_test.cpp checks it
// against a plain recursion written from this text):
//   value(n, P), for a node n and the set P of positions on the line that led to it (n included):
//   - a terminal node (checkmate, stalemate, insufficient material) is worth what the rules say,
//     edges or not: checkmated -32767, the others 0; complete.
//   - a leaf (no edges) is worth its given value; without one it is unvalued and incomplete.
//   - otherwise each edge to a child c contributes:
//       c in P (the move repeats a position of the line: a repetition cycle):  0, complete;
//       else through(value(c, P + {c})), or nothing when that is unvalued;
//     the value is the greatest contribution (none: unvalued), the best moves every edge whose
//     contribution equals it (in edge order), and the node is incomplete when any edge not into P
//     leads to an incomplete child.
//   - through(v) = -v, except that a mate loses one ply per level: a child's 32767 - p is
//     -(32767 - (p + 1)) for the parent and a child's -(32767 - p) is 32767 - (p + 1). A mate too
//     long for the encoding (more than 766 plies) ends at -32000/32000, the centipawn clamp.
//   The result of node n is value(n, {n}): the game from n on in which returning to any position
//   already on the line is a draw. It depends on the graph only, never on the order of the input.
//
// How it is computed: Tarjan's strongly connected components (iterative), handled sinks first,
// so every edge leaving a component leads to a finished node. A node outside any cycle takes the
// maximum over its children's results (no child can reach it back, so P does not matter). For a
// node inside a cycle's component the definition is evaluated literally: a search over the simple
// paths inside the component from that node, with edges leaving the component taking their
// finished results. That search is exponential in the component's size (the definition is a
// path-dependent game: no shortcut gives it in general); the repetitions of opening books make
// components of a few nodes, but a large book holds tangles of repetitions (tens of nodes, tens
// of millions of simple paths). A component whose plain search goes over
// BacksolveOptions::plain_steps edge visits is searched again by alpha-beta over the same simple
// paths (the same values: only lines that cannot change a result are skipped; every best move of
// the node searched is still found, ties included), with each node's incomplete mark from one
// walk of what its lines reach: a node is incomplete exactly when a line from it reaches, without
// repeating, a node with an edge to an unvalued or incomplete node off the line. If that search
// takes more than BacksolveOptions::max_component_steps steps (edge visits, the walks' included),
// the plain search runs once more with that limit, so a component is solved whenever the plain
// search alone would solve it. One solved by neither is not solved: its nodes come out unvalued
// and incomplete (their parents then incomplete, as for any unvalued node) and
// Backsolved::components_unsolved counts it, so it is never silently wrong.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "book/dag.hpp"
#include "core/move.hpp"
#include "core/score.hpp"

namespace epdd::book {

// A node's value through the move that leads to it, for the parent (the definition's through).
int ce_through_move(int child_ce);

// A leaf's value; a leaf absent from the map is unvalued. Values given for nodes with edges or
// for terminal nodes are not used (those are computed).
using LeafValues = std::unordered_map<NodeId, core::Score>;

// One node's result (see the definition at the top of this file): 32 bytes, its best moves held
// by the Backsolved it belongs to.
struct NodeValue {
  std::optional<int> ce;                    // nullopt: unvalued
  std::span<const core::Move> best_moves;  // every move achieving ce, in edge order
  bool incomplete = false;                  // some leaf below lacks a value
};

// Where the nodes' best moves are kept, each node's together, in blocks that never move (a
// vector of moves by node would cost 24 bytes and an allocation a node).
class MoveStore {
 public:
  std::span<const core::Move> add(std::span<const core::Move> moves);
  std::size_t bytes() const { return blocks_.size() * kBlock * sizeof(core::Move); }
  // Where the store stands, and back to it: what was added since is gone (its spans with it).
  struct Mark {
    std::size_t blocks = 0;
    std::size_t used = 0;
  };
  Mark mark() const { return {blocks_.size(), used_}; }
  void rewind(Mark mark);

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 12;
  std::vector<std::unique_ptr<core::Move[]>> blocks_;
  std::size_t used_ = 0;  // in the last block
};

// Every node's result, and what the search met on the way. Move-only: the nodes' best moves
// point into its store.
struct Backsolved {
  std::vector<NodeValue> nodes;  // by NodeId
  std::size_t components_with_cycles = 0;  // strongly connected components of more than one node
  std::size_t components_unsolved = 0;     // over the step limit: their nodes left unvalued
  MoveStore best_move_store;

  Backsolved() = default;
  Backsolved(Backsolved&&) = default;
  Backsolved& operator=(Backsolved&&) = default;
  Backsolved(const Backsolved&) = delete;
  Backsolved& operator=(const Backsolved&) = delete;
  // The bytes it holds, for the benches.
  std::size_t bytes() const { return nodes.capacity() * sizeof(NodeValue) + best_move_store.bytes(); }
};

// Limits of the search (see "How it is computed" above).
struct BacksolveOptions {
  // Edge visits allowed to the searches of one strongly connected component (all its nodes).
  std::uint64_t max_component_steps = 50'000'000;
  // Edge visits of the plain search of a component with a cycle before alpha-beta takes over
  // (0: alpha-beta from the start).
  std::uint64_t plain_steps = 1'000'000;
};

// Backsolves every node of the book (see the definition above).
Backsolved backsolve(const Dag& dag, const LeafValues& leaves, const BacksolveOptions& options = {});

// Solves node n again in place, for a node outside every cycle whose children's results in
// `values` are final (a terminal node or a leaf from the rules or `leaves`): the result backsolve
// gives it. (A growing book re-solves only the ancestors of the leaf it expanded, book/grow.hpp.)
void solve_outside_cycles(const Dag& dag, const LeafValues& leaves, Backsolved& values, NodeId n);

// The principal line from `from`: the first best move of each node in turn, until a node without
// best moves (a leaf, terminal or unvalued) or a position already on the line (the move back
// into it is the line's last); at most `max_plies` moves.
std::vector<core::Move> principal_line(const Dag& dag, const Backsolved& values, NodeId from = 0,
                                       std::size_t max_plies = std::numeric_limits<std::size_t>::max());
// The same line with the node each move reaches, into `steps` (emptied first; a caller that
// walks a line from every node of a book keeps one list for them all).
struct LineStep {
  core::Move move;
  NodeId to = 0;
};
void principal_steps(const Dag& dag, const Backsolved& values, NodeId from, std::size_t max_plies,
                     std::vector<LineStep>& steps);

// The strongly connected components of the book's graph, sinks first (every edge leaving a
// component leads to one listed before it): Tarjan's algorithm without recursion.
// Flat, for a million nodes: component c holds nodes[begin[c]] .. nodes[begin[c + 1] - 1].
struct Components {
  std::vector<std::uint32_t> component_of;  // by NodeId
  std::vector<NodeId> nodes;                // grouped by component, sinks first
  std::vector<std::uint32_t> begin;         // one more than the number of components
  std::size_t count() const { return begin.empty() ? 0 : begin.size() - 1; }
};
Components strongly_connected_components(const Dag& dag);

}  // namespace epdd::book
