#include "book/first_paths.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "core/fen.hpp"
#include "core/notation.hpp"

namespace epdd::book {

namespace {

// The walks that define the first paths (see the header), for any record of them: `Paths` says
// which nodes are reached and is told of each walk's root (`root(n, label)`, the label made
// only when asked: `label()`), of each node reached from its parent (`reach(parent, child,
// move, board)`, `board()` the parent's position, made only when asked), and of each node in
// walk order (`visit(n)`).
template <class Paths>
class Walks {
 public:
  Walks(const Dag& dag, Paths& paths) : dag_(dag), paths_(paths), all_positions_(dag.all_positions()) {}

  void all(const RootNames* names) {
    if (dag_.node_count() == 0) return;
    const auto named = [&](NodeId n) { return names && names->count(n) > 0; };
    if (dag_.key(0) && (!dag_.is_leaf(0) || dag_.node_count() == 1 || named(0))) walk_from(0, [] { return std::string("start"); });
    std::size_t unnamed = 0;
    for (int pass = 0; pass < 2; ++pass)
      for (NodeId n = 1; n < dag_.node_count(); ++n) {
        if (paths_.reached(n) || !dag_.key(n) || (pass == 0 && dag_.node(n).parents > 0)) continue;
        const std::size_t k = named(n) ? 0 : ++unnamed;
        walk_from(n, [&] { return k == 0 ? names->at(n) : "root " + std::to_string(k); });
      }
  }

 private:
  // Adds the nodes `from` reaches that no earlier walk reached, breadth first.
  template <class Label>
  void walk_from(NodeId from, const Label& label) {
    queue_.assign(1, from);
    paths_.root(from, label);
    for (std::size_t next = 0; next < queue_.size(); ++next) {
      const NodeId n = queue_[next];
      paths_.visit(n);
      if (dag_.is_leaf(n)) continue;
      std::optional<core::Board> board;
      const auto board_of_n = [&]() -> const core::Board& { return board ? *board : board.emplace(board_of(dag_, n)); };
      for (EdgeId e : dag_.edges_of(n)) {
        const Edge& edge = dag_.edge(e);
        if (paths_.reached(edge.child) || (!all_positions_ && !dag_.key(edge.child))) continue;
        paths_.reach(n, edge.child, edge.move, board_of_n);
        queue_.push_back(edge.child);
      }
    }
  }

