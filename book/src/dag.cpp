// The book's DAG: building from PGN game trees, and the min-games filter.
#include "book/dag.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <new>
#include <stdexcept>

#include "core/fen.hpp"

namespace epdd::book {

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}

void* allocate_table(std::size_t bytes) {
  if (bytes < kHugePage) {
    if (void* p = std::malloc(bytes == 0 ? 1 : bytes)) return p;
    throw std::bad_alloc();
  }
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
  if (p == nullptr) throw std::bad_alloc();
  madvise(p, rounded, MADV_HUGEPAGE);  // advice only: without it the table still works
  return p;
}

void free_table(void* p, std::size_t) noexcept { std::free(p); }

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

core::Board PositionKey::board() const {
  core::Setup setup;
  for (int s = 0; s < 64; ++s) setup.squares[s] = static_cast<core::Piece>((squares[s / 2] >> (s % 2 * 4)) & 15);
  setup.castling_rooks = castling;
  setup.ep_square = ep;
  setup.side_to_move = side;
  setup.chess960 = chess960;
  return core::Board::from_setup(setup);
}

std::string PositionKey::epd() const {
  core::FenWriteOptions options;
  options.ep_only_if_capturable = true;
  return core::to_epd_position(board(), options);
}

std::size_t Dag::slot_of(const PositionKey& key) const {
  const std::size_t mask = index_.size() - 1;
  const auto tag = static_cast<std::uint32_t>(key.hash >> 32);
  for (std::size_t i = tag & mask;; i = (i + 1) & mask) {
    const Slot& s = index_[i];
    if (s.node == kNoNode || (s.tag == tag && keys_[s.node] == key)) return i;
  }
}

void Dag::grow_index() {
  std::vector<Slot, TableAllocator<Slot>> old(std::max<std::size_t>(index_.size() * 2, 1024), Slot{kNoNode, 0});
  old.swap(index_);
  const std::size_t mask = index_.size() - 1;
  for (const Slot& s : old) {
    if (s.node == kNoNode) continue;
    std::size_t i = s.tag & mask;
    while (index_[i].node != kNoNode) i = (i + 1) & mask;
    index_[i] = s;
  }
}

NodeId Dag::insert_at(std::size_t slot, const PositionKey& key, Terminal terminal) {
  ++key_count_;
  const auto id = static_cast<NodeId>(nodes_.size());
  Node node;
  node.terminal = terminal;
  nodes_.push_back(node);
  keys_.push_back(key);
  index_[slot] = Slot{id, static_cast<std::uint32_t>(key.hash >> 32)};
  // At most three quarters full: linear probing over 8-byte slots stays within a cache line or
  // two, and the table of a 10-million-position book is 128 MB rather than 256.
  if (key_count_ * 4 > index_.size() * 3) grow_index();
  return id;
}

std::pair<NodeId, bool> Dag::add_node(const PositionKey& key, Terminal terminal) {
  if (index_.empty()) grow_index();
  const std::size_t slot = slot_of(key);
  if (index_[slot].node != kNoNode) return {index_[slot].node, false};
  return {insert_at(slot, key, terminal), true};
}

NodeId Dag::add_anonymous(Terminal terminal) {
  Node node;
  node.terminal = terminal;
  node.anonymous = true;
  nodes_.push_back(node);
  keys_.push_back(PositionKey{});
  return static_cast<NodeId>(nodes_.size() - 1);
}

NodeId Dag::add_position(const core::Board& board) {
  if (index_.empty()) grow_index();
  const PositionKey key = key_of(board);
  const std::size_t slot = slot_of(key);
  if (index_[slot].node != kNoNode) return index_[slot].node;
  return insert_at(slot, key, terminal_of(board));
}

EdgeId Dag::add_edge(NodeId from, core::Move move, NodeId to) { return add_edge(from, move, to, false); }

