// Growing a book by drop-out expansion (Lincke, "Strategies for the automatic construction of
// opening books", 2000; the form of Fuego's and Benzene's SgBookBuilder): the book is backsolved,
// every node gets an expansion priority beside its value, and the leaf reached by following the
// minimum priority from the root is expanded: its children are added and valued, and the book is
// backsolved again. Engine time goes where the book is both thin and close to the best line.
//
// The definition (tests/unit/book/grow_test.cpp checks it against an oracle written from this
// text):
//   es(ce) = the expected score of the side to move: 1 for a mate it gives, 0 for a mate it gets,
//            else (1 + w) / 2 with w lichess's winning chances of the centipawns clamped to +-1000
//            (annotate::winning_chances): one unit of expected score is worth the same at +0.2
//            and at +5.
//   V(n)   = es of n's backsolved value (book/backsolve.hpp's result of n).
//   d(n,c) = V(n) - es(through(value of c)): how much worse the move to c is than n's best
//            (never below 0).
//   prio(n) = 0 for a leaf with a value that the rules do not decide (it can be expanded);
//             infinite for a leaf without a value or one the rules decide (checkmate, stalemate,
//             insufficient material: nothing to expand), and for an unvalued node;
//             else the minimum over n's moves to a valued child c of
//               alpha * d(n,c) + prio(c) + 1
//             (infinite when there is none). With book_side set, at a node where that side is
//             to move only the first best move counts (with d = 0): the book's own player needs
//             only its best move, the opponent's every reasonable reply (Lincke's asymmetric form).
//   Each step costs at least 1, so the minimum is over lines that never repeat a position: a
//   repetition cycle never helps, and prio is the shortest path to an expandable leaf (computed
//   so, by Dijkstra's algorithm from the leaves up).
//   The leaf to expand: from the root, the move to the child c with the least
//   alpha * d(n,c) + prio(c) + 1 (the first such move in the node's edge order on a tie), until a
//   leaf; none when the root's priority is infinite.
//   Expanding a leaf adds, in order, its children: every legal move (width 0), or the first
//   moves of the engine's `width` best lines of the leaf's own analysis (MultiPV); a child that is
//   already a node of the book (a transposition) gets the edge only, a new child that the rules do
//   not decide is a new position to value (an item, numbered after all items before it).
//   A large alpha makes a move that is worse than the best cost many plies: the growth deepens
//   the best line. A small alpha makes every move about as cheap: the growth widens.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/epd_output.hpp"
#include "core/move.hpp"
#include "uci/analysis.hpp"

namespace epdd::book {

// The expected score of a ce for the side to move, in [0, 1] (see es above).
double expected_score(int ce);

// How a book grows.
struct GrowOptions {
  // The price of a move's loss of expected score, in plies of depth (Fuego's and Benzene's
  // default: 50; one unit is the whole range from lost to won).
  double alpha = 50.0;
  // Children of an expanded leaf: 0, every legal move; W, the first moves of the leaf's W best
  // lines (the engine searches every position with MultiPV W).
  std::size_t width = 0;
  // Lincke's asymmetric book: at this side's nodes only the best move counts.
  std::optional<core::Color> book_side;
};

inline constexpr double kNoPriority = std::numeric_limits<double>::infinity();

// Every node's priority (see the definition above), by NodeId.
std::vector<double> expansion_priorities(const Dag& dag, const Backsolved& values, const GrowOptions& options);

// What the move along edge `e` of node `n` costs with the child's priority: alpha * d(n,c) +
// prio(c) + 1, or kNoPriority where the move does not count.
double priority_through(const Dag& dag, const Backsolved& values, const std::vector<double>& priorities,
                        const GrowOptions& options, NodeId n, EdgeId e);

// The leaf to expand from `root` (see above), or nothing.
std::optional<NodeId> next_to_expand(const Dag& dag, const Backsolved& values, const std::vector<double>& priorities,
                                     const GrowOptions& options, NodeId root);

// One expansion: which leaf, which items it added, and how the root stood before it.
struct GrowRound {
  NodeId leaf = 0;
  std::size_t first_item = 0;  // its items are first_item .. first_item + items - 1
  std::size_t items = 0;
  std::size_t positions = 0;   // of the book after it
  std::optional<int> root_ce;  // before it (the book as the earlier rounds left it)
  std::vector<core::Move> root_line;  // the root's principal line then
};

// A book growing: the book, the positions to value (items, numbered in the order they were
// added: the book's leaves first, then each expansion's new children), the values they were given,
// and the expansions so far. Pure: the caller has the items valued (by the store and the workers)
// and hands each answer in.
class Growth {
 public:
  // `first_items`: the book's leaves to value first, in order; `root`: where growth starts.
  Growth(Dag dag, std::vector<NodeId> first_items, NodeId root, GrowOptions options);

