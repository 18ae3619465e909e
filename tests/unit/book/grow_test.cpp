// Drop-out expansion (book/grow.hpp) against an oracle written here from the header's definition:
// its own tree of positions by their EPD fields, values by plain recursion over the lines that do
// not repeat a position, priorities the same way, and its own growth: which leaf it expands, in
// which order. The engine is a script: chosen lines for chosen positions (a repetition cycle, a
// transposition), and for every other position moves in legal order with a score drawn from the
// position's bytes, mates both ways and answers without a score among them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "book/backsolve.hpp"
#include "book/grow.hpp"
#include "book_support.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"

namespace epdd::test {
namespace {

// ---- the scripted engine

struct ScriptLine {
  const char* uci;
  core::Score score;
};
using Script = std::map<std::string, std::vector<ScriptLine>>;  // by four_fields()

std::uint64_t fnv(const std::string& s) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

// The engine's answer for a position: the script's lines, or `width` legal moves (all when 0;
// three otherwise at most) with a score from the position's bytes; one position in 13 gets no score.
uci::Analysis answer_of(const core::Board& board, const Script& script, std::size_t width) {
  uci::Analysis a;
  a.engine = "script";
  const std::string epd = four_fields(board);
  auto add = [&](const std::string& uci, core::Score score) {
    uci::PvLine line;
    line.multipv = static_cast<int>(a.lines.size()) + 1;
    line.depth = 10;
    line.score = score;
    line.pv = {uci};
    a.lines.push_back(line);
  };
  if (const auto it = script.find(epd); it != script.end()) {
    for (const ScriptLine& l : it->second) add(l.uci, l.score);
    return a;
  }
  const std::uint64_t h = fnv(epd);
  if (h % 13 == 5) return a;  // no score
  core::Score score = core::Score::centipawns(static_cast<int>(h % 301) - 150);
  if (h % 11 == 3) score = core::Score::mate_in_plies(static_cast<int>((h >> 8) % 4) * 2 + 1);
  if (h % 11 == 4) score = core::Score::mate_in_plies(-static_cast<int>((h >> 8) % 3 + 1) * 2);
  std::size_t n = 0;
  for (const core::Move m : board.legal_moves()) {
    if (n++ == (width == 0 ? 1 : std::min<std::size_t>(width, 3))) break;
    add(core::to_uci(m), score);
  }
  return a;
}

// ---- the oracle

constexpr double kInf = std::numeric_limits<double>::infinity();

int through(int ce) {
  if (ce > 32000) return -(ce - 1);
  if (ce < -32000) return -ce - 1;
  return -ce;
}

int ce_of(core::Score s) {
  if (!s.is_mate()) return std::clamp(s.cp(), -32000, 32000);
  const int p = s.mate_plies();
  return p > 0 ? 32767 - p : -32767 - p;
}

double es(int ce) {
  if (ce > 32000) return 1.0;
  if (ce < -32000) return 0.0;
  return 1.0 / (1.0 + std::exp(-0.00368208 * std::clamp(ce, -1000, 1000)));
}

struct ONode {
  core::Board board;
  std::vector<std::pair<core::Move, std::string>> kids;  // in the order added
  enum { None, Mated, Drawn } terminal = None;
  std::optional<int> ce;  // a leaf's given value
  uci::Analysis analysis;
};

struct Oracle {
  std::map<std::string, ONode> nodes;
  std::string root;
  std::vector<std::string> pending;  // positions to value, in order
  std::vector<std::string> expanded;
  const Script* script;
  book::GrowOptions options;

  static bool insufficient(const core::Board& b) {
    const std::string placement = four_fields(b).substr(0, four_fields(b).find(' '));
    int minors = 0;
    for (const char c : placement) {
      if (std::string("QqRrPp").find(c) != std::string::npos) return false;
      if (std::string("NnBb").find(c) != std::string::npos) ++minors;
    }
    return minors <= 1;
  }

  // The node of a position, made when new; true when made.
  bool add(const core::Board& b) {
    const std::string e = four_fields(b);
    if (nodes.count(e)) return false;
    ONode n;
    n.board = b;
    if (b.legal_moves().empty()) n.terminal = b.in_check() ? ONode::Mated : ONode::Drawn;
    else if (insufficient(b)) n.terminal = ONode::Drawn;
    nodes.emplace(e, n);
    if (n.terminal == ONode::None) pending.push_back(e);
    return true;
  }

