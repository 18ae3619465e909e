// Polyglot .bin books: writing a backsolved book's weights, reading a book as a Dag.
#include "book/polyglot.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <optional>

#include "annotate/judgement.hpp"

namespace epdd::book {

namespace {

constexpr std::size_t kEntrySize = 16;

// An entry before it is written: 12 bytes (the key as two halves keeps it from 8-byte alignment:
// a book of ten million moves holds ten million of these while they are sorted).
struct Entry {
  std::uint32_t key_high = 0;
  std::uint32_t key_low = 0;
  std::uint16_t move = 0;
  std::uint16_t weight = 0;
  std::uint64_t key() const { return std::uint64_t{key_high} << 32 | key_low; }
};

// The Polyglot key of each node (those with one): 8 bytes and a bit a node.
struct NodeKeys {
  std::vector<std::uint64_t> key;
  std::vector<bool> has;
  explicit NodeKeys(std::size_t nodes) : key(nodes, 0), has(nodes, false) {}
  void set(NodeId n, std::uint64_t k) {
    key[n] = k;
    has[n] = true;
  }
};

void put_be(std::string& out, std::uint64_t value, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

std::uint64_t get_be(std::string_view bytes, std::size_t at, int count) {
  std::uint64_t value = 0;
  for (int i = 0; i < count; ++i) value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

// Gives `root` and every node reached from it that has no key yet the Polyglot key of the board
// the breadth-first walk meets it with: its parent's position with the move made, so that the
// en passant file is the move's (Polyglot's rule: a pawn beside, legal capture or not), which a
// node's own key keeps only when the capture is legal. (A node's board is made from its key:
// the position is all a move and a key need, and no board is held per node of the frontier.)
void walk_keys(const Dag& dag, NodeId root, NodeKeys& keys) {
  std::deque<NodeId> queue{root};
  keys.set(root, dag.key(root)->board().polyglot_key());
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    if (dag.is_leaf(n)) continue;
    const core::Board board = dag.key(n)->board();
    for (EdgeId e : dag.edges_of(n)) {
      const Edge& edge = dag.edge(e);
      if (keys.has[edge.child] || !dag.key(edge.child)) continue;
      core::Board child = board.detached();
      child.make_move(edge.move);
      keys.set(edge.child, child.polyglot_key());
      queue.push_back(edge.child);
    }
  }
}

// The Polyglot key of every node with a position, from the first board that reaches it on a
// breadth-first walk from the roots (node 0, then nodes without parents, then any node still
// without a key: a game starting inside a cycle); none for anonymous nodes.
NodeKeys node_keys(const Dag& dag) {
  NodeKeys keys(dag.node_count());
  for (int pass = 0; pass < 2; ++pass)
    for (NodeId root = 0; root < dag.node_count(); ++root)
      if (!keys.has[root] && dag.key(root) && (pass == 1 || root == 0 || dag.node(root).parents == 0))
        walk_keys(dag, root, keys);
  return keys;
}

// The weight of a move that is not among the best (see write_polyglot); nullopt: left out.
std::optional<std::uint16_t> weight_of(int node_ce, int move_ce, const PolyglotOptions& options) {
  const int loss = node_ce - move_ce;
  if (loss > options.margin_cp) return options.keep_losing ? std::optional<std::uint16_t>(0) : std::nullopt;
  const double d = annotate::winning_chances(node_ce) - annotate::winning_chances(move_ce);
  const double d_margin = annotate::winning_chances(node_ce) - annotate::winning_chances(node_ce - options.margin_cp);
  const double f = d_margin > 0 ? std::clamp(d / d_margin, 0.0, 1.0) : 0.0;
  return static_cast<std::uint16_t>(1 + std::lround((kMaxWeight - 2) * (1.0 - f)));
}

}  // namespace

std::uint16_t polyglot_move(core::Move move) {
  const int from = core::index(move.from());
  const int to = core::index(move.to());
  int promotion = 0;
  if (move.kind() == core::MoveKind::Promotion)
    promotion = core::index(move.promotion()) - core::index(core::PieceType::Knight) + 1;
  return static_cast<std::uint16_t>(to | from << 6 | promotion << 12);
}

core::Move move_from_polyglot(const core::Board& board, std::uint16_t encoded) {
  for (core::Move m : board.legal_moves())
    if (polyglot_move(m) == encoded) return m;
  return core::Move::none();
}

void write_polyglot(const Dag& dag, const Backsolved& values, const PolyglotOptions& options,
                    const std::function<void(std::string_view)>& sink) {
  const auto keys = node_keys(dag);
  std::vector<Entry> entries;
  for (NodeId n = 0; n < dag.node_count(); ++n) {
    const NodeValue& value = values.nodes[n];
    if (!keys.has[n] || !value.ce || dag.is_leaf(n) || dag.node(n).terminal != Terminal::None) continue;
    for (EdgeId e : dag.edges_of(n)) {
      const Edge& edge = dag.edge(e);
      std::optional<std::uint16_t> weight;
      if (std::find(value.best_moves.begin(), value.best_moves.end(), edge.move) != value.best_moves.end())
        weight = kMaxWeight;
      else if (const auto& child = values.nodes[edge.child].ce)
        weight = weight_of(*value.ce, ce_through_move(*child), options);
      if (weight)
        entries.push_back({static_cast<std::uint32_t>(keys.key[n] >> 32), static_cast<std::uint32_t>(keys.key[n]),
                           polyglot_move(edge.move), *weight});
    }
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.key() != b.key()) return a.key() < b.key();
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.move < b.move;
  });
  constexpr std::size_t kPart = 4096;  // entries a part: 64 KB
  std::string out;
  out.reserve(kPart * kEntrySize);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& entry = entries[i];
    put_be(out, entry.key(), 8);
    put_be(out, entry.move, 2);
    put_be(out, entry.weight, 2);
    put_be(out, 0, 4);
    if ((i + 1) % kPart == 0 || i + 1 == entries.size()) {
      sink(out);
      out.clear();
    }
  }
}

