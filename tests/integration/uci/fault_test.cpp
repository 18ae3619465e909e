// The fault matrix (issue 5): for every misbehaviour of tests/fake_engine, the request fails
// with the right error kind within its deadline, the pool restarts the engine, the next
// request succeeds, and no child process is left behind (checked in /proc).
#include <atomic>
#include <thread>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "engine_support.hpp"
#include "test_support.hpp"
#include "uci/engine_pool.hpp"
#include "uci/engine_session.hpp"

using namespace epdd;
using namespace epdd::uci;
using namespace std::chrono_literals;

namespace {

// Short timeouts so that the whole matrix runs in seconds; generous enough for an ASan build.
Timeouts test_timeouts() {
  Timeouts t;
  t.handshake = 1500ms;
  t.ready = 1500ms;
  t.new_game = 1500ms;
  t.search = 2000ms;
  t.search_margin = 500ms;
  t.stop = 700ms;
  t.quit = 300ms;
  t.terminate = 300ms;
  t.write = 700ms;
  return t;
}

EngineConfig fake(std::vector<std::string> args) {
  EngineConfig c = test::engine("fake", EPDD_FAKE_ENGINE, std::move(args));
  c.timeouts = test_timeouts();
  c.max_line = 64 * 1024;
  return c;
}

AnalysisRequest depth_request(int depth = 3) {
  AnalysisRequest r;
  r.limits.depth = depth;
  return r;
}

struct Fault {
  const char* name;
  std::vector<std::string> args;
  EngineErrorKind kind;
  const char* step;        // where the failure must be reported
  const char* status;      // a fragment of the exit status, or "" when not checked
  bool warm_up = false;    // one good request first (ucinewgame is only sent before a second)
  bool stop_after = false; // the failing request is an infinite search ended by stop
  std::chrono::milliseconds within{0};  // the failing request's deadline, checked
};

std::vector<Fault> faults() {
  const auto t = test_timeouts();
  const auto slack = 1500ms;  // process start, reaping, a loaded CI machine
  return {
      {"crash at start", {"--crash-at", "start"}, EngineErrorKind::Crash, "handshake", "SIGSEGV", false, false,
       t.quit + slack},
      {"crash at uci", {"--crash-at", "uci"}, EngineErrorKind::Crash, "handshake", "SIGSEGV", false, false,
       t.quit + slack},
      {"crash at setoption", {"--crash-at", "setoption"}, EngineErrorKind::Crash, "", "SIGSEGV", false, false,
       t.quit + slack},
      {"crash at isready", {"--crash-at", "isready"}, EngineErrorKind::Crash, "isready", "SIGSEGV", false, false,
       t.quit + slack},
      {"crash at ucinewgame", {"--crash-at", "ucinewgame"}, EngineErrorKind::Crash, "ucinewgame", "SIGSEGV", true,
       false, t.quit + slack},
      {"crash at position", {"--crash-at", "position"}, EngineErrorKind::Crash, "search", "SIGSEGV", false, false,
       t.quit + slack},
      {"crash at go", {"--crash-at", "go"}, EngineErrorKind::Crash, "search", "SIGSEGV", false, false, t.quit + slack},
      {"crash at info", {"--crash-at", "info"}, EngineErrorKind::Crash, "search", "SIGSEGV", false, false,
       t.quit + slack},
      {"crash at stop", {"--crash-at", "stop"}, EngineErrorKind::Crash, "search", "SIGSEGV", false, true,
       200ms + t.quit + slack},
      {"exit at go", {"--exit-at", "go", "--exit-code", "3"}, EngineErrorKind::Crash, "search",
       "exited with status 3", false, false, t.quit + slack},
      {"hang at uci", {"--hang-at", "uci"}, EngineErrorKind::Timeout, "handshake", "", false, false,
       t.handshake + slack},
      {"no uciok", {"--no-uciok"}, EngineErrorKind::Timeout, "handshake", "", false, false, t.handshake + slack},
      {"hang at isready", {"--hang-at", "isready"}, EngineErrorKind::Timeout, "isready", "", false, false,
       t.ready + slack},
      {"hang at ucinewgame", {"--hang-at", "ucinewgame"}, EngineErrorKind::Timeout, "ucinewgame", "", true, false,
       t.new_game + slack},
      {"hang at go", {"--hang-at", "go"}, EngineErrorKind::Timeout, "stop", "", false, false,
       t.search + t.search_margin + t.stop + slack},
      {"hang at setoption", {"--hang-at", "setoption"}, EngineErrorKind::Timeout, "isready", "", false, false,
       t.ready + slack},
      {"hang at position", {"--hang-at", "position"}, EngineErrorKind::Timeout, "stop", "", false, false,
       t.search + t.search_margin + t.stop + slack},
      {"hang at info", {"--hang-at", "info"}, EngineErrorKind::Timeout, "stop", "", false, false,
       t.search + t.search_margin + t.stop + slack},
      {"hang at stop", {"--hang-at", "stop"}, EngineErrorKind::Timeout, "stop", "", false, true,
       200ms + t.stop + slack},
      {"exit at uci", {"--exit-at", "uci"}, EngineErrorKind::Crash, "handshake", "exited with status 3", false, false,
       t.quit + slack},
      {"ignore stop", {"--ignore-stop"}, EngineErrorKind::Timeout, "stop", "", false, true,
       200ms + t.stop + slack},
      {"flood info", {"--flood-info"}, EngineErrorKind::Timeout, "stop", "", false, false,
       t.search + t.search_margin + t.stop + slack},
      {"endless line", {"--endless-line"}, EngineErrorKind::ProtocolViolation, "search", "", false, false,
       t.quit + slack},
      {"illegal bestmove", {"--illegal-bestmove"}, EngineErrorKind::IllegalOutput, "search", "", false, false,
       slack},
  };
}

}  // namespace

