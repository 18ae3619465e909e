// The workers' leases with a real engine process (the fake engine): a lease the owner holds on a
// position none of its workers works on, as a claim whose answer was lost on the way leaves it
// (the claim committed, the connection dropped before the answer, the claim tried again and given
// another position), is not renewed with the leases of the searches in flight: it expires, and
// the position is claimed again while those searches go on (issue 37).
#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "daemon/job_spec.hpp"
#include "daemon/workers.hpp"
#include "store/store.hpp"
#include "store_support.hpp"
#include "test_support.hpp"
#include "uci/engine_pool.hpp"

using namespace epdd;

namespace {

// The request of a position: the start position after `move`, searched for `movetime_ms`.
std::string request_after(const std::string& move, std::uint64_t movetime_ms) {
  uci::AnalysisRequest request;
  request.moves = {move};
  request.limits.movetime_ms = movetime_ms;
  return daemon::request_to_json(request);
}

// Polls `query` (an integer) until `done` holds of it, for at most a minute (the wait is for
// something the store shows, not for a guess of how long it takes); the last value.
template <class Done>
std::int64_t wait_for(const std::string& path, const std::string& query, Done done) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  std::int64_t value = test::sql_integer(path, query);
  while (!done(value) && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    value = test::sql_integer(path, query);
  }
  return value;
}

}  // namespace

TEST_CASE("workers: a lease their owner holds on a position nobody works on expires, and is claimed again",
          "[daemon][lease][multiprocess]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "s.db").string();
  const std::string owner = "elsewhere/1/1";  // (not this machine's: never released as a gone process)
  auto store = test::open_store(path);
  const auto job = store->find_or_create_job(store::NewJob{"analyse", "j", "j", "", "{}", "bytes"});
  // Item 0, x: searched at once. Item 1, a: a search of ten minutes, stopped at the end.
  store->add_items(job.id, {{0, "x", request_after("e2e4", 10)}, {1, "a", request_after("d2d4", 600000)}}, "fake");

  // The claim whose answer was lost: x leased to the owner, and nobody told.
  auto lost = store->claim(owner, {"fake"}, 3000);
  REQUIRE(lost);
  REQUIRE(lost->key == "x");
  const auto x_expiry = test::sql_integer(path, "SELECT lease_expiry_ms FROM items WHERE key = 'x'");

  uci::EngineConfig engine;
  engine.name = "fake";
  engine.process.program = EPDD_FAKE_ENGINE;
  engine.instances = 2;
  uci::EnginePool pool({engine});
  daemon::WorkerSettings settings;
  settings.store = path;
  settings.owner = owner;
  settings.lease_ms = 3000;  // renewed every second
  settings.poll_ms = 50;
  daemon::Workers workers(settings, pool, {daemon::EngineSlot{"fake", "fake", 2}}, {});

  // a is searched, and its lease renewed at least once.
  const auto a_leased = wait_for(path, "SELECT coalesce(lease_expiry_ms, 0) FROM items WHERE key = 'a'",
                                 [](std::int64_t v) { return v > 0; });
  REQUIRE(a_leased > 0);
  REQUIRE(wait_for(path, "SELECT lease_expiry_ms FROM items WHERE key = 'a'",
                   [&](std::int64_t v) { return v > a_leased; }) > a_leased);
  // x's lease was left as the lost claim made it...
  CHECK(test::sql_integer(path, "SELECT coalesce(lease_expiry_ms, 0) FROM items WHERE key = 'x'") <= x_expiry);
  // ...so it expired and x was searched, while a's search still goes on.
  CHECK(wait_for(path, "SELECT count(*) FROM items WHERE key = 'x' AND state = 'done'",
                 [](std::int64_t v) { return v == 1; }) == 1);
  CHECK(test::sql_integer(path, "SELECT count(*) FROM items WHERE key = 'a' AND state = 'pending'") == 1);
  workers.cancel_in_flight();
  workers.join();
}

