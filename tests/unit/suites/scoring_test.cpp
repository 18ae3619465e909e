// Test-suite scoring: what a record expects (bm, am, dm, STS points), whether an analysis meets
// it, and where the engine found the solution.
#include <sstream>

#include <catch2/catch.hpp>

#include "suites/scoring.hpp"
#include "suites_test_support.hpp"
#include "test_support.hpp"

using namespace epdd;
using namespace epdd::suites;
using namespace epdd::suites::test;

namespace {

const std::string kPromotion = "7k/4P3/8/8/8/8/8/K7 w - -";

// Line `n` (1-based) of a suite in the shared data.
std::string suite_line(const char* file, std::size_t n) {
  const std::string text = epdd::test::read_file(epdd::test::shared_data(std::string("suites/") + file));
  std::istringstream in(text);
  std::string line;
  for (std::size_t i = 0; i < n; ++i) REQUIRE(std::getline(in, line));
  return line;
}

std::vector<std::pair<std::string, int>> points_san(const core::Board& board, const Expectation& e) {
  std::vector<std::pair<std::string, int>> out;
  for (const auto& [m, p] : e.points) out.emplace_back(core::to_san(board, m), p);
  return out;
}

Expectation expect(const epd::EpdRecord& r, const core::Board& board) {
  auto e = expectation_of(r, board);
  INFO(r.source());
  if (!e) FAIL_CHECK(e.error());
  REQUIRE(e);
  return *e;
}

}  // namespace

TEST_CASE("expectation_of: the rule, the moves and the text from bm am dm", "[suites][scoring]") {
  struct Case {
    std::string position, ops;
    Rule rule;
    std::vector<std::string> bm, am;
    std::optional<int> dm;
    std::string text;
  };
  const std::vector<Case> cases = {
      {kTwoKnights, "bm Bb5;", Rule::Bm, {"Bb5"}, {}, {}, "bm Bb5"},
      {kTwoKnights, "bm Bb5 Bc4; id \"x\";", Rule::Bm, {"Bb5", "Bc4"}, {}, {}, "bm Bb5 Bc4"},
      {kTwoKnights, "am Nxe5;", Rule::Am, {}, {"Nxe5"}, {}, "am Nxe5"},
      {kTwoKnights, "am Nxe5; bm Bb5 d4;", Rule::BmAm, {"Bb5", "d4"}, {"Nxe5"}, {}, "bm Bb5 d4 am Nxe5"},
      // Long algebraic, a superfluous check mark and a UCI move are read (mate suites write them).
      {kTwoKnights, "bm Bf1-b5;", Rule::Bm, {"Bb5"}, {}, {}, "bm Bb5"},
      {kTwoKnights, "bm Bb5+;", Rule::Bm, {"Bb5"}, {}, {}, "bm Bb5"},
      {kTwoKnights, "bm f1c4;", Rule::Bm, {"Bc4"}, {}, {}, "bm Bc4"},
      // dm decides, whatever bm says.
      {mate_in_2(), "bm Qd8-f6; dm 2;", Rule::Dm, {"Qf6"}, {}, 2, "dm 2 (bm Qf6)"},
      {mate_in_2(), "dm 2;", Rule::Dm, {}, {}, 2, "dm 2"},
      {mate_in_2(), "am Qd8-e7; dm 2;", Rule::Dm, {}, {"Qe7"}, 2, "dm 2"},
      // The real line of mate_in_2.epd has no dm: its LAN bm decides.
      {mate_in_2(), "bm Qd8-f6; ce +M2; pv Qd8-f6 h6-h5 Qf6-g5+;", Rule::Bm, {"Qf6"}, {}, {}, "bm Qf6"},
      // Nothing to score.
      {kTwoKnights, "id \"only an id\";", Rule::Unscored, {}, {}, {}, ""},
      {kTwoKnights, "", Rule::Unscored, {}, {}, {}, ""},
      {kTwoKnights, "c0 \"a plain comment\"; pm d4;", Rule::Unscored, {}, {}, {}, ""},
  };
  for (const auto& c : cases) {
    auto r = record(c.position + (c.ops.empty() ? "" : " " + c.ops));
    const auto board = board_of(r);
    const Expectation e = expect(r, board);
    INFO(r.source());
    CHECK(e.rule == c.rule);
    CHECK(sans(board, e.bm) == c.bm);
    CHECK(sans(board, e.am) == c.am);
    CHECK(e.dm == c.dm);
    CHECK(e.text == c.text);
    CHECK_FALSE(e.sts());
  }
}

