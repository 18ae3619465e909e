// Backsolving a book: the definition of book/backsolve.hpp, evaluated component by component.
#include "book/backsolve.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace epdd::book {

int ce_through_move(int child_ce) {
  if (child_ce > core::Score::kCeMateThreshold) return -(child_ce - 1);   // parent mated a ply later
  if (child_ce < -core::Score::kCeMateThreshold) return -child_ce - 1;    // parent mates a ply later
  return -child_ce;
}

namespace {

// A value with its incomplete mark, as one edge hands it to its parent.
struct Contribution {
  std::optional<int> ce;
  bool incomplete = false;
};

// Bounds outside every ce, for open windows.
constexpr int kInfinity = 1'000'000;

// The window a child gets for its parent's (alpha, beta), through is non-increasing: a child
// value at most child_alpha(beta) gives the parent at least beta (a cut), one at least
// child_beta(alpha) gives it at most alpha (no gain).
int child_alpha(int beta) {
  if (beta >= kInfinity || ce_through_move(-core::Score::kCeMate) < beta) return -kInfinity;
  int lo = -core::Score::kCeMate, hi = core::Score::kCeMate;  // through(lo) >= beta
  if (ce_through_move(hi) >= beta) return hi;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (ce_through_move(mid) >= beta ? lo : hi) = mid;
  }
  return lo;
}

int child_beta(int alpha) {
  if (alpha <= -kInfinity || ce_through_move(core::Score::kCeMate) > alpha) return kInfinity;
  int lo = -core::Score::kCeMate, hi = core::Score::kCeMate;  // through(hi) <= alpha
  if (ce_through_move(lo) <= alpha) return lo;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    (ce_through_move(mid) <= alpha ? hi : lo) = mid;
  }
  return hi;
}

// Terminal nodes and leaves: what the rules or the given values say; nullopt for the others.
std::optional<Contribution> base_of(const Dag& dag, const LeafValues& leaves, NodeId n) {
  switch (dag.node(n).terminal) {
    case Terminal::Checkmate: return Contribution{core::Score::mate_in_plies(0).to_ce(), false};
    case Terminal::Stalemate:
    case Terminal::InsufficientMaterial: return Contribution{0, false};
    case Terminal::None: break;
  }
  if (!dag.is_leaf(n)) return std::nullopt;
  auto it = leaves.find(n);
  if (it == leaves.end()) return Contribution{std::nullopt, true};
  return Contribution{it->second.to_ce(), false};
}

class Solver {
 public:
  Solver(const Dag& dag, const LeafValues& leaves, const BacksolveOptions& options)
      : dag_(dag), leaves_(leaves), options_(options), on_path_(dag.node_count(), 0) {
    out_.nodes.resize(dag.node_count());
  }

  Backsolved run() {
    const Components comps = strongly_connected_components(dag_);
    component_of_ = &comps.component_of;
    for (std::size_t c = 0; c < comps.count(); ++c) {
      const std::uint32_t size = comps.begin[c + 1] - comps.begin[c];
      const std::uint64_t limit = options_.max_component_steps;
      const std::uint64_t plain = size == 1 ? limit : std::min(options_.plain_steps, limit);
      if (size > 1) ++out_.components_with_cycles;
      if (solve_component(comps, c, Mode::Plain, plain)) continue;
      if (size > 1 && solve_component(comps, c, Mode::Pruned, limit)) continue;
      if (plain < limit && solve_component(comps, c, Mode::Plain, limit)) continue;
      ++out_.components_unsolved;
      for (std::uint32_t j = comps.begin[c]; j < comps.begin[c + 1]; ++j)
        out_.nodes[comps.nodes[j]] = NodeValue{std::nullopt, {}, true};
    }
    // The best moves laid out again node after node: they were stored in the order the nodes
    // were solved, and every output reads them in node order (a book numbered in its outputs'
    // order reads them front to back).
    MoveStore ordered;
    for (NodeValue& v : out_.nodes)
      if (!v.best_moves.empty()) v.best_moves = ordered.add(v.best_moves);
    out_.best_move_store = std::move(ordered);
    return std::move(out_);
  }