namespace {

// Runs workers of one instance of `program ARGS` over a job of one position (the start position
// after 1.e4, depth 1) until the item is no longer pending; returns its state and error.
struct Ended {
  std::string state;
  std::string error;
  std::int64_t outcomes = 0;  // the outcomes the workers reported
};
Ended run_one(const std::string& program, const std::vector<std::string>& args, int retries) {
  test::TempDir dir;
  const std::string path = (dir.path() / "s.db").string();
  auto store = test::open_store(path);
  const auto job = store->find_or_create_job(store::NewJob{"analyse", "j", "j", "", "{}", "bytes"});
  uci::AnalysisRequest request;
  request.moves = {"e2e4"};
  request.limits.depth = 1;
  store->add_items(job.id, {{0, "x", daemon::request_to_json(request)}}, "fake");
  uci::EngineConfig engine;
  engine.name = "fake";
  engine.process.program = program;
  engine.process.args = args;
  uci::EnginePool pool({engine});
  daemon::WorkerSettings settings;
  settings.store = path;
  settings.poll_ms = 50;
  settings.retries = retries;
  std::atomic<std::int64_t> outcomes{0};
  {
    daemon::Workers workers(settings, pool, {daemon::EngineSlot{"fake", "fake", 1}},
                            [&](const daemon::ItemOutcome&) { ++outcomes; });
    wait_for(path, "SELECT count(*) FROM items WHERE state = 'pending'", [](std::int64_t v) { return v == 0; });
    workers.join();
  }
  Ended e;
  e.state = std::string(store::to_string(store->items(job.id).at(0).state));
  e.error = store->items(job.id).at(0).error;
  e.outcomes = outcomes;
  return e;
}

// An engine program (a script in `dir` named NAME.sh): the fake engine crashing at its first `go`
// (the first start only: a marker folder says it happened), then the fake engine with `args`.
std::string crash_first(const test::TempDir& dir, const std::string& name, const std::string& args) {
  const auto marker = dir.path() / (name + ".crashed");
  const auto script = dir.write(name + ".sh", fmt::format("#!/bin/sh\n"
                                                          "if mkdir '{}' 2>/dev/null; then exec '{}' --crash-at go; fi\n"
                                                          "exec '{}' {}\n",
                                                          marker.string(), EPDD_FAKE_ENGINE, EPDD_FAKE_ENGINE, args));
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  return script.string();
}

}  // namespace

TEST_CASE("workers: a search the engine crashes on is asked again, and its item fails only after the retries",
          "[daemon][multiprocess]") {
  test::TempDir dir;
  // An engine that crashes on its first search only, and then answers.
  const Ended recovered = run_one(crash_first(dir, "once", ""), {}, 2);
  CHECK(recovered.state == "done");
  CHECK(recovered.error.empty());
  CHECK(recovered.outcomes == 1);

  // Always crashing: the first search and two retries, the same reason each time, said once.
  const Ended failed = run_one(EPDD_FAKE_ENGINE, {"--crash-at", "go"}, 2);
  CHECK(failed.state == "failed");
  CHECK(failed.error.rfind("crash during search: ", 0) == 0);
  CHECK(failed.error.find("(all 3 attempts)") != std::string::npos);
  CHECK(failed.outcomes == 1);

  // Another reason each time (a crash, then an illegal move), each attempt said.
  const Ended mixed = run_one(crash_first(dir, "changing", "--illegal-bestmove"), {}, 1);
  CHECK(mixed.state == "failed");
  CHECK(mixed.error.rfind("attempt 1 of 2: crash during search: ", 0) == 0);
  CHECK(mixed.error.find("; attempt 2 of 2: illegal") != std::string::npos);

  // retries = 0: failed at the first crash, as before.
  const Ended at_once = run_one(EPDD_FAKE_ENGINE, {"--crash-at", "go"}, 0);
  CHECK(at_once.state == "failed");
  CHECK(at_once.error.rfind("crash", 0) == 0);
}
