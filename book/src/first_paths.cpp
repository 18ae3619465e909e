#include "book/first_paths.hpp"

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
