#include "book/epd_output.hpp"

#include <cstddef>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "epd/record.hpp"

namespace epdd::book {

namespace {

// The standard's limit on a string operand: fewer than 256 bytes.
constexpr std::size_t kMaxString = 255;

epd::Operand word(std::string text) { return epd::Operand{std::move(text), false, 0}; }

epd::Operand quoted(std::string text) {
  if (text.size() > kMaxString) text = text.substr(0, kMaxString - 3) + "...";
  return epd::Operand{std::move(text), true, 0};
}

// A node's position as a board (from its own four fields, so no path is replayed).
core::Board board_of(const Dag& dag, NodeId n) {
  core::FenReadOptions options;
  options.fields = core::FenFields::Four;
  options.chess960 = dag.node(n).key->chess960;
  auto board = core::parse_fen(dag.epd(n), options);
  // The fields were written by core from a position it holds: they always read back.
  return board ? *board : core::Board();
}

// The child reached from `n` by `move` (the move is one of n's edges).
NodeId child_by(const Dag& dag, NodeId n, core::Move move) {
  for (EdgeId e : dag.edges_of(n))
    if (dag.edge(e).move == move) return dag.edge(e).child;
  return n;
}

// Where each node was first reached, root by root (see write_book_epd): its parent and the SAN
// of the move from it, its root; the nodes in that order; each root's label.
struct FirstArrivals {
  std::vector<NodeId> order;
  std::vector<NodeId> parent;   // by NodeId; Dag::kNoNode for roots and unreached nodes
  std::vector<std::string> san; // by NodeId: the move from the parent
  std::vector<NodeId> root;     // by NodeId: the root whose walk reached it; kNoNode: unreached
  std::unordered_map<NodeId, std::string> label;  // by root
};

// Adds the nodes `from` reaches that no earlier walk reached, breadth first.
void walk_from(const Dag& dag, NodeId from, FirstArrivals& f) {
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
      if (f.root[edge.child] != Dag::kNoNode || !dag.node(edge.child).key) continue;
      f.root[edge.child] = from;
      f.parent[edge.child] = n;
      f.san[edge.child] = core::to_san(board, edge.move);
      queue.push_back(edge.child);
    }
  }
}

FirstArrivals first_arrivals(const Dag& dag, const RootNames* names) {
  FirstArrivals f;
  f.parent.assign(dag.node_count(), Dag::kNoNode);
  f.san.resize(dag.node_count());
  f.root.assign(dag.node_count(), Dag::kNoNode);
  if (dag.node_count() == 0) return f;
  const auto named = [&](NodeId n) { return names && names->count(n) > 0; };
  if (dag.node(0).key && (!dag.is_leaf(0) || dag.node_count() == 1 || named(0))) {
    f.label[0] = "start";
    walk_from(dag, 0, f);
  }
  std::size_t unnamed = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (NodeId n = 1; n < dag.node_count(); ++n) {
      if (f.root[n] != Dag::kNoNode || !dag.node(n).key || (pass == 0 && dag.node(n).parents > 0)) continue;
      f.label[n] = named(n) ? names->at(n) : "root " + std::to_string(++unnamed);
      walk_from(dag, n, f);
    }
  return f;
}

// A root's label; below a root the path from it as numbered SAN, after "LABEL: " for roots other
// than node 0.
std::string id_of(const Dag& dag, const FirstArrivals& f, NodeId n) {
  const NodeId root = f.root[n];
  const std::string& label = f.label.at(root);
  if (n == root) return label;
  std::vector<NodeId> path;
  for (NodeId at = n; f.parent[at] != Dag::kNoNode; at = f.parent[at]) path.push_back(at);
  std::string id = root == 0 ? std::string() : label + ":";
  const std::size_t shift = dag.node(root).key->side == core::Color::Black ? 1 : 0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const std::size_t ply = i + shift;
    const std::string number = std::to_string(ply / 2 + 1);
    if (!id.empty()) id += ' ';
    if (ply % 2 == 0) id += number + ". ";
    else if (i == 0) id += number + "... ";
    id += f.san[path[path.size() - 1 - i]];
  }
  return id;
}

