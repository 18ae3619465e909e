// Drop-out expansion: the definition of book/grow.hpp.
#include "book/grow.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

#include "annotate/judgement.hpp"
#include "book/first_paths.hpp"
#include "core/notation.hpp"

namespace epdd::book {

double expected_score(int ce) {
  if (ce > core::Score::kCeMateThreshold) return 1.0;
  if (ce < -core::Score::kCeMateThreshold) return 0.0;
  return (1.0 + annotate::winning_chances(std::clamp(ce, -1000, 1000))) / 2.0;
}

namespace {

// The move of edge `e` of `n` is the first of n's edges playing n's first best move.
bool is_first_best(const Dag& dag, const Backsolved& values, NodeId n, EdgeId e) {
  const auto& best = values.nodes[n].best_moves;
  if (best.empty()) return false;
  for (const EdgeId f : dag.edges_of(n))
    if (dag.edge(f).move == best.front()) return f == e;
  return false;
}

bool expandable(const Dag& dag, const Backsolved& values, NodeId n) {
  return dag.is_leaf(n) && dag.node(n).terminal == Terminal::None && values.nodes[n].ce.has_value();
}

}  // namespace

double priority_through(const Dag& dag, const Backsolved& values, const std::vector<double>& priorities,
                        const GrowOptions& options, NodeId n, EdgeId e) {
  const NodeId c = dag.edge(e).child;
  const auto& ce = values.nodes[n].ce;
  const auto& child_ce = values.nodes[c].ce;
  if (!ce || !child_ce || priorities[c] == kNoPriority) return kNoPriority;
  const PositionKey* key = dag.key(n);
  if (options.book_side && key && key->side == *options.book_side)
    return is_first_best(dag, values, n, e) ? priorities[c] + 1.0 : kNoPriority;  // (d = 0)
  const double loss = std::max(0.0, expected_score(*ce) - expected_score(ce_through_move(*child_ce)));
  return options.alpha * loss + priorities[c] + 1.0;
}

std::vector<double> expansion_priorities(const Dag& dag, const Backsolved& values, const GrowOptions& options) {
  const std::size_t n_nodes = dag.node_count();
  // Each node's parents as (parent, edge), flat: parents of c are at begin[c] .. begin[c + 1].
  std::vector<std::uint32_t> begin(n_nodes + 1, 0);
  for (std::size_t e = 0; e < dag.edge_count(); ++e) ++begin[dag.edge(static_cast<EdgeId>(e)).child + 1];
  for (std::size_t i = 0; i < n_nodes; ++i) begin[i + 1] += begin[i];
  std::vector<std::pair<NodeId, EdgeId>> parents(dag.edge_count());
  {
    std::vector<std::uint32_t> at(begin.begin(), begin.end() - 1);
    for (std::size_t n = 0; n < n_nodes; ++n)
      for (const EdgeId e : dag.edges_of(static_cast<NodeId>(n)))
        parents[at[dag.edge(e).child]++] = {static_cast<NodeId>(n), e};
  }
  std::vector<double> prio(n_nodes, kNoPriority);
  using Entry = std::pair<double, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  for (std::size_t n = 0; n < n_nodes; ++n)
    if (expandable(dag, values, static_cast<NodeId>(n))) {
      prio[n] = 0.0;
      queue.emplace(0.0, static_cast<NodeId>(n));
    }
  std::vector<bool> done(n_nodes, false);
  while (!queue.empty()) {
    const auto [p, c] = queue.top();
    queue.pop();
    if (done[c] || p != prio[c]) continue;
    done[c] = true;
    for (std::uint32_t i = begin[c]; i < begin[c + 1]; ++i) {
      const auto [n, e] = parents[i];
      if (done[n]) continue;
      const double through = priority_through(dag, values, prio, options, n, e);
      if (through < prio[n]) {
        prio[n] = through;
        queue.emplace(through, n);
      }
    }
  }
  return prio;
}

std::optional<NodeId> next_to_expand(const Dag& dag, const Backsolved& values, const std::vector<double>& priorities,
                                     const GrowOptions& options, NodeId root) {
  if (priorities[root] == kNoPriority) return std::nullopt;
  NodeId at = root;
  while (!dag.is_leaf(at)) {
    EdgeId best = kNoEdge;
    double least = kNoPriority;
    for (const EdgeId e : dag.edges_of(at))
      if (const double p = priority_through(dag, values, priorities, options, at, e); p < least) least = p, best = e;
    if (best == kNoEdge) return std::nullopt;  // (not reached: a finite priority has such a move)
    at = dag.edge(best).child;
  }
  return at;
}

Growth::Growth(Dag dag, std::vector<NodeId> first_items, NodeId root, GrowOptions options)
    : dag_(std::move(dag)), root_(root), options_(options), items_(std::move(first_items)), answered_(items_.size(), false) {
  parents_.resize(dag_.node_count());
  for (NodeId n = 0; n < dag_.node_count(); ++n)
    for (const EdgeId e : dag_.edges_of(n)) parents_[dag_.edge(e).child].emplace_back(n, e);
}

void Growth::answer(std::size_t item, const uci::Analysis* analysis) {
  if (answered_[item]) return;
  // An answer to a position the last expansion did not add: its ancestors are not the leaf's.
  if (!rounds_.empty() && item < rounds_.back().first_item) last_leaf_.reset();
  answered_[item] = true;
  ++answered_count_;
  const NodeId n = items_[item];
  if (!analysis || analysis->lines.empty()) return;
  values_.insert_or_assign(n, analysis->lines.front().score);
  analyses_.insert_or_assign(n, *analysis);
}

std::vector<core::Move> Growth::children_moves(NodeId leaf) const {
  const core::Board board = board_of(dag_, leaf);
  std::vector<core::Move> moves;
  if (options_.width == 0) {
    for (const core::Move m : board.legal_moves()) moves.push_back(m);
    return moves;
  }
  if (const auto it = analyses_.find(leaf); it != analyses_.end())
    for (const uci::PvLine& line : it->second.lines) {
      if (moves.size() == options_.width) break;
      if (line.pv.empty()) continue;
      const auto m = core::parse_uci(board, line.pv.front(), core::uci_castling_for(board));
      if (m && std::find(moves.begin(), moves.end(), *m) == moves.end()) moves.push_back(*m);
    }
  // An analysis without a line's first move (an engine that printed no pv) widens the leaf to every
  // legal move rather than leaving it a leaf to be chosen again and again.
  if (moves.empty())
    for (const core::Move m : board.legal_moves()) moves.push_back(m);
  return moves;
}

void Growth::find_ancestors(NodeId n) {
  above_.resize(dag_.node_count(), 0);
  up_.assign(1, n);
  above_[n] = 1;
  for (std::size_t i = 0; i < up_.size(); ++i)
    for (const auto& [p, e] : parents_[up_[i]])
      if (!above_[p]) above_[p] = 1, up_.push_back(p);
}

void Growth::forget_ancestors() {
  for (const NodeId n : up_) above_[n] = 0;
  up_.clear();
}

void Growth::refresh() {
  if (!last_leaf_ || !acyclic_) {
    forget_ancestors();
    solved_ = backsolve(dag_, values_);
    priorities_ = expansion_priorities(dag_, solved_, options_);
    acyclic_ = solved_.components_with_cycles == 0;
    ++full_backsolves_;
    return;
  }
  // The new children (leaves, or decided by the rules), then the leaf and its ancestors, each
  // after its children: no other node's value or priority can have changed.
  const std::size_t before = solved_.nodes.size();
  solved_.nodes.resize(dag_.node_count());
  priorities_.resize(dag_.node_count(), kNoPriority);
  for (std::size_t n = before; n < dag_.node_count(); ++n) {
    solve_outside_cycles(dag_, values_, solved_, static_cast<NodeId>(n));
    priorities_[n] = expandable(dag_, solved_, static_cast<NodeId>(n)) ? 0.0 : kNoPriority;
  }
  // (up_ and above_: found as the leaf was expanded.)
  waiting_.resize(dag_.node_count(), 0);
  for (const NodeId n : up_)
    for (const auto& [p, e] : parents_[n]) waiting_[p] += above_[p];
  std::vector<NodeId> ready;
  for (const NodeId n : up_)
    if (waiting_[n] == 0) ready.push_back(n);
  while (!ready.empty()) {
    const NodeId n = ready.back();
    ready.pop_back();
    solve_outside_cycles(dag_, values_, solved_, n);
    double least = kNoPriority;
    for (const EdgeId e : dag_.edges_of(n)) least = std::min(least, priority_through(dag_, solved_, priorities_, options_, n, e));
    priorities_[n] = least;
    for (const auto& [p, e] : parents_[n])
      if (above_[p] && --waiting_[p] == 0) ready.push_back(p);
  }
  forget_ancestors();
}

std::optional<GrowRound> Growth::expand() {
  refresh();
  const auto leaf = next_to_expand(dag_, solved_, priorities_, options_, root_);
  if (!leaf) return std::nullopt;
  GrowRound round;
  round.leaf = *leaf;
  round.first_item = items_.size();
  round.root_ce = solved_.nodes[root_].ce;
  round.root_line = principal_line(dag_, solved_, root_);
  // Its ancestors: a move back to one makes a cycle; while there is none, they are re-solved next.
  if (acyclic_) find_ancestors(*leaf);
  core::Board board = board_of(dag_, *leaf);
  for (const core::Move m : children_moves(*leaf)) {
    board.make_move(m);
    const std::size_t before = dag_.node_count();
    const NodeId child = dag_.add_position(board);
    board.unmake_move();
    const EdgeId e = dag_.add_edge(*leaf, m, child);
    parents_.resize(dag_.node_count());
    parents_[child].emplace_back(*leaf, e);
    if (dag_.node_count() > before) {
      if (dag_.node(child).terminal == Terminal::None) {
        items_.push_back(child);
        answered_.push_back(false);
      }
    } else if (acyclic_ && above_[child]) {
      acyclic_ = false;  // a move back to a position on a line to the leaf: a repetition cycle
    }
  }
  last_leaf_ = *leaf;
  round.items = items_.size() - round.first_item;
  round.positions = dag_.node_count();
  rounds_.push_back(round);
  return round;
}

}  // namespace epdd::book
