// Engine output checked before it is trusted: legal bestmove, the legal prefix of a PV, the
// last exact score of the deepest iteration, mate scores that agree with their PV.
#include <catch2/catch.hpp>

#include "core/fen.hpp"
#include "uci/analysis.hpp"

using namespace epdd;
using namespace epdd::uci;

namespace {

core::Board board(const char* fen) {
  auto b = core::parse_fen(fen);
  REQUIRE(b);
  return *b;
}

Info info(const char* line) {
  auto m = parse_engine_line(line);
  REQUIRE(std::holds_alternative<Info>(m));
  return std::get<Info>(m);
}

BestMove best(const char* line) {
  auto m = parse_engine_line(line);
  REQUIRE(std::holds_alternative<BestMove>(m));
  return std::get<BestMove>(m);
}

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace

TEST_CASE("analysis: the last exact score of the deepest iteration per line", "[uci][analysis]") {
  SearchRecord r(board(kStart), core::UciCastling::Standard);
  r.add(info("info depth 1 seldepth 1 multipv 1 score cp 20 nodes 20 pv e2e4"));
  r.add(info("info depth 2 seldepth 3 multipv 1 score cp 35 nodes 100 time 3 pv d2d4 d7d5"));
  r.add(info("info depth 2 seldepth 3 multipv 2 score cp 30 nodes 100 time 3 pv e2e4 e7e5"));
  r.add(info("info depth 3 seldepth 4 multipv 1 score cp 50 lowerbound nodes 300 pv d2d4"));
  r.add(info("info depth 3 currmove g1f3 currmovenumber 2"));
  auto a = r.finish(best("bestmove d2d4 ponder d7d5"), 5);
  REQUIRE(a);
  REQUIRE(a->lines.size() == 2);
  CHECK(a->lines[0].depth == 2);
  CHECK(a->lines[0].score == core::Score::centipawns(35));
  CHECK(a->lines[0].pv == std::vector<std::string>{"d2d4", "d7d5"});
  CHECK(a->lines[1].multipv == 2);
  CHECK(a->lines[1].score == core::Score::centipawns(30));
  CHECK(a->bestmove == "d2d4");
  CHECK(a->ponder == "d7d5");
  CHECK(a->nodes == 300);
  CHECK(a->time_ms == 3);
  // Depth 3 of line 1 ended with a bound only (a search cut off): depth 2 counts.
  CHECK(a->problems.empty());
}

TEST_CASE("analysis: an illegal bestmove is an error, an illegal ponder is dropped", "[uci][analysis]") {
  {
    SearchRecord r(board(kStart), core::UciCastling::Standard);
    auto a = r.finish(best("bestmove e2e5"), 1);
    REQUIRE_FALSE(a);
    CHECK_THAT(a.error(), Catch::Contains("illegal bestmove 'e2e5'"));
  }
  {
    SearchRecord r(board(kStart), core::UciCastling::Standard);
    auto a = r.finish(best("bestmove e2e4 ponder e2e4"), 1);
    REQUIRE(a);
    CHECK(a->ponder.empty());
    CHECK_THAT(a->problems.at(0), Catch::Contains("illegal ponder move"));
  }
  {
    // "No move" where there are legal moves is not an answer.
    SearchRecord r(board(kStart), core::UciCastling::Standard);
    CHECK_FALSE(r.finish(best("bestmove (none)"), 1));
    SearchRecord m(board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), core::UciCastling::Standard);
    auto a = m.finish(best("bestmove a1a1"), 1);
    REQUIRE(a);
    CHECK(a->bestmove.empty());
  }
}

TEST_CASE("analysis: a PV keeps its legal prefix and says where it was cut", "[uci][analysis]") {
  SearchRecord r(board(kStart), core::UciCastling::Standard);
  r.add(info("info depth 4 score cp 10 pv e2e4 e7e5 e4e5 g8f6"));
  auto a = r.finish(best("bestmove e2e4"), 1);
  REQUIRE(a);
  REQUIRE(a->lines.size() == 1);
  CHECK(a->lines[0].pv == std::vector<std::string>{"e2e4", "e7e5"});
  CHECK_THAT(a->lines[0].pv_cut, Catch::Contains("PV cut at move 3 'e4e5'"));
  CHECK_THAT(a->problems.at(0), Catch::Contains("multipv 1: PV cut at move 3"));
}

TEST_CASE("analysis: a mate score must agree with a PV that reaches the mate", "[uci][analysis]") {
  const char* fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
  {
    SearchRecord r(board(fen), core::UciCastling::Standard);
    r.add(info("info depth 2 score mate 1 pv d1d8"));
    auto a = r.finish(best("bestmove d1d8"), 1);
    REQUIRE(a);
    CHECK(a->lines[0].score == core::Score::mate_in_plies(1));
    CHECK(a->problems.empty());
  }
  {
    SearchRecord r(board(fen), core::UciCastling::Standard);
    r.add(info("info depth 2 score mate 1 pv d1d7"));
    auto a = r.finish(best("bestmove d1d7"), 1);
    REQUIRE(a);
    CHECK_THAT(a->problems.at(0), Catch::Contains("does not end in mate"));
  }
}

