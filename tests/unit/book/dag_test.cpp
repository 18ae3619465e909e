// The book's DAG against positions counted here, independently: the games of 2moves_v2.pgn
// replayed with core, each position written as FEN and cut to its four EPD fields by this file.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/epd_output.hpp"
#include "book/first_paths.hpp"
#include "book/pgn_output.hpp"
#include "book/polyglot.hpp"
#include "core/fen.hpp"
#include "book_support.hpp"
#include "test_support.hpp"

using epdd::book::BuildOptions;
using epdd::book::Dag;
using epdd::book::EdgeId;
using epdd::book::NodeId;
using epdd::test::after;
using epdd::test::four_fields;
namespace core = epdd::core;
namespace pgn = epdd::pgn;

namespace {

std::vector<pgn::Game> book_games() {
  return epdd::test::games_of(epdd::test::read_file(epdd::test::shared_data("books/2moves_v2.pgn")));
}

// What the games say, replayed here: every position up to max_ply, and its distinct
// (parent, move) arrivals.
struct Replay {
  std::set<std::string> positions;
  std::map<std::string, std::set<std::pair<std::string, std::uint16_t>>> arrivals;
  std::set<std::string> parents;  // positions some move leaves
};

Replay replay(const std::vector<pgn::Game>& games, int max_ply) {
  Replay r;
  for (const pgn::Game& g : games) {
    core::Board b = g.start;
    r.positions.insert(four_fields(b));
    int ply = 0;
    for (core::Move m : g.mainline()) {
      if (ply++ >= max_ply) break;
      const std::string from = four_fields(b);
      b.make_move(m);
      const std::string to = four_fields(b);
      r.positions.insert(to);
      r.arrivals[to].insert({from, m.raw()});
      r.parents.insert(from);
    }
  }
  return r;
}

}  // namespace

TEST_CASE("dag: 2moves_v2.pgn is one node per distinct position", "[book][dag]") {
  const auto games = book_games();
  REQUIRE(games.size() == 12092);
  for (int max_ply : {2, 3, 1000}) {
    INFO("max_ply " << max_ply);
    Dag dag;
    BuildOptions options;
    options.max_ply = max_ply;
    for (const pgn::Game& g : games) dag.add_game(g, options);
    const Replay r = replay(games, max_ply);
    CHECK(dag.node_count() == r.positions.size());
    std::set<std::string> nodes;
    for (NodeId n = 0; n < dag.node_count(); ++n) nodes.insert(dag.epd(n));
    CHECK(nodes == r.positions);
    CHECK(dag.leaf_count() == r.positions.size() - r.parents.size());
    std::size_t edges = 0;
    for (const auto& [to, from] : r.arrivals) edges += from.size();
    CHECK(dag.edge_count() == edges);
    for (NodeId n = 0; n < dag.node_count(); ++n) {
      const auto it = r.arrivals.find(dag.epd(n));
      CHECK(dag.node(n).parents == (it == r.arrivals.end() ? 0 : it->second.size()));
    }
  }
  // The figures, pinned: the whole file, and the joins the replay found.
  Dag dag;
  for (const pgn::Game& g : games) dag.add_game(g);
  const Replay r = replay(games, 1000);
  CHECK(dag.node_count() == 13888);
  CHECK(dag.leaf_count() == 12092);  // one per game: the file holds each final position once
  std::size_t joins = 0;
  for (const auto& [to, from] : r.arrivals) joins += from.size() > 1;
  CHECK(joins == 0);  // and so no two of its lines transpose (see the next test for a join)
  // Positions that differ only by a legal en passant capture stay apart: 1. b4 Nf6 2. b5 c5
  // (bxc6 e.p. is legal) is not 1. b4 c5 2. b5 Nf6, though the pieces stand the same.
  const std::string ep = four_fields(after({"b4", "Nf6", "b5", "c5"}));
  const std::string no_ep = four_fields(after({"b4", "c5", "b5", "Nf6"}));
  CHECK(ep.substr(0, ep.rfind(' ')) == no_ep.substr(0, no_ep.rfind(' ')));
  CHECK(ep != no_ep);
  const NodeId ep_node = dag.find(after({"b4", "Nf6", "b5", "c5"}));
  const NodeId no_ep_node = dag.find(after({"b4", "c5", "b5", "Nf6"}));
  REQUIRE(ep_node != Dag::kNoNode);
  REQUIRE(no_ep_node != Dag::kNoNode);
  CHECK(ep_node != no_ep_node);
  CHECK(dag.epd(ep_node) == ep);
  CHECK(dag.epd(no_ep_node) == no_ep);
  std::set<std::string> without_ep;
  for (const std::string& p : r.positions) without_ep.insert(p.substr(0, p.rfind(' ')));
  CHECK(r.positions.size() - without_ep.size() == 51);
}

