// End to end with real engines from Debian: Stockfish and Ethereal under /usr/games.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "engine_support.hpp"
#include "uci/engine_pool.hpp"
#include "uci/engine_session.hpp"

using namespace epdd;
using namespace epdd::uci;

namespace {

struct RealEngine {
  const char* name;
  const char* path;
};

const RealEngine kEngines[] = {{"stockfish", "/usr/games/stockfish"}, {"ethereal", "/usr/games/ethereal-chess"}};

std::unique_ptr<EngineSession> start(const RealEngine& e) {
  REQUIRE(access(e.path, X_OK) == 0);  // Debian packages stockfish and ethereal-chess
  auto session = EngineSession::start(test::engine(e.name, e.path));
  if (!session) FAIL(session.error().to_string());
  return std::move(*session);
}

AnalysisRequest request(std::string fen, SearchLimits limits) {
  AnalysisRequest r;
  r.fen = std::move(fen);
  r.limits = limits;
  return r;
}

Analysis ok(Expected<Analysis, EngineError> result) {
  if (!result) FAIL(result.error().to_string());
  return std::move(*result);
}

const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

}  // namespace

TEST_CASE("real engines: depth, nodes, movetime, mate and multipv requests", "[uci][engine]") {
  const auto& e = GENERATE(kEngines[0], kEngines[1]);
  INFO(e.name);
  auto session = start(e);
  CHECK_FALSE(session->identity().name.empty());

  SearchLimits depth;
  depth.depth = 8;
  Analysis a = ok(session->analyse(request(kKiwipete, depth)));
  CHECK(a.depth >= 8);
  CHECK_FALSE(a.bestmove.empty());
  REQUIRE(a.lines.size() == 1);
  CHECK_FALSE(a.lines[0].pv.empty());
  CHECK(a.lines[0].pv.front() == a.bestmove);

  SearchLimits nodes;
  nodes.nodes = 20000;
  a = ok(session->analyse(request("", nodes)));
  CHECK_FALSE(a.bestmove.empty());
  CHECK(a.nodes > 0);

  SearchLimits movetime;
  movetime.movetime_ms = 200;
  const auto t0 = Clock::now();
  a = ok(session->analyse(request(kKiwipete, movetime)));
  CHECK(Clock::now() - t0 >= std::chrono::milliseconds(150));
  CHECK_FALSE(a.bestmove.empty());

  // Mate in 2 (white: Qh5+ ... ): a classic two-mover; the engine must find the mate score.
  SearchLimits mate;
  mate.mate = 2;
  mate.depth = 10;
  a = ok(session->analyse(request("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", mate)));
  CHECK(a.bestmove == "h5f7");
  REQUIRE_FALSE(a.lines.empty());
  CHECK(a.lines[0].score == core::Score::from_uci_mate(1));

  AnalysisRequest multi = request(kKiwipete, depth);
  multi.multipv = 3;
  a = ok(session->analyse(multi));
  REQUIRE(a.lines.size() == 3);
  CHECK(a.lines[0].multipv == 1);
  CHECK(a.lines[2].multipv == 3);
  CHECK(a.lines[0].pv.front() != a.lines[1].pv.front());
  CHECK(a.lines[0].score >= a.lines[1].score);
  CHECK(a.lines[1].score >= a.lines[2].score);

  // Back to one line, from moves played from the start position (SAN accepted, sent as UCI).
  AnalysisRequest moves = request("", nodes);
  moves.moves = {"e4", "e5", "Nf3", "Nc6", "Bb5"};
  a = ok(session->analyse(moves));
  CHECK(a.lines.size() == 1);

  session->shutdown();
  CHECK(session->exit_status() == "exited with status 0");
  CHECK(test::child_pids().empty());
}