 private:
  // Plain: every simple path. Pruned: alpha-beta over the same paths, the incomplete mark
  // from a walk (see book/backsolve.hpp).
  enum class Mode { Plain, Pruned };

  struct Frame {
    NodeId node;
    EdgeId via;     // the edge that led here (unused for the search's root)
    EdgeId cursor;  // the next edge to look at
    std::optional<int> best;
    bool incomplete = false;      // Plain only
    int alpha = -kInfinity;       // Pruned only: the window, from this node's side
    int beta = kInfinity;
  };

  // Every node of component c, within `limit` steps for them all; false when over it.
  bool solve_component(const Components& comps, std::size_t c, Mode mode, std::uint64_t limit) {
    mode_ = mode;
    limit_ = limit;
    steps_ = 0;
    // A search that gives up is tried again (or its nodes left unvalued): the best moves its
    // solved nodes stored are taken back, so that a retry does not store them twice.
    const MoveStore::Mark mark = out_.best_move_store.mark();
    for (std::uint32_t i = comps.begin[c]; i < comps.begin[c + 1]; ++i)
      if (!solve(comps.nodes[i])) {
        for (std::uint32_t j = comps.begin[c]; j < i; ++j) out_.nodes[comps.nodes[j]].best_moves = {};
        out_.best_move_store.rewind(mark);
        return false;
      }
    return true;
  }

  std::optional<Contribution> base(NodeId n) const { return base_of(dag_, leaves_, n); }

  // What edge e of a frame gets: 0 into the line, a finished node's result, or a base value;
  // nullopt when the child must be searched (inside the component, not on the line).
  std::optional<Contribution> known(NodeId from, NodeId child) const {
    if (on_path_[child]) return Contribution{0, false};
    if (auto b = base(child)) return through(*b);
    if ((*component_of_)[child] != (*component_of_)[from]) {
      const NodeValue& v = out_.nodes[child];
      return through(Contribution{v.ce, v.incomplete});
    }
    return std::nullopt;
  }

  static Contribution through(Contribution c) {
    if (c.ce) c.ce = ce_through_move(*c.ce);
    return c;
  }

  void apply(Frame& f, EdgeId e, const Contribution& c) {
    if (!c.ce) {
      f.incomplete = true;
    } else {
      f.best = f.best ? std::max(*f.best, *c.ce) : *c.ce;
      f.incomplete = f.incomplete || c.incomplete;
      if (mode_ == Mode::Pruned && frames_.size() > 1) {
        f.alpha = std::max(f.alpha, *f.best);
        if (*f.best >= f.beta) f.cursor = kNoEdge;  // the parent will not take this line
      }
    }
    if (frames_.size() == 1) root_edges_.emplace_back(e, c.ce);
  }

  // Pruned mode: whether value(n, {n}) is incomplete. It is when some node that a line from n
  // reaches without repeating (inside the component, terminal nodes not walked through) has an
  // edge to an unvalued or incomplete node outside the line; every node inside the component
  // reached that way has a value. Steps count its edge visits; nullopt when over the limit.
  std::optional<bool> incomplete_from(NodeId n) {
    const std::uint32_t comp = (*component_of_)[n];
    if (seen_.size() != dag_.node_count()) seen_.assign(dag_.node_count(), 0);
    if (++stamp_ == 0) {
      std::fill(seen_.begin(), seen_.end(), 0);
      stamp_ = 1;
    }
    seen_[n] = stamp_;
    walk_.assign(1, n);
    bool incomplete = false;
    while (!walk_.empty()) {
      const NodeId v = walk_.back();
      walk_.pop_back();
      for (EdgeId e : dag_.edges_of(v)) {
        if (++steps_ > limit_) return std::nullopt;
        const NodeId w = dag_.edge(e).child;
        if (w == n) continue;
        if (auto b = base(w)) {
          incomplete = incomplete || b->incomplete;
        } else if ((*component_of_)[w] != comp) {
          incomplete = incomplete || out_.nodes[w].incomplete || !out_.nodes[w].ce;
        } else if (seen_[w] != stamp_) {
          seen_[w] = stamp_;
          walk_.push_back(w);
        }
      }
    }
    return incomplete;
  }