// A node's four fields as the outputs write them: Shredder-FEN castling for Chess960.
std::string fields_of(const core::Board& board) {
  core::FenWriteOptions options;
  options.ep_only_if_capturable = true;
  if (board.chess960()) options.castling = core::CastlingNotation::Shredder;
  return core::to_epd_position(board, options);
}

// principal_line from n in SAN, continued by the engine PV of the analysed leaf it ends on.
std::vector<epd::Operand> pv_of(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses, NodeId n,
                                const core::Board& start) {
  std::vector<epd::Operand> pv;
  core::Board board = start.detached();
  NodeId at = n;
  for (const core::Move m : principal_line(dag, values, n)) {
    pv.push_back(word(core::to_san(board, m)));
    board.make_move(m);
    at = child_by(dag, at, m);
  }
  const auto analysed = analyses.find(at);
  if (analysed == analyses.end() || !dag.is_leaf(at) || analysed->second.lines.empty()) return pv;
  const auto castling = core::uci_castling_for(board);
  for (const std::string& text : analysed->second.lines.front().pv) {
    auto m = core::parse_uci(board, text, castling);
    if (!m) break;
    pv.push_back(word(core::to_san(board, *m)));
    board.make_move(*m);
  }
  return pv;
}

const char* kind_of(const Dag& dag, const NodeValue& v, NodeId n) {
  if (dag.node(n).terminal != Terminal::None) return "terminal";
  if (!v.ce) return "unvalued";
  if (v.incomplete) return "incomplete";
  return dag.is_leaf(n) ? "leaf" : "interior";
}

std::string record_of(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                      const EpdOutputOptions& options, const FirstArrivals& f, NodeId n) {
  const core::Board board = board_of(dag, n);
  const NodeValue& v = values.nodes[n];
  epd::EpdRecord r = epd::EpdRecord::from_position(fields_of(board));
  if (v.ce) {
    int ce = *v.ce;
    if (options.ce_for_white && board.side_to_move() == core::Color::Black) ce = -ce;
    r.set("ce", {word(std::to_string(ce))});
  }
  std::vector<epd::Operand> bm;
  for (const core::Move m : v.best_moves) bm.push_back(word(core::to_san(board, m)));
  if (!bm.empty()) r.set("bm", std::move(bm));
  auto pv = pv_of(dag, values, analyses, n, board);
  if (!pv.empty()) r.set("pv", std::move(pv));
  const auto analysed = analyses.find(n);
  if (analysed != analyses.end() && dag.is_leaf(n)) {
    r.set("acd", {word(std::to_string(analysed->second.depth))});
    r.set("acn", {word(std::to_string(analysed->second.nodes))});
    r.set("acs", {word(std::to_string(analysed->second.time_ms / 1000))});
  }
  r.set("id", {quoted(id_of(dag, f, n))});
  r.set("c0", {quoted(kind_of(dag, v, n))});
  return r.canonical_text();
}

}  // namespace

std::string write_book_epd(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                           const EpdOutputOptions& options) {
  const FirstArrivals f = first_arrivals(dag, options.root_names);
  std::string out;
  for (const NodeId n : f.order) {
    out += record_of(dag, values, analyses, options, f, n);
    out += '\n';
  }
  return out;
}

std::vector<NodeId> book_nodes(const Dag& dag, const RootNames* root_names) {
  return first_arrivals(dag, root_names).order;
}

std::string write_leaves_epd(const Dag& dag, const RootNames* root_names) {
  const FirstArrivals f = first_arrivals(dag, root_names);
  std::string out;
  for (const NodeId n : f.order) {
    if (!dag.is_leaf(n) || dag.node(n).terminal != Terminal::None) continue;
    epd::EpdRecord r = epd::EpdRecord::from_position(fields_of(board_of(dag, n)));
    r.set("c0", {quoted("leaf")});
    r.set("id", {quoted(id_of(dag, f, n))});
    out += r.canonical_text();
    out += '\n';
  }
  return out;
}

}  // namespace epdd::book