TEST_CASE("analysis: requests are checked by core before anything is sent", "[uci][analysis]") {
  AnalysisRequest r;
  r.moves = {"e4", "e7e5", "Ng1-f3"};
  auto p = prepare_position(r, core::UciCastling::Standard);
  REQUIRE(p);
  CHECK(p->root_fen.empty());
  CHECK(p->moves == std::vector<std::string>{"e2e4", "e7e5", "g1f3"});
  r.fen = "4k3/8/8/8/8/8/8/4K2R w K -";  // EPD's four fields
  r.moves = {"O-O"};
  p = prepare_position(r, core::UciCastling::Standard);
  REQUIRE(p);
  CHECK(p->root_fen == "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  CHECK(p->moves == std::vector<std::string>{"e1g1"});
  p = prepare_position(r, core::UciCastling::KingTakesRook);
  REQUIRE(p);
  CHECK(p->moves == std::vector<std::string>{"e1h1"});
  r.fen = "8/8/8/8/8/8/8/8 w - - 0 1";
  p = prepare_position(r, core::UciCastling::Standard);
  REQUIRE_FALSE(p);
  CHECK_THAT(p.error(), Catch::StartsWith("bad FEN"));
  r.fen.clear();
  r.moves = {"e4", "e4"};
  p = prepare_position(r, core::UciCastling::Standard);
  REQUIRE_FALSE(p);
  CHECK_THAT(p.error(), Catch::StartsWith("move 2 'e4'"));
}

TEST_CASE("analysis: a being-mated score is checked against its PV too", "[uci][analysis]") {
  // Black to move is mated in 1 (2 plies): ...Nb3 Rd8#.
  const char* fen = "6k1/5ppp/8/8/8/8/5PPP/n2R2K1 b - - 0 1";
  SearchRecord r(board(fen), core::UciCastling::Standard);
  r.add(info("info depth 3 score mate -1 pv a1b3 d1d8"));
  auto a = r.finish(best("bestmove a1b3"), 1);
  REQUIRE(a);
  CHECK(a->problems.empty());
  SearchRecord wrong(board(fen), core::UciCastling::Standard);
  wrong.add(info("info depth 3 score mate -1 pv a1b3 d1d7"));
  a = wrong.finish(best("bestmove a1b3"), 1);
  REQUIRE(a);
  CHECK_THAT(a->problems.at(0), Catch::Contains("does not end in mate after 2 plies"));
}

TEST_CASE("analysis: (none) after a stop falls back to the PV, and is reported", "[uci][analysis]") {
  SearchRecord r(board(kStart), core::UciCastling::Standard);
  r.add(info("info depth 5 score cp 20 pv e2e4 e7e5"));
  CHECK_FALSE(r.finish(best("bestmove (none)"), 1, /*stopped=*/false));
  auto a = r.finish(best("bestmove (none)"), 1, /*stopped=*/true);
  REQUIRE(a);
  CHECK(a->bestmove == "e2e4");
  CHECK_THAT(a->problems.at(0), Catch::Contains("the PV's first move e2e4 taken"));
}

TEST_CASE("analysis: absurd mate distances are malformed info, not overflows", "[uci][analysis]") {
  const Info i = info("info depth 3 score mate 2000000000 pv e2e4");
  CHECK(i.malformed);
  CHECK_FALSE(i.score);
}

TEST_CASE("analysis: changes of line 1's first move are kept for time to solution", "[uci][analysis]") {
  SearchRecord r(board(kStart), core::UciCastling::Standard);
  r.add(info("info depth 1 multipv 1 score cp 20 nodes 20 time 1 pv e2e4"));
  r.add(info("info depth 2 multipv 1 score cp 25 nodes 90 time 2 pv e2e4 e7e5"));
  r.add(info("info depth 2 multipv 2 score cp 10 nodes 90 time 2 pv d2d4"));  // not line 1
  r.add(info("info depth 3 multipv 1 score cp 30 lowerbound nodes 200 pv d2d4"));  // a bound
  r.add(info("info depth 3 multipv 1 score cp 28 nodes 300 time 4 pv d2d4 d7d5"));
  r.add(info("info depth 4 multipv 1 score cp 26 nodes 700 time 8 pv e2e5"));  // illegal: left out
  r.add(info("info depth 4 multipv 1 score cp 27 nodes 800 time 9 pv d2d4 g8f6"));
  r.add(info("info depth 5 multipv 1 score cp 40 nodes 1500 time 15 pv g1f3"));
  auto a = r.finish(best("bestmove g1f3"), 20);
  REQUIRE(a);
  REQUIRE(a->iterations.size() == 3);
  CHECK(a->iterations[0].move == "e2e4");
  CHECK(a->iterations[0].depth == 1);
  CHECK(a->iterations[1].move == "d2d4");
  CHECK(a->iterations[1].depth == 3);
  CHECK(a->iterations[1].nodes == 300);
  CHECK(a->iterations[1].time_ms == 4);
  CHECK(a->iterations[1].score == core::Score::centipawns(28));
  CHECK(a->iterations[2].move == "g1f3");
  CHECK(a->iterations[2].depth == 5);
}
