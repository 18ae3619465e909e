// The top levels of a backsolved book as JSON (book/tree_json.hpp): a book written below with its
// leaf values set by hand, the values worked out by hand in the comments (negamax, a mate losing a
// ply per level), and the tree checked field by field: order by value for the mover, the widths,
// "more", games, mates, unvalued moves, a repetition.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/first_paths.hpp"
#include "book/html_page.hpp"
#include "book/tree_json.hpp"
#include "core/notation.hpp"
#include "book_support.hpp"
#include "test_support.hpp"

using epdd::book::Dag;
using epdd::book::LeafValues;
using epdd::test::after;
using epdd::test::games_of;
namespace book = epdd::book;
namespace core = epdd::core;

namespace {

// 1. e4 e5 2. Nf3 (1-0), 1. e4 e5 2. Bc4 (1/2), 1. e4 c5 (0-1), 1. d4 d5 (*), 1. Nf3 (*).
// Leaves (side to move): 2. Nf3 (B) 30, 2. Bc4 (B) -20, 1... c5 (W) 40, 1... d5 (W) mate in 3
// plies (32764), 1. Nf3 none. So 1. e4 e5 (W) 20, best Bc4; 1. e4 (B) -20, best e5 (c5 is -40
// for Black); 1. d4 (B) -(32767 - 4) = -32763; root 32767 - 5 = 32762, best d4, incomplete (Nf3).
struct Fixture {
  Dag dag;
  LeafValues values;
  Fixture() {
    for (const auto& g : games_of("[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Bc4 1/2-1/2\n\n"
                                  "[Result \"0-1\"]\n\n1. e4 c5 0-1\n\n[Result \"*\"]\n\n1. d4 d5 *\n\n1. Nf3 *\n"))
      dag.add_game(g);
    const auto set = [&](std::initializer_list<const char*> line, core::Score score) {
      const auto n = dag.find(after(line));
      REQUIRE(n != Dag::kNoNode);
      values.emplace(n, score);
    };
    set({"e4", "e5", "Nf3"}, core::Score::centipawns(30));
    set({"e4", "e5", "Bc4"}, core::Score::centipawns(-20));
    set({"e4", "c5"}, core::Score::centipawns(40));
    set({"d4", "d5"}, core::Score::mate_in_plies(3));
  }
  nlohmann::ordered_json tree(const book::TreeOptions& options = {}) const {
    return book::tree_json(dag, book::backsolve(dag, values), book::first_paths(dag), options);
  }
};

}  // namespace