TEST_CASE("expectation_of: the mate-in-2 suite reads whole", "[suites][scoring]") {
  // Every record has a bm in long algebraic (some several); one has "bm bm Bh2-f4", which is an
  // error that names the opcode and the operand.
  const std::string text = epdd::test::read_file(epdd::test::shared_data("suites/mate_in_2.epd"));
  std::istringstream in(text);
  std::string line;
  std::size_t records = 0, several = 0;
  std::vector<std::string> errors;
  while (std::getline(in, line)) {
    epd::Diagnostics diags;
    auto r = epd::EpdRecord::parse(line, records + 1, diags);
    if (!r) continue;
    ++records;
    const auto board = board_of(*r);
    auto e = expectation_of(*r, board);
    if (!e) {
      errors.push_back(e.error());
      continue;
    }
    INFO(line);
    CHECK(e->rule == Rule::Bm);
    CHECK_FALSE(e->bm.empty());
    several += e->bm.size() > 1 ? 1 : 0;
  }
  CHECK(records > 100);
  CHECK(several > 0);
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0], Catch::StartsWith("bm 'bm': "));
  // Line 1 in detail: "bm Qd8-f6".
  auto r = record(suite_line("mate_in_2.epd", 1));
  const auto board = board_of(r);
  const auto e = expect(r, board);
  CHECK(sans(board, e.bm) == std::vector<std::string>{"Qf6"});
  CHECK(e.text == "bm Qf6");
}

TEST_CASE("expectation_of: STS points from c0, and from c7 with c8", "[suites][scoring]") {
  const auto r = record(suite_line("sts.epd", 1));
  REQUIRE(r.single_operand("c0") == "f5=10, Be5+=2, Bf2=3, Bg4=2");
  const auto board = board_of(r);
  const std::vector<std::pair<std::string, int>> expected = {{"f5", 10}, {"Be5+", 2}, {"Bf2", 3}, {"Bg4", 2}};

  const Expectation c0 = expect(r, board);
  CHECK(c0.rule == Rule::Bm);
  CHECK(c0.sts());
  CHECK(sans(board, c0.bm) == std::vector<std::string>{"f5"});
  CHECK(c0.text == "bm f5");
  CHECK(points_san(board, c0) == expected);

  // Without c0, c7 "f5 Be5+ Bf2 Bg4" with c8 "10 2 3 2".
  auto c78 = r;
  REQUIRE(c78.erase("c0") == 1);
  const Expectation e78 = expect(c78, board);
  CHECK(e78.rule == Rule::Bm);
  CHECK(points_san(board, e78) == expected);

  // Without bm, the moves with the most points are the solution.
  auto no_bm = r;
  REQUIRE(no_bm.erase("bm") == 1);
  const Expectation nb = expect(no_bm, board);
  CHECK(nb.rule == Rule::Bm);
  CHECK(sans(board, nb.bm) == std::vector<std::string>{"f5"});
  CHECK(nb.text == "bm f5");
}

TEST_CASE("expectation_of: every STS record reads, c0 and c7 with c8 agree with c9", "[suites][scoring]") {
  const std::string text = epdd::test::read_file(epdd::test::shared_data("suites/sts.epd"));
  std::istringstream in(text);
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) {
    epd::Diagnostics diags;
    auto r = epd::EpdRecord::parse(line, ++n, diags);
    REQUIRE(r);
    INFO("sts.epd:" << n << ": " << line);
    const auto board = board_of(*r);
    const Expectation e = expect(*r, board);
    CHECK(e.rule == Rule::Bm);
    REQUIRE(e.sts());
    auto c78 = *r;
    c78.erase("c0");
    const Expectation e78 = expect(c78, board);
    CHECK(e78.points == e.points);
    // c9 lists the same moves in UCI.
    const auto c9 = r->single_operand("c9");
    REQUIRE(c9);
    std::istringstream words{std::string(*c9)};
    std::vector<core::Move> uci;
    for (std::string w; words >> w;) {
      auto m = core::parse_uci(board, w);
      REQUIRE(m);
      uci.push_back(*m);
    }
    REQUIRE(uci.size() == e.points.size());
    for (std::size_t i = 0; i < uci.size(); ++i) CHECK(uci[i] == e.points[i].first);
    // The best move is worth 10, and so is every bm (a few records have a second 10-point move
    // that is not a bm).
    int best = 0;
    for (const auto& [m, p] : e.points) best = std::max(best, p);
    CHECK(best == 10);
    for (const auto m : e.bm) {
      const auto it = std::find_if(e.points.begin(), e.points.end(), [&](const auto& mp) { return mp.first == m; });
      REQUIRE(it != e.points.end());
      CHECK(it->second == 10);
    }
  }
  CHECK(n == 1500);
}