EdgeId Dag::add_edge(NodeId from, core::Move move, NodeId to, bool to_is_new) {
  // No edge leads to a node just made: the list (a miss an edge, the root's of hundreds) is
  // searched only when the move may be there already.
  if (!to_is_new) {
    // The moves near the root are played by game after game, and their parents' lists are long
    // and spread over the whole book: a move found once is remembered by (node, move).
    if (edge_memo_.empty()) edge_memo_.resize(std::size_t{1} << kEdgeMemoBits);
    EdgeMemo& memo = edge_memo_[(from * 0x9E3779B1u ^ move.raw() * 0x85EBCA77u) >> (32 - kEdgeMemoBits)];
    if (memo.from == from && memo.move == move) return memo.edge;
    for (EdgeId e : edges_of(from))
      if (edges_[e].move == move) {
        memo = EdgeMemo{from, e, move};
        return e;
      }
  }
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
  return index_.empty() ? kNoNode : index_[slot_of(key_of(board))].node;
}

std::size_t Dag::leaf_count() const {
  std::size_t leaves = 0;
  for (NodeId n = 0; n < nodes_.size(); ++n) leaves += nodes_[n].first_edge == kNoEdge;
  return leaves;
}

// One ply of a line being walked: the position it leads to, and where its variations start.
struct Dag::Step {
  PositionKey key;
  core::Move move;
  Terminal terminal;  // the rules' verdict, used if the position is new
  std::uint32_t before;  // index in Walk::befores of the board before the move, or kNoBefore
  const pgn::MoveNode* node;
  static constexpr std::uint32_t kNoBefore = std::numeric_limits<std::uint32_t>::max();
};

// One game's walk: its limit, the edges it played (each counted once at the end), and the lines
// being walked, outermost first (each line's steps, and its boards before a branching move).
struct Dag::Walk {
  int max_ply;
  std::vector<EdgeId> played;
  std::vector<Step> steps;
  std::vector<core::Board> befores;
};

// Plays `line` from `board` (the position of node `at`, `ply` plies into the game). A variation
// written after a move is an alternative to that move, so it starts from the position before it.
//
// In two passes: the first plays the line's moves and packs each position's key, asking for its
// slot of the index as it goes; the second finds or makes the nodes and edges in the line's order,
// walking each variation where it branches. The index is far larger than the caches and each
// ply's slot a miss: asked for a line ahead, the misses of a line overlap rather than follow one
// another. Nodes and edges are made in the same order as by one pass.
void Dag::walk(Walk& w, core::Board board, const pgn::Variation& line, int ply, NodeId at) {
  const std::size_t first = w.steps.size();
  const std::size_t first_before = w.befores.size();
  const std::size_t mask = index_.size() - 1;
  for (std::size_t i = 0; i < line.moves.size(); ++i) {
    const pgn::MoveNode& mn = line.moves[i];
    if (ply + static_cast<int>(i) >= w.max_ply || !mn.move.is_real()) break;
    // The line's next move is legal after this one (the reader keeps legal prefixes only).
    const bool moves_on = i + 1 < line.moves.size() && line.moves[i + 1].move.is_real();
    const bool branches = std::any_of(mn.after.begin(), mn.after.end(), [](const pgn::Annotation& a) {
      return a.kind == pgn::Annotation::Kind::Variation;
    });
    std::uint32_t before = Step::kNoBefore;
    if (branches) {
      before = static_cast<std::uint32_t>(w.befores.size());
      w.befores.push_back(board.detached());
    }
    board.make_move(mn.move);
    __builtin_prefetch(&index_[(board.repetition_key() >> 32) & mask]);
    // A position with a legal move is neither checkmate nor stalemate: no move generation.
    const Terminal terminal = !moves_on ? terminal_of(board)
                              : board.is_insufficient_material() ? Terminal::InsufficientMaterial
                                                                 : Terminal::None;
    w.steps.push_back(Step{key_of(board), mn.move, terminal, before, &mn});
  }
  const std::size_t end = w.steps.size();
  for (std::size_t s = first; s < end; ++s, ++ply) {
    // A reference into steps would not survive a variation's walk, which adds steps.
    const auto [child, made] = add_node(w.steps[s].key, w.steps[s].terminal);
    w.played.push_back(add_edge(at, w.steps[s].move, child, made));
    if (const std::uint32_t before = w.steps[s].before; before != Step::kNoBefore)
      for (const pgn::Annotation& a : w.steps[s].node->after)
        if (a.kind == pgn::Annotation::Kind::Variation)
          for (const pgn::Variation& v : a.variation) walk(w, w.befores[before].detached(), v, ply, at);
    at = child;
  }
  w.steps.resize(first);
  w.befores.resize(first_before);
}

