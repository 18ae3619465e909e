// Dag: an opening book as a directed graph of positions. A node is a position, identified by its
// four EPD fields (en passant only when an en passant capture is legal, so that two positions FIDE
// calls the same are one node): a transposition is one node with several parents. An edge is a
// move the input contains, with the game statistics of the games that played it. A leaf is a node
// without edges. Repetitions make cycles, so the graph is not always acyclic.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/board.hpp"
#include "core/move.hpp"
#include "pgn/game.hpp"

namespace epdd::book {

using NodeId = std::uint32_t;
using EdgeId = std::uint32_t;
inline constexpr EdgeId kNoEdge = std::numeric_limits<EdgeId>::max();

// Positions whose value the rules decide, so that no engine is asked: the side to move is
// checkmated, stalemated, or nobody can mate any more.
enum class Terminal : std::uint8_t { None, Checkmate, Stalemate, InsufficientMaterial };

// The rules' verdict on a position (None while the game goes on).
Terminal terminal_of(const core::Board& board);

// The games that played a move, by result (from the Result tag; "*" or a missing tag counts in
// games only). A game that plays the same move twice (a repetition, or a variation repeating
// the main line) counts once.
struct GameStats {
  std::uint32_t white_wins = 0;
  std::uint32_t draws = 0;
  std::uint32_t black_wins = 0;
  std::uint32_t games = 0;
};

// The identity of a position, packed (48 bytes, no allocation): the pieces, the side to move,
// the castling rooks, the en passant square only when an en passant capture is legal. Two
// positions FIDE calls the same have equal keys and no others do; `hash` (the Zobrist key of
// Board::repetition_key, computed by the board as it moves) only spreads them in the index.
struct PositionKey {
  std::uint64_t hash = 0;
  std::array<std::uint8_t, 32> squares{};  // two squares a byte, core::Piece values
  std::array<core::Square, 4> castling{};  // as core::Setup::castling_rooks
  core::Square ep = core::Square::None;
  core::Color side = core::Color::White;
  bool chess960 = false;  // how castling is written, not part of the identity's comparison
  bool operator==(const PositionKey& o) const {
    return hash == o.hash && squares == o.squares && castling == o.castling && ep == o.ep && side == o.side;
  }
  // The position as its four EPD fields (en passant only when legal, castling as core writes it).
  std::string epd() const;
  // The position as a board (no history; move numbers 0 and 1).
  core::Board board() const;
};

// The index's hash: the Zobrist key the key carries.
struct PositionKeyHash {
  std::size_t operator()(const PositionKey& k) const { return static_cast<std::size_t>(k.hash); }
};

// A move of the book: where it leads and which games played it.
struct Edge {
  core::Move move;
  NodeId child = 0;
  EdgeId next = kNoEdge;  // the next edge of the same parent, in the order the moves arrived
  GameStats stats;
};

// A position of the book: its edges (a linked list through Edge::next, in the order the moves
// arrived) and whether the rules end the game there. (Its identity is Dag::key: 16 bytes a node.)
struct Node {
  EdgeId first_edge = kNoEdge;
  EdgeId last_edge = kNoEdge;
  std::uint32_t parents = 0;  // edges into this node
  Terminal terminal = Terminal::None;
  bool anonymous = false;  // no position (Dag::add_anonymous): no key
};

// Memory for the large tables of a book: from 2 MB up, aligned to 2 MB and advised to the kernel
// as huge pages (Linux's transparent huge pages in "madvise" mode, Debian's default), so that a
// probe into a table of hundreds of megabytes costs one cache miss and no page-table walk, and
// filling it costs a page fault every 2 MB rather than every 4 KB. Smaller requests are plain
// heap memory.
void* allocate_table(std::size_t bytes);
void free_table(void* p, std::size_t bytes) noexcept;
template <class T>
struct TableAllocator {
  using value_type = T;
  TableAllocator() = default;
  template <class U>
  TableAllocator(const TableAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(allocate_table(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { free_table(p, n * sizeof(T)); }
  template <class U>
  bool operator==(const TableAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const TableAllocator<U>&) const { return false; }
};

// A growing array in blocks of 2 MB (a huge page each, allocate_table) that never move: it grows
// without the moment a vector has, twice its size copied into a new one, which at tens of
// millions of nodes is the book's peak memory; and it is faulted in 2 MB at a time (at 4 KB a
// page, the page faults took a fifth of the build's time). An element is constructed when it is
// pushed, and a block is written only as it fills; but its first touch takes its whole huge page
// where the kernel has one, so that even a book of a few positions holds 2 MB an array (6 MB).
template <class T>
class BlockArray {
  static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kBlockBytes = std::size_t{2} << 20;
  static constexpr std::size_t kBlock = kBlockBytes / sizeof(T);
  BlockArray() = default;
  BlockArray(BlockArray&& o) noexcept : blocks_(std::exchange(o.blocks_, {})), size_(std::exchange(o.size_, 0)) {}
  BlockArray& operator=(BlockArray&& o) noexcept {
    if (this != &o) {
      release();
      blocks_ = std::exchange(o.blocks_, {});
      size_ = std::exchange(o.size_, 0);
    }
    return *this;
  }
  BlockArray(const BlockArray&) = delete;
  BlockArray& operator=(const BlockArray&) = delete;
  ~BlockArray() { release(); }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return blocks_[i / kBlock][i % kBlock]; }
  const T& operator[](std::size_t i) const { return blocks_[i / kBlock][i % kBlock]; }
  T& push_back(const T& value) {
    if (size_ % kBlock == 0) {
      // Room first, so that a failure loses no block.
      if (blocks_.size() == blocks_.capacity()) blocks_.reserve(2 * blocks_.capacity() + 1);
      blocks_.push_back(static_cast<T*>(allocate_table(kBlockBytes)));
    }
    T* slot = new (&blocks_.back()[size_ % kBlock]) T(value);
    ++size_;
    return *slot;
  }
  // The bytes it holds (whole blocks, and the list of them).
  std::size_t bytes() const { return blocks_.size() * kBlockBytes + blocks_.capacity() * sizeof(blocks_[0]); }

 private:
  void release() noexcept {
    for (T* b : blocks_) free_table(b, kBlockBytes);
    blocks_.clear();
    size_ = 0;
  }
  std::vector<T*> blocks_;
  std::size_t size_ = 0;
};

// A name by node, for the roots of a book other than the start position (an EPD record's `id`,
// see book/inputs.hpp): the outputs name such a root, and the nodes below it, by it.
using RootNames = std::unordered_map<NodeId, std::string>;

// How a book is built from games.
struct BuildOptions {
  // Plies of each game (from its start) that enter the book; the rest is ignored.
  int max_ply = std::numeric_limits<int>::max();
  // A move enters only when at least this many games played it (Dag::filtered applies it once
  // every game is in: a game that comes later can lift a move over the bar).
  std::uint32_t min_games = 1;
};

// The edges of one node, in the order they arrived: `for (EdgeId e : dag.edges_of(n))`.
class EdgeRange {
 public:
  class iterator {
   public:
    iterator(const BlockArray<Edge>* edges, EdgeId e) : edges_(edges), e_(e) {}
    EdgeId operator*() const { return e_; }
    iterator& operator++() {
      e_ = (*edges_)[e_].next;
      return *this;
    }
    bool operator!=(const iterator& o) const { return e_ != o.e_; }

   private:
    const BlockArray<Edge>* edges_;
    EdgeId e_;
  };
  EdgeRange(const BlockArray<Edge>* edges, EdgeId first) : edges_(edges), first_(first) {}
  iterator begin() const { return {edges_, first_}; }
  iterator end() const { return {edges_, kNoEdge}; }

 private:
  const BlockArray<Edge>* edges_;
  EdgeId first_;
};

// Nodes, their keys and the edges live in block arrays by id (each node's edges linked in
// arrival order), with an open-addressing table from the key's hash to its node: 16 bytes a
// node, 48 its key, 28 an edge, 11 to 21 the node's share of the table (bench/book_bench prints
// the bytes a position and a move), and 768 KB of remembered moves once a move is searched for.
// Move-only.
class Dag {
 public:
  // An empty book whose root is `root` (the start position by default): node 0.
  explicit Dag(const core::Board& root = core::Board());
  // An empty book without a root, for graphs built node by node (tests, other inputs).
  struct Empty {};
  explicit Dag(Empty) {}
  Dag(Dag&&) = default;
  Dag& operator=(Dag&&) = default;
  Dag(const Dag&) = delete;
  Dag& operator=(const Dag&) = delete;

  // Adds a game's main line and every variation, up to options.max_ply plies from the game's
  // start, and counts the game on every edge it plays. A game that starts elsewhere than the
  // root (FEN tag) adds its start position as a node of its own. A null move ends its line: the
  // position after it is no position of a game.
  void add_game(const pgn::Game& game, const BuildOptions& options = {});

  // The node of a position, made if it is new (its terminal verdict computed then).
  NodeId add_position(const core::Board& board);
  // The node with this key, made if new; {node, true} when it was made.
  std::pair<NodeId, bool> add_node(const PositionKey& key, Terminal terminal);
  // A new node that is no position (find never returns it), for graphs made by hand such as
  // synthetic tests.
  NodeId add_anonymous(Terminal terminal = Terminal::None);
  // The edge `move` from `from` to `to`; an edge with that move from `from` already there is
  // returned as it is (its child must be `to`).
  EdgeId add_edge(NodeId from, core::Move move, NodeId to);

  // The same book without the moves fewer than min_games games played, and without what then
  // cannot be reached from a root (node 0, or a node without parents: a game's FEN start, an
  // EPD record); node and edge order kept. Moves no game played (from a Polyglot book or an EPD
  // link: no game counts them) stay; a move that games and another input both gave is judged
  // by its games.
  Dag filtered(std::uint32_t min_games) const;

  // Renumbers the book in place: node order[i] becomes node i (`order` holds every node once,
  // node 0 first), and the edges follow node after node, each node's in its list's order, so
  // that a walk in that order reads the arrays front to back. Positions, moves, statistics and
  // each node's edge order stay; no second book is made (the memory of `order`, and of the ids
  // returned, is the cost). Returns each old node's new id, for what is kept by node elsewhere.
  // Throws std::invalid_argument when `order` is not such a permutation.
  std::vector<NodeId> renumber(std::vector<NodeId> order);
  // The node of a position, or kNoNode.
  static constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();
  NodeId find(const core::Board& board) const;
  // The identity of a position.
  static PositionKey key_of(const core::Board& board);

  // The graph, read-only: counts, nodes and edges by id, a node's edges in arrival order.
  std::size_t node_count() const { return nodes_.size(); }
  std::size_t edge_count() const { return edges_.size(); }
  const Node& node(NodeId n) const { return nodes_[n]; }
  const Edge& edge(EdgeId e) const { return edges_[e]; }
  EdgeRange edges_of(NodeId n) const { return {&edges_, nodes_[n].first_edge}; }
  bool is_leaf(NodeId n) const { return nodes_[n].first_edge == kNoEdge; }
  // A node's position, or nullptr for an anonymous node.
  const PositionKey* key(NodeId n) const { return nodes_[n].anonymous ? nullptr : &keys_[n]; }
  // The four EPD fields of a node's position ("" for an anonymous node).
  std::string epd(NodeId n) const { return nodes_[n].anonymous ? std::string() : keys_[n].epd(); }
  // The bytes the graph holds (nodes, keys, edges, the index), for the benches.
  std::size_t bytes() const {
    return nodes_.bytes() + keys_.bytes() + edges_.bytes() + index_.capacity() * sizeof(Slot) +
           edge_memo_.capacity() * sizeof(EdgeMemo);
  }
  std::size_t edge_bytes() const { return edges_.bytes(); }
  // Whether every node is a position (no anonymous node): walks then need not ask each child.
  bool all_positions() const { return key_count_ == nodes_.size(); }
  // The number of leaves (nodes without edges).
  std::size_t leaf_count() const;

 private:
  struct Step;
  struct Walk;
  void walk(Walk& w, core::Board board, const pgn::Variation& line, int ply, NodeId at);
  // add_edge, told whether `to` was just made (then no edge of `from` can hold the move yet).
  EdgeId add_edge(NodeId from, core::Move move, NodeId to, bool to_is_new);
  // The index's slot of `key`: where it is, or the empty slot where it goes.
  std::size_t slot_of(const PositionKey& key) const;
  NodeId insert_at(std::size_t slot, const PositionKey& key, Terminal terminal);
  void grow_index();

  // A slot of the index: a node and the high half of its key's hash (which also places it).
  struct Slot {
    NodeId node;
    std::uint32_t tag;
  };
  // A move found in a node's list, remembered by (node, move) for add_edge (2^16 of them, the
  // last found in each place; made on the first search, dropped when the ids change).
  struct EdgeMemo {
    NodeId from = kNoNode;
    EdgeId edge = kNoEdge;
    core::Move move;
  };
  static constexpr int kEdgeMemoBits = 16;
  std::vector<EdgeMemo> edge_memo_;
  BlockArray<Node> nodes_;
  BlockArray<PositionKey> keys_;  // by node (an anonymous node's is empty)
  BlockArray<Edge> edges_;
  std::size_t key_count_ = 0;  // nodes in the index
  std::vector<Slot, TableAllocator<Slot>> index_;  // a power of two, at most 3/4 full; empty slots hold kNoNode
};

}  // namespace epdd::book
