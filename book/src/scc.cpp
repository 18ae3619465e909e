// Tarjan's strongly connected components, with an explicit stack (a book of a million nodes
// would overflow the call stack).
#include <algorithm>
#include <limits>

#include "book/backsolve.hpp"

namespace epdd::book {

namespace {

constexpr std::uint32_t kUnvisited = std::numeric_limits<std::uint32_t>::max();

struct Frame {
  NodeId node;
  EdgeId cursor;  // the next edge to look at
};

class Tarjan {
 public:
  explicit Tarjan(const Dag& dag)
      : dag_(dag), index_(dag.node_count(), kUnvisited), low_(dag.node_count(), 0),
        on_stack_(dag.node_count(), 0) {
    out_.component_of.assign(dag.node_count(), 0);
    out_.nodes.reserve(dag.node_count());
    out_.begin.push_back(0);
  }

  Components run() {
    for (NodeId s = 0; s < dag_.node_count(); ++s)
      if (index_[s] == kUnvisited) search(s);
    return std::move(out_);
  }

 private:
  void visit(NodeId n) {
    index_[n] = low_[n] = next_index_++;
    stack_.push_back(n);
    on_stack_[n] = 1;
    frames_.push_back({n, dag_.node(n).first_edge});
  }

  void search(NodeId start) {
    visit(start);
    while (!frames_.empty()) {
      Frame& f = frames_.back();
      if (f.cursor != kNoEdge) {
        const NodeId w = dag_.edge(f.cursor).child;
        const NodeId v = f.node;
        f.cursor = dag_.edge(f.cursor).next;
        if (index_[w] == kUnvisited)
          visit(w);  // invalidates f
        else if (on_stack_[w])
          low_[v] = std::min(low_[v], index_[w]);
        continue;
      }
      const NodeId v = f.node;
      frames_.pop_back();
      if (low_[v] == index_[v]) pop_component(v);
      if (!frames_.empty()) low_[frames_.back().node] = std::min(low_[frames_.back().node], low_[v]);
    }
  }

  void pop_component(NodeId root) {
    const auto id = static_cast<std::uint32_t>(out_.begin.size() - 1);
    NodeId w;
    do {
      w = stack_.back();
      stack_.pop_back();
      on_stack_[w] = 0;
      out_.component_of[w] = id;
      out_.nodes.push_back(w);
    } while (w != root);
    out_.begin.push_back(static_cast<std::uint32_t>(out_.nodes.size()));
  }

  const Dag& dag_;
  std::vector<std::uint32_t> index_;
  std::vector<std::uint32_t> low_;
  std::vector<char> on_stack_;
  std::vector<NodeId> stack_;
  std::vector<Frame> frames_;
  std::uint32_t next_index_ = 0;
  Components out_;
};

}  // namespace

Components strongly_connected_components(const Dag& dag) { return Tarjan(dag).run(); }

}  // namespace epdd::book