  // Enters `child` through the top frame's current edge.
  void enter(EdgeId e, NodeId child) {
    Frame& f = frames_.back();
    Frame next{child, e, dag_.node(child).first_edge, std::nullopt, false};
    if (mode_ == Mode::Pruned) {
      // The root keeps ties exact (every best move is listed); other nodes only need to know
      // whether a move beats alpha.
      const int alpha = frames_.size() == 1 ? (f.best ? *f.best - 1 : -kInfinity) : f.alpha;
      next.alpha = child_alpha(frames_.size() == 1 ? kInfinity : f.beta);
      next.beta = child_beta(alpha);
    }
    on_path_[child] = 1;
    frames_.push_back(next);
  }

  // value(n, {n}) by a search over the simple paths inside n's component; false when the
  // component's search went over the limit.
  bool solve(NodeId n) {
    NodeValue& result = out_.nodes[n];
    result = NodeValue{};
    if (auto b = base(n)) {
      result.ce = b->ce;
      result.incomplete = b->incomplete;
      return true;
    }
    std::optional<bool> pruned_incomplete;
    if (mode_ == Mode::Pruned && !(pruned_incomplete = incomplete_from(n))) return false;
    root_edges_.clear();
    frames_.push_back({n, kNoEdge, dag_.node(n).first_edge, std::nullopt, false});
    on_path_[n] = 1;
    while (true) {
      Frame& f = frames_.back();
      if (f.cursor != kNoEdge) {
        if (++steps_ > limit_) return give_up();
        const EdgeId e = f.cursor;
        const NodeId child = dag_.edge(e).child;
        f.cursor = dag_.edge(e).next;
        if (auto c = known(f.node, child))
          apply(f, e, *c);
        else
          enter(e, child);  // invalidates f
        continue;
      }
      const Frame done = f;
      frames_.pop_back();
      on_path_[done.node] = 0;
      if (frames_.empty()) {
        result.ce = done.best;
        result.incomplete = pruned_incomplete ? *pruned_incomplete : done.incomplete;
        break;
      }
      apply(frames_.back(), done.via, through(Contribution{done.best, done.incomplete || !done.best}));
    }
    if (result.ce) {
      best_.clear();
      for (const auto& [e, ce] : root_edges_)
        if (ce == result.ce) best_.push_back(dag_.edge(e).move);
      result.best_moves = out_.best_move_store.add(best_);
    }
    return true;
  }

  bool give_up() {
    for (const Frame& f : frames_) on_path_[f.node] = 0;
    frames_.clear();
    return false;
  }

  const Dag& dag_;
  const LeafValues& leaves_;
  BacksolveOptions options_;
  Mode mode_ = Mode::Plain;
  std::uint64_t limit_ = 0;
  std::uint64_t steps_ = 0;
  const std::vector<std::uint32_t>* component_of_ = nullptr;
  std::vector<char> on_path_;
  std::vector<Frame> frames_;
  std::vector<std::pair<EdgeId, std::optional<int>>> root_edges_;
  // Pruned mode's walk for the incomplete mark: the nodes met (this walk's stamp), its stack.
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
  std::vector<NodeId> walk_;
  std::vector<core::Move> best_;  // solve()'s best moves before they are stored
  Backsolved out_;
};

}  // namespace

void MoveStore::rewind(Mark mark) {
  blocks_.resize(mark.blocks);
  used_ = mark.used;
}

