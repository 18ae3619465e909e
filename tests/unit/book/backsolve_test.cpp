// Backsolving against an oracle written here from the definition in book/backsolve.hpp: a plain
// recursion that carries the set of positions on the line, on many random graphs with mates,
// draws, terminal nodes, cycles and unvalued leaves.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "book/backsolve.hpp"
#include "book_support.hpp"

using epdd::book::Backsolved;
using epdd::book::Dag;
using epdd::book::EdgeId;
using epdd::book::LeafValues;
using epdd::book::NodeId;
using epdd::book::Terminal;
namespace core = epdd::core;

namespace {

// A graph as the oracle sees it: keys, terminal verdicts, edges (move, child) and leaf values.
struct Graph {
  int size = 0;
  std::vector<Terminal> terminal;
  std::vector<std::vector<std::pair<core::Move, int>>> edges;
  std::map<int, int> leaf_ce;  // absent: unvalued
};

struct Value {
  std::optional<int> ce;
  std::vector<core::Move> best;
  bool incomplete = false;
};

// A parent's view of a child's ce through one move: mates count one more ply.
int parent_view(int ce) {
  if (ce >= 32001) {  // the child mates in p plies: the parent is mated in p + 1
    const int p = 32767 - ce;
    return -(32767 - (p + 1));
  }
  if (ce <= -32001) {  // the child is mated in p plies: the parent mates in p + 1
    const int p = 32767 + ce;
    return 32767 - (p + 1);
  }
  return -ce;
}

Value oracle(const Graph& g, int n, std::set<int>& path) {
  Value v;
  if (g.terminal[n] == Terminal::Checkmate) return {-32767, {}, false};
  if (g.terminal[n] != Terminal::None) return {0, {}, false};
  if (g.edges[n].empty()) {
    auto it = g.leaf_ce.find(n);
    if (it == g.leaf_ce.end()) return {std::nullopt, {}, true};
    return {it->second, {}, false};
  }
  std::vector<std::optional<int>> through;
  for (const auto& [move, child] : g.edges[n]) {
    if (path.count(child)) {
      through.push_back(0);
      continue;
    }
    path.insert(child);
    const Value c = oracle(g, child, path);
    path.erase(child);
    if (c.incomplete) v.incomplete = true;
    through.push_back(c.ce ? std::optional<int>(parent_view(*c.ce)) : std::nullopt);
  }
  for (const auto& t : through)
    if (t && (!v.ce || *t > *v.ce)) v.ce = t;
  for (std::size_t i = 0; i < through.size(); ++i)
    if (v.ce && through[i] == v.ce) v.best.push_back(g.edges[n][i].first);
  return v;
}

Graph random_graph(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Graph g;
  g.size = pick(1, 11);
  g.terminal.assign(g.size, Terminal::None);
  g.edges.resize(g.size);
  for (int n = 0; n < g.size; ++n) {
    // Mostly forward edges (a book), some backward ones (repetitions), some to itself.
    const int degree = pick(0, 3);
    std::set<int> targets;
    for (int k = 0; k < degree; ++k) {
      const int t = pick(0, 9) < 7 && n + 1 < g.size ? pick(n + 1, g.size - 1) : pick(0, g.size - 1);
      if (targets.insert(t).second)
        g.edges[n].push_back({core::Move(core::square_at(n), core::square_at(63 - static_cast<int>(targets.size()))), t});
    }
    const int kind = pick(0, 19);
    if (kind == 0) g.terminal[n] = Terminal::Checkmate;
    if (kind == 1) g.terminal[n] = Terminal::Stalemate;
    if (kind == 2) g.terminal[n] = Terminal::InsufficientMaterial;
    if (g.edges[n].empty() && g.terminal[n] == Terminal::None && pick(0, 4) > 0) {
      const int value = pick(0, 3);
      g.leaf_ce[n] = value == 0   ? 32767 - (2 * pick(0, 8) + 1)   // mates in an odd number of plies
                     : value == 1 ? -(32767 - 2 * pick(1, 8))     // mated in an even number
                                  : pick(-400, 400);
    }
  }
  // Moves differ per parent (the to-square counts down); make every edge's move unique anyway.
  return g;
}

// The graph as a Dag, nodes added in `order` (a permutation), so that ids and edge order
// change; id[n] is the graph's node n in the Dag.
Dag to_dag(const Graph& g, const std::vector<int>& order, LeafValues& leaves, std::vector<NodeId>& id) {
  Dag dag{Dag::Empty{}};
  id.assign(g.size, 0);
  for (int n : order) id[n] = dag.add_anonymous(g.terminal[n]);
  for (int n : order)
    for (const auto& [move, child] : g.edges[n]) dag.add_edge(id[n], move, id[child]);
  for (const auto& [n, ce] : g.leaf_ce) leaves.emplace(id[n], core::Score::from_ce(ce).value());
  return dag;
}

// Checks one node's result against the oracle's (the oracle's value returned).
Value check_node(const Graph& g, int n, const epdd::book::NodeValue& got) {
  std::set<int> path{n};
  const Value want = oracle(g, n, path);
  CHECK(got.ce == want.ce);
  CHECK(got.incomplete == want.incomplete);
  // Edge order follows the order nodes were added in: compare as sets of moves.
  std::vector<core::Move> best = test::listed(got.best_moves);
  auto want_best = want.best;
  const auto by_raw = [](core::Move a, core::Move b) { return a.raw() < b.raw(); };
  std::sort(best.begin(), best.end(), by_raw);
  std::sort(want_best.begin(), want_best.end(), by_raw);
  CHECK(best == want_best);
  return want;
}

}  // namespace