TEST_CASE("expectation_of: a promotion entry splits at the last '='", "[suites][scoring]") {
  const auto [ops, bm] = GENERATE(table<std::string, std::vector<std::string>>({
      {"bm e8=Q+; c0 \"e8=Q=10, e8=N=3, Ka2=1\";", {"e8=Q+"}},
      // No bm: the best points decide.
      {"c0 \"e8=Q=10, e8=N=3, Ka2=1\";", {"e8=Q+"}},
      {"c0 \"e8=Q=10,e8=R=10 ,Ka2=1,\";", {"e8=Q+", "e8=R+"}},
      {"c7 \"e8=Q e8=N Ka2\"; c8 \"10 3 1\";", {"e8=Q+"}},
  }));
  auto r = record(kPromotion + " " + ops);
  const auto board = board_of(r);
  const Expectation e = expect(r, board);
  INFO(ops);
  CHECK(e.rule == Rule::Bm);
  CHECK(sans(board, e.bm) == bm);
  REQUIRE(e.points.size() == 3);
  CHECK(san(board, e.points[0].first) == "e8=Q+");
  CHECK(e.points[0].second == 10);
  CHECK(san(board, e.points[1].first) == (bm.size() == 2 ? "e8=R+" : "e8=N"));
  CHECK(e.points[1].second == (bm.size() == 2 ? 10 : 3));
  CHECK(san(board, e.points[2].first) == "Ka2");
  CHECK(e.points[2].second == 1);
}

TEST_CASE("expectation_of: an unreadable operand is an error naming the opcode and the move", "[suites][scoring]") {
  const auto [position, ops, message] = GENERATE(table<std::string, std::string, std::string>({
      {kTwoKnights, "bm Qz9;", "bm 'Qz9'"},
      {kTwoKnights, "bm Bb5 Ke3;", "bm 'Ke3'"},
      {kTwoKnights, "bm Bb5; am Nxe4;", "am 'Nxe4'"},
      {kTwoKnights, "bm Bb5; dm 0;", "dm '0'"},
      {kTwoKnights, "dm x;", "dm 'x'"},
      {kPromotion, "c7 \"e8=Q Ka2\"; c8 \"10\";", "c7 has 2 moves but c8 1 points"},
      {kPromotion, "c7 \"e8=Q Kb7\"; c8 \"10 1\";", "c7 'Kb7'"},
      {kPromotion, "c7 \"e8=Q Ka2\"; c8 \"10 -1\";", "c8 '-1'"},
  }));
  auto r = record(position + " " + ops);
  auto e = expectation_of(r, board_of(r));
  INFO(ops);
  REQUIRE_FALSE(e);
  CHECK_THAT(e.error(), Catch::StartsWith(message));
}

TEST_CASE("expectation_of: a c0 that is not a list of move=points is a comment", "[suites][scoring]") {
  const auto [ops, rule, points] = GENERATE(table<std::string, Rule, std::size_t>({
      {"c0 \"e8=Q=10, e8=N\";", Rule::Unscored, 0},
      {"c0 \"e8=Q=ten\";", Rule::Unscored, 0},
      {"c0 \"e8=Q=10, Kb7=2\";", Rule::Unscored, 0},
      {"c0 \"White threatens e8=Q, and = is no score\";", Rule::Unscored, 0},
      {"bm e8=Q; c0 \"a = b\";", Rule::Bm, 0},
      // Then c7 with c8 count.
      {"c0 \"e8=Q=10, Kb7=2\"; c7 \"e8=Q Ka2\"; c8 \"10 1\";", Rule::Bm, 2},
  }));
  auto r = record(kPromotion + " " + ops);
  const auto board = board_of(r);
  const Expectation e = expect(r, board);
  INFO(ops);
  CHECK(e.rule == rule);
  CHECK(e.points.size() == points);
  CHECK(e.sts() == (points > 0));
}