TEST_CASE("fault matrix: the request fails in time with the right kind, the engine is restarted", "[uci][faults]") {
  const Fault fault = GENERATE(from_range(faults()));
  INFO(fault.name);
  epdd::test::TempDir dir;
  std::vector<std::string> args = fault.args;
  // The misbehaviour happens once: the restarted engine behaves, so the next request succeeds.
  args.push_back("--once");
  args.push_back((dir.path() / "fired").string());
  EnginePool pool({fake(args)});

  if (fault.warm_up) REQUIRE(pool.analyse(depth_request()).has_value());
  AnalysisRequest bad = depth_request();
  if (fault.stop_after) {
    bad.limits = {};
    bad.limits.stop_after_ms = 200;
  }
  const auto t0 = Clock::now();
  auto failed = pool.analyse(bad);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
  REQUIRE_FALSE(failed);
  INFO(failed.error().to_string());
  CHECK(failed.error().kind == fault.kind);
  if (*fault.step) CHECK(failed.error().step == fault.step);
  if (*fault.status) CHECK_THAT(failed.error().exit_status, Catch::Contains(fault.status));
  CHECK_FALSE(failed.error().transcript.empty());
  CHECK(took <= fault.within);

  auto next = pool.analyse(depth_request());
  if (!next) FAIL(next.error().to_string());
  CHECK_FALSE(next->bestmove.empty());
  const auto health = pool.health();
  REQUIRE(health.size() == 1);
  CHECK(health[0].restarts == 1);
  CHECK(health[0].succeeded == (fault.warm_up ? 2u : 1u));
  CHECK(epdd::test::child_pids().size() == 1);  // the restarted engine only: the old one is reaped
  pool.shutdown();
  CHECK(epdd::test::child_pids().empty());
}

