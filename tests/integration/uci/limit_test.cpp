// Engines that search past the limit they were given (issue 13, defect 8): Toga II ignores
// `go nodes`, some engines overshoot `go depth`. epdd reads the nodes and depth the engine
// reports and sends `stop` once they pass the limit, so such a search ends soon after the limit
// instead of at its timeout, with a valid result, and says so once per engine in the log.
#include <catch2/catch.hpp>

#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "engine_support.hpp"
#include "uci/engine_pool.hpp"
#include "uci/engine_session.hpp"

using namespace epdd;
using namespace epdd::uci;
using namespace std::chrono_literals;

namespace {

EngineConfig fake(std::vector<std::string> args) {
  EngineConfig c = test::engine("fake", EPDD_FAKE_ENGINE, std::move(args));
  c.timeouts.stop = 2000ms;
  return c;
}

// What the pool logs, for counting.
struct LogLines {
  std::mutex mutex;
  std::vector<std::string> lines;
  LogSink sink() {
    return [this](LogLevel, std::string_view engine, std::string_view message) {
      std::lock_guard lock(mutex);
      lines.push_back(std::string(engine) + ": " + std::string(message));
    };
  }
  std::size_t count(const std::string& fragment) {
    std::lock_guard lock(mutex);
    return static_cast<std::size_t>(std::count_if(
        lines.begin(), lines.end(), [&](const std::string& l) { return l.find(fragment) != std::string::npos; }));
  }
};

// The timeout a search would run into if nobody stopped it; the bound the tests measure against
// is far below it.
constexpr std::uint64_t kTimeoutMs = 20000;
constexpr auto kBound = 3000ms;

AnalysisRequest nodes_request(std::uint64_t nodes) {
  AnalysisRequest r;  // the start position: the fake engine plays a2a3, score cp 0
  r.limits.nodes = nodes;
  r.timeout_ms = kTimeoutMs;
  return r;
}

// The fake engine's iteration d of line 1 reports d*1000+1 nodes, score cp 0 (material), and
// pv a2a3 a7a5; the line it prints for the iteration cut off by stop is an upper bound of -999.
void check_fake_result(const Analysis& a) {
  REQUIRE(a.lines.size() == 1);
  const PvLine& line = a.lines[0];
  CHECK(a.bestmove == "a2a3");
  CHECK(line.score == core::Score::centipawns(0));
  CHECK(line.nodes == static_cast<std::uint64_t>(line.depth) * 1000 + 1);
  CHECK(line.pv == std::vector<std::string>{"a2a3", "a7a5"});
  CHECK(a.depth == line.depth);
  CHECK(a.problems.empty());
}

}  // namespace

TEST_CASE("an engine that ignores go nodes is stopped soon after the limit, with a valid result", "[uci][limits]") {
  LogLines log;
  EnginePool pool({fake({"--ignore-nodes"})}, log.sink());
  for (int round = 0; round < 2; ++round) {
    const auto t0 = Clock::now();
    auto a = pool.analyse(nodes_request(50000));
    const auto took = Clock::now() - t0;
    if (!a) FAIL(a.error().to_string());
    CHECK(took < kBound);
    check_fake_result(*a);
    // The limit was passed (it is not the engine's doing that the search ended) ...
    CHECK(a->lines[0].nodes >= 50000);
    CHECK(a->nodes >= 50000);
    // ... but not by much: the stop went out as soon as the reports passed it.
    CHECK(a->nodes < 200000);
    CHECK(a->stopped);
    CHECK_THAT(a->limit_stop, Catch::StartsWith("engine ignores go nodes: stopped by epdd at ") &&
                                  Catch::EndsWith(" nodes"));
  }
  // Once per engine in the log, however many searches it took.
  CHECK(log.count("engine ignores go nodes: stopped by epdd at") == 1);
  // The engine was left in step: the next search on it is answered, nothing was restarted.
  AnalysisRequest depth;
  depth.limits.depth = 3;
  auto b = pool.analyse(depth);
  if (!b) FAIL(b.error().to_string());
  CHECK(b->depth == 3);
  CHECK_FALSE(b->stopped);
  const auto health = pool.health();
  CHECK(health[0].timeouts == 0);
  CHECK(health[0].restarts == 0);
  CHECK(health[0].succeeded == 3);
}

TEST_CASE("an engine that searches past go depth is stopped there", "[uci][limits]") {
  LogLines log;
  EnginePool pool({fake({"--ignore-depth"})}, log.sink());
  AnalysisRequest r;
  r.limits.depth = 8;
  r.timeout_ms = kTimeoutMs;
  const auto t0 = Clock::now();
  auto a = pool.analyse(r);
  const auto took = Clock::now() - t0;
  if (!a) FAIL(a.error().to_string());
  CHECK(took < kBound);
  check_fake_result(*a);
  CHECK(a->depth >= 8);
  CHECK(a->depth < 100);
  CHECK_THAT(a->limit_stop, Catch::StartsWith("engine searched past go depth 8: stopped by epdd at depth "));
  CHECK(log.count("engine searched past go depth") == 1);
}

TEST_CASE("an engine that keeps to its limits is never stopped by epdd", "[uci][limits]") {
  LogLines log;
  EnginePool pool({fake({})}, log.sink());
  auto a = pool.analyse(nodes_request(4000));  // the fake engine: depth 3, 3001 nodes
  if (!a) FAIL(a.error().to_string());
  check_fake_result(*a);
  CHECK(a->depth == 3);
  CHECK_FALSE(a->stopped);
  CHECK(a->limit_stop.empty());
  AnalysisRequest r;
  r.limits.depth = 4;
  auto b = pool.analyse(r);
  if (!b) FAIL(b.error().to_string());
  CHECK(b->depth == 4);
  CHECK_FALSE(b->stopped);
  CHECK(log.count("stopped by epdd") == 0);
}

TEST_CASE("a session stopping an engine that ignores go nodes keeps one go to one bestmove", "[uci][limits]") {
  // Straight on the session: each search's bestmove is its own, and the stale lines of a
  // stopped search are not taken for the next one's (the next asks another position).
  auto session = EngineSession::start(fake({"--ignore-nodes"}));
  if (!session) FAIL(session.error().to_string());
  for (int i = 0; i < 3; ++i) {
    auto a = (*session)->analyse(nodes_request(20000));
    if (!a) FAIL(a.error().to_string());
    check_fake_result(*a);
    AnalysisRequest other;
    other.fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";  // mate in one: d1d8
    other.limits.depth = 2;
    auto b = (*session)->analyse(other);
    if (!b) FAIL(b.error().to_string());
    CHECK(b->bestmove == "d1d8");
    CHECK(b->lines[0].score == core::Score::from_uci_mate(1));
    CHECK((*session)->state() == SessionState::Ready);
  }
}