TEST_CASE("dag: a transposition is one node with two parents", "[book][dag]") {
  // 2moves_v2.pgn has no transposition of its own (above), so one game is added that reaches
  // its 1. d4 Nf6 2. c4 e6 by 1. c4 Nf6 2. d4 e6: the two orders meet at ply 3 already.
  auto games = book_games();
  for (auto& g : epdd::test::games_of("1. c4 Nf6 2. d4 e6 *\n")) games.push_back(std::move(g));
  Dag dag;
  for (const pgn::Game& g : games) dag.add_game(g);
  Dag file_only;
  for (std::size_t i = 0; i + 1 < games.size(); ++i) file_only.add_game(games[i]);
  // Every position of the new game is in the file already: it adds one edge, 2. d4, and no node.
  CHECK(dag.node_count() == 13888);
  CHECK(dag.edge_count() == file_only.edge_count() + 1);
  const std::string key = four_fields(after({"d4", "Nf6", "c4"}));
  REQUIRE(key == four_fields(after({"c4", "Nf6", "d4"})));
  const NodeId n = dag.find(after({"c4", "Nf6", "d4"}));
  REQUIRE(n != Dag::kNoNode);
  CHECK(dag.node(n).parents == 2);
  std::set<NodeId> parents;
  for (NodeId p = 0; p < dag.node_count(); ++p)
    for (EdgeId e : dag.edges_of(p))
      if (dag.edge(e).child == n) parents.insert(p);
  CHECK(parents == std::set<NodeId>{dag.find(after({"d4", "Nf6"})),
                                    dag.find(after({"c4", "Nf6"}))});
  // Its edge 3... e6 was played by two games now: one from the file, one added.
  for (EdgeId e : dag.edges_of(n))
    if (dag.epd(dag.edge(e).child) == four_fields(after({"d4", "Nf6", "c4", "e6"})))
      CHECK(dag.edge(e).stats.games == 2);
}