TEST_CASE("backsolve: a parent sees a child's mate one ply longer", "[book][backsolve]") {
  using epdd::book::ce_through_move;
  CHECK(ce_through_move(-32767) == 32766);  // the child is checkmated: mate in 1
  CHECK(ce_through_move(32766) == -32765);  // the child mates in 1: mated in 2
  CHECK(ce_through_move(-32765) == 32764);
  CHECK(ce_through_move(35) == -35);
  CHECK(ce_through_move(-32000) == 32000);
  CHECK(ce_through_move(0) == 0);
}

TEST_CASE("backsolve: equals the path-set minimax on random graphs", "[book][backsolve]") {
  std::mt19937 rng(20261124);
  int with_cycles = 0, unvalued = 0, incomplete = 0, mates = 0;
  for (int round = 0; round < 3000; ++round) {
    const Graph g = random_graph(rng);
    std::vector<int> order(g.size);
    for (int n = 0; n < g.size; ++n) order[n] = n;
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1) std::shuffle(order.begin(), order.end(), rng);
      LeafValues leaves;
      std::vector<NodeId> ids;
      const Dag dag = to_dag(g, order, leaves, ids);
      const Backsolved got = epdd::book::backsolve(dag, leaves);
      with_cycles += pass == 0 && got.components_with_cycles > 0;
      for (int n = 0; n < g.size; ++n) {
        INFO("round " << round << " pass " << pass << " node " << n);
        const Value want = check_node(g, n, got.nodes[ids[n]]);
        if (pass == 0) {
          unvalued += !want.ce;
          incomplete += want.incomplete && want.ce;
          mates += want.ce && std::abs(*want.ce) > 32000;
        }
      }
    }
  }
  // The random graphs do exercise every case.
  CHECK(with_cycles > 500);
  CHECK(unvalued > 500);
  CHECK(incomplete > 500);
  CHECK(mates > 500);
}

TEST_CASE("backsolve: the pruned search of a component equals the path-set minimax", "[book][backsolve]") {
  // plain_steps 0: every component with a cycle is searched by alpha-beta from the start (see
  // book/backsolve.hpp); the graphs are denser than above, for more cycles.
  std::mt19937 rng(17042026);
  epdd::book::BacksolveOptions pruned;
  pruned.plain_steps = 0;
  int with_cycles = 0;
  for (int round = 0; round < 3000; ++round) {
    Graph g = random_graph(rng);
    for (int extra = 0; extra < g.size; ++extra) {  // back edges: repetitions
      const int from = std::uniform_int_distribution<int>(0, g.size - 1)(rng);
      const int to = std::uniform_int_distribution<int>(0, from)(rng);
      bool there = false;
      for (const auto& [m, c] : g.edges[from]) there = there || c == to;
      if (!there) g.edges[from].push_back({core::Move(core::square_at(from), core::square_at(40 - extra)), to});
    }
    std::vector<int> order(g.size);
    for (int n = 0; n < g.size; ++n) order[n] = n;
    LeafValues leaves;
    std::vector<NodeId> ids;
    const Dag dag = to_dag(g, order, leaves, ids);
    const Backsolved got = epdd::book::backsolve(dag, leaves, pruned);
    REQUIRE(got.components_unsolved == 0);
    with_cycles += got.components_with_cycles > 0;
    for (int n = 0; n < g.size; ++n) {
      INFO("round " << round << " node " << n);
      check_node(g, n, got.nodes[ids[n]]);
    }
  }
  CHECK(with_cycles > 1500);
}

