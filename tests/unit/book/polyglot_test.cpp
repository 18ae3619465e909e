// Polyglot books: the key's test vectors from the format's specification, the move encoding
// (castling as the king taking its rook, promotions), a backsolved book written and read back,
// weights against the formula of book/polyglot.hpp worked out here, and bad files.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "book/backsolve.hpp"
#include "book/polyglot.hpp"
#include "book_support.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"

using epdd::book::Backsolved;
using epdd::book::Dag;
using epdd::book::LeafValues;
using epdd::book::NodeId;
namespace book = epdd::book;
namespace core = epdd::core;

namespace {

struct RawEntry {
  std::uint64_t key;
  std::uint16_t move;
  std::uint16_t weight;
  std::uint32_t learn;
};

std::vector<RawEntry> entries_of(const std::string& bytes) {
  auto be = [&](std::size_t at, int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = v << 8 | static_cast<unsigned char>(bytes[at + i]);
    return v;
  };
  std::vector<RawEntry> out;
  for (std::size_t at = 0; at + 16 <= bytes.size(); at += 16)
    out.push_back({be(at, 8), static_cast<std::uint16_t>(be(at + 8, 2)), static_cast<std::uint16_t>(be(at + 10, 2)),
                   static_cast<std::uint32_t>(be(at + 12, 4))});
  return out;
}

// The Polyglot move written out by hand from the specification's bit layout.
std::uint16_t spec_move(const char* from, const char* to, int promotion = 0) {
  auto f = [](char c) { return c - 'a'; };
  auto r = [](char c) { return c - '1'; };
  return static_cast<std::uint16_t>(f(to[0]) | r(to[1]) << 3 | f(from[0]) << 6 | r(from[1]) << 9 | promotion << 12);
}

// lichess's winning chances, written here again: the oracle of the weight formula.
double wc(int cp) { return 2.0 / (1.0 + std::exp(-0.00368208 * cp)) - 1.0; }

// Games with castling on both sides, a promotion, a transposition and several moves a node.
constexpr const char* kGames = R"(
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O 1-0

[Result "0-1"]

1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 0-1

[Result "1/2-1/2"]

1. Nf3 e5 2. e4 Nc6 3. d4 1/2-1/2

[Result "1-0"]

1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8=Q Qc7 6. Qxa7 1-0

[Result "1-0"]

1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Nbd7 5. bxa8=N e5 1-0

[Result "1-0"]

1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O 6. Kb1 1-0
)";

// The small book: its Dag, leaf values spread over -150..+150 by node number, backsolved.
struct SmallBook {
  Dag dag;
  Backsolved values;
};

SmallBook small_book() {
  SmallBook b{Dag(), {}};
  for (const auto& g : epdd::test::games_of(kGames)) b.dag.add_game(g);
  LeafValues leaves;
  for (NodeId n = 0; n < b.dag.node_count(); ++n)
    if (b.dag.is_leaf(n)) leaves.insert_or_assign(n, core::Score::centipawns(static_cast<int>(n * 37 % 301) - 150));
  b.values = book::backsolve(b.dag, leaves);
  return b;
}

// The moves (UCI, king takes rook) of a node's edges, or of a read book's node.
std::set<std::string> moves_of(const Dag& dag, NodeId n) {
  std::set<std::string> out;
  for (auto e : dag.edges_of(n)) out.insert(core::to_uci(dag.edge(e).move, core::UciCastling::KingTakesRook));
  return out;
}

}  // namespace

TEST_CASE("Polyglot keys: the test vectors of the format's specification", "[polyglot]") {
  // (epdd::test::after reads UCI moves too: the specification writes its lines in UCI.)
  CHECK(core::Board().polyglot_key() == 0x463b96181691fc9cULL);
  CHECK(epdd::test::after({"e2e4"}).polyglot_key() == 0x823c9b50fd114196ULL);
  CHECK(epdd::test::after({"e2e4", "d7d5"}).polyglot_key() == 0x0756b94461c50fb0ULL);
  CHECK(epdd::test::after({"e2e4", "d7d5", "e4e5"}).polyglot_key() == 0x662fafb965db29d4ULL);
  CHECK(epdd::test::after({"e2e4", "d7d5", "e4e5", "f7f5"}).polyglot_key() == 0x22a48b5a8e47ff78ULL);
  CHECK(epdd::test::after({"e2e4", "d7d5", "e4e5", "f7f5", "e1e2"}).polyglot_key() == 0x652a607ca3f242c1ULL);
  CHECK(epdd::test::after({"e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"}).polyglot_key() == 0x00fdd303c946bdd9ULL);
  CHECK(epdd::test::after({"a2a4", "b7b5", "h2h4", "b5b4", "c2c4"}).polyglot_key() == 0x3c8123ea7b067637ULL);
  CHECK(epdd::test::after({"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"}).polyglot_key() == 0x5c3f9b829b279560ULL);
}