TEST_CASE("faults that are survived: split, glued and garbage output, an illegal PV", "[uci][faults]") {
  const auto args = GENERATE(as<std::vector<std::string>>{}, std::vector<std::string>{"--split-lines"},
                             std::vector<std::string>{"--glue-lines"}, std::vector<std::string>{"--garbage"},
                             std::vector<std::string>{"--illegal-pv"});
  INFO((args.empty() ? std::string("well behaved") : args[0]));
  auto session = EngineSession::start(fake(args));
  if (!session) FAIL(session.error().to_string());
  AnalysisRequest r = depth_request(4);
  r.multipv = 2;
  r.moves = {"e2e4", "e7e5"};
  auto a = (*session)->analyse(r);
  if (!a) FAIL(a.error().to_string());
  CHECK((*session)->identity().name == "FakeEngine 1.0");
  REQUIRE(a->lines.size() == 2);
  CHECK(a->lines[0].depth == 4);
  CHECK_FALSE(a->bestmove.empty());
  CHECK(a->lines[0].pv.front() == a->bestmove);
  if (!args.empty() && args[0] == "--illegal-pv") {
    CHECK(a->lines[0].pv.size() == 1);  // the legal prefix
    CHECK_THAT(a->lines[0].pv_cut, Catch::Contains("PV cut at move 2"));
    CHECK_FALSE(a->problems.empty());
  } else {
    CHECK(a->lines[0].pv.size() == 2);
    CHECK(a->problems.empty());
  }
  (*session)->shutdown();
  CHECK((*session)->exit_status() == "exited with status 0");
}

TEST_CASE("an engine that exits on illegal positions never sees one", "[uci][faults]") {
  auto session = EngineSession::start(fake({"--exit-on-illegal-position"}));
  REQUIRE(session);
  const int pid = (*session)->pid();
  AnalysisRequest r = depth_request();
  r.moves = {"e2e4", "e2e4"};
  auto a = (*session)->analyse(r);
  REQUIRE_FALSE(a);
  CHECK(a.error().kind == EngineErrorKind::BadRequest);
  r.moves = {"e2e4"};
  CHECK((*session)->analyse(r).has_value());
  CHECK((*session)->pid() == pid);
  CHECK((*session)->state() == SessionState::Ready);
}

TEST_CASE("shutdown escalates: an engine slow to quit is terminated in time and reaped", "[uci][faults]") {
  auto session = EngineSession::start(fake({"--slow-quit", "10000"}));
  REQUIRE(session);
  const auto t0 = Clock::now();
  (*session)->shutdown();
  const auto took = Clock::now() - t0;
  CHECK(took < 2s);
  CHECK_THAT((*session)->exit_status(), Catch::Contains("SIGTERM"));
  CHECK(epdd::test::child_pids().empty());
}

TEST_CASE("shutdown during a search drains the bestmove and quits", "[uci][faults]") {
  auto session = EngineSession::start(fake({}));
  REQUIRE(session);
  CHECK((*session)->analyse(depth_request()).has_value());
  (*session)->shutdown();
  CHECK((*session)->exit_status() == "exited with status 0");
}

TEST_CASE("past its restart budget an engine is unhealthy and fails fast with the reason", "[uci][faults]") {
  EngineConfig c = fake({"--crash-at", "go"});
  c.restarts.max_restarts = 2;
  EnginePool pool({c});
  for (int i = 0; i < 3; ++i) {
    auto r = pool.analyse(depth_request());
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == EngineErrorKind::Crash);
  }
  const auto t0 = Clock::now();
  auto r = pool.analyse(depth_request());
  REQUIRE_FALSE(r);
  CHECK(r.error().kind == EngineErrorKind::Unhealthy);
  CHECK_THAT(r.error().message, Catch::Contains("2 restarts"));
  CHECK(Clock::now() - t0 < 100ms);
  const auto health = pool.health();
  CHECK(health[0].unhealthy);
  CHECK(health[0].crashes == 3);
  CHECK(health[0].restarts == 2);
  CHECK(epdd::test::child_pids().empty());
}

TEST_CASE("a start failure names the program and the reason", "[uci][faults]") {
  auto session = EngineSession::start(test::engine("missing", "/nonexistent/engine"));
  REQUIRE_FALSE(session);
  CHECK(session.error().kind == EngineErrorKind::StartFailed);
  CHECK_THAT(session.error().message, Catch::Contains("/nonexistent/engine"));
  CHECK(epdd::test::child_pids().empty());
  // A directory is said to be one (exec's "Permission denied" sent users looking at modes).
  epdd::test::TempDir dir;
  for (const std::string& path : {dir.path().string(), dir.path().string() + "/"}) {
    auto directory = EngineSession::start(test::engine("directory", path));
    REQUIRE_FALSE(directory);
    CHECK(directory.error().kind == EngineErrorKind::StartFailed);
    CHECK_THAT(directory.error().message, Catch::Contains("cannot start '" + path + "': it is a directory, not a program"));
  }
  CHECK(epdd::test::child_pids().empty());
}

