// The store's version 3 (issue 13 point 9, issue 14 point 9): a version 2 file upgraded in
// place; a job's clock starting at its first claim (status RATE/ETA); status saying when no live
// daemon holds a running job; the searches nobody waits for any more (cancel); purge of old jobs
// and unused cache entries; the time limits of `epdd purge`; the sinks' line safety.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <chrono>
#include <ctime>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "core/text.hpp"
#include "cli/jobs_command.hpp"
#include "daemon/job_spec.hpp"
#include "daemon/jobs.hpp"
#include "daemon/logging.hpp"
#include "cli/purge_command.hpp"
#include "store/store.hpp"
#include "daemon/workers.hpp"
#include "store_support.hpp"
#include "test_support.hpp"

using namespace epdd;
using namespace epdd::daemon;
using namespace epdd::cli;
using epdd::test::open_store;
using epdd::test::sql;
using epdd::test::sql_integer;

namespace {

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// A planned job for engine "E" with one item per key; returns its id.
std::int64_t job_with(store::Store& store, const std::string& name, const std::vector<std::string>& keys,
                      const std::string& source = "bytes") {
  const auto job = store.find_or_create_job(store::NewJob{"analyse", name + ".epd", name, "", "{}", source});
  std::vector<store::NewItem> items;
  for (std::size_t i = 0; i < keys.size(); ++i) items.push_back(store::NewItem{static_cast<std::int64_t>(i), keys[i], "{}"});
  store.add_items(job.id, items, "E");
  return job.id;
}

std::string host() {
  char buffer[256] = {};
  REQUIRE(gethostname(buffer, sizeof buffer - 1) == 0);
  return buffer;
}

// The status line of job `id`, split at blanks: id kind state done/total failed rate eta input.
std::vector<std::string> status_row(const std::string& status, std::int64_t id) {
  std::istringstream lines(status);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> row;
    for (std::string w; words >> w;) row.push_back(w);
    if (!row.empty() && row[0] == std::to_string(id)) return row;
  }
  FAIL("no line for job " << id << " in:\n" << status);
  return {};
}

std::string status_of(const std::string& path, std::optional<std::int64_t> job = std::nullopt) {
  std::ostringstream out, err;
  CHECK(run_status(StoreChoice{path, std::nullopt}, job, out, err) == 0);
  CHECK(err.str().empty());
  return out.str();
}

// The layout of a version 2 store, as epdd wrote it before version 3 (the oracle of the upgrade).
constexpr const char* kVersion2 = R"sql(
CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, input TEXT NOT NULL,
  identity TEXT NOT NULL UNIQUE, settings TEXT NOT NULL, state TEXT NOT NULL, message TEXT NOT NULL DEFAULT '',
  total INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
  searches INTEGER NOT NULL DEFAULT 0, cache_hits INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL, engine TEXT NOT NULL DEFAULT '', spec TEXT NOT NULL DEFAULT '', source BLOB,
  planned INTEGER NOT NULL DEFAULT 0, delivered INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, lease_expiry_ms INTEGER);
CREATE TABLE items (job INTEGER NOT NULL REFERENCES jobs(id), idx INTEGER NOT NULL, key TEXT NOT NULL,
  state TEXT NOT NULL, result TEXT, error TEXT, attempts INTEGER NOT NULL DEFAULT 0, lease_owner TEXT,
  lease_expiry_ms INTEGER, request TEXT NOT NULL DEFAULT '', PRIMARY KEY (job, idx));
CREATE TABLE cache (key TEXT NOT NULL PRIMARY KEY, engine TEXT NOT NULL, analysis TEXT NOT NULL,
  searches INTEGER NOT NULL DEFAULT 0, hits INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL);
CREATE INDEX items_by_key ON items (key);
CREATE INDEX items_by_state ON items (state, job, idx);
INSERT INTO jobs (kind, input, identity, settings, state, total, done, created_ms, updated_ms, engine, spec, source,
                  planned, delivered)
  VALUES ('analyse', 'a.epd', 'a', '', 'finished', 2, 2, 1000000, 5000000, 'E', '{}', 'A', 1, 1),
         ('analyse', 'b.epd', 'b', '', 'running', 1, 0, 2000000, 2000000, 'E', '{}', 'B', 1, 0);