TEST_CASE("Polyglot moves: castling is the king taking its rook, promotions name the piece", "[polyglot]") {
  const core::Board ready = epdd::test::after({"e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"});
  const auto oo = core::parse_san(ready, "O-O");
  REQUIRE(oo);
  CHECK(book::polyglot_move(oo->move) == spec_move("e1", "h1"));
  CHECK(book::move_from_polyglot(ready, spec_move("e1", "h1")) == oo->move);
  CHECK(book::move_from_polyglot(ready, spec_move("e1", "g1")).is_none());
  const core::Board black = epdd::test::after({"d4", "d5", "Nc3", "Nc6", "Bf4", "Bf5", "Qd2", "Qd7", "O-O-O"});
  const auto ooo = core::parse_san(black, "O-O-O");
  REQUIRE(ooo);
  CHECK(book::polyglot_move(ooo->move) == spec_move("e8", "a8"));
  const core::Board promo = epdd::test::after({"e4", "d5", "exd5", "c6", "dxc6", "Nf6", "cxb7", "Nbd7"});
  for (auto [san, piece] : {std::pair{"bxa8=N", 1}, {"bxa8=B", 2}, {"bxa8=R", 3}, {"bxa8=Q", 4}}) {
    const auto m = core::parse_san(promo, san);
    REQUIRE(m);
    CHECK(book::polyglot_move(m->move) == spec_move("b7", "a8", piece));
    CHECK(book::move_from_polyglot(promo, spec_move("b7", "a8", piece)) == m->move);
  }
}

TEST_CASE("Polyglot moves: Chess960 castling is the king taking its rook too", "[polyglot]") {
  core::FenReadOptions fen;
  fen.chess960 = true;
  const auto board = core::parse_fen("1rk4r/pppppppp/8/8/8/8/PPPPPPPP/1RK4R w HBhb - 0 1", fen);
  REQUIRE(board);
  for (auto [san, rook] : {std::pair{"O-O", "h1"}, {"O-O-O", "b1"}}) {
    const auto m = core::parse_san(*board, san);
    REQUIRE(m);
    CHECK(book::polyglot_move(m->move) == spec_move("c1", rook));
    CHECK(book::move_from_polyglot(*board, spec_move("c1", rook)) == m->move);
  }
}

