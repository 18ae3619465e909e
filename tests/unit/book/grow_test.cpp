// Drop-out expansion (book/grow.hpp) against the test's oracle (grow_oracle.hpp: its own tree,
// values and priorities by recursion, its own order of expansion). The engine is a script: chosen lines for chosen positions (a repetition cycle, a
// transposition), and for every other position moves in legal order with a score drawn from the
// position's bytes, mates both ways and answers without a score among them.
#include "grow_oracle.hpp"

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

// grow_both with the script answering both sides.
void grow_scripted(const core::Board& root, const Script& script, const book::GrowOptions& options, int rounds) {
  const AnswerFn answer = [&script, &options](const core::Board& b) { return answer_of(b, script, options.width); };
  grow_both(root, answer, answer, options, rounds);
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
    grow_scripted(core::Board(), script, o, 25);
  }
}

TEST_CASE("grow: the book's side counts only its best move (Lincke's asymmetric form)", "[book][grow]") {
  const Script script = knights_script();
  for (const core::Color side : {core::Color::White, core::Color::Black}) {
    book::GrowOptions o;
    o.alpha = 20;
    o.width = 3;
    o.book_side = side;
    grow_scripted(core::Board(), script, o, 20);
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
      grow_scripted(*root, {}, o, 6);
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