TEST_CASE("backsolve: a mate through a transposition and the principal line", "[book][backsolve]") {
  // root -a-> p -c-> x and root -b-> q -d-> x; x -e-> a checkmate; q also has f to a quiet leaf
  // and g to a leaf without a value.
  Dag dag{Dag::Empty{}};
  const auto node = [&](const char*, Terminal t = Terminal::None) { return dag.add_anonymous(t); };
  const NodeId root = node("root"), p = node("p"), q = node("q"), x = node("x"),
               mated = node("mated", Terminal::Checkmate), quiet = node("quiet"), unknown = node("unknown");
  const auto move = [](int i) { return core::Move(core::square_at(i), core::square_at(i + 8)); };
  const core::Move a = move(0), b = move(1), c = move(2), d = move(3), e = move(4), f = move(5), g = move(6);
  dag.add_edge(root, a, p);
  dag.add_edge(root, b, q);
  dag.add_edge(p, c, x);
  dag.add_edge(q, d, x);
  dag.add_edge(x, e, mated);
  dag.add_edge(q, f, quiet);
  dag.add_edge(q, g, unknown);
  const LeafValues leaves{{quiet, core::Score::centipawns(-20)}};
  const Backsolved v = epdd::book::backsolve(dag, leaves);
  CHECK(dag.node(x).parents == 2);
  CHECK(v.nodes[mated].ce == -32767);
  CHECK(v.nodes[x].ce == 32766);  // mate in 1 ply
  CHECK(v.nodes[p].ce == -32765);  // mated in 2
  CHECK(v.nodes[q].ce == 20);      // f avoids the mate
  CHECK(test::listed(v.nodes[q].best_moves) == std::vector<core::Move>{f});
  CHECK(v.nodes[q].incomplete);    // g's leaf has no value: never a silent 0
  CHECK_FALSE(v.nodes[unknown].ce);
  CHECK(v.nodes[root].ce == 32764);  // mate in 3
  CHECK(test::listed(v.nodes[root].best_moves) == std::vector<core::Move>{a});
  CHECK(v.nodes[root].incomplete);   // q, though not best, rests on an unvalued leaf
  CHECK_FALSE(v.nodes[p].incomplete);
  CHECK(v.components_with_cycles == 0);
  CHECK(epdd::book::principal_line(dag, v, root) == std::vector<core::Move>{a, c, e});
}

TEST_CASE("backsolve: a component over the step limit is left unvalued, and says so", "[book][backsolve]") {
  // Seven positions that all reach each other (thousands of simple paths from each) and each
  // a leaf worth 5; the root reaches the tangle and a leaf of its own. The plain search needs
  // about 95,000 steps, the pruned one between 3,000 and 5,000: 2,000 is too few for either.
  Dag dag{Dag::Empty{}};
  const NodeId root = dag.add_anonymous();
  const NodeId own = dag.add_anonymous();
  const auto move = [](int i) { return core::Move(core::square_at(i / 64), core::square_at(i % 64)); };
  dag.add_edge(root, move(1), own);
  LeafValues leaves{{own, core::Score::centipawns(-40)}};
  std::vector<NodeId> tangle;
  for (int i = 0; i < 7; ++i) tangle.push_back(dag.add_anonymous());
  dag.add_edge(root, move(2), tangle[0]);
  for (int i = 0; i < 7; ++i) {
    const NodeId leaf = dag.add_anonymous();
    leaves.emplace(leaf, core::Score::centipawns(5));
    dag.add_edge(tangle[i], move(100), leaf);
    for (int j = 0; j < 7; ++j)
      if (j != i) dag.add_edge(tangle[i], move(200 + j), tangle[j]);
  }
  epdd::book::BacksolveOptions small;
  small.max_component_steps = 2000;
  const Backsolved v = epdd::book::backsolve(dag, leaves, small);
  CHECK(v.components_with_cycles == 1);
  CHECK(v.components_unsolved == 1);
  for (NodeId t : tangle) {
    CHECK_FALSE(v.nodes[t].ce);
    CHECK(v.nodes[t].incomplete);
  }
  CHECK(v.nodes[root].ce == 40);
  CHECK(v.nodes[root].incomplete);
  // With room enough the tangle is solved: its leaves give -5, a repetition 0, so each of its
  // nodes is worth 0 (some move on never loses: the last node of any line can repeat).
  const Backsolved full = epdd::book::backsolve(dag, leaves);
  CHECK(full.components_unsolved == 0);
  for (NodeId t : tangle) CHECK(full.nodes[t].ce == 0);
  CHECK(full.nodes[root].ce == 40);
  CHECK_FALSE(full.nodes[root].incomplete);
}

TEST_CASE("backsolve: a line of a million positions, without recursion", "[book][backsolve]") {
  // n0 -> n1 -> ... -> n999999 (a leaf worth 10), and a repetition n999998 <-> n999997.
  constexpr int kSize = 1'000'000;
  Dag dag{Dag::Empty{}};
  for (int i = 0; i < kSize; ++i) dag.add_anonymous();
  const core::Move m(core::Square::A2, core::Square::A3), back(core::Square::B2, core::Square::B3);
  for (int i = 0; i + 1 < kSize; ++i) dag.add_edge(static_cast<NodeId>(i), m, static_cast<NodeId>(i + 1));
  dag.add_edge(kSize - 2, back, kSize - 3);
  const Backsolved v = epdd::book::backsolve(dag, LeafValues{{kSize - 1, core::Score::centipawns(10)}});
  CHECK(v.components_with_cycles == 1);
  // n999998 plays on (-10) or repeats (0): 0. Above it the values alternate 0.
  CHECK(v.nodes[kSize - 2].ce == 0);
  CHECK(test::listed(v.nodes[kSize - 2].best_moves) == std::vector<core::Move>{back});
  CHECK(v.nodes[0].ce == 0);
  // Every move down to n999998, then the move back to n999997 that repeats.
  const auto line = epdd::book::principal_line(dag, v);
  CHECK(line.size() == kSize - 1);
  CHECK(line.back() == back);
}