TEST_CASE("options are checked against the engine's declarations before they are sent", "[uci][options]") {
  epdd::test::TempDir dir;
  const auto log = (dir.path() / "log").string();
  EngineConfig c = fake({"--log", log});
  c.options = {{"hash", "32"}, {"Style", "risky"}, {"threads", "2"}};
  {
    auto session = EngineSession::start(c);
    if (!session) FAIL(session.error().to_string());
  }
  const std::string sent = epdd::test::read_file(log);
  // Threads before Hash; the engine's spelling; OwnBook off for analysis.
  const auto threads = sent.find("setoption name Threads value 2");
  const auto hash = sent.find("setoption name Hash value 32");
  REQUIRE(threads != std::string::npos);
  REQUIRE(hash != std::string::npos);
  CHECK(threads < hash);
  CHECK(sent.find("setoption name Style value Risky") != std::string::npos);
  CHECK(sent.find("setoption name OwnBook value false") != std::string::npos);

  c.options = {{"Hash", "big"}, {"Colour", "red"}};
  auto bad = EngineSession::start(c);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().kind == EngineErrorKind::BadRequest);
  CHECK_THAT(bad.error().message, Catch::Contains("Hash") && Catch::Contains("Colour"));
  CHECK(epdd::test::child_pids().empty());
}

TEST_CASE("ucinewgame per request: cleared by default, kept within a game", "[uci][session]") {
  epdd::test::TempDir dir;
  const auto log = (dir.path() / "log").string();
  auto session = EngineSession::start(fake({"--log", log}));
  REQUIRE(session);
  AnalysisRequest r = depth_request(1);
  REQUIRE((*session)->analyse(r));
  r.new_game = NewGame::Keep;
  REQUIRE((*session)->analyse(r));
  r.new_game = NewGame::Clear;
  REQUIRE((*session)->analyse(r));
  (*session)->shutdown();
  const std::string sent = epdd::test::read_file(log);
  std::size_t count = 0;
  for (auto at = sent.find("ucinewgame"); at != std::string::npos; at = sent.find("ucinewgame", at + 1)) ++count;
  CHECK(count == 1);
}

TEST_CASE("the engine's stderr is captured per engine: logged and in the transcript", "[uci][session]") {
  // The engine under test is a shell that writes to stderr and then becomes the fake engine.
  EngineConfig c = fake({"-c", std::string("echo 'NNUE file not found' >&2; exec ") + EPDD_FAKE_ENGINE + " --crash-at go"});
  c.process.program = "/bin/sh";
  std::vector<std::string> logged;
  std::mutex m;
  auto session = EngineSession::start(c, [&](LogLevel, std::string_view engine, std::string_view message) {
    std::lock_guard lock(m);
    logged.push_back(std::string(engine) + ": " + std::string(message));
  });
  if (!session) FAIL(session.error().to_string());
  CHECK_THAT((*session)->transcript_tail(40), Catch::Contains("! NNUE file not found"));
  auto r = (*session)->analyse(depth_request());
  REQUIRE_FALSE(r);
  CHECK(r.error().kind == EngineErrorKind::Crash);
  std::lock_guard lock(m);
  CHECK(std::find(logged.begin(), logged.end(), "fake: stderr: NNUE file not found") != logged.end());
}

namespace {

// A shell engine that answers the handshake and then floods without any pause.
EngineConfig flooding(const char* on) {
  EngineConfig c = fake({});
  c.process.program = "/bin/sh";
  c.process.args = {"-c", std::string("while read l; do case \"$l\" in "
                                      "uci) ") + (std::string(on) == "uci" ? "exec yes 'id name flood'" : "echo uciok") +
                              ";; isready) echo readyok;; go*) exec yes 'info depth 1 score cp 0 nodes 1 pv e2e4';; "
                              "esac; done"};
  c.options.clear();
  return c;
}

}  // namespace