void Dag::add_game(const pgn::Game& game, const BuildOptions& options) {
  Walk w{options.max_ply, {}, {}, {}};
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
      renumber[n] = nodes_[n].anonymous ? out.add_anonymous(nodes_[n].terminal)
                                        : out.add_node(keys_[n], nodes_[n].terminal).first;
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

namespace {

// Moves the elements of `a` so that a[i] becomes what a[from[i]] was, in place: each cycle of
// the permutation is followed once, one element held aside (`done` marks the placed ones).
template <class Array>
void permute_in_place(Array& a, const std::vector<std::uint32_t>& from) {
  std::vector<bool> done(from.size(), false);
  for (std::size_t start = 0; start < from.size(); ++start) {
    if (done[start]) continue;
    auto held = a[start];
    std::size_t at = start;
    while (true) {
      done[at] = true;
      const std::size_t source = from[at];
      if (source == start) {
        a[at] = held;
        break;
      }
      a[at] = a[source];
      at = source;
    }
  }
}

}  // namespace

std::vector<NodeId> Dag::renumber(std::vector<NodeId> order) {
  const std::size_t count = nodes_.size();
  std::vector<NodeId> rank(count, kNoNode);
  if (order.size() != count || (count > 0 && order[0] != 0))
    throw std::invalid_argument("Dag::renumber: the order must hold every node once, node 0 first");
  for (std::size_t i = 0; i < count; ++i) {
    if (order[i] >= count || rank[order[i]] != kNoNode)
      throw std::invalid_argument("Dag::renumber: the order must hold every node once, node 0 first");
    rank[order[i]] = static_cast<NodeId>(i);
  }
  permute_in_place(nodes_, order);
  permute_in_place(keys_, order);
  std::vector<NodeId>().swap(order);
  // The edges node after node (their lists still link the old ids), then in place; each list
  // is then a run of consecutive ids.
  std::vector<EdgeId> edge_order;
  edge_order.reserve(edges_.size());
  for (std::size_t n = 0; n < count; ++n) {
    Node& node = nodes_[n];
    const auto first = static_cast<EdgeId>(edge_order.size());
    for (EdgeId e = node.first_edge; e != kNoEdge; e = edges_[e].next) edge_order.push_back(e);
    const bool has_edges = edge_order.size() > first;
    node.first_edge = has_edges ? first : kNoEdge;
    node.last_edge = has_edges ? static_cast<EdgeId>(edge_order.size() - 1) : kNoEdge;
  }
  if (edge_order.size() != edges_.size()) throw std::logic_error("Dag::renumber: an edge in no node's list");
  permute_in_place(edges_, edge_order);
  std::vector<EdgeId>().swap(edge_order);
  for (std::size_t n = 0; n < count; ++n) {
    const Node& node = nodes_[n];
    if (node.first_edge == kNoEdge) continue;
    for (EdgeId e = node.first_edge; e <= node.last_edge; ++e) {
      edges_[e].child = rank[edges_[e].child];
      edges_[e].next = e == node.last_edge ? kNoEdge : e + 1;
    }
  }
  for (Slot& s : index_)
    if (s.node != kNoNode) s.node = rank[s.node];
  std::vector<EdgeMemo>().swap(edge_memo_);  // it names old ids
  return rank;
}

}  // namespace epdd::book