  void value_pending() {
    for (const std::string& e : pending) {
      ONode& n = nodes.at(e);
      n.analysis = answer_of(n.board, *script, options.width);
      if (!n.analysis.lines.empty()) n.ce = ce_of(n.analysis.lines.front().score);
    }
    pending.clear();
  }

  std::optional<int> value(const std::string& e, std::set<std::string>& line) const {
    const ONode& n = nodes.at(e);
    if (n.terminal != ONode::None) return n.terminal == ONode::Mated ? -32767 : 0;
    if (n.kids.empty()) return n.ce;
    std::optional<int> best;
    for (const auto& [m, c] : n.kids) {
      std::optional<int> v;
      if (line.count(c)) {
        v = 0;
      } else {
        line.insert(c);
        const auto cv = value(c, line);
        line.erase(c);
        if (cv) v = through(*cv);
      }
      if (v && (!best || *v > *best)) best = v;
    }
    return best;
  }
  std::optional<int> value(const std::string& e) const {
    std::set<std::string> line{e};
    return value(e, line);
  }

  // The cost of n's move to kid k with k's priority `pk`.
  double cost(const std::string& e, std::size_t k, double pk) const {
    const ONode& n = nodes.at(e);
    const auto v = value(e);
    const auto cv = value(n.kids[k].second);
    if (!v || !cv || pk == kInf) return kInf;
    if (options.book_side && n.board.side_to_move() == *options.book_side) {
      // Only the first move whose contribution equals the value counts.
      std::set<std::string> line{e};
      for (std::size_t j = 0; j < n.kids.size(); ++j) {
        const std::string& c = n.kids[j].second;
        std::optional<int> contribution;
        if (line.count(c)) {
          contribution = 0;
        } else {
          line.insert(c);
          if (const auto x = value(c, line)) contribution = through(*x);
          line.erase(c);
        }
        if (contribution == v) return j == k ? pk + 1.0 : kInf;
      }
      return kInf;
    }
    return options.alpha * std::max(0.0, es(*v) - es(through(*cv))) + pk + 1.0;
  }

  double priority(const std::string& e, std::set<std::string>& line) const {
    const ONode& n = nodes.at(e);
    if (n.kids.empty()) return n.terminal == ONode::None && n.ce ? 0.0 : kInf;
    double best = kInf;
    for (std::size_t k = 0; k < n.kids.size(); ++k) {
      const std::string& c = n.kids[k].second;
      if (line.count(c)) continue;
      line.insert(c);
      const double pc = priority(c, line);
      line.erase(c);
      best = std::min(best, cost(e, k, pc));
    }
    return best;
  }
  double priority(const std::string& e) const {
    std::set<std::string> line{e};
    return priority(e, line);
  }