INSERT INTO items (job, idx, key, state, result, request) VALUES (1, 0, 'k1', 'done', '{"r":1}', '{}'),
  (1, 1, 'k2', 'done', '{"r":2}', '{}'), (2, 0, 'k3', 'pending', NULL, '{}');
INSERT INTO cache (key, engine, analysis, searches, created_ms) VALUES ('k1', 'E', '{"r":1}', 1, 900000),
  ('k2', 'E', '{"r":2}', 1, 900000), ('k9', 'E', '{"r":9}', 1, 800000);
PRAGMA user_version = 2;
)sql";

}  // namespace

TEST_CASE("store: a version 2 file is upgraded in place to version 3, everything in it kept", "[daemon][store][purge]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "v2.db").string();
  sql(path, kVersion2);
  auto store = open_store(path);
  CHECK(sql_integer(path, "PRAGMA user_version") == 5);  // and on to the latest version
  const auto jobs = store->jobs();
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].state == store::JobState::Finished);
  CHECK(jobs[0].done == 2);
  // What the old file cannot know: a job with results started when it was made; one without
  // has not started.
  CHECK(jobs[0].started_ms == std::optional<std::int64_t>(1000000));
  CHECK_FALSE(jobs[1].started_ms.has_value());
  CHECK(jobs[1].runner.empty());
  CHECK(store->items(1).at(1).result == "{\"r\":2}");
  CHECK(store->cached("k9") == std::optional<std::string>("{\"r\":9}"));
  // An entry was last used no later than the last change of a job with its key (5000000 for k1
  // and k2); k9 no job has: its creation.
  store::PurgeRequest r;
  r.dry_run = true;
  r.cache_unused_since_ms = 4000000;
  CHECK(store->purge(r).cache_entries == 1);
  r.cache_unused_since_ms = 5000001;
  CHECK(store->purge(r).cache_entries == 3);
  // The upgraded file works: the pending item is claimed, which starts its job's clock.
  auto claim = store->claim("me", {"E"}, 60000);
  REQUIRE(claim);
  CHECK(claim->key == "k3");
  CHECK(store->job(2).started_ms.has_value());
  // Opening it again changes nothing.
  store.reset();
  store = open_store(path);
  CHECK(store->jobs().size() == 2);
}

TEST_CASE("store: a job's clock starts at its first claim, later claims keep it and name the claimer",
          "[daemon][store][purge]") {
  test::TempDir dir;
  auto store = open_store((dir.path() / "s.db").string());
  const auto job = job_with(*store, "a", {"k1", "k2"});
  CHECK_FALSE(store->job(job).started_ms.has_value());
  const auto before = now_ms();
  REQUIRE(store->claim("one", {"E"}, 60000));
  const auto started = store->job(job).started_ms;
  REQUIRE(started.has_value());
  CHECK(*started >= before);
  CHECK(store->job(job).runner == "one");
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(store->claim("two", {"E"}, 60000));
  CHECK(store->job(job).started_ms == started);
  CHECK(store->job(job).runner == "two");
}

TEST_CASE("status counts RATE/MIN and ETA from the job's first claim, not from when it was queued",
          "[daemon][status]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "s.db").string();
  std::int64_t job = 0;
  {
    auto store = open_store(path);
    std::vector<std::string> keys;
    for (int i = 0; i < 20; ++i) keys.push_back("k" + std::to_string(i));
    job = job_with(*store, "a", keys);
    for (int i = 0; i < 12; ++i) {
      auto claim = store->claim(this_process_owner(), {"E"}, 60000);
      REQUIRE(claim);
      store->commit_analysis(job, claim->items.front().second, claim->key, "E", "{}");
    }
    REQUIRE(store->claim(this_process_owner(), {"E"}, 60000));  // a search in flight: a live lease
  }
  // Queued an hour ago, taken up 6 minutes ago: 12 answered in 6 minutes is 2 a minute, and the 8
  // left take 4 minutes (counted from the queueing, it would be 0.2 a minute and 40 minutes).
  const auto now = now_ms();
  sql(path, fmt::format("UPDATE jobs SET created_ms = {}, started_ms = {} WHERE id = {}", now - 3600000, now - 360000,
                        job));
  const auto row = status_row(status_of(path), job);
  REQUIRE(row.size() == 8);
  CHECK(row[2] == "running");
  CHECK(row[3] == "12/20");
  CHECK(row[5] == "2.0");
  CHECK(row[6] == "4:00");
  CHECK(status_of(path).find("no live daemon") == std::string::npos);
  // Finished: the rate is over the time it ran, up to its last change.
  sql(path, fmt::format("UPDATE jobs SET state = 'finished', updated_ms = {} WHERE id = {}", now - 240000, job));
  CHECK(status_row(status_of(path), job)[5] == "6.0");
  // Never claimed: no rate.
  sql(path, fmt::format("UPDATE jobs SET started_ms = NULL WHERE id = {}", job));
  CHECK(status_row(status_of(path), job)[5] == "-");
}

