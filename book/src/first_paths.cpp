#include "book/first_paths.hpp"

#include <deque>

#include "core/fen.hpp"
#include "core/notation.hpp"

namespace epdd::book {

core::Board board_of(const Dag& dag, NodeId n) {
  if (!dag.node(n).key) return core::Board();
  core::FenReadOptions options;
  options.fields = core::FenFields::Four;
  options.chess960 = dag.node(n).key->chess960;
  auto board = core::parse_fen(dag.epd(n), options);
  // The fields were written by core from a position it holds: they always read back.
  return board ? *board : core::Board();
}

FirstPaths first_paths(const Dag& dag) {
  FirstPaths f;
  f.parent.assign(dag.node_count(), Dag::kNoNode);
  f.edge.assign(dag.node_count(), kNoEdge);
  f.san.resize(dag.node_count());
  f.reached.assign(dag.node_count(), false);
  if (dag.node_count() == 0 || !dag.node(0).key) return f;
  std::deque<NodeId> queue{0};
  f.reached[0] = true;
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    f.order.push_back(n);
    if (dag.is_leaf(n)) continue;
    const core::Board board = board_of(dag, n);
    for (EdgeId e : dag.edges_of(n)) {
      const Edge& edge = dag.edge(e);
      if (f.reached[edge.child] || !dag.node(edge.child).key) continue;
      f.reached[edge.child] = true;
      f.parent[edge.child] = n;
      f.edge[edge.child] = e;
      f.san[edge.child] = core::to_san(board, edge.move);
      queue.push_back(edge.child);
    }
  }
  return f;
}

std::vector<std::string> first_path_moves(const FirstPaths& f, NodeId n) {
  std::vector<std::string> sans;
  for (NodeId at = n; f.parent[at] != Dag::kNoNode; at = f.parent[at]) sans.push_back(f.san[at]);
  return {sans.rbegin(), sans.rend()};
}

std::string numbered_line(const std::vector<std::string>& sans, core::Color root_side) {
  std::string line;
  const std::size_t shift = root_side == core::Color::Black ? 1 : 0;
  for (std::size_t i = 0; i < sans.size(); ++i) {
    const std::size_t ply = i + shift;
    const std::string number = std::to_string(ply / 2 + 1);
    if (!line.empty()) line += ' ';
    if (ply % 2 == 0) line += number + ". ";
    else if (i == 0) line += number + "... ";
    line += sans[i];
  }
  return line;
}

std::string first_path_id(const FirstPaths& f, NodeId n, core::Color root_side) {
  if (f.parent[n] == Dag::kNoNode) return "start";
  return numbered_line(first_path_moves(f, n), root_side);
}

}  // namespace epdd::book