  // One expansion: false when nothing can be expanded.
  bool expand() {
    if (priority(root) == kInf) return false;
    std::string at = root;
    while (!nodes.at(at).kids.empty()) {
      const ONode& n = nodes.at(at);
      std::size_t best = 0;
      double least = kInf;
      for (std::size_t k = 0; k < n.kids.size(); ++k)
        if (const double c = cost(at, k, priority(n.kids[k].second)); c < least - 1e-12) least = c, best = k;
      at = n.kids[best].second;
    }
    expanded.push_back(at);
    ONode& leaf = nodes.at(at);
    std::vector<core::Move> moves;
    for (const uci::PvLine& l : leaf.analysis.lines) {
      if (options.width != 0 && moves.size() == options.width) break;
      const auto m = core::parse_uci(leaf.board, l.pv.front());
      REQUIRE(m);
      if (std::find(moves.begin(), moves.end(), *m) == moves.end()) moves.push_back(*m);
    }
    if (options.width == 0 || moves.empty()) {
      moves.clear();
      for (const core::Move m : leaf.board.legal_moves()) moves.push_back(m);
    }
    const core::Board board = leaf.board;
    for (const core::Move m : moves) {
      core::Board b = board;
      b.make_move(m);
      add(b);
      nodes.at(at).kids.emplace_back(m, four_fields(b));
    }
    return true;
  }
};

// ---- the comparison

void check_same(const book::Growth& growth, const book::Backsolved& solved, const std::vector<double>& prio) {
  REQUIRE(growth.solved().nodes.size() == solved.nodes.size());
  REQUIRE(growth.priorities().size() == prio.size());
  for (std::size_t n = 0; n < prio.size(); ++n) {
    INFO("node " << n << " " << growth.dag().epd(static_cast<book::NodeId>(n)));
    CHECK(growth.solved().nodes[n].ce == solved.nodes[n].ce);
    CHECK(growth.solved().nodes[n].incomplete == solved.nodes[n].incomplete);
    CHECK(listed(growth.solved().nodes[n].best_moves) == listed(solved.nodes[n].best_moves));
    CHECK(growth.priorities()[n] == prio[n]);
  }
}

// Grows the book from `root` both ways, `rounds` expansions at most, and compares after each
// round every value and priority, and at the end the order of the expanded leaves.
void grow_both(const core::Board& root, const Script& script, const book::GrowOptions& options, int rounds) {
  Oracle oracle;
  oracle.script = &script;
  oracle.options = options;
  oracle.root = four_fields(root);
  oracle.add(root);
  oracle.value_pending();

  book::Growth growth(book::Dag(root), {0}, 0, options);
  std::vector<std::string> expanded;
  for (int round = 0; round <= rounds; ++round) {
    for (std::size_t i = growth.answered(); i < growth.item_count(); ++i) {
      const uci::Analysis a = answer_of(book::board_of(growth.dag(), growth.item_node(i)), script, options.width);
      growth.answer(i, &a);
    }
    REQUIRE(growth.all_answered());
    const book::Dag& dag = growth.dag();
    REQUIRE(dag.node_count() == oracle.nodes.size());
    const book::Backsolved solved = book::backsolve(dag, growth.values());
    const std::vector<double> prio = book::expansion_priorities(dag, solved, options);
    for (book::NodeId n = 0; n < dag.node_count(); ++n) {
      const std::string e = dag.epd(n);
      INFO("round " << round << ", node " << n << " " << e);
      REQUIRE(oracle.nodes.count(e));
      CHECK(solved.nodes[n].ce == oracle.value(e));
      const double want = oracle.priority(e);
      if (want == kInf) CHECK(prio[n] == kInf);
      else CHECK(prio[n] == Approx(want).epsilon(1e-12).margin(1e-9));
    }
    if (round == rounds) break;
    const auto done = growth.expand();
    // What the growth chose by, re-solved in part (the ancestors of the leaf it expanded last),
    // equals the whole book backsolved: every value, best move, mark and priority.
    check_same(growth, solved, prio);
    const bool oracle_done = oracle.expand();
    REQUIRE(done.has_value() == oracle_done);
    if (!done) break;
    expanded.push_back(growth.dag().epd(done->leaf));
    oracle.value_pending();
  }
  CHECK(expanded == oracle.expanded);
  CHECK(growth.rounds().size() == expanded.size());
}

core::Score cp(int v) { return core::Score::centipawns(v); }

// The start position's script: 1. Nf3 Nf6 2. Ng1 Ng8 repeats the start (a cycle), and 1. Nf3 Nf6
// 2. Nc3 meets 1. Nc3 Nf6 2. Nf3 (a transposition); the knights' moves are the best ones.
Script knights_script() {
  Script s;
  s[four_fields(core::Board())] = {{"g1f3", cp(30)}, {"b1c3", cp(25)}};
  s[four_fields(after({"Nf3"}))] = {{"g8f6", cp(-28)}, {"d7d5", cp(-40)}};
  s[four_fields(after({"Nc3"}))] = {{"g8f6", cp(-20)}, {"e7e5", cp(-35)}};
  s[four_fields(after({"Nf3", "Nf6"}))] = {{"f3g1", cp(20)}, {"b1c3", cp(18)}};
  s[four_fields(after({"Nc3", "Nf6"}))] = {{"g1f3", cp(22)}, {"e2e4", cp(10)}};
  s[four_fields(after({"Nf3", "Nf6", "Ng1"}))] = {{"f6g8", cp(-15)}, {"e7e5", cp(-25)}};
  s[four_fields(after({"Nf3", "Nf6", "Nc3"}))] = {{"d7d5", cp(-20)}, {"e7e6", cp(-24)}};
  return s;
}

}  // namespace

TEST_CASE("grow: the knights' book (a repetition cycle, a transposition) as the oracle grows it", "[book][grow]") {
  const Script script = knights_script();
  for (const double alpha : {50.0, 5.0, 0.5, 500.0}) {
    INFO("alpha " << alpha);
    book::GrowOptions o;
    o.alpha = alpha;
    o.width = 2;
    grow_both(core::Board(), script, o, 25);
  }
}

TEST_CASE("grow: the book's side counts only its best move (Lincke's asymmetric form)", "[book][grow]") {
  const Script script = knights_script();
  for (const core::Color side : {core::Color::White, core::Color::Black}) {
    book::GrowOptions o;
    o.alpha = 20;
    o.width = 3;
    o.book_side = side;
    grow_both(core::Board(), script, o, 20);
  }
}

TEST_CASE("grow: every legal move, mates both ways, the rules' own verdicts", "[book][grow]") {
  // White mates with Ra8; Black, to move in the second, mates with Ra1.
  for (const char* fen : {"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
                          "6k1/8/8/8/8/8/6p1/4K2R w K - 0 1"}) {
    auto root = core::parse_fen(fen);
    REQUIRE(root);
    for (const double alpha : {50.0, 2.0}) {
      INFO(fen << ", alpha " << alpha);
      book::GrowOptions o;
      o.alpha = alpha;
      grow_both(*root, {}, o, 6);
    }
  }
}

TEST_CASE("grow: re-solving the expanded leaf's ancestors equals backsolving the whole book, 60 rounds", "[book][grow]") {
  // Too large for the oracle's recursion: the whole backsolve is the reference here.
  for (const std::size_t width : {std::size_t{0}, std::size_t{3}}) {
    book::GrowOptions o;
    o.width = width;
    o.alpha = width == 0 ? 50 : 10;
    book::Growth growth(book::Dag(core::Board()), {0}, 0, o);
    for (int round = 0; round < 60; ++round) {
      for (std::size_t i = growth.answered(); i < growth.item_count(); ++i) {
        const uci::Analysis a = answer_of(book::board_of(growth.dag(), growth.item_node(i)), {}, o.width);
        growth.answer(i, &a);
      }
      const book::Backsolved solved = book::backsolve(growth.dag(), growth.values());
      const std::vector<double> prio = book::expansion_priorities(growth.dag(), solved, o);
      INFO("width " << width << ", round " << round);
      if (!growth.expand()) break;
      check_same(growth, solved, prio);
    }
    INFO("width " << width);
    CHECK(growth.rounds().size() == 60);
    // Every legal move from the start for 60 rounds makes no repetition: one whole backsolve, then
    // the ancestors only. (The first three legal moves bring knights back: cycles, whole books.)
    if (width == 0) CHECK(growth.full_backsolves() == 1);
    if (width == 3) CHECK(growth.full_backsolves() > 1);
  }
}

TEST_CASE("grow: the knights' cycle is expanded, and the transposition is one position", "[book][grow]") {
  book::GrowOptions o;
  o.width = 2;
  const Script script = knights_script();
  book::Growth growth(book::Dag(core::Board()), {0}, 0, o);
  for (int round = 0; round < 12; ++round) {
    for (std::size_t i = growth.answered(); i < growth.item_count(); ++i) {
      const uci::Analysis a = answer_of(book::board_of(growth.dag(), growth.item_node(i)), script, o.width);
      growth.answer(i, &a);
    }
    if (!growth.expand()) break;
  }
  CHECK(growth.full_backsolves() > 1);  // the cycle made every round backsolve the whole book
  const book::Dag& dag = growth.dag();
  // 1. Nf3 Nf6 2. Ng1 Ng8 leads back into the start position: an edge into node 0.
  const book::NodeId back = dag.find(after({"Nf3", "Nf6", "Ng1"}));
  REQUIRE(back != book::Dag::kNoNode);
  bool cycle = false;
  for (const book::EdgeId e : dag.edges_of(back)) cycle = cycle || dag.edge(e).child == 0;
  CHECK(cycle);
  // Both move orders reach one node, and its value is searched once (one item).
  const book::NodeId met = dag.find(after({"Nf3", "Nf6", "Nc3"}));
  REQUIRE(met == dag.find(after({"Nc3", "Nf6", "Nf3"})));
  std::size_t items = 0;
  for (std::size_t i = 0; i < growth.item_count(); ++i) items += growth.item_node(i) == met;
  CHECK(items == 1);
}

}  // namespace epdd::test