TEST_CASE("status says when no live daemon holds a running job, and shows no ETA then", "[daemon][status]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "s.db").string();
  const std::string gone = host() + "/999999999/1";  // no such pid on this machine
  const std::string elsewhere = "another-machine.example/42/7";
  std::int64_t job = 0;
  {
    auto store = open_store(path);
    job = job_with(*store, "a", {"k1", "k2", "k3"});
    auto claim = store->claim(gone, {"E"}, 60000);
    REQUIRE(claim);
    store->commit_analysis(job, 0, claim->key, "E", "{}");
    REQUIRE(store->claim(gone, {"E"}, 60000));  // live by its expiry, but its process is gone
  }
  sql(path, fmt::format("UPDATE jobs SET started_ms = started_ms - 60000 WHERE id = {}", job));
  SECTION("killed: its lease is there, its process is gone") {
    const auto text = status_of(path);
    CHECK(status_row(text, job)[6] == "-");
    CHECK_THAT(text, Catch::Contains("       no live daemon holds it: " + gone + " no longer runs"));
    CHECK_THAT(status_of(path, job), Catch::Contains("no live daemon holds it"));
  }
  SECTION("stopped: no lease left, and the process that claimed last is gone") {
    open_store(path)->release_leases(gone);
    const auto text = status_of(path);
    CHECK(status_row(text, job)[6] == "-");
    CHECK_THAT(text, Catch::Contains("no live daemon holds it: " + gone + ", which worked on it last, no longer runs"));
  }
  SECTION("another machine's lease that expired") {
    auto store = open_store(path);
    store->release_leases(gone);
    REQUIRE(store->claim(elsewhere, {"E"}, -600000));
    CHECK_THAT(status_of(path), Catch::Contains("no live daemon holds it: the lease of " + elsewhere + " expired 10 min ago"));
  }
  SECTION("another machine's live lease: it runs there") {
    auto store = open_store(path);
    store->release_leases(gone);
    REQUIRE(store->claim(elsewhere, {"E"}, 600000));
    const auto text = status_of(path);
    CHECK(text.find("no live daemon") == std::string::npos);
    CHECK(status_row(text, job)[6] != "-");
  }
}

TEST_CASE("status says which host a finished job's output files wait for, until they are written",
          "[daemon][status][security]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "s.db").string();
  auto store = open_store(path);
  // A finished job of host-a's (every item done), made as submit makes it.
  const auto finished = [&](const std::string& name, const std::optional<std::string>& output) {
    daemon::JobSpec spec;
    spec.kind = "analyse";
    spec.input = "/a/" + name + ".epd";
    spec.engine = "fake";
    spec.host = "host-a";
    spec.output = output;
    store::NewJob n{"analyse", spec.input, name, "", daemon::spec_to_json(spec), "bytes"};
    n.delivery_host = daemon::delivery_host(spec);
    const auto job = store->find_or_create_job(n).id;
    store->add_items(job, std::vector<store::NewItem>{{0, "k-" + name, "{}"}}, "E");
    store->commit_analysis(job, 0, "k-" + name, "E", "{}");
    return job;
  };
  const auto with_output = finished("with-output", "/a/out.epd");
  const auto without = finished("without", std::nullopt);
  const std::string waits = fmt::format(
      "       finished: outputs wait for a daemon on host host-a; `epdd results {}` writes them anywhere\n", with_output);
  const auto text = status_of(path);
  CHECK_THAT(text, Catch::Contains(waits));
  CHECK(text.find("outputs wait") == text.rfind("outputs wait"));  // the job without files: any daemon's
  CHECK_THAT(status_of(path, with_output), Catch::Contains(waits));
  CHECK_THAT(status_of(path, without), !Catch::Contains("outputs wait"));
  store->mark_delivered(with_output, store::JobState::Finished);
  CHECK_THAT(status_of(path), !Catch::Contains("outputs wait"));
}

