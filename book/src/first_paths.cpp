#include "book/first_paths.hpp"

#include <algorithm>
#include <charconv>
#include <deque>
#include <string_view>

#include "core/fen.hpp"
#include "core/notation.hpp"

namespace epdd::book {

namespace {

// Adds the nodes `from` reaches that no earlier walk reached, breadth first.
void walk_from(const Dag& dag, NodeId from, FirstPaths& f) {
  std::deque<NodeId> queue{from};
  f.root[from] = from;
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    f.order.push_back(n);
    if (dag.is_leaf(n)) continue;
    const core::Board board = board_of(dag, n);
    for (EdgeId e : dag.edges_of(n)) {
      const Edge& edge = dag.edge(e);
      if (f.reached(edge.child) || !dag.key(edge.child)) continue;
      f.root[edge.child] = from;
      f.parent[edge.child] = n;
      f.edge[edge.child] = e;
      f.san[edge.child] = SanText(core::to_san(board, edge.move));
      queue.push_back(edge.child);
    }
  }
}

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
  f.edge.assign(dag.node_count(), kNoEdge);
  f.san.resize(dag.node_count());
  f.root.assign(dag.node_count(), Dag::kNoNode);
  if (dag.node_count() == 0) return f;
  const auto named = [&](NodeId n) { return names && names->count(n) > 0; };
  if (dag.key(0) && (!dag.is_leaf(0) || dag.node_count() == 1 || named(0))) {
    f.label[0] = "start";
    walk_from(dag, 0, f);
  }
  std::size_t unnamed = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (NodeId n = 1; n < dag.node_count(); ++n) {
      if (f.reached(n) || !dag.key(n) || (pass == 0 && dag.node(n).parents > 0)) continue;
      f.label[n] = named(n) ? names->at(n) : "root " + std::to_string(++unnamed);
      walk_from(dag, n, f);
    }
  return f;
}

std::vector<std::string> first_path_moves(const FirstPaths& f, NodeId n) {
  std::vector<std::string> sans;
  for (NodeId at = n; f.parent[at] != Dag::kNoNode; at = f.parent[at]) sans.emplace_back(f.san[at].view());
  return {sans.rbegin(), sans.rend()};
}

namespace {

// numbered_line into `line`, from SAN texts of any kind. (Every EPD record's id passes here: no
// string is made per move.)
template <class Sans>
void append_numbered(std::string& line, const Sans& sans, core::Color root_side) {
  const std::size_t shift = root_side == core::Color::Black ? 1 : 0;
  char number[24];
  for (std::size_t i = 0; i < sans.size(); ++i) {
    const std::size_t ply = i + shift;
    if (!line.empty()) line += ' ';
    if (ply % 2 == 0 || i == 0) {
      line.append(number, std::to_chars(number, number + sizeof number, ply / 2 + 1).ptr);
      line += ply % 2 == 0 ? ". " : "... ";
    }
    line += sans[i];
  }
}

}  // namespace

std::string numbered_line(const std::vector<std::string>& sans, core::Color root_side) {
  std::string line;
  append_numbered(line, sans, root_side);
  return line;
}

std::string first_path_id(const Dag& dag, const FirstPaths& f, NodeId n) {
  if (!f.reached(n)) return {};
  const NodeId root = f.root[n];
  const std::string& label = f.label.at(root);
  if (n == root) return label;
  std::vector<std::string_view> sans;
  for (NodeId at = n; f.parent[at] != Dag::kNoNode; at = f.parent[at]) sans.push_back(f.san[at].view());
  std::reverse(sans.begin(), sans.end());
  std::string line;
  append_numbered(line, sans, dag.key(root)->side);
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
  // As numbered_line: a space between moves, the number before White's moves and before the
  // line's first move when Black makes it.
  std::string move;
  const std::size_t ply = above.plies + (above.root_side == core::Color::Black ? 1 : 0);
  if (above.plies > 0) move += ' ';
  if (ply % 2 == 0 || above.plies == 0) move += std::to_string(ply / 2 + 1) + (ply % 2 == 0 ? ". " : "... ");
  move += f_.san[n].view();
  id.length += move.size();
  if (id.text.size() < keep_) id.text += move;
  length = id.length;
  return std::string_view(id.text).substr(0, keep_);
}

}  // namespace epdd::book