std::string write_polyglot(const Dag& dag, const Backsolved& values, const PolyglotOptions& options) {
  std::string out;
  write_polyglot(dag, values, options, [&out](std::string_view part) { out += part; });
  return out;
}

namespace {

// The keys of a .bin's entries, checked: a whole number of entries, sorted by key.
Expected<std::vector<std::uint64_t>, std::string> entry_keys(std::string_view bytes) {
  if (bytes.size() % kEntrySize != 0)
    return unexpected("a Polyglot book is 16-byte entries, but this one has " + std::to_string(bytes.size()) +
                      " bytes (" + std::to_string(bytes.size() % kEntrySize) +
                      " left over): the file is cut short or not a Polyglot book");
  const std::size_t count = bytes.size() / kEntrySize;
  std::vector<std::uint64_t> keys(count);
  for (std::size_t i = 0; i < count; ++i) {
    keys[i] = get_be(bytes, i * kEntrySize, 8);
    if (i > 0 && keys[i] < keys[i - 1])
      return unexpected("the Polyglot book's entries are not sorted by key: the entry at byte offset " +
                        std::to_string(i * kEntrySize) + " has a smaller key than the one before it");
  }
  return keys;
}

}  // namespace

Expected<PolyglotAdded, std::string> add_polyglot(Dag& dag, std::string_view bytes, int max_ply,
                                                  std::vector<std::uint16_t>* weights) {
  auto checked = entry_keys(bytes);
  if (!checked) return unexpected(checked.error());
  const std::vector<std::uint64_t>& keys = *checked;
  PolyglotAdded added;
  const std::size_t nodes_before = dag.node_count();
  const std::size_t edges_before = dag.edge_count();
  std::vector<char> expanded(dag.node_count() + 1, 0);
  std::deque<std::pair<std::pair<NodeId, int>, core::Board>> queue;
  const NodeId start = dag.add_position(core::Board());
  if (start >= expanded.size()) expanded.resize(start + 1, 0);
  queue.push_back({{start, 0}, core::Board()});
  expanded[start] = 1;
  while (!queue.empty()) {
    auto [at, board] = std::move(queue.front());
    queue.pop_front();
    const auto [node, ply] = at;
    if (ply >= max_ply) continue;
    const auto [lo, hi] = std::equal_range(keys.begin(), keys.end(), board.polyglot_key());
    for (auto it = lo; it != hi; ++it) {
      ++added.entries;
      const std::size_t offset = static_cast<std::size_t>(it - keys.begin()) * kEntrySize;
      const core::Move move = move_from_polyglot(board, static_cast<std::uint16_t>(get_be(bytes, offset + 8, 2)));
      if (move.is_none()) {
        ++added.illegal_entries;
        continue;
      }
      core::Board child = board.detached();
      child.make_move(move);
      const NodeId to = dag.add_position(child);
      const std::size_t edges = dag.edge_count();
      const EdgeId e = dag.add_edge(node, move, to);
      if (weights && dag.edge_count() > edges) {
        weights->resize(dag.edge_count(), 0);
        (*weights)[e] = static_cast<std::uint16_t>(get_be(bytes, offset + 10, 2));
      }
      if (to >= expanded.size()) expanded.resize(to + 1, 0);
      if (expanded[to]) continue;
      expanded[to] = 1;
      queue.push_back({{to, ply + 1}, child.detached()});
    }
  }
  added.nodes_added = dag.node_count() - nodes_before;
  added.edges_added = dag.edge_count() - edges_before;
  if (weights) weights->resize(dag.edge_count(), 0);
  return added;
}

Expected<PolyglotBook, std::string> read_polyglot(std::string_view bytes, int max_ply) {
  PolyglotBook book{Dag(), {}, 0};
  auto added = add_polyglot(book.dag, bytes, max_ply, &book.weights);
  if (!added) return unexpected(added.error());
  book.illegal_entries = added->illegal_entries;
  return book;
}

}  // namespace epdd::book