TEST_CASE("dag: each edge counts its games by result, once per game", "[book][dag]") {
  const auto games = epdd::test::games_of(
      "[Result \"1-0\"]\n1. e4 e5 2. Nf3 (2. Nc3 Nc6 3. Nf3) 2... Nc6 3. Nc3 1-0\n"
      "[Result \"0-1\"]\n1. e4 e5 2. Nf3 Nf6 0-1\n"
      "[Result \"1/2-1/2\"]\n1. e4 c5 1/2-1/2\n"
      "1. d4 *\n");
  REQUIRE(games.size() == 4);
  Dag dag;
  for (const auto& g : games) dag.add_game(g);
  const auto edge_to = [&](NodeId from, const std::string& child_key) {
    for (EdgeId e : dag.edges_of(from))
      if (dag.epd(dag.edge(e).child) == child_key) return dag.edge(e);
    FAIL("no edge to " << child_key);
    return dag.edge(0);
  };
  core::Board b;
  b.make_move(core::Move(core::Square::E2, core::Square::E4));
  const auto e4 = edge_to(0, four_fields(b));
  CHECK(e4.stats.games == 3);
  CHECK(e4.stats.white_wins == 1);
  CHECK(e4.stats.black_wins == 1);
  CHECK(e4.stats.draws == 1);
  // 1. e4 e5 2. Nf3 Nc6 3. Nc3 and 2. Nc3 Nc6 3. Nf3 meet: one node, two parents, and game 1
  // counts once on every edge though it plays the meeting position twice.
  const NodeId meet = dag.find(after({"e4", "e5", "Nf3", "Nc6", "Nc3"}));
  REQUIRE(meet == dag.find(after({"e4", "e5", "Nc3", "Nc6", "Nf3"})));
  CHECK(dag.node(meet).parents == 2);
  // start, e4, e5, Nf3, Nc3, Nf3 Nc6, Nc3 Nc6, the meeting, Nf6, c5, d4
  CHECK(dag.node_count() == 11);
  CHECK(dag.leaf_count() == 4);
  for (NodeId n = 0; n < dag.node_count(); ++n)
    for (EdgeId e : dag.edges_of(n)) {
      INFO(dag.epd(n) << " -> " << dag.epd(dag.edge(e).child));
      CHECK(dag.edge(e).stats.games >= 1);
      CHECK(dag.edge(e).stats.games <= 3);
    }
  const NodeId e5 = dag.find(after({"e4", "e5"}));
  CHECK(edge_to(e5, four_fields(after({"e4", "e5", "Nf3"}))).stats.games == 2);
  CHECK(edge_to(e5, four_fields(after({"e4", "e5", "Nc3"}))).stats.games == 1);
  // max_ply 3 counts a variation's plies from the game's start: 2. Nc3 (ply 3) enters, its
  // 2... Nc6 does not. start, e4, e5, Nf3, Nc3, c5, d4.
  BuildOptions three;
  three.max_ply = 3;
  Dag short_dag;
  for (const auto& g : games) short_dag.add_game(g, three);
  CHECK(short_dag.node_count() == 7);
  CHECK(short_dag.leaf_count() == 4);
  // min_games 2: only 1. e4 (3 games), 1... e5 and 2. Nf3 (2 games) stay.
  const Dag two = dag.filtered(2);
  CHECK(two.node_count() == 4);
  CHECK(two.edge_count() == 3);
  CHECK(two.leaf_count() == 1);
}

TEST_CASE("dag: positions with equal hashes stay apart", "[book][dag]") {
  // The index hashes by the Zobrist key, but a node is its position: forge a collision.
  Dag dag;
  epdd::book::PositionKey a = Dag::key_of(after({"e4"}));
  epdd::book::PositionKey b = Dag::key_of(after({"d4"}));
  b.hash = a.hash;
  const auto [na, made_a] = dag.add_node(a, epdd::book::Terminal::None);
  const auto [nb, made_b] = dag.add_node(b, epdd::book::Terminal::None);
  CHECK(made_a);
  CHECK(made_b);
  CHECK(na != nb);
  CHECK(dag.epd(nb) == four_fields(after({"d4"})));
  CHECK(dag.add_node(a, epdd::book::Terminal::None) == std::pair<NodeId, bool>{na, false});
}

TEST_CASE("dag: Chess960 games keep their castling rights through the packed key", "[book][dag]") {
  // Each game starts from its own FEN (a node without parent besides the standard root); every
  // position it reaches is found again and reads back as the FEN core writes for it.
  const auto games = epdd::test::games_of(
      epdd::test::read_file(epdd::test::shared_data("pgn/chess960-cutechess.pgn")));
  REQUIRE(games.size() == 4);
  Dag dag;
  std::set<std::string> positions{four_fields(core::Board())};
  for (const pgn::Game& g : games) {
    REQUIRE(g.start.chess960());
    dag.add_game(g);
    core::Board b = g.start;
    positions.insert(four_fields(b));
    for (core::Move m : g.mainline()) {
      b.make_move(m);
      positions.insert(four_fields(b));
      const NodeId n = dag.find(b);
      REQUIRE(n != Dag::kNoNode);
      CHECK(dag.epd(n) == four_fields(b));
    }
  }
  CHECK(dag.node_count() == positions.size());
}