  const Dag& dag_;
  Paths& paths_;
  const bool all_positions_;  // (no child to ask whether it is a position)
  std::vector<NodeId> queue_;
};

// The first paths whole: order, parents, SAN, roots and labels.
struct AllOfIt {
  FirstPaths& f;
  bool reached(NodeId n) const { return f.reached(n); }
  template <class Label>
  void root(NodeId n, const Label& label) {
    f.root[n] = n;
    f.label[n] = label();
  }
  template <class Board>
  void reach(NodeId parent, NodeId child, core::Move move, const Board& board) {
    f.root[child] = f.root[parent];
    f.parent[child] = parent;
    f.san[child] = SanText(core::to_san(board(), move));
  }
  void visit(NodeId n) { f.order.push_back(n); }
};

// The order alone.
struct OrderOnly {
  std::vector<char> seen;
  std::vector<NodeId> order;
  bool reached(NodeId n) const { return seen[n] != 0; }
  template <class Label>
  void root(NodeId n, const Label&) {
    seen[n] = 1;
  }
  template <class Board>
  void reach(NodeId, NodeId child, core::Move, const Board&) {
    seen[child] = 1;
  }
  void visit(NodeId n) { order.push_back(n); }
};

}  // namespace

core::Board board_of(const Dag& dag, NodeId n) {
  const PositionKey* key = dag.key(n);
  return key ? key->board() : core::Board();
}

std::string fields_of(const core::Board& board) {
  core::FenWriteOptions options;
  options.ep_only_if_capturable = true;
  if (board.chess960()) options.castling = core::CastlingNotation::Shredder;
  return core::to_epd_position(board, options);
}

FirstPaths first_paths(const Dag& dag, const RootNames* names) {
  FirstPaths f;
  f.parent.assign(dag.node_count(), Dag::kNoNode);
  f.san.resize(dag.node_count());
  f.root.assign(dag.node_count(), Dag::kNoNode);
  AllOfIt paths{f};
  Walks<AllOfIt>(dag, paths).all(names);
  return f;
}

std::vector<NodeId> output_order(const Dag& dag, const RootNames* names) {
  OrderOnly paths{std::vector<char>(dag.node_count(), 0), {}};
  paths.order.reserve(dag.node_count());
  Walks<OrderOnly>(dag, paths).all(names);
  // Node 0 first, in the book or not: its own walk puts it there, but left out of the book (a
  // leaf, unnamed) it may be reached from another root, anywhere in the order.
  if (dag.node_count() > 0 && (paths.order.empty() || paths.order.front() != 0)) {
    if (paths.seen[0]) paths.order.erase(std::find(paths.order.begin(), paths.order.end(), NodeId{0}));
    paths.order.insert(paths.order.begin(), 0);
    paths.seen[0] = 1;
  }
  for (NodeId n = 0; n < dag.node_count(); ++n)
    if (!paths.seen[n]) paths.order.push_back(n);
  return paths.order;
}

std::vector<std::string> first_path_moves(const FirstPaths& f, NodeId n) {
  std::vector<std::string> sans;
  for (NodeId at = n; f.parent[at] != Dag::kNoNode; at = f.parent[at]) sans.emplace_back(f.san[at].view());
  return {sans.rbegin(), sans.rend()};
}

namespace {

// The i-th move of a numbered line (see numbered_line) appended to it: a space before all but
// the first, the number before White's moves and before the first when Black makes it.
void append_numbered_move(std::string& line, std::size_t i, core::Color root_side, std::string_view san) {
  const std::size_t ply = i + (root_side == core::Color::Black ? 1 : 0);
  if (i > 0) line += ' ';
  if (ply % 2 == 0 || i == 0) {
    char number[24];
    line.append(number, std::to_chars(number, number + sizeof number, ply / 2 + 1).ptr);
    line += ply % 2 == 0 ? ". " : "... ";
  }
  line += san;
}

}  // namespace

std::string numbered_line(const std::vector<std::string>& sans, core::Color root_side) {
  std::string line;
  for (std::size_t i = 0; i < sans.size(); ++i) append_numbered_move(line, i, root_side, sans[i]);
  return line;
}

std::string first_path_id(const Dag& dag, const FirstPaths& f, NodeId n) {
  if (!f.reached(n)) return {};
  const NodeId root = f.root[n];
  const std::string& label = f.label.at(root);
  if (n == root) return label;
  const std::string line = numbered_line(first_path_moves(f, n), dag.key(root)->side);
  return root == 0 ? line : label + ": " + line;
}

FirstPathIds::FirstPathIds(const Dag& dag, const FirstPaths& f, std::size_t keep) : dag_(dag), f_(f), keep_(keep) {}

std::string_view FirstPathIds::next(NodeId n, std::size_t& length) {
  if (!f_.reached(n)) {
    length = 0;
    return {};
  }
  const NodeId root = f_.root[n];
  const std::string& label = f_.label.at(root);
  if (n == root) {  // a new walk: its nodes' lines start with the label
    window_.clear();
    front_ = 0;
    texts_ = root == 0 ? std::string() : label + ": ";
    const std::size_t whole = texts_.size();
    texts_.resize(std::min(whole, keep_));
    texts_base_ = 0;
    root_side_ = dag_.key(root)->side;
    window_.push_back({n, 0, texts_.size(), whole, 0});
    shown_ = label.substr(0, keep_);
    length = label.size();
    return shown_;
  }
  // The parent: the nodes before it in the window will never be one again.
  const NodeId parent = f_.parent[n];
  while (front_ < window_.size() && window_[front_].node != parent) ++front_;
  if (front_ == window_.size()) throw std::out_of_range("FirstPathIds::next: the parent of a node was not given before it");
  const Id above = window_[front_];
  // What the nodes before the front held goes once it is half the buffer.
  if (front_ > 0 && (window_[front_].at - texts_base_) * 2 > texts_.size()) {
    const std::size_t drop = window_[front_].at - texts_base_;
    texts_.erase(0, drop);
    texts_base_ += drop;
    window_.erase(window_.begin(), window_.begin() + static_cast<std::ptrdiff_t>(front_));
    front_ = 0;
  }
  Id id{n, texts_base_ + texts_.size(), 0, 0, above.plies + 1};
  const std::size_t start = texts_.size();
  texts_.append(texts_, above.at - texts_base_, above.kept);
  // (Its move: appended where the kept text is not full yet, always counted.)
  std::string move;
  append_numbered_move(move, above.plies, root_side_, f_.san[n].view());
  id.length = above.length + move.size();
  if (above.kept < keep_) texts_ += move;
  id.kept = std::min(texts_.size() - start, keep_);
  texts_.resize(start + id.kept);
  window_.push_back(id);
  length = id.length;
  return text(window_.back());
}

}  // namespace epdd::book
