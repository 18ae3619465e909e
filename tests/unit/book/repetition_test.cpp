// A hand-made book with a repetition: 1. Nf3 Nf6 2. Ng1 Ng8 returns to the start position, so
// the book's graph has a cycle, and its values are worked out by hand below.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "book/backsolve.hpp"
#include "book_support.hpp"

using epdd::book::Dag;
using epdd::book::LeafValues;
using epdd::book::NodeId;
namespace core = epdd::core;
using epdd::test::after;

namespace {

constexpr const char* kRepeat = "1. Nf3 Nf6 2. Ng1 Ng8 3. e4 *\n";
constexpr const char* kOther = "1. Nf3 Nf6 2. d4 *\n";

core::Move san(std::initializer_list<const char*> line, const char* move) {
  auto m = core::parse_san(after(line), move);
  REQUIRE(m);
  return m->move;
}

Dag build(const std::string& text) {
  Dag dag;
  for (const auto& g : epdd::test::games_of(text)) dag.add_game(g);
  return dag;
}

}  // namespace

TEST_CASE("repetition: the cycle back to the start position is one edge into the root", "[book][cycle]") {
  const Dag dag = build(std::string(kRepeat) + kOther);
  // start, Nf3, Nf6, Ng1, d4, e4: 2... Ng8 and 3. e4 start from the root again.
  CHECK(dag.node_count() == 6);
  CHECK(dag.edge_count() == 6);
  CHECK(dag.leaf_count() == 2);
  CHECK(dag.node(0).parents == 1);
  const NodeId ng1 = dag.find(after({"Nf3", "Nf6", "Ng1"}));
  REQUIRE(ng1 != Dag::kNoNode);
  bool back = false;
  for (auto e : dag.edges_of(ng1)) back = back || dag.edge(e).child == 0;
  CHECK(back);
  const auto comps = epdd::book::strongly_connected_components(dag);
  CHECK(comps.count() == 3);  // the cycle's four positions, and the two leaves
  CHECK(comps.component_of[0] == comps.component_of[ng1]);
}

TEST_CASE("repetition: values by hand, in either input order", "[book][cycle]") {
  for (const std::string& text : {std::string(kRepeat) + kOther, std::string(kOther) + kRepeat}) {
    const Dag dag = build(text);
    const NodeId s = 0;
    const NodeId a = dag.find(after({"Nf3"}));
    const NodeId b = dag.find(after({"Nf3", "Nf6"}));
    const NodeId c = dag.find(after({"Nf3", "Nf6", "Ng1"}));
    const NodeId e4 = dag.find(after({"e4"}));
    const NodeId d4 = dag.find(after({"Nf3", "Nf6", "d4"}));
    // Black to move in both leaves: after 1. e4 White is 30 cp better, after 2. d4 Black is
    // 100 cp better.
    const LeafValues leaves{{e4, core::Score::centipawns(-30)}, {d4, core::Score::centipawns(100)}};
    const auto v = epdd::book::backsolve(dag, leaves);
    CHECK(v.components_with_cycles == 1);
    // From the start: 1. e4 gives 30; 1. Nf3 Nf6 and then 2. d4 loses 100, so White plays 2. Ng1,
    // and 2... Ng8 repeats the start: 0. The start is worth 30 through 1. e4.
    CHECK(v.nodes[s].ce == 30);
    CHECK(test::listed(v.nodes[s].best_moves) == std::vector<core::Move>{san({}, "e4")});
    // From after 1. Nf3 Nf6: 2. Ng1 Ng8 reaches the start (not yet on this line), where 3. e4
    // gives 30, while 1. Nf3 there would repeat: 2. Ng1 is worth 30 for White.
    CHECK(v.nodes[b].ce == 30);
    CHECK(test::listed(v.nodes[b].best_moves) == std::vector<core::Move>{san({"Nf3", "Nf6"}, "Ng1")});
    CHECK(v.nodes[c].ce == -30);
    CHECK(test::listed(v.nodes[c].best_moves) == std::vector<core::Move>{san({"Nf3", "Nf6", "Ng1"}, "Ng8")});
    CHECK(v.nodes[a].ce == -30);
    for (NodeId n : {s, a, b, c}) CHECK_FALSE(v.nodes[n].incomplete);
    CHECK(epdd::book::principal_line(dag, v) == std::vector<core::Move>{san({}, "e4")});
    // Without the value of 1. e4 the start rests on the repetition and 2. d4 only, and says so.
    const auto partial = epdd::book::backsolve(dag, LeafValues{{d4, core::Score::centipawns(100)}});
    CHECK(partial.nodes[s].ce == 0);
    CHECK(test::listed(partial.nodes[s].best_moves) == std::vector<core::Move>{san({}, "Nf3")});
    CHECK(partial.nodes[s].incomplete);
    CHECK_FALSE(partial.nodes[e4].ce);
  }
}