TEST_CASE("store: abandoned_leases names the positions that only cancelled jobs wait for", "[daemon][store][lease]") {
  test::TempDir dir;
  auto store = open_store((dir.path() / "s.db").string());
  const auto x = job_with(*store, "x", {"s"});
  const auto y = job_with(*store, "y", {"s"});
  REQUIRE(store->claim("me", {"E"}, 60000));
  CHECK(store->abandoned_leases("me").empty());
  store->cancel_job(x, "cancelled");
  CHECK(store->abandoned_leases("me").empty());  // y still waits for the search
  store->cancel_job(y, "cancelled");
  using Pairs = std::vector<std::pair<std::string, std::int64_t>>;
  CHECK(store->abandoned_leases("me") == Pairs{{"s", x}, {"s", y}});
  CHECK(store->abandoned_leases("someone else").empty());
}

TEST_CASE("store: purge removes jobs that ended before the time, with their items, and keeps the others",
          "[daemon][store][purge]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "s.db").string();
  auto store = open_store(path);
  const auto finished = job_with(*store, "finished", {"a1", "a2"}, "12345");
  const auto cancelled = job_with(*store, "cancelled", {"b1"}, "678");
  const auto in_flight = job_with(*store, "in-flight", {"c1"});
  const auto running = job_with(*store, "running", {"d1"});
  const auto queued = store->find_or_create_job(store::NewJob{"analyse", "e.epd", "queued", "", "{}", "x"}).id;
  const auto recent = job_with(*store, "recent", {"f1"});
  const auto delivering = job_with(*store, "delivering", {"g1"});
  REQUIRE(store->claim("worker", {"E"}, 600000, in_flight));  // a search in flight, then its job cancelled
  store->set_job_state(finished, store::JobState::Finished);
  store->cancel_job(cancelled, "cancelled");
  store->cancel_job(in_flight, "cancelled");
  store->set_job_state(recent, store::JobState::Finished);
  store->cancel_job(delivering, "cancelled");
  // A daemon is delivering `delivering` now: a live lease on the job. The others it delivered.
  for (;;) {
    const auto d = store->claim_delivery("daemon", 600000);
    REQUIRE(d);
    if (d->id == delivering) break;
    store->mark_delivered(d->id, d->state);
  }
  const auto now = now_ms();
  sql(path, fmt::format("UPDATE jobs SET updated_ms = {} WHERE id <> {}", now - 7200000, recent));
  store::PurgeRequest r;
  r.ended_before_ms = now - 3600000;
  r.dry_run = true;
  const auto dry = store->purge(r);
  std::vector<std::int64_t> ids;
  for (const auto& j : dry.jobs) ids.push_back(j.id);
  CHECK(ids == std::vector<std::int64_t>{finished, cancelled});
  CHECK(dry.items == 3);
  CHECK(dry.input_bytes == 8);
  CHECK(store->jobs().size() == 7);
  CHECK(store->items(finished).size() == 2);

  r.dry_run = false;
  const auto done = store->purge(r);
  CHECK(done.jobs.size() == 2);
  CHECK(done.items == 3);
  ids.clear();
  for (const auto& j : store->jobs()) ids.push_back(j.id);
  CHECK(ids == std::vector<std::int64_t>{in_flight, running, queued, recent, delivering});
  CHECK(store->items(finished).empty());
  CHECK(sql_integer(path, "SELECT count(*) FROM items WHERE job NOT IN (SELECT id FROM jobs)") == 0);
  store->vacuum();
  CHECK(store->jobs().size() == 5);
}