TEST_CASE("real engines: Threads=1 and a node limit give the same result twice", "[uci][engine]") {
  const auto& e = GENERATE(kEngines[0], kEngines[1]);
  INFO(e.name);
  auto session = start(e);
  SearchLimits nodes;
  nodes.nodes = 50000;
  AnalysisRequest r = request(kKiwipete, nodes);
  const Analysis first = ok(session->analyse(r));
  const Analysis second = ok(session->analyse(r));  // ucinewgame between: a fresh hash
  CHECK(first.bestmove == second.bestmove);
  REQUIRE(first.lines.size() == 1);
  REQUIRE(second.lines.size() == 1);
  CHECK(first.lines[0].depth == second.lines[0].depth);
  CHECK(first.lines[0].score == second.lines[0].score);
  CHECK(first.lines[0].pv == second.lines[0].pv);
  CHECK(first.nodes == second.nodes);
}

TEST_CASE("real engines: positions with no legal move are answered without a search", "[uci][engine]") {
  auto session = start(kEngines[0]);
  SearchLimits depth;
  depth.depth = 5;
  Analysis a = ok(session->analyse(request("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth)));
  CHECK(a.status == core::GameStatus::Checkmate);
  CHECK(a.bestmove.empty());
  // When asked to search anyway, Stockfish answers bestmove (none): accepted as no move.
  a = ok(session->analyse(request("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth), true));
  CHECK(a.bestmove.empty());
}

TEST_CASE("real engines: stop_after ends an infinite search with its bestmove", "[uci][engine]") {
  auto session = start(kEngines[0]);
  SearchLimits infinite;
  infinite.stop_after_ms = 300;
  const auto t0 = Clock::now();
  Analysis a = ok(session->analyse(request(kKiwipete, infinite)));
  const auto took = Clock::now() - t0;
  CHECK(a.stopped);
  CHECK_FALSE(a.bestmove.empty());
  CHECK(took >= std::chrono::milliseconds(300));
  CHECK(took < std::chrono::milliseconds(3000));
}

TEST_CASE("real engines: a bad request fails without reaching the engine", "[uci][engine]") {
  auto session = start(kEngines[0]);
  SearchLimits depth;
  depth.depth = 3;
  auto r = session->analyse(request("8/8/8/8/8/8/8/8 w - - 0 1", depth));  // no kings: Stockfish would crash
  REQUIRE_FALSE(r);
  CHECK(r.error().kind == EngineErrorKind::BadRequest);
  AnalysisRequest illegal = request("", depth);
  illegal.moves = {"e2e4", "e2e4"};
  r = session->analyse(illegal);
  REQUIRE_FALSE(r);
  CHECK(r.error().kind == EngineErrorKind::BadRequest);
  CHECK_THAT(r.error().message, Catch::Contains("move 2"));
  CHECK(session->state() == SessionState::Ready);
  CHECK(session->analyse(request("", depth)).has_value());
}

TEST_CASE("real engines: two sessions in a pool keep a game on one session", "[uci][engine][pool]") {
  auto config = test::engine("stockfish", "/usr/games/stockfish");
  config.instances = 2;
  EnginePool pool({config});
  std::vector<std::future<Expected<Analysis, EngineError>>> results;
  SearchLimits nodes;
  nodes.nodes = 5000;
  for (int i = 0; i < 8; ++i) {
    AnalysisRequest r = request(i % 2 ? kKiwipete : "", nodes);
    r.game = static_cast<std::uint64_t>(i % 3);
    r.new_game = NewGame::Keep;
    results.push_back(pool.submit(r));
  }
  for (auto& f : results) CHECK(f.get().has_value());
  const auto health = pool.health();
  REQUIRE(health.size() == 2);
  CHECK(health[0].requests + health[1].requests == 8);
  // Games 0 (3 requests) and 2 (2) go to instance 0, game 1 (3) to instance 1.
  CHECK(health[0].requests == 5);
  CHECK(health[1].requests == 3);
  CHECK(health[0].restarts == 0);
  CHECK(test::child_pids().size() == 2);
  pool.shutdown();
  CHECK(test::child_pids().empty());
}
