#include "book/epd_output.hpp"

#include <cstddef>
#include <functional>
#include <limits>
#include <string_view>
#include <vector>

#include "book/first_paths.hpp"
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

// The child reached from `n` by `move` (the move is one of n's edges).
NodeId child_by(const Dag& dag, NodeId n, core::Move move) {
  for (EdgeId e : dag.edges_of(n))
    if (dag.edge(e).move == move) return dag.edge(e).child;
  return n;
}

// principal_line from n in SAN, continued by the engine PV of the analysed leaf it ends on; at
// most `limit` plies.
std::vector<epd::Operand> pv_of(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses, NodeId n,
                                const core::Board& start, std::size_t limit) {
  std::vector<epd::Operand> pv;
  if (limit == 0) return pv;
  core::Board board = start.detached();
  NodeId at = n;
  for (const core::Move m : principal_line(dag, values, n, limit)) {
    pv.push_back(word(core::to_san(board, m)));
    board.make_move(m);
    at = child_by(dag, at, m);
  }
  const auto analysed = analyses.find(at);
  if (analysed == analyses.end() || !dag.is_leaf(at) || analysed->second.lines.empty()) return pv;
  const auto castling = core::uci_castling_for(board);
  for (const std::string& text : analysed->second.lines.front().pv) {
    if (pv.size() == limit) break;
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
                      const EpdOutputOptions& options, const FirstPaths& f, NodeId n) {
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
  auto pv = pv_of(dag, values, analyses, n, board, options.pv_plies.value_or(std::numeric_limits<std::size_t>::max()));
  if (!pv.empty()) r.set("pv", std::move(pv));
  const auto analysed = analyses.find(n);
  if (analysed != analyses.end() && dag.is_leaf(n)) {
    r.set("acd", {word(std::to_string(analysed->second.depth))});
    r.set("acn", {word(std::to_string(analysed->second.nodes))});
    r.set("acs", {word(std::to_string(analysed->second.time_ms / 1000))});
  }
  r.set("id", {quoted(first_path_id(dag, f, n))});
  r.set("c0", {quoted(kind_of(dag, v, n))});
  return r.canonical_text();
}

}  // namespace

void write_book_epd(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                    const EpdOutputOptions& options, const std::function<void(std::string_view)>& write) {
  constexpr std::size_t kPart = std::size_t{1} << 16;
  const FirstPaths f = first_paths(dag, options.root_names);
  std::string out;
  for (const NodeId n : f.order) {
    out += record_of(dag, values, analyses, options, f, n);
    out += '\n';
    if (out.size() >= kPart) {
      write(out);
      out.clear();
    }
  }
  if (!out.empty()) write(out);
}

std::string write_book_epd(const Dag& dag, const Backsolved& values, const LeafAnalyses& analyses,
                           const EpdOutputOptions& options) {
  std::string out;
  write_book_epd(dag, values, analyses, options, [&out](std::string_view part) { out += part; });
  return out;
}

std::vector<NodeId> book_nodes(const Dag& dag, const RootNames* root_names) {
  return first_paths(dag, root_names).order;
}

std::string write_leaves_epd(const Dag& dag, const RootNames* root_names) {
  const FirstPaths f = first_paths(dag, root_names);
  std::string out;
  for (const NodeId n : f.order) {
    if (!dag.is_leaf(n) || dag.node(n).terminal != Terminal::None) continue;
    epd::EpdRecord r = epd::EpdRecord::from_position(fields_of(board_of(dag, n)));
    r.set("c0", {quoted("leaf")});
    r.set("id", {quoted(first_path_id(dag, f, n))});
    out += r.canonical_text();
    out += '\n';
  }
  return out;
}

}  // namespace epdd::book
