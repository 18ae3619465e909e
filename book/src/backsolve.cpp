// Backsolving a book: the definition of book/backsolve.hpp, evaluated component by component.
#include "book/backsolve.hpp"

#include <algorithm>
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
      if (comps.begin[c + 1] - comps.begin[c] > 1) ++out_.components_with_cycles;
      steps_ = 0;
      for (std::uint32_t i = comps.begin[c]; i < comps.begin[c + 1]; ++i) {
        if (solve(comps.nodes[i])) continue;
        ++out_.components_unsolved;
        for (std::uint32_t j = comps.begin[c]; j < comps.begin[c + 1]; ++j)
          out_.nodes[comps.nodes[j]] = NodeValue{std::nullopt, {}, true};
        break;
      }
    }
    return std::move(out_);
  }

 private:
  struct Frame {
    NodeId node;
    EdgeId via;     // the edge that led here (unused for the search's root)
    EdgeId cursor;  // the next edge to look at
    std::optional<int> best;
    bool incomplete = false;
  };

  // Terminal nodes and leaves: what the rules or the given values say; nullopt for the others.
  std::optional<Contribution> base(NodeId n) const {
    switch (dag_.node(n).terminal) {
      case Terminal::Checkmate: return Contribution{core::Score::mate_in_plies(0).to_ce(), false};
      case Terminal::Stalemate:
      case Terminal::InsufficientMaterial: return Contribution{0, false};
      case Terminal::None: break;
    }
    if (!dag_.is_leaf(n)) return std::nullopt;
    auto it = leaves_.find(n);
    if (it == leaves_.end()) return Contribution{std::nullopt, true};
    return Contribution{it->second.to_ce(), false};
  }

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
    }
    if (frames_.size() == 1) root_edges_.emplace_back(e, c.ce);
  }

  // value(n, {n}) by a search over the simple paths inside n's component; false when the
  // component's search went over options_.max_component_steps.
  bool solve(NodeId n) {
    NodeValue& result = out_.nodes[n];
    if (auto b = base(n)) {
      result.ce = b->ce;
      result.incomplete = b->incomplete;
      return true;
    }
    root_edges_.clear();
    frames_.push_back({n, kNoEdge, dag_.node(n).first_edge, std::nullopt, false});
    on_path_[n] = 1;
    while (true) {
      Frame& f = frames_.back();
      if (f.cursor != kNoEdge) {
        if (++steps_ > options_.max_component_steps) return give_up();
        const EdgeId e = f.cursor;
        const NodeId child = dag_.edge(e).child;
        f.cursor = dag_.edge(e).next;
        if (auto c = known(f.node, child)) {
          apply(f, e, *c);
        } else {
          on_path_[child] = 1;
          frames_.push_back({child, e, dag_.node(child).first_edge, std::nullopt, false});
        }
        continue;
      }
      const Frame done = f;
      frames_.pop_back();
      on_path_[done.node] = 0;
      if (frames_.empty()) {
        result.ce = done.best;
        result.incomplete = done.incomplete;
        break;
      }
      apply(frames_.back(), done.via, through(Contribution{done.best, done.incomplete || !done.best}));
    }
    if (result.ce)
      for (const auto& [e, ce] : root_edges_)
        if (ce == result.ce) result.best_moves.push_back(dag_.edge(e).move);
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
  std::uint64_t steps_ = 0;
  const std::vector<std::uint32_t>* component_of_ = nullptr;
  std::vector<char> on_path_;
  std::vector<Frame> frames_;
  std::vector<std::pair<EdgeId, std::optional<int>>> root_edges_;
  Backsolved out_;
};

}  // namespace

Backsolved backsolve(const Dag& dag, const LeafValues& leaves, const BacksolveOptions& options) {
  return Solver(dag, leaves, options).run();
}

std::vector<core::Move> principal_line(const Dag& dag, const Backsolved& values, NodeId from) {
  std::vector<core::Move> line;
  std::unordered_set<NodeId> seen{from};
  NodeId at = from;
  while (!values.nodes[at].best_moves.empty()) {
    const core::Move m = values.nodes[at].best_moves.front();
    for (EdgeId e : dag.edges_of(at))
      if (dag.edge(e).move == m) {
        at = dag.edge(e).child;
        break;
      }
    line.push_back(m);
    if (!seen.insert(at).second) break;
  }
  return line;
}

}  // namespace epdd::book