TEST_CASE("write_polyglot: sorted entries, the best moves heaviest, weights by the documented formula", "[polyglot]") {
  const SmallBook b = small_book();
  const std::string bytes = book::write_polyglot(b.dag, b.values, {});
  REQUIRE(bytes.size() % 16 == 0);
  const auto entries = entries_of(bytes);
  REQUIRE(!entries.empty());
  for (std::size_t i = 1; i < entries.size(); ++i) {
    INFO("entry " << i);
    CHECK(entries[i - 1].key <= entries[i].key);
    if (entries[i - 1].key == entries[i].key) CHECK(entries[i - 1].weight >= entries[i].weight);
  }
  // Every interior node's entries, worked out here from the header's formula.
  std::size_t expected_count = 0;
  bool saw_castling = false, saw_promotion = false, saw_left_out = false;
  for (NodeId n = 0; n < b.dag.node_count(); ++n) {
    if (b.dag.is_leaf(n)) continue;
    const auto& v = b.values.nodes[n];
    REQUIRE(v.ce);
    auto board = core::parse_fen(b.dag.epd(n), {core::FenFields::Four, false});
    REQUIRE(board);
    std::map<std::uint16_t, int> want;  // move -> weight
    for (auto e : b.dag.edges_of(n)) {
      const auto& edge = b.dag.edge(e);
      const auto& best = v.best_moves;
      int weight = 0;
      if (std::find(best.begin(), best.end(), edge.move) != best.end()) {
        weight = 65535;
      } else {
        const int move_ce = -*b.values.nodes[edge.child].ce;  // no mates in this book
        if (*v.ce - move_ce > 100) {
          saw_left_out = true;
          continue;
        }
        const double f = std::clamp((wc(*v.ce) - wc(move_ce)) / (wc(*v.ce) - wc(*v.ce - 100)), 0.0, 1.0);
        weight = 1 + static_cast<int>(std::lround(65533 * (1 - f)));
        CHECK(weight < 65535);
      }
      saw_castling |= edge.move.kind() == core::MoveKind::Castling;
      saw_promotion |= edge.move.kind() == core::MoveKind::Promotion;
      want[book::polyglot_move(edge.move)] = weight;
    }
    std::map<std::uint16_t, int> got;
    for (const auto& entry : entries)
      if (entry.key == board->polyglot_key()) got[entry.move] = entry.weight;
    INFO(b.dag.epd(n));
    CHECK(got == want);
    expected_count += want.size();
  }
  CHECK(entries.size() == expected_count);
  CHECK(saw_castling);
  CHECK(saw_promotion);
  CHECK(saw_left_out);
  for (const auto& entry : entries) CHECK(entry.learn == 0);

  // keep_losing: the losing moves are there with weight 0.
  book::PolyglotOptions keep;
  keep.keep_losing = true;
  const auto all = entries_of(book::write_polyglot(b.dag, b.values, keep));
  CHECK(all.size() == b.dag.edge_count());
  CHECK(std::count_if(all.begin(), all.end(), [](const RawEntry& e) { return e.weight == 0; }) ==
        static_cast<long>(b.dag.edge_count() - entries.size()));

  // A wider margin keeps every move, none with weight 0.
  book::PolyglotOptions wide;
  wide.margin_cp = 10000;
  const auto wider = entries_of(book::write_polyglot(b.dag, b.values, wide));
  CHECK(wider.size() == b.dag.edge_count());
  CHECK(std::none_of(wider.begin(), wider.end(), [](const RawEntry& e) { return e.weight == 0; }));
}

TEST_CASE("write_polyglot: unvalued nodes get no entries", "[polyglot]") {
  SmallBook b = small_book();
  const auto all = entries_of(book::write_polyglot(b.dag, b.values, {}));
  for (auto& v : b.values.nodes) v.ce.reset();
  CHECK(book::write_polyglot(b.dag, b.values, {}).empty());
  CHECK(!all.empty());
}

TEST_CASE("write_polyglot: a game that starts inside a repetition cycle still gets its entries", "[polyglot]") {
  // The FEN start (after 1. e4 e5) has a parent (the knights' return), so no walk from a root
  // without parents reaches it.
  const auto games = epdd::test::games_of(R"([FEN "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]
[Result "*"]

2. Nf3 Nf6 3. Ng1 Ng8 *
)");
  Dag dag;
  dag.add_game(games.front());
  const Backsolved values = book::backsolve(dag, {});
  const auto entries = entries_of(book::write_polyglot(dag, values, {}));
  CHECK(entries.size() == 4);
  const auto start = core::parse_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  REQUIRE(start);
  CHECK(std::any_of(entries.begin(), entries.end(), [&](const RawEntry& e) {
    return e.key == start->polyglot_key() && e.move == spec_move("g1", "f3");
  }));
}