TEST_CASE("dag: every node's terminal verdict is the rules' verdict on its position", "[book][dag]") {
  // The rules decided here from each node's EPD alone: no legal move is checkmate in check and
  // stalemate out of it; otherwise core's dead-position test. Hand-made games reach each verdict
  // (fool's mate, Loyd's ten-move stalemate, and a game that goes on for three plies after
  // the capture that leaves king and bishop against king), and twic0920.pgn adds real games.
  auto games = epdd::test::games_of(
      "1. f3 e5 2. g4 Qh4# 0-1\n\n"
      "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7\n"
      "9. Qxc8 Kg6 10. Qe6 1/2-1/2\n\n"
      "[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/3n4/K1B5 w - - 0 1\"]\n\n1. Bxd2 Ke4 2. Kb2 Kd3 *\n");
  const std::size_t made = games.size();
  REQUIRE(made == 3);
  for (auto& g : epdd::test::games_of(epdd::test::read_file(epdd::test::shared_data("pgn/twic0920.pgn"))))
    games.push_back(std::move(g));
  using epdd::book::Terminal;
  const auto rules = [](const core::Board& b) {
    if (b.legal_moves().empty()) return b.in_check() ? Terminal::Checkmate : Terminal::Stalemate;
    return b.is_insufficient_material() ? Terminal::InsufficientMaterial : Terminal::None;
  };
  for (std::size_t upto : {made, games.size()}) {
    Dag dag;
    for (std::size_t i = 0; i < upto; ++i) dag.add_game(games[i]);
    std::map<Terminal, int> count;
    for (NodeId n = 0; n < dag.node_count(); ++n) {
      auto board = core::parse_fen(dag.epd(n) + " 0 1");
      REQUIRE(board);
      INFO(dag.epd(n));
      CHECK(dag.node(n).terminal == rules(*board));
      ++count[dag.node(n).terminal];
    }
    if (upto == made) {
      CHECK(count[Terminal::Checkmate] == 1);
      CHECK(count[Terminal::Stalemate] == 1);
      CHECK(count[Terminal::InsufficientMaterial] == 4);
    }
  }
}

namespace {

// A node as this test sees it: its position, verdict, parents, and its moves in order with the
// position each leads to and its games.
struct NodeView {
  std::string epd;
  epdd::book::Terminal terminal;
  std::uint32_t parents;
  std::vector<std::tuple<std::uint16_t, std::string, std::uint32_t, std::uint32_t>> edges;
  bool operator==(const NodeView&) const = default;
};

NodeView view(const Dag& dag, NodeId n) {
  NodeView v{dag.epd(n), dag.node(n).terminal, dag.node(n).parents, {}};
  for (EdgeId e : dag.edges_of(n)) {
    const auto& edge = dag.edge(e);
    v.edges.emplace_back(edge.move.raw(), dag.epd(edge.child) + "#" + std::to_string(dag.node(edge.child).anonymous),
                         edge.stats.games, edge.stats.white_wins * 1000 + edge.stats.black_wins);
  }
  return v;
}

// Each leaf's value from its position's text alone (whatever its number), some of them mates.
epdd::book::LeafValues values_by_position(const Dag& dag) {
  epdd::book::LeafValues values;
  for (NodeId n = 0; n < dag.node_count(); ++n) {
    if (!dag.is_leaf(n) || !dag.key(n) || dag.node(n).terminal != epdd::book::Terminal::None) continue;
    const std::size_t h = std::hash<std::string>()(dag.epd(n));
    if (h % 7 == 0) continue;  // unvalued
    values.insert_or_assign(n, h % 11 == 0 ? core::Score::mate_in_plies(h % 2 ? 3 : -4)
                                           : core::Score::centipawns(static_cast<int>(h % 301) - 150));
  }
  return values;
}

}  // namespace

