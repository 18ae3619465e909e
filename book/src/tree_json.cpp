#include "book/tree_json.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "core/notation.hpp"

namespace epdd::book {

namespace {

using Json = nlohmann::ordered_json;

const char* terminal_name(Terminal t) {
  switch (t) {
    case Terminal::Checkmate: return "checkmate";
    case Terminal::Stalemate: return "stalemate";
    case Terminal::InsufficientMaterial: return "insufficient_material";
    case Terminal::None: break;
  }
  return "";
}

// The edges of n in the tree's order: best for the mover first, unvalued last, ties in edge order.
std::vector<EdgeId> ordered_edges(const Dag& dag, const Backsolved& values, NodeId n) {
  std::vector<EdgeId> edges;
  for (const EdgeId e : dag.edges_of(n)) edges.push_back(e);
  const auto for_mover = [&](EdgeId e) -> std::optional<int> {
    const auto& ce = values.nodes[dag.edge(e).child].ce;
    return ce ? std::optional(ce_through_move(*ce)) : std::nullopt;
  };
  std::stable_sort(edges.begin(), edges.end(), [&](EdgeId a, EdgeId b) {
    const auto va = for_mover(a), vb = for_mover(b);
    if (va && vb) return *va > *vb;
    return va.has_value() && !vb.has_value();
  });
  return edges;
}

struct Writer {
  const Dag& dag;
  const Backsolved& values;
  const TreeOptions& options;
  std::vector<NodeId> line;  // the nodes from the root to the one written

  // The fields of node n (its "move" and games written by the caller), its children to `ply`.
  void fill(Json& j, NodeId n, std::size_t ply) {
    const NodeValue& v = values.nodes[n];
    const core::Board board = board_of(dag, n);
    j["ce"] = v.ce ? Json(*v.ce) : Json(nullptr);
    j["incomplete"] = v.incomplete;
    j["best"] = v.best_moves.empty() ? Json(nullptr) : Json(core::to_san(board, v.best_moves.front()));
    if (dag.node(n).terminal != Terminal::None) j["terminal"] = terminal_name(dag.node(n).terminal);
    std::size_t moves = 0;
    for ([[maybe_unused]] const EdgeId e : dag.edges_of(n)) ++moves;
    j["moves"] = moves;
    if (ply >= options.widths.size() || moves == 0) return;
    Json children = Json::array();
    const auto edges = ordered_edges(dag, values, n);
    const std::size_t listed = std::min(edges.size(), options.widths[ply]);
    line.push_back(n);
    for (std::size_t i = 0; i < listed; ++i) children.push_back(child(board, edges[i], ply + 1));
    line.pop_back();
    j["children"] = std::move(children);
    if (listed < edges.size()) j["more"] = edges.size() - listed;
  }

  Json child(const core::Board& parent, EdgeId e, std::size_t ply) {
    const Edge& edge = dag.edge(e);
    Json j;
    j["move"] = core::to_san(parent, edge.move);
    if (edge.stats.games > 0) {
      j["games"] = edge.stats.games;
      j["white_wins"] = edge.stats.white_wins;
      j["draws"] = edge.stats.draws;
      j["black_wins"] = edge.stats.black_wins;
    }
    if (std::find(line.begin(), line.end(), edge.child) != line.end()) {
      const NodeValue& v = values.nodes[edge.child];
      j["ce"] = v.ce ? Json(*v.ce) : Json(nullptr);
      j["incomplete"] = v.incomplete;
      j["repeats"] = true;
      return j;
    }
    fill(j, edge.child, ply);
    return j;
  }
};

}  // namespace

Json tree_json(const Dag& dag, const Backsolved& values, const FirstPaths& paths, const TreeOptions& options) {
  if (paths.order.empty()) return Json::object();
  const NodeId root = paths.order.front();
  Json j;
  const auto label = paths.label.find(root);
  j["label"] = label == paths.label.end() ? std::string() : label->second;
  j["position"] = dag.epd(root);
  Writer w{dag, values, options, {}};
  w.fill(j, root, 0);
  return j;
}

}  // namespace epdd::book