TEST_CASE("read_polyglot: a written book reads back with the same moves and weights at every node", "[polyglot]") {
  const SmallBook b = small_book();
  book::PolyglotOptions keep;
  keep.keep_losing = true;
  const std::string bytes = book::write_polyglot(b.dag, b.values, keep);
  const auto read = book::read_polyglot(bytes, 100);
  REQUIRE(read);
  CHECK(read->illegal_entries == 0);
  CHECK(read->dag.node_count() == b.dag.node_count());
  CHECK(read->weights.size() == read->dag.edge_count());
  const auto entries = entries_of(bytes);
  for (NodeId n = 0; n < b.dag.node_count(); ++n) {
    auto board = core::parse_fen(b.dag.epd(n), {core::FenFields::Four, false});
    REQUIRE(board);
    const NodeId r = read->dag.find(*board);
    INFO(b.dag.epd(n));
    REQUIRE(r != Dag::kNoNode);
    CHECK(moves_of(read->dag, r) == moves_of(b.dag, n));
    for (auto e : read->dag.edges_of(r)) {
      const auto move = book::polyglot_move(read->dag.edge(e).move);
      auto it = std::find_if(entries.begin(), entries.end(), [&](const RawEntry& x) {
        return x.key == board->polyglot_key() && x.move == move;
      });
      REQUIRE(it != entries.end());
      CHECK(read->weights[e] == it->weight);
    }
  }
  // max_ply: two plies reach the positions after 1. e4 / 1. d4 / 1. Nf3 and their replies only.
  const auto shallow = book::read_polyglot(bytes, 2);
  REQUIRE(shallow);
  CHECK(shallow->dag.edge_count() == moves_of(b.dag, 0).size() +
                                         moves_of(b.dag, b.dag.find(epdd::test::after({"e4"}))).size() +
                                         moves_of(b.dag, b.dag.find(epdd::test::after({"d4"}))).size() +
                                         moves_of(b.dag, b.dag.find(epdd::test::after({"Nf3"}))).size());
}

TEST_CASE("read_polyglot: bad sizes, unsorted entries and illegal moves", "[polyglot]") {
  const SmallBook b = small_book();
  const std::string bytes = book::write_polyglot(b.dag, b.values, {});
  const auto cut = book::read_polyglot(bytes.substr(0, bytes.size() - 3), 10);
  REQUIRE(!cut);
  CHECK_THAT(cut.error(), Catch::Contains(std::to_string(bytes.size() - 3) + " bytes"));

  std::string swapped = bytes;  // the last entry first: the second entry's key is smaller
  std::string last = swapped.substr(swapped.size() - 16);
  swapped.erase(swapped.size() - 16);
  swapped.insert(0, last);
  const auto unsorted = book::read_polyglot(swapped, 10);
  REQUIRE(!unsorted);
  CHECK_THAT(unsorted.error(), Catch::Contains("byte offset 16"));

  // An entry for the start position whose move is not legal there (e1e5): skipped and counted.
  std::string bad;
  for (std::uint64_t v : {0x463b96181691fc9cULL}) for (int i = 7; i >= 0; --i) bad.push_back(static_cast<char>(v >> 8 * i));
  const std::uint16_t e1e5 = spec_move("e1", "e5");
  bad += {static_cast<char>(e1e5 >> 8), static_cast<char>(e1e5 & 0xff), 0, 1, 0, 0, 0, 0};
  const std::uint16_t e2e4 = spec_move("e2", "e4");
  bad += bad.substr(0, 8);
  bad += {static_cast<char>(e2e4 >> 8), static_cast<char>(e2e4 & 0xff), 0, 1, 0, 0, 0, 0};
  const auto read = book::read_polyglot(bad, 10);
  REQUIRE(read);
  CHECK(read->illegal_entries == 1);
  CHECK(read->dag.edge_count() == 1);
  CHECK(moves_of(read->dag, 0) == std::set<std::string>{"e2e4"});
}

// ---- Debian's polyglot as the independent reader (tests/integration/book/polyglot_dump_test.sh) ----
// Hidden cases: the script runs "[.polyglot-write]" with EPDD_POLYGLOT_DIR set (book.bin is
// written there), then `polyglot dump-book` for each colour, then "[.polyglot-dump]", which
// reads dump-book's lines back with core and checks them against the small book.

namespace {

std::string polyglot_dir() {
  const char* dir = std::getenv("EPDD_POLYGLOT_DIR");
  REQUIRE(dir != nullptr);
  return dir;
}

// dump-book's percentage of a weight: 100 * weight / sum of the node's weights, to the nearest.
std::string percent(int weight, int sum) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * weight / sum);
  return buf;
}