TEST_CASE("dag: renumbered in output order, the same book, its outputs read front to back", "[book][dag]") {
  // twic0920's games (transpositions, repetitions), a game from a FEN (a second root) and an
  // anonymous node (no position: last).
  std::string text = epdd::test::read_file(epdd::test::shared_data("pgn/twic0920.pgn"));
  text += "\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. Kd2 Kd6 3. Ke3 Ke5 *\n";
  Dag dag;
  for (const pgn::Game& g : epdd::test::games_of(text)) dag.add_game(g);
  const NodeId anonymous = dag.add_anonymous();
  std::vector<NodeView> before;
  for (NodeId n = 0; n < dag.node_count(); ++n) before.push_back(view(dag, n));
  auto values = values_by_position(dag);
  const auto solved_before = epdd::book::backsolve(dag, values);
  const std::string epd_before = epdd::book::write_book_epd(dag, solved_before, {});
  const std::string pgn_before = epdd::book::write_book_pgn(dag, solved_before);
  const std::string bin_before = epdd::book::write_polyglot(dag, solved_before);
  const std::vector<NodeId> order = epdd::book::output_order(dag);
  REQUIRE(order.size() == dag.node_count());
  CHECK(order.back() == anonymous);
  const std::vector<NodeId> rank = dag.renumber(order);
  // Every node as it was, under its new number; every position found at it.
  for (NodeId n = 0; n < rank.size(); ++n) {
    INFO("old node " << n << ", new " << rank[n]);
    REQUIRE(view(dag, rank[n]) == before[n]);
    if (dag.key(rank[n])) CHECK(dag.find(dag.key(rank[n])->board()) == rank[n]);
  }
  CHECK(rank[0] == 0);
  // Read front to back: the first paths in number order, each node's edges consecutive.
  const auto paths = epdd::book::first_paths(dag);
  CHECK(std::is_sorted(paths.order.begin(), paths.order.end()));
  CHECK(paths.order.size() == dag.node_count() - 1);  // all but the anonymous node
  EdgeId expected = 0;
  for (NodeId n = 0; n < dag.node_count(); ++n)
    for (EdgeId e : dag.edges_of(n)) CHECK(e == expected++);
  CHECK(expected == dag.edge_count());
  // The outputs, byte for byte.
  values = values_by_position(dag);
  const auto solved = epdd::book::backsolve(dag, values);
  CHECK(epdd::book::write_book_epd(dag, solved, {}) == epd_before);
  CHECK(epdd::book::write_book_pgn(dag, solved) == pgn_before);
  CHECK(epdd::book::write_polyglot(dag, solved) == bin_before);
  // Renumbered again in its own output order: nothing moves.
  const std::vector<NodeId> again = dag.renumber(epdd::book::output_order(dag));
  for (NodeId n = 0; n < again.size(); ++n) CHECK(again[n] == n);
  // Orders that are no permutation with node 0 first are refused.
  std::vector<NodeId> bad(dag.node_count());
  for (NodeId n = 0; n < bad.size(); ++n) bad[n] = n;
  std::swap(bad[0], bad[1]);
  CHECK_THROWS_AS(dag.renumber(bad), std::invalid_argument);
  bad[0] = 0;
  bad[1] = 0;
  CHECK_THROWS_AS(dag.renumber(bad), std::invalid_argument);
  bad.pop_back();
  CHECK_THROWS_AS(dag.renumber(bad), std::invalid_argument);
}

TEST_CASE("dag: the start position reached only from another root stays node 0 when renumbered", "[book][dag]") {
  // A game from a FEN that returns to the start position: node 0 is then a leaf the book leaves
  // out, reached from the FEN's root, in the middle of the walk (a review found this aborted).
  const std::string text =
      "[FEN \"rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1\"]\n[SetUp \"1\"]\n\n"
      "1... Nf6 2. Ng1 Ng8 *\n";
  Dag dag;
  for (const pgn::Game& g : epdd::test::games_of(text)) dag.add_game(g);
  REQUIRE(dag.is_leaf(0));
  const auto paths_before = epdd::book::first_paths(dag);
  REQUIRE(std::find(paths_before.order.begin(), paths_before.order.end(), NodeId{0}) != paths_before.order.begin());
  const auto values = values_by_position(dag);
  const auto solved_before = epdd::book::backsolve(dag, values);
  const std::string epd_before = epdd::book::write_book_epd(dag, solved_before, {});
  const std::string pgn_before = epdd::book::write_book_pgn(dag, solved_before);
  const std::vector<NodeId> order = epdd::book::output_order(dag);
  REQUIRE(order.front() == 0);
  std::vector<NodeView> before;
  for (NodeId n = 0; n < dag.node_count(); ++n) before.push_back(view(dag, n));
  const auto rank = dag.renumber(order);
  for (NodeId n = 0; n < rank.size(); ++n) CHECK(view(dag, rank[n]) == before[n]);
  const auto solved = epdd::book::backsolve(dag, values_by_position(dag));
  CHECK(epdd::book::write_book_epd(dag, solved, {}) == epd_before);
  CHECK(epdd::book::write_book_pgn(dag, solved) == pgn_before);
}
