#include "book/first_paths.hpp"

#include <charconv>
#include <optional>
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
  Walks(const Dag& dag, Paths& paths) : dag_(dag), paths_(paths) {}

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
        if (paths_.reached(edge.child) || !dag_.key(edge.child)) continue;
        paths_.reach(n, edge.child, edge.move, board_of_n);
        queue_.push_back(edge.child);
      }
    }
  }

  const Dag& dag_;
  Paths& paths_;
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
  if (dag.node_count() > 0 && !paths.seen[0]) {  // (first, in the book or not)
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
  if (n == root) {  // a new walk
    previous_.clear();
    current_.clear();
    Id& id = current_[n];
    const std::string& label = f_.label.at(root);
    id.text = root == 0 ? std::string() : label + ": ";
    id.length = id.text.size();
    id.root_side = dag_.key(root)->side;
    id.shown = label.substr(0, keep_);
    length = label.size();
    return id.shown;
  }
  const NodeId parent = f_.parent[n];
  if (current_.count(parent)) {  // the first node of a new level
    previous_.swap(current_);
    current_.clear();
  }
  const Id& above = previous_.at(parent);
  Id& id = current_[n];
  id.root_side = above.root_side;
  id.plies = above.plies + 1;
  id.text = above.text;
  id.length = above.length;
  std::string move;
  append_numbered_move(move, above.plies, above.root_side, f_.san[n].view());
  id.length += move.size();
  if (id.text.size() < keep_) id.text += move;
  length = id.length;
  return std::string_view(id.text).substr(0, keep_);
}

}  // namespace epdd::book