std::span<const core::Move> MoveStore::add(std::span<const core::Move> moves) {
  if (moves.empty()) return {};
  if (blocks_.empty() || used_ + moves.size() > kBlock) {  // (a moved-from store has no block)
    blocks_.push_back(std::make_unique<core::Move[]>(std::max(kBlock, moves.size())));
    used_ = 0;
  }
  core::Move* const at = blocks_.back().get() + used_;
  std::copy(moves.begin(), moves.end(), at);
  used_ += moves.size();
  return {at, moves.size()};
}

void solve_outside_cycles(const Dag& dag, const LeafValues& leaves, Backsolved& values, NodeId n) {
  NodeValue& result = values.nodes[n];
  result = NodeValue{};
  if (const auto b = base_of(dag, leaves, n)) {
    result.ce = b->ce;
    result.incomplete = b->incomplete;
    return;
  }
  // The definition for a node no child can lead back to: every edge contributes its child's
  // result through the move (an edge into the line is impossible).
  const auto contribution = [&](NodeId c) {
    const auto b = base_of(dag, leaves, c);
    std::optional<int> ce = b ? b->ce : values.nodes[c].ce;
    return Contribution{ce ? std::optional(ce_through_move(*ce)) : std::nullopt, b ? b->incomplete : values.nodes[c].incomplete};
  };
  for (const EdgeId e : dag.edges_of(n)) {
    const Contribution c = contribution(dag.edge(e).child);
    if (!c.ce) {
      result.incomplete = true;
      continue;
    }
    result.ce = result.ce ? std::max(*result.ce, *c.ce) : *c.ce;
    result.incomplete = result.incomplete || c.incomplete;
  }
  if (!result.ce) return;
  std::vector<core::Move> best;
  for (const EdgeId e : dag.edges_of(n))
    if (contribution(dag.edge(e).child).ce == result.ce) best.push_back(dag.edge(e).move);
  result.best_moves = values.best_move_store.add(best);
}

Backsolved backsolve(const Dag& dag, const LeafValues& leaves, const BacksolveOptions& options) {
  return Solver(dag, leaves, options).run();
}

void principal_steps(const Dag& dag, const Backsolved& values, NodeId from, std::size_t max_plies,
                     std::vector<LineStep>& steps) {
  steps.clear();
  // The positions of the line: a list while it is short (every EPD record of a book asks for
  // its line: no allocation a call), a set beyond.
  constexpr std::size_t kListed = 32;
  std::array<NodeId, kListed> listed{from};
  std::size_t listed_count = 1;
  std::unordered_set<NodeId> seen;
  const auto first_visit = [&](NodeId n) {
    if (listed_count < kListed) {
      if (std::find(listed.begin(), listed.begin() + static_cast<std::ptrdiff_t>(listed_count), n) !=
          listed.begin() + static_cast<std::ptrdiff_t>(listed_count))
        return false;
      listed[listed_count++] = n;
      return true;
    }
    if (seen.empty()) seen.insert(listed.begin(), listed.end());
    return seen.insert(n).second;
  };
  NodeId at = from;
  while (steps.size() < max_plies && !values.nodes[at].best_moves.empty()) {
    const core::Move m = values.nodes[at].best_moves.front();
    for (EdgeId e : dag.edges_of(at))
      if (dag.edge(e).move == m) {
        at = dag.edge(e).child;
        break;
      }
    steps.push_back({m, at});
    if (!first_visit(at)) break;
  }
}

std::vector<core::Move> principal_line(const Dag& dag, const Backsolved& values, NodeId from, std::size_t max_plies) {
  std::vector<LineStep> steps;
  principal_steps(dag, values, from, max_plies, steps);
  std::vector<core::Move> line;
  line.reserve(steps.size());
  for (const LineStep& s : steps) line.push_back(s.move);
  return line;
}

}  // namespace epdd::book