// One colour's dump: for every node where that colour played a book move, the moves in the
// order dump-book first listed them, with the percentage it printed.
std::map<NodeId, std::vector<std::pair<core::Move, std::string>>> read_dump(const Dag& dag, const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::map<NodeId, std::vector<std::pair<core::Move, std::string>>> out;
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || word.empty() || word.back() != ':' || !std::isdigit(static_cast<unsigned char>(word[0])))
      continue;  // the header lines
    ++lines;
    core::Board board;
    while (words >> word) {
      if (std::isdigit(static_cast<unsigned char>(word[0]))) continue;  // "1." / "1..."
      if (word[0] == '{') break;  // "{trans: line=1, ply=3}": a transposition to an earlier line
      std::string pct;
      if (auto brace = word.find('{'); brace != std::string::npos) {
        pct = word.substr(brace + 1, word.size() - brace - 2);
        word.erase(brace);
      }
      auto m = core::parse_san(board, word);
      INFO(line << " / " << word);
      REQUIRE(m);
      if (!pct.empty()) {
        const NodeId n = dag.find(board);
        REQUIRE(n != Dag::kNoNode);
        auto& seen = out[n];
        auto it = std::find_if(seen.begin(), seen.end(), [&](const auto& p) { return p.first == m->move; });
        if (it == seen.end()) seen.emplace_back(m->move, pct);
        else CHECK(it->second == pct);
      }
      board.make_move(m->move);
    }
  }
  CHECK(lines > 0);
  return out;
}

}  // namespace

TEST_CASE("Polyglot: the small book written for dump-book", "[.polyglot-write]") {
  const SmallBook b = small_book();
  std::ofstream out(polyglot_dir() + "/book.bin", std::ios::binary);
  out << book::write_polyglot(b.dag, b.values, {});
  REQUIRE(out.good());
}

TEST_CASE("Polyglot: dump-book lists every node's moves, the best first, with our weights", "[.polyglot-dump]") {
  const SmallBook b = small_book();
  // The file dump-book read. Polyglot 2.0.4 loads a book whole, so it lists a book whose keys are
  // out of order as if it were sorted: the order the format requires is checked here.
  std::ifstream bin(polyglot_dir() + "/book.bin", std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(bin), std::istreambuf_iterator<char>()};
  const auto entries = entries_of(bytes);
  REQUIRE(!entries.empty());
  for (std::size_t i = 1; i < entries.size(); ++i) {
    INFO("entry " << i);
    REQUIRE(entries[i - 1].key <= entries[i].key);
  }
  for (auto [colour, side] : {std::pair{"white", core::Color::White}, {"black", core::Color::Black}}) {
    const auto dumped = read_dump(b.dag, polyglot_dir() + "/" + colour + ".txt");
    // Every interior node of this colour reachable from the root is dumped: dump-book's lines take
    // only written moves of this colour and any move of the other (the man page's definition).
    std::set<NodeId> reach{0}, todo{0};
    while (!todo.empty()) {
      const NodeId n = *todo.begin();
      todo.erase(todo.begin());
      auto board = core::parse_fen(b.dag.epd(n), {core::FenFields::Four, false});
      REQUIRE(board);
      for (auto e : b.dag.edges_of(n)) {
        const auto move = book::polyglot_move(b.dag.edge(e).move);
        const bool written = std::any_of(entries.begin(), entries.end(), [&](const RawEntry& x) {
          return x.key == board->polyglot_key() && x.move == move;
        });
        if ((written || board->side_to_move() != side) && reach.insert(b.dag.edge(e).child).second) todo.insert(b.dag.edge(e).child);
      }
    }
    std::size_t checked = 0;
    for (NodeId n : reach) {
      auto board = core::parse_fen(b.dag.epd(n), {core::FenFields::Four, false});
      if (b.dag.is_leaf(n) || board->side_to_move() != side) continue;
      INFO(colour << ": " << b.dag.epd(n));
      auto it = dumped.find(n);
      REQUIRE(it != dumped.end());
      const auto& listed = it->second;
      // The first move listed is a best move; the moves and percentages are ours.
      const auto& best = b.values.nodes[n].best_moves;
      CHECK(std::find(best.begin(), best.end(), listed.front().first) != best.end());
      std::map<std::uint16_t, int> ours;
      int sum = 0;
      for (const auto& x : entries)
        if (x.key == board->polyglot_key()) {
          ours[x.move] = x.weight;
          sum += x.weight;
        }
      CHECK(listed.size() == ours.size());
      for (const auto& [move, pct] : listed) {
        REQUIRE(ours.count(book::polyglot_move(move)));
        CHECK(pct == percent(ours[book::polyglot_move(move)], sum));
      }
      ++checked;
    }
    CHECK(checked == dumped.size());
    CHECK(checked > 3);
  }
}