TEST_CASE("score: bm am and bm with am", "[suites][scoring]") {
  const auto [ops, bestmove, solved, found] = GENERATE(table<std::string, std::string, bool, std::string>({
      {"bm Bb5;", "f1b5", true, "Bb5"},
      {"bm Bb5;", "f1c4", false, "Bc4"},
      {"bm Bb5 Bc4;", "f1c4", true, "Bc4"},
      {"am Nxe5;", "f3e5", false, "Nxe5"},
      {"am Nxe5;", "d2d4", true, "d4"},
      {"bm Bb5 Bc4; am Bc4;", "f1b5", true, "Bb5"},
      {"bm Bb5 Bc4; am Bc4;", "f1c4", false, "Bc4"},
      {"bm Bb5 Bc4; am Bc4;", "d2d4", false, "d4"},
      {"bm Bb5;", "", false, ""},
  }));
  auto r = record(kTwoKnights + " " + ops);
  const auto board = board_of(r);
  const auto e = expect(r, board);
  auto a = analysis(core::Score::centipawns(30), bestmove.empty() ? std::vector<std::string>{} : std::vector{bestmove});
  const Verdict v = score(e, board, a);
  INFO(ops << " bestmove " << bestmove);
  CHECK(v.scored);
  CHECK(v.solved == solved);
  CHECK(v.found == found);
  CHECK(v.points == 0);
  CHECK(v.max_points == 0);
  CHECK(v.to_solution.has_value() == solved);
  if (bestmove.empty()) CHECK(v.note == "the engine had no move");
  else CHECK(v.note.empty());
}

TEST_CASE("score: an unscored record is not scored", "[suites][scoring]") {
  auto r = record(kTwoKnights + " id \"x\";");
  const auto board = board_of(r);
  const Verdict v = score(expect(r, board), board, analysis(core::Score::centipawns(30), {"d2d4"}));
  CHECK_FALSE(v.scored);
  CHECK_FALSE(v.solved);
  CHECK(v.found == "d4");
  CHECK_FALSE(v.to_solution);
}