TEST_CASE("store: purge of the cache keeps entries used since the time and those a job waits for",
          "[daemon][store][purge]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "s.db").string();
  auto store = open_store(path);
  const auto done = job_with(*store, "done", {"old", "hit"});
  store->commit_analysis(done, 0, "old", "E", "{}");
  store->commit_analysis(done, 1, "hit", "E", "{}");
  const auto waiting = job_with(*store, "waiting", {"wanted"});
  const auto other = job_with(*store, "other", {"wanted"});
  store->commit_analysis(other, 0, "wanted", "E", "{}");
  const auto now = now_ms();
  sql(path, fmt::format("UPDATE cache SET used_ms = {}", now - 7200000));
  // A hit is a use.
  const auto again = job_with(*store, "again", {"hit"});
  store->commit_cached(again, 0, "hit", "{}");
  CHECK(sql_integer(path, "SELECT used_ms FROM cache WHERE key = 'hit'") >= now);
  store::PurgeRequest r;
  r.cache_unused_since_ms = now - 3600000;
  r.dry_run = true;
  CHECK(store->purge(r).cache_entries == 1);
  CHECK(store->cache_stats().entries == 3);
  r.dry_run = false;
  CHECK(store->purge(r).cache_entries == 1);
  CHECK_FALSE(store->cached("old"));
  CHECK(store->cached("hit"));
  CHECK(store->cached("wanted"));  // job `waiting` has a pending item for it
  store->cancel_job(waiting, "cancelled");
  CHECK(store->purge(r).cache_entries == 1);  // nobody waits for it now
  CHECK(store->jobs().size() == 4);           // no job limit given: no job removed
}

TEST_CASE("purge time limits: dates in local time, ages before now, anything else refused", "[daemon][purge]") {
  const std::int64_t now = 1790000000000;
  const auto local = [](int y, int mo, int d, int h = 0, int mi = 0, int s = 0) {
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    tm.tm_isdst = -1;
    return static_cast<std::int64_t>(std::mktime(&tm)) * 1000;
  };
  CHECK(parse_time_limit("2026-10-01", now) == local(2026, 10, 1));
  CHECK(parse_time_limit("2026-10-01T12:30", now) == local(2026, 10, 1, 12, 30));
  CHECK(parse_time_limit("2026-10-01 12:30:15", now) == local(2026, 10, 1, 12, 30, 15));
  CHECK(parse_time_limit("30d", now) == now - 30LL * 86400000);
  CHECK(parse_time_limit("12h", now) == now - 12LL * 3600000);
  CHECK(parse_time_limit("2w", now) == now - 14LL * 86400000);
  CHECK(parse_time_limit("0d", now) == now);
  for (const char* bad : {"2026-02-31", "2026-13-01", "2026-10-1", "yesterday", "30", "d", "-3d", "30x", "",
                          "2026-10-01T25:00", "3.5d"}) {
    INFO(bad);
    const auto t = parse_time_limit(bad, now);
    REQUIRE_FALSE(t.has_value());
    CHECK_THAT(t.error(), Catch::Contains(core::quoted(bad)) && Catch::Contains("30d"));
  }
}

TEST_CASE("sinks: one_line and safe_lines keep every line whole and escaped text as it is", "[daemon][logging]") {
  CHECK(one_line("job 3: finished") == "job 3: finished");
  CHECK(one_line("evil\n[2026-01-01 00:00:00.000] [info] fake") == "evil\\n[2026-01-01 00:00:00.000] [info] fake");
  CHECK(one_line("\x1b[2J\r\t") == "\\x1b[2J\\r\\t");
  CHECK(one_line("caf\xe9 \xc3\xa9") == "caf\\xe9 \xc3\xa9");
  CHECK(one_line("C:\\path") == "C:\\path");  // a backslash alone is left
  CHECK(safe_lines("one\ntwo\x1b\n\nfour\xff") == "one\ntwo\\x1b\n\nfour\\xff");
  // Text escaped where it was built passes through the sinks unchanged.
  for (const std::string& raw :
       std::vector<std::string>{"a\nb", "a\\nb", "\x1b[31m\\x1b", "\xff\xfe", std::string("nul\0byte", 8)}) {
    const std::string e = core::escaped(raw);
    CHECK(one_line(e) == e);
    CHECK(safe_lines(e) == e);
  }
}
