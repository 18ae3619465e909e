// The oracle of drop-out expansion (book/grow.hpp), written here from the header's definition and
// not from book/'s code: its own tree of positions by their EPD fields, values by plain recursion
// over the lines that do not repeat a position, priorities the same way, and its own growth: which
// leaf it expands, in which order. `grow_both` grows a book both ways and compares them round by
// round. Used with a script answered in the test (unit/book/grow_test.cpp) and with the fake
// engine's own answers (integration/book/grow_engine_test.cpp).
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
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

// An engine's answer for a position (the lines it printed, best first).
using AnswerFn = std::function<uci::Analysis(const core::Board&)>;

inline constexpr double kInf = std::numeric_limits<double>::infinity();

inline int through(int ce) {
  if (ce > 32000) return -(ce - 1);
  if (ce < -32000) return -ce - 1;
  return -ce;
}

inline int ce_of(core::Score s) {
  if (!s.is_mate()) return std::clamp(s.cp(), -32000, 32000);
  const int p = s.mate_plies();
  return p > 0 ? 32767 - p : -32767 - p;
}

inline double es(int ce) {
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
  AnswerFn answer;
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
      n.analysis = answer(n.board);
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

inline void check_same(const book::Growth& growth, const book::Backsolved& solved, const std::vector<double>& prio) {
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
// round every value and priority, and at the end the order of the expanded leaves. The growth's
// positions are valued by `engine`, the oracle's by `oracle_engine` (the same engine asked
// another way, or the same function). Returns the grown book's growth for further checks.
inline book::Growth grow_both(const core::Board& root, const AnswerFn& engine, const AnswerFn& oracle_engine,
                              const book::GrowOptions& options, int rounds) {
  Oracle oracle;
  oracle.answer = oracle_engine;
  oracle.options = options;
  oracle.root = four_fields(root);
  oracle.add(root);
  oracle.value_pending();

  book::Growth growth(book::Dag(root), {0}, 0, options);
  std::vector<std::string> expanded;
  for (int round = 0; round <= rounds; ++round) {
    for (std::size_t i = growth.answered(); i < growth.item_count(); ++i) {
      const uci::Analysis a = engine(book::board_of(growth.dag(), growth.item_node(i)));
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
  return growth;
}

}  // namespace epdd::test