  const Dag& dag() const { return dag_; }
  // The book, taken out (the Growth is then spent).
  Dag take_dag() { return std::move(dag_); }
  NodeId root() const { return root_; }
  const GrowOptions& options() const { return options_; }
  std::size_t item_count() const { return items_.size(); }
  NodeId item_node(std::size_t item) const { return items_[item]; }
  // Item `item`'s answer: the engine's analysis, whose first line's score is the position's
  // value; nullptr (or an analysis without a line) leaves the position without a value.
  void answer(std::size_t item, const uci::Analysis* analysis);
  // Items answered (in any order), and whether every item is.
  std::size_t answered() const { return answered_count_; }
  bool all_answered() const { return answered_count_ == items_.size(); }
  bool is_answered(std::size_t item) const { return answered_[item]; }
  // Expands the next leaf (all items answered first): backsolves, finds the leaf, adds its
  // children and their items. Nothing when no leaf can be expanded. The first call backsolves the
  // whole book; later ones re-solve only the expanded leaf, its new children and its ancestors
  // (children before parents), while the book has no repetition cycle; once it has one, the
  // whole book each time (a cycle's values depend on the line, book/backsolve.hpp).
  std::optional<GrowRound> expand();
  // The values and priorities the last expand() chose by (the book before that expansion), and
  // how many times it backsolved the whole book.
  const Backsolved& solved() const { return solved_; }
  const std::vector<double>& priorities() const { return priorities_; }
  std::size_t full_backsolves() const { return full_backsolves_; }
  const std::vector<GrowRound>& rounds() const { return rounds_; }
  const LeafValues& values() const { return values_; }
  const LeafAnalyses& analyses() const { return analyses_; }

 private:
  std::vector<core::Move> children_moves(NodeId leaf) const;
  // Brings solved_ and priorities_ up to the book as it stands.
  void refresh();
  // Lists in up_ the nodes that reach `n` (n included), each marked in above_ (marks cleared by
  // forget_ancestors: the scratch is never cleared whole, so a round costs its ancestors only).
  void find_ancestors(NodeId n);
  void forget_ancestors();

  Dag dag_;
  NodeId root_;
  GrowOptions options_;
  std::vector<NodeId> items_;
  std::vector<bool> answered_;
  std::size_t answered_count_ = 0;
  LeafValues values_;
  LeafAnalyses analyses_;
  std::vector<GrowRound> rounds_;
  Backsolved solved_;
  std::vector<double> priorities_;
  std::size_t full_backsolves_ = 0;
  bool acyclic_ = false;  // as of the last whole backsolve, kept up since
  std::optional<NodeId> last_leaf_;  // expanded since solved_ was made (nullopt: solve it whole)
  std::vector<NodeId> up_;            // the last expanded leaf's ancestors, while the book is acyclic
  std::vector<char> above_;           // by node: in up_
  std::vector<std::uint32_t> waiting_;  // by node: children in up_ not re-solved yet (0 between rounds)
  std::vector<std::vector<std::pair<NodeId, EdgeId>>> parents_;  // by node: (parent, edge) into it
};

}  // namespace epdd::book