TEST_CASE("an engine that floods output without pause still meets every deadline", "[uci][faults]") {
  {
    const auto t0 = Clock::now();
    auto session = EngineSession::start(flooding("uci"));
    REQUIRE_FALSE(session);
    CHECK(session.error().kind == EngineErrorKind::Timeout);
    CHECK(Clock::now() - t0 < test_timeouts().handshake + 1500ms);
  }
  auto session = EngineSession::start(flooding("go"));
  if (!session) FAIL(session.error().to_string());
  const auto t0 = Clock::now();
  auto r = (*session)->analyse(depth_request());
  REQUIRE_FALSE(r);
  CHECK(r.error().kind == EngineErrorKind::Timeout);
  const auto t = test_timeouts();
  CHECK(Clock::now() - t0 < t.search + t.search_margin + t.stop + 1500ms);
  (*session)->shutdown();
  CHECK(epdd::test::child_pids().empty());
}

TEST_CASE("requests that cannot be sent fail as bad requests, the engine untouched", "[uci][session]") {
  auto session = EngineSession::start(fake({"--exit-on-illegal-position"}));
  REQUIRE(session);
  // Chess960: b1c1 is O-O-O read the standard way, a king step read king-takes-rook; the
  // moves are read again in the engine's form, where d1d8 is then illegal.
  AnalysisRequest r = depth_request();
  r.fen = "6k1/8/8/8/8/8/8/RK6 w A - 0 1";
  r.chess960 = true;
  r.moves = {"b1c1", "g8h8", "d1d8"};
  auto a = (*session)->analyse(r);
  REQUIRE_FALSE(a);
  CHECK(a.error().kind == EngineErrorKind::BadRequest);
  AnalysisRequest forever = depth_request();
  forever.limits = {};
  forever.limits.movetime_ms = 10'000'000'000'000ull;
  a = (*session)->analyse(forever);
  REQUIRE_FALSE(a);
  CHECK(a.error().kind == EngineErrorKind::BadRequest);
  CHECK_THAT(a.error().message, Catch::Contains("30 days"));
  AnalysisRequest unlimited = depth_request();
  unlimited.limits = {};
  a = (*session)->analyse(unlimited);
  REQUIRE_FALSE(a);
  CHECK_THAT(a.error().message, Catch::Contains("no search limit"));
  CHECK((*session)->state() == SessionState::Ready);
  CHECK((*session)->analyse(depth_request()).has_value());
}

TEST_CASE("a cleanly stopped timeout keeps the engine and uses no restart", "[uci][pool]") {
  // A shell engine that searches until told to stop.
  EngineConfig c = fake({});
  c.process.program = "/bin/sh";
  c.process.args = {"-c", "while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; "
                          "stop) echo 'info depth 1 score cp 5 pv e2e4'; echo 'bestmove e2e4';; esac; done"};
  c.options.clear();
  EnginePool pool({c});
  AnalysisRequest r = depth_request();
  r.timeout_ms = 200;
  const auto t0 = Clock::now();
  auto a = pool.analyse(r);
  REQUIRE_FALSE(a);
  CHECK(a.error().kind == EngineErrorKind::Timeout);
  CHECK(a.error().step == "search");
  CHECK(Clock::now() - t0 < 200ms + test_timeouts().search_margin + 1500ms);
  const auto pids = epdd::test::child_pids();
  CHECK(pids.size() == 1);
  // stop_after: the same engine answers a planned stop with its move.
  AnalysisRequest planned;
  planned.limits.stop_after_ms = 100;
  auto b = pool.analyse(planned);
  if (!b) FAIL(b.error().to_string());
  CHECK(b->bestmove == "e2e4");
  CHECK(b->stopped);
  const auto health = pool.health();
  CHECK(health[0].timeouts == 1);
  CHECK(health[0].restarts == 0);
  CHECK(epdd::test::child_pids() == pids);
}