TEST_CASE("tree_json: the root, its moves best first for the mover, values, games and the widths", "[book][tree]") {
  Fixture f;
  book::TreeOptions options;
  options.widths = {2, 1};
  const auto t = f.tree(options);
  CHECK(t["label"] == "start");
  CHECK(t["position"] == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
  CHECK(t["ce"] == 32762);
  CHECK(t["incomplete"] == true);
  CHECK(t["best"] == "d4");
  CHECK(t["moves"] == 3);
  REQUIRE(t["children"].size() == 2);
  CHECK(t["more"] == 1);  // 1. Nf3, unvalued: last, left out

  const auto& d4 = t["children"][0];
  CHECK(d4["move"] == "d4");
  CHECK(d4["ce"] == -32763);
  CHECK(d4["best"] == "d5");
  CHECK(d4["incomplete"] == false);
  CHECK(d4["games"] == 1);
  CHECK(d4["white_wins"] == 0);
  CHECK(d4["draws"] == 0);
  CHECK(d4["black_wins"] == 0);
  REQUIRE(d4["children"].size() == 1);
  CHECK_FALSE(d4.contains("more"));
  CHECK(d4["children"][0]["move"] == "d5");
  CHECK(d4["children"][0]["ce"] == 32764);
  CHECK(d4["children"][0]["best"].is_null());
  CHECK(d4["children"][0]["moves"] == 0);
  CHECK_FALSE(d4["children"][0].contains("children"));  // the last ply

  const auto& e4 = t["children"][1];
  CHECK(e4["move"] == "e4");
  CHECK(e4["ce"] == -20);
  CHECK(e4["best"] == "e5");
  CHECK(e4["games"] == 3);
  CHECK(e4["white_wins"] == 1);
  CHECK(e4["draws"] == 1);
  CHECK(e4["black_wins"] == 1);
  REQUIRE(e4["children"].size() == 1);
  CHECK(e4["more"] == 1);
  const auto& e5 = e4["children"][0];
  CHECK(e5["move"] == "e5");
  CHECK(e5["ce"] == 20);
  CHECK(e5["best"] == "Bc4");
  CHECK(e5["moves"] == 2);
  CHECK(e5["games"] == 2);
  CHECK_FALSE(e5.contains("children"));
}

TEST_CASE("tree_json: the default widths list every move of a small book, unvalued ones last", "[book][tree]") {
  Fixture f;
  const auto t = f.tree();
  REQUIRE(t["children"].size() == 3);
  CHECK_FALSE(t.contains("more"));
  CHECK(t["children"][2]["move"] == "Nf3");
  CHECK(t["children"][2]["ce"].is_null());
  CHECK(t["children"][2]["incomplete"] == true);
  const auto& e4 = t["children"][1];
  REQUIRE(e4["children"].size() == 2);
  CHECK(e4["children"][0]["move"] == "e5");  // -20 for Black before c5's -40
  CHECK(e4["children"][1]["move"] == "c5");
  CHECK(e4["children"][1]["ce"] == 40);
  const auto& e5 = e4["children"][0];
  REQUIRE(e5["children"].size() == 2);
  CHECK(e5["children"][0]["move"] == "Bc4");  // 20 for White before Nf3's -30
  CHECK(e5["children"][1]["move"] == "Nf3");
  CHECK(e5["children"][1]["ce"] == 30);
  CHECK_FALSE(e5["children"][0].contains("children"));  // three plies
}

TEST_CASE("tree_json: a move back into a position of the line is marked and not expanded", "[book][tree]") {
  Dag dag;
  for (const auto& g : games_of("1. Nf3 Nf6 2. Ng1 Ng8 3. e4 *\n")) dag.add_game(g);
  LeafValues values;
  values.emplace(dag.find(after({"Nf3", "Nf6", "Ng1", "Ng8", "e4"})), core::Score::centipawns(-10));
  book::TreeOptions options;
  options.widths = {8, 8, 8, 8, 8};
  const auto t = book::tree_json(dag, book::backsolve(dag, values), book::first_paths(dag), options);
  INFO(t.dump());
  REQUIRE(t["children"].size() == 2);
  // Each node's own value: 1. Nf3 (B) is -10 (its line goes on to the start position and e4), 10
  // for White as e4 is: a tie, edge order. The root's own line through Nf3 repeats the start (0),
  // so its best move is e4.
  CHECK(t["children"][0]["move"] == "Nf3");
  CHECK(t["children"][0]["ce"] == -10);
  CHECK(t["children"][1]["move"] == "e4");
  const auto& ng1 = t["children"][0]["children"][0]["children"][0];
  REQUIRE(ng1["move"] == "Ng1");
  REQUIRE(ng1["children"].size() == 1);
  const auto& ng8 = ng1["children"][0];
  CHECK(ng8["move"] == "Ng8");
  CHECK(ng8["repeats"] == true);
  CHECK_FALSE(ng8.contains("children"));
  CHECK(t["ce"] == 10);  // e4 at the start position: -(-10)
  CHECK(t["best"] == "e4");
}

TEST_CASE("tree_json: an empty book gives an empty object", "[book][tree]") {
  Dag dag{Dag::Empty{}};
  CHECK(book::tree_json(dag, book::backsolve(dag, {}), book::first_paths(dag)) == nlohmann::ordered_json::object());
}

namespace {

// Checks every listed node of `node` (at `ply`) against the widths: as many children as the
// width allows of its "moves", the rest in "more", best for the mover first; counts the nodes.
std::size_t check_widths(const nlohmann::ordered_json& node, std::size_t ply, const book::TreeOptions& options) {
  std::size_t nodes = 1;
  const std::size_t moves = node["moves"];
  if (ply == options.widths.size() || moves == 0) {
    CHECK_FALSE(node.contains("children"));
    return nodes;
  }
  const auto& children = node["children"];
  const std::size_t listed = std::min(moves, options.widths[ply]);
  CHECK(children.size() == listed);
  CHECK(node.value("more", std::size_t{0}) == moves - listed);
  for (std::size_t i = 0; i < children.size(); ++i) {
    if (i > 0) CHECK(-children[i]["ce"].get<int>() <= -children[i - 1]["ce"].get<int>());
    nodes += check_widths(children[i], ply + 1, options);
  }
  return nodes;
}

}  // namespace

TEST_CASE("tree_json: 2moves_v2.pgn (12,092 games) gives a tree and a page of a few dozen KB", "[book][tree]") {
  Dag dag;
  std::set<std::string> first_moves;
  for (const auto& g : games_of(epdd::test::read_file(epdd::test::shared_data("books/2moves_v2.pgn")))) {
    dag.add_game(g);
    first_moves.insert(core::to_san(g.start, g.main.moves.front().move));
  }
  LeafValues values;  // every leaf valued, values spread over -100..100 by node id
  for (book::NodeId n = 0; n < dag.node_count(); ++n)
    if (dag.is_leaf(n)) values.emplace(n, core::Score::centipawns(static_cast<int>(n * 37 % 201) - 100));
  const auto tree = book::tree_json(dag, book::backsolve(dag, values), book::first_paths(dag));
  CHECK(tree["moves"] == first_moves.size());
  const std::size_t nodes = check_widths(tree, 0, book::TreeOptions{});
  CHECK(nodes <= 1 + 32 + 32 * 5 + 32 * 5 * 3);
  const std::string json = tree.dump(2);
  INFO(nodes << " nodes, " << json.size() << " bytes of JSON");
  CHECK(json.size() < 100'000);
  const auto page = book::book_page(nlohmann::ordered_json{{"format", "epdd book 1"}, {"tree", tree}}.dump());
  REQUIRE(page);
  CHECK(page->size() < 100'000);
}