TEST_CASE("score: dm by mate length, checked against the PV", "[suites][scoring]") {
  struct Case {
    std::string position, ops;
    core::Score score;
    std::vector<std::string> pv;
    bool solved;
    std::string note;
  };
  const std::vector<Case> cases = {
      {mate_in_2(), "bm Qd8-f6; dm 2;", core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6g5"}, true, ""},
      // A PV short of the mate is taken on the engine's word.
      {mate_in_2(), "bm Qd8-f6; dm 2;", core::Score::from_uci_mate(2), {"d8f6"}, true, ""},
      // A mate shorter than dm solves, whatever bm says.
      {kFoolsMate, "bm Nf6; dm 2;", core::Score::from_uci_mate(1), {"d8h4"}, true, ""},
      {mate_in_2(), "bm Qd8-f6; dm 2;", core::Score::from_uci_mate(3), {"d8f6", "h6h5", "f6g5"}, false,
       "mate in 3, longer than dm 2"},
      {mate_in_2(), "bm Qd8-f6; dm 2;", core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6e6"}, false,
       "the PV does not end in mate after 3 plies"},
      {mate_in_2(), "dm 2;", core::Score::centipawns(500), {"d8f6"}, false, "no mate found (score cp 500)"},
      {mate_in_2(), "dm 2;", core::Score::from_uci_mate(-2), {"d8f6"}, false, "no mate found (score mate -2)"},
  };
  for (const auto& c : cases) {
    auto r = record(c.position + " " + c.ops);
    const auto board = board_of(r);
    const auto e = expect(r, board);
    REQUIRE(e.rule == Rule::Dm);
    const Verdict v = score(e, board, analysis(c.score, c.pv, 9, 900, 90));
    INFO(c.ops << " score " << c.score.to_uci_string() << " pv " << c.pv.size());
    CHECK(v.scored);
    CHECK(v.solved == c.solved);
    CHECK(v.note == c.note);
    CHECK(v.found == san(board, *core::parse_uci(board, c.pv.front())));
    if (c.solved) {
      REQUIRE(v.to_solution);
      CHECK(v.to_solution->depth == 9);
      CHECK(v.to_solution->nodes == 900);
      CHECK(v.to_solution->time_ms == 90);
    } else {
      CHECK_FALSE(v.to_solution);
    }
  }
}

TEST_CASE("score: dm without a reported line is not solved", "[suites][scoring]") {
  auto r = record(mate_in_2() + " dm 2;");
  const auto board = board_of(r);
  uci::Analysis a;
  a.bestmove = "d8f6";
  const Verdict v = score(expect(r, board), board, a);
  CHECK_FALSE(v.solved);
  CHECK(v.note == "no score reported");
}

TEST_CASE("score: STS points of the engine's move", "[suites][scoring]") {
  const auto [bestmove, points, solved] = GENERATE(table<std::string, int, bool>({
      {"f4f5", 10, true},
      {"d4f2", 3, false},
      {"d4e5", 2, false},
      {"d1d2", 0, false},
  }));
  auto r = record(suite_line("sts.epd", 1));
  const auto board = board_of(r);
  const Verdict v = score(expect(r, board), board, analysis(core::Score::centipawns(40), {bestmove}));
  INFO(bestmove);
  CHECK(v.scored);
  CHECK(v.points == points);
  CHECK(v.max_points == 10);
  CHECK(v.solved == solved);
}

TEST_CASE("score: time to solution from the last run of solving iterations", "[suites][scoring]") {
  auto r = record(suite_line("sts.epd", 1));
  const auto board = board_of(r);
  const auto e = expect(r, board);
  auto a = analysis(core::Score::centipawns(40), {"f4f5", "e6f5"}, 9, 90'000, 900);
  const auto it = [](int depth, const char* move) {
    return uci::Iteration{depth, static_cast<std::uint64_t>(depth) * 1000, static_cast<std::uint64_t>(depth) * 10,
                          core::Score::centipawns(depth), move};
  };

  SECTION("found at 3, lost at 4, back at 5 to the end: depth 5") {
    a.iterations = {it(1, "d1d2"), it(3, "f4f5"), it(4, "d4f2"), it(5, "f4f5")};
    const Verdict v = score(e, board, a);
    REQUIRE(v.solved);
    REQUIRE(v.to_solution);
    CHECK(v.to_solution->depth == 5);
    CHECK(v.to_solution->nodes == 5000);
    CHECK(v.to_solution->time_ms == 50);
  }
  SECTION("the solving move from depth 1") {
    a.iterations = {it(1, "f4f5")};
    const Verdict v = score(e, board, a);
    REQUIRE(v.to_solution);
    CHECK(v.to_solution->depth == 1);
    CHECK(v.to_solution->nodes == 1000);
  }
  SECTION("no iterations: the whole search") {
    const Verdict v = score(e, board, a);
    REQUIRE(v.solved);
    REQUIRE(v.to_solution);
    CHECK(v.to_solution->depth == 9);
    CHECK(v.to_solution->nodes == 90'000);
    CHECK(v.to_solution->time_ms == 900);
  }
  SECTION("switched to the solution at its last word: the whole search") {
    a.iterations = {it(1, "f4f5"), it(6, "d4f2")};
    const Verdict v = score(e, board, a);
    REQUIRE(v.solved);
    REQUIRE(v.to_solution);
    CHECK(v.to_solution->depth == 9);
  }
  SECTION("not solved: no time to solution") {
    a.bestmove = "d4f2";
    a.iterations = {it(1, "f4f5"), it(6, "d4f2")};
    const Verdict v = score(e, board, a);
    CHECK_FALSE(v.solved);
    CHECK_FALSE(v.to_solution);
    CHECK(v.points == 3);
  }
}

TEST_CASE("score: time to solution from a search's info lines", "[suites][scoring]") {
  auto r = record(kTwoKnights + " bm Bb5;");
  const auto board = board_of(r);
  const auto e = expect(r, board);
  uci::SearchRecord search(board, core::UciCastling::Standard);
  const char* lines[] = {
      "info depth 1 score cp 20 nodes 20 time 1 pv d2d4",
      "info depth 2 score cp 25 nodes 80 time 2 pv d2d4 e5d4",
      "info depth 3 score cp 30 nodes 300 time 3 pv f1b5 a7a6",
      "info depth 4 score cp 20 nodes 900 time 6 pv f1c4 f8c5",
      "info depth 5 score cp 35 nodes 2000 time 11 pv f1b5 a7a6",
      "info depth 6 score cp 33 nodes 5000 time 20 pv f1b5 g8f6",
      "info depth 7 score cp 40 nodes 9000 time 31 pv f1b5 a7a6 b5a4",
  };
  for (const char* l : lines) {
    auto m = uci::parse_engine_line(l);
    REQUIRE(std::holds_alternative<uci::Info>(m));
    search.add(std::get<uci::Info>(m));
  }
  auto bm = uci::parse_engine_line("bestmove f1b5 ponder a7a6");
  REQUIRE(std::holds_alternative<uci::BestMove>(bm));
  auto a = search.finish(std::get<uci::BestMove>(bm), 40);
  REQUIRE(a);
  const Verdict v = score(e, board, *a);
  CHECK(v.solved);
  CHECK(v.found == "Bb5");
  REQUIRE(v.to_solution);
  CHECK(v.to_solution->depth == 5);
  CHECK(v.to_solution->nodes == 2000);
  CHECK(v.to_solution->time_ms == 11);
}

TEST_CASE("score: Chess960 castling as the solution", "[suites][scoring]") {
  const std::string position = "4k3/8/8/8/8/8/8/RK5R w KQ -";
  const core::Board board = board_of_fen(position, true);
  auto r = record(position + " bm O-O-O;");
  const auto e = expect(r, board);
  REQUIRE(e.bm.size() == 1);
  auto a = analysis(core::Score::centipawns(900), {"b1a1", "e8e7"});
  a.iterations = {{3, 30, 3, core::Score::centipawns(1), "b1c1"}, {4, 40, 4, core::Score::centipawns(1), "b1a1"}};
  const Verdict v = score(e, board, a);
  CHECK(v.found == "O-O-O");
  CHECK(v.solved);
  REQUIRE(v.to_solution);
  CHECK(v.to_solution->depth == 4);

  // b1c1 is the king step, not castling: it does not solve.
  auto step = analysis(core::Score::centipawns(800), {"b1c1"});
  const Verdict s = score(e, board, step);
  CHECK(s.found == "Kc1");
  CHECK_FALSE(s.solved);
}

TEST_CASE("sts_theme: the theme from an STS id, the name from another", "[suites][scoring]") {
  const auto [id, theme] = GENERATE(table<std::string, std::string>({
      {"STS(v1.0) Undermine.001", "Undermine"},
      {"STS(v2.2) Open Files and Diagonals.015", "Open Files and Diagonals"},
      {"STS(v10.0) Simplification.100", "Simplification"},
      {"STS(v9.0) Advancement of a/b/c pawns.042", "Advancement of a/b/c pawns"},
      {"STS Undermine.001", "Undermine"},
      {"WAC.001", "WAC"},
      {"WAC", "WAC"},
      {"BK.24", "BK"},
      {"arasan21.v2", "arasan21.v2"},
      {"", ""},
  }));
  INFO(id);
  CHECK(sts_theme(id) == theme);
}

TEST_CASE("sts_rating: Mosca's formula", "[suites][scoring]") {
  CHECK(sts_rating(80) == Approx(44.523 * 80 - 242.85));
  CHECK(sts_rating(0) == Approx(-242.85));
  CHECK(sts_rating(100) == Approx(4209.45));
}

TEST_CASE("to_string: rules by name", "[suites][scoring]") {
  CHECK(std::string(to_string(Rule::Unscored)) == "unscored");
  CHECK(std::string(to_string(Rule::Bm)) == "bm");
  CHECK(std::string(to_string(Rule::Am)) == "am");
  CHECK(std::string(to_string(Rule::BmAm)) == "bm+am");
  CHECK(std::string(to_string(Rule::Dm)) == "dm");
}