TEST_CASE("a cancelled search is stopped at once, the engine kept, and a cancelled request never starts", "[uci][pool]") {
  epdd::test::TempDir dir;
  const auto log = (dir.path() / "log").string();
  EnginePool pool({fake({"--log", log})});
  std::atomic<bool> cancel{false};
  AnalysisRequest r;
  r.limits.movetime_ms = 20000;
  r.cancel = &cancel;
  auto pending = pool.submit(r);
  // Cancelled in the search: once the engine has read its go.
  REQUIRE(epdd::test::eventually([&] {
    return std::filesystem::exists(log) && epdd::test::read_file(log).find("\ngo ") != std::string::npos;
  }));
  const auto pids = epdd::test::child_pids();
  REQUIRE(pids.size() == 1);
  const auto t0 = Clock::now();
  cancel = true;
  auto a = pending.get();
  REQUIRE_FALSE(a);
  CHECK(a.error().kind == EngineErrorKind::Cancelled);
  CHECK(Clock::now() - t0 < 1500ms);
  // Not started at all now, and the engine still serves others.
  auto b = pool.analyse(r);
  REQUIRE_FALSE(b);
  CHECK(b.error().kind == EngineErrorKind::Cancelled);
  CHECK(pool.analyse(depth_request()).has_value());
  CHECK(epdd::test::child_pids() == pids);
  CHECK(pool.health()[0].restarts == 0);
}

TEST_CASE("an engine that crashes on quit is still reaped, its status in words", "[uci][faults]") {
  auto session = EngineSession::start(fake({"--crash-at", "quit"}));
  REQUIRE(session);
  CHECK((*session)->analyse(depth_request()).has_value());
  (*session)->shutdown();
  CHECK((*session)->exit_status() == "killed by signal 11 (SIGSEGV)");
  CHECK(epdd::test::child_pids().empty());
}

TEST_CASE("an engine starts with its arguments, working directory and environment", "[uci][session]") {
  epdd::test::TempDir dir;
  EngineConfig c = fake({"-c", std::string("echo \"$EPDD_TEST_VAR in $(pwd) with $# args: $1\" >&2; exec ") +
                                   EPDD_FAKE_ENGINE,
                         "sh", "one two"});
  c.process.program = "sh";  // looked up in PATH
  c.process.working_directory = dir.path().string();
  c.process.env = {{"EPDD_TEST_VAR", "set"}};
  auto session = EngineSession::start(c);
  if (!session) FAIL(session.error().to_string());
  const std::string expected = "set in " + std::filesystem::canonical(dir.path()).string() + " with 1 args: one two";
  CHECK_THAT((*session)->transcript_tail(40), Catch::Contains(expected));
}

TEST_CASE("a pool of several engines routes each request to the engine it names", "[uci][pool]") {
  EngineConfig sf = test::engine("sf", "/usr/games/stockfish");
  EngineConfig f = fake({});
  EnginePool pool({sf, f});
  AnalysisRequest r = depth_request(2);
  r.engine = "fake";
  auto a = pool.analyse(r);
  if (!a) FAIL(a.error().to_string());
  CHECK(a->engine == "FakeEngine 1.0");
  r.engine.clear();  // the first engine
  a = pool.analyse(r);
  if (!a) FAIL(a.error().to_string());
  CHECK_THAT(a->engine, Catch::StartsWith("Stockfish"));
  r.engine = "nope";
  a = pool.analyse(r);
  REQUIRE_FALSE(a);
  CHECK(a.error().kind == EngineErrorKind::BadRequest);
  const auto health = pool.health();
  REQUIRE(health.size() == 2);
  CHECK(health[0].engine == "sf");
  CHECK(health[0].succeeded == 1);
  CHECK(health[1].engine == "fake");
  CHECK(health[1].succeeded == 1);
}

