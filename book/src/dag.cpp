// The book's DAG: building from PGN game trees, and the min-games filter.
#include "book/dag.hpp"

#include <algorithm>
#include <deque>
#include <optional>

#include "core/fen.hpp"

namespace epdd::book {

Terminal terminal_of(const core::Board& board) {
  if (board.count_legal() == 0) return board.in_check() ? Terminal::Checkmate : Terminal::Stalemate;
  if (board.is_insufficient_material()) return Terminal::InsufficientMaterial;
  return Terminal::None;
}

Dag::Dag(const core::Board& root) { add_position(root); }

PositionKey Dag::key_of(const core::Board& board) {
  PositionKey k;
  k.hash = board.repetition_key();
  for (int s = 0; s < 64; s += 2)
    k.squares[s / 2] = static_cast<std::uint8_t>(core::index(board.piece_on(core::square_at(s))) |
                                                 (core::index(board.piece_on(core::square_at(s + 1))) << 4));
  for (core::Color c : {core::Color::White, core::Color::Black})
    for (core::CastlingSide side : {core::CastlingSide::King, core::CastlingSide::Queen})
      k.castling[core::index(c) * 2 + static_cast<int>(side)] = board.castling_rook(c, side);
  if (board.ep_square() != core::Square::None && board.has_legal_ep_capture()) k.ep = board.ep_square();
  k.side = board.side_to_move();
  k.chess960 = board.chess960();
  return k;
}

std::string PositionKey::epd() const {
  core::Setup setup;
  for (int s = 0; s < 64; ++s) setup.squares[s] = static_cast<core::Piece>((squares[s / 2] >> (s % 2 * 4)) & 15);
  setup.castling_rooks = castling;
  setup.ep_square = ep;
  setup.side_to_move = side;
  setup.chess960 = chess960;
  core::FenWriteOptions options;
  options.ep_only_if_capturable = true;
  return core::to_epd_position(core::Board::from_setup(setup), options);
}

std::pair<NodeId, bool> Dag::add_node(const PositionKey& key, Terminal terminal) {
  auto [it, inserted] = index_.try_emplace(key, static_cast<NodeId>(nodes_.size()));
  if (!inserted) return {it->second, false};
  Node node;
  node.key = &it->first;
  node.terminal = terminal;
  nodes_.push_back(node);
  return {it->second, true};
}

NodeId Dag::add_anonymous(Terminal terminal) {
  Node node;
  node.terminal = terminal;
  nodes_.push_back(node);
  return static_cast<NodeId>(nodes_.size() - 1);
}

NodeId Dag::add_position(const core::Board& board) {
  const PositionKey key = key_of(board);
  if (auto it = index_.find(key); it != index_.end()) return it->second;
  return add_node(key, terminal_of(board)).first;
}

EdgeId Dag::add_edge(NodeId from, core::Move move, NodeId to) {
  for (EdgeId e : edges_of(from))
    if (edges_[e].move == move) return e;
  const auto id = static_cast<EdgeId>(edges_.size());
  Edge edge;
  edge.move = move;
  edge.child = to;
  edges_.push_back(edge);
  Node& parent = nodes_[from];
  if (parent.last_edge == kNoEdge)
    parent.first_edge = id;
  else
    edges_[parent.last_edge].next = id;
  parent.last_edge = id;
  ++nodes_[to].parents;
  return id;
}

NodeId Dag::find(const core::Board& board) const {
  auto it = index_.find(key_of(board));
  return it == index_.end() ? kNoNode : it->second;
}

std::size_t Dag::leaf_count() const {
  return static_cast<std::size_t>(
      std::count_if(nodes_.begin(), nodes_.end(), [](const Node& n) { return n.first_edge == kNoEdge; }));
}

// One game's walk: its limit and the edges it played (each counted once at the end).
struct Dag::Walk {
  int max_ply;
  std::vector<EdgeId> played;
};

// Plays `line` from `board` (the position of node `at`, `ply` plies into the game). A variation
// written after a move is an alternative to that move, so it starts from the position before it.
void Dag::walk(Walk& w, core::Board board, const pgn::Variation& line, int ply, NodeId at) {
  for (const pgn::MoveNode& mn : line.moves) {
    if (ply >= w.max_ply || !mn.move.is_real()) return;
    const bool branches = std::any_of(mn.after.begin(), mn.after.end(), [](const pgn::Annotation& a) {
      return a.kind == pgn::Annotation::Kind::Variation;
    });
    std::optional<core::Board> before;
    if (branches) before = board.detached();
    board.make_move(mn.move);
    const NodeId child = add_position(board);
    w.played.push_back(add_edge(at, mn.move, child));
    if (branches)
      for (const pgn::Annotation& a : mn.after)
        if (a.kind == pgn::Annotation::Kind::Variation)
          for (const pgn::Variation& v : a.variation) walk(w, before->detached(), v, ply, at);
    at = child;
    ++ply;
  }
}

void Dag::add_game(const pgn::Game& game, const BuildOptions& options) {
  Walk w{options.max_ply, {}};
  walk(w, game.start.detached(), game.main, 0, add_position(game.start));
  std::sort(w.played.begin(), w.played.end());
  w.played.erase(std::unique(w.played.begin(), w.played.end()), w.played.end());
  const auto tag = game.tag("Result");
  const std::string_view result = tag ? *tag : std::string_view(game.result);
  for (EdgeId e : w.played) {
    GameStats& s = edges_[e].stats;
    ++s.games;
    if (result == "1-0") ++s.white_wins;
    else if (result == "0-1") ++s.black_wins;
    else if (result == "1/2-1/2") ++s.draws;
  }
}

Dag Dag::filtered(std::uint32_t min_games) const {
  Dag out{Empty{}};
  if (nodes_.empty()) return out;
  // Which nodes stay: the roots (node 0, nodes without parents) and what they reach over edges
  // that pass: enough games, or none (a move of another input, which no game counts).
  const auto passes = [min_games](const Edge& edge) { return edge.stats.games == 0 || edge.stats.games >= min_games; };
  std::vector<char> keep(nodes_.size(), 0);
  std::deque<NodeId> queue;
  for (NodeId n = 0; n < nodes_.size(); ++n)
    if (n == 0 || nodes_[n].parents == 0) {
      keep[n] = 1;
      queue.push_back(n);
    }
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    for (EdgeId e : edges_of(n)) {
      const Edge& edge = edges_[e];
      if (!passes(edge) || keep[edge.child]) continue;
      keep[edge.child] = 1;
      queue.push_back(edge.child);
    }
  }
  std::vector<NodeId> renumber(nodes_.size(), kNoNode);
  for (NodeId n = 0; n < nodes_.size(); ++n)
    if (keep[n])
      renumber[n] = nodes_[n].key ? out.add_node(*nodes_[n].key, nodes_[n].terminal).first
                                  : out.add_anonymous(nodes_[n].terminal);
  for (NodeId n = 0; n < nodes_.size(); ++n) {
    if (!keep[n]) continue;
    for (EdgeId e : edges_of(n)) {
      const Edge& edge = edges_[e];
      if (!passes(edge)) continue;
      out.edges_[out.add_edge(renumber[n], edge.move, renumber[edge.child])].stats = edge.stats;
    }
  }
  return out;
}

}  // namespace epdd::book