TEST_CASE("identify answers from a running instance, which then serves the requests", "[uci][pool]") {
  EngineConfig c = fake({"--name", "Fake Identity 2.5"});
  c.instances = 2;
  EnginePool pool({c});
  auto id = pool.identify();
  if (!id) FAIL(id.error().to_string());
  CHECK(id->name == "Fake Identity 2.5");
  CHECK(id->author == "epdd tests");
  CHECK(epdd::test::child_pids().size() == 1);
  auto missing = pool.identify("nobody");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().kind == EngineErrorKind::BadRequest);
  auto a = pool.analyse(depth_request());
  if (!a) FAIL(a.error().to_string());
  CHECK(a->engine == "Fake Identity 2.5");
  std::uint64_t starts = 0;
  for (const auto& h : pool.health()) starts += h.starts;
  CHECK(starts <= 2);
  pool.shutdown();
  CHECK(epdd::test::child_pids().empty());
  // After shutdown: refused, not hung.
  auto after = pool.identify();
  REQUIRE_FALSE(after);
  CHECK(after.error().kind == EngineErrorKind::ShutDown);
}

TEST_CASE("a program that never says uciok fails warm_up and identify in one start, not two", "[uci][pool]") {
  // issue 39, item 11: `--engine /bin/cat` took two handshake timeouts to fail (warm_up's start,
  // then identify() restarting it). The fake engine's log counts the starts: each begins with uci.
  epdd::test::TempDir dir;
  const auto log = (dir.path() / "log").string();
  EnginePool pool({fake({"--no-uciok", "--log", log})});
  pool.warm_up();
  auto id = pool.identify();
  REQUIRE_FALSE(id);
  CHECK(id.error().kind == EngineErrorKind::Timeout);
  CHECK_THAT(id.error().message, Catch::Contains("no uciok"));
  std::istringstream sent(epdd::test::read_file(log));
  int started = 0;
  for (std::string line; std::getline(sent, line);) started += line == "uci";
  CHECK(started == 1);
  // A later identify tries again (the engine may have been fixed meanwhile).
  auto again = pool.identify();
  REQUIRE_FALSE(again);
  std::istringstream sent_again(epdd::test::read_file(log));
  started = 0;
  for (std::string line; std::getline(sent_again, line);) started += line == "uci";
  CHECK(started == 2);
  pool.shutdown();
  CHECK(epdd::test::child_pids().empty());
}

TEST_CASE("a pool whose engine refuses its options fails every request without restarting it", "[uci][pool]") {
  epdd::test::TempDir dir;
  const auto log = (dir.path() / "log").string();
  EngineConfig c = fake({"--name", "Fake Options 1.0", "--log", log});
  c.options = {{"Hahs", "64", "--option"}};
  c.instances = 2;
  EnginePool pool({c});
  pool.warm_up();
  auto id = pool.identify();
  REQUIRE_FALSE(id);
  CHECK(id.error().kind == EngineErrorKind::BadRequest);
  CHECK(id.error().message == "--option: engine Fake Options 1.0 declares no option 'Hahs' (did you mean 'Hash'?)");
  // Asked to quit (the engine was fine), every one started, before any shutdown: none was left
  // running or killed. warm_up started each instance, and each refuses on its own thread: the
  // second may still be on its way, so the log is read until both have been asked to quit.
  int started = 0, quit = 0, searched = 0;
  const bool all_quit = epdd::test::eventually([&] {
    std::istringstream sent(epdd::test::read_file(log));
    started = quit = searched = 0;
    for (std::string line; std::getline(sent, line);) {
      started += line == "uci";
      quit += line == "quit";
      searched += line.rfind("go", 0) == 0;
    }
    return started == c.instances && quit == started;
  });
  INFO("the engines' log: " << started << " started, " << quit << " asked to quit");
  CHECK(all_quit);
  CHECK(searched == 0);
  auto a = pool.analyse(depth_request());
  REQUIRE_FALSE(a);
  CHECK(a.error().kind == EngineErrorKind::BadRequest);
  std::uint64_t starts = 0, restarts = 0;
  for (const auto& h : pool.health()) {
    starts += h.starts;
    restarts += h.restarts;
    CHECK_FALSE(h.unhealthy);
  }
  CHECK(starts <= 2);  // once per instance at most, however often it is asked
  CHECK(restarts == 0);
}
