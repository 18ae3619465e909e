// Issue 18 point 5 (a store shared by many hosts): the input files a job's options name are kept
// in the store with the job (job_files, schema version 5), so no daemon opens a path from a job;
// a job whose outputs are files is delivered only by a daemon of its host (claim_delivery's
// host); a version 4 store is upgraded in place.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "store/store.hpp"
#include "store_support.hpp"
#include "test_support.hpp"

using namespace epdd;
using epdd::test::open_store;
using epdd::test::sql;
using epdd::test::sql_integer;

namespace {

// A finished job (its one item done) named `identity`, with these files and delivery host.
std::int64_t finished_job(store::Store& store, const std::string& identity, const std::string& host,
                          std::vector<std::pair<std::string, std::string>> files = {}) {
  store::NewJob n{"annotate", "g.pgn", identity, "", "{}", "source"};
  n.files = std::move(files);
  n.delivery_host = host;
  const auto job = store.find_or_create_job(n).id;
  store.add_items(job, std::vector<store::NewItem>{{0, "k-" + identity, "{}"}}, "E");
  store.commit_analysis(job, 0, "k-" + identity, "E", "{}");
  return job;
}

}  // namespace

TEST_CASE("store: a job's input files are kept with it, read back by name, and purged with it",
          "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("files"));
  const std::string binary("\x00\x01\xff book", 8);
  const auto job = finished_job(*store, "a", "", {{"book", binary}, {"import", "1k6/8/8/8/8/8/8/K7 w - - ce 0;\n"}});
  CHECK(store->job_file(job, "book") == std::optional<std::string>(binary));
  CHECK(store->job_file(job, "import") == std::optional<std::string>("1k6/8/8/8/8/8/8/K7 w - - ce 0;\n"));
  CHECK_FALSE(store->job_file(job, "pgn").has_value());
  // The same job again (a resume) with other bytes under a name: the last run's file is the
  // one rendered (annotate's --book is not in a job's identity); the others stay.
  store::NewJob again{"annotate", "g.pgn", "a", "", "{}", "source"};
  again.files = {{"book", "other"}};
  CHECK(store->find_or_create_job(again).id == job);
  CHECK(store->job_file(job, "book") == std::optional<std::string>("other"));
  CHECK(store->job_file(job, "import") == std::optional<std::string>("1k6/8/8/8/8/8/8/K7 w - - ce 0;\n"));
  // Another job has none of them.
  const auto other = finished_job(*store, "b", "");
  CHECK_FALSE(store->job_file(other, "book").has_value());
  CHECK_THROWS_AS(store->job_file(job + 100, "book"), store::StoreError);

  store->mark_delivered(job, store::JobState::Finished);
  store->mark_delivered(other, store::JobState::Finished);
  const std::int64_t later = std::numeric_limits<std::int64_t>::max();  // every job that ended
  const auto dry = store->purge(store::PurgeRequest{later, std::nullopt, true});
  REQUIRE(dry.jobs.size() == 2);
  // The inputs' bytes: both sources (6 each) and the first job's two files.
  CHECK(dry.input_bytes == 6 + 6 + 5 + 31);
  store->purge(store::PurgeRequest{later, std::nullopt, false});
  CHECK(store->jobs().empty());
  CHECK(sql_integer(store->location(), "SELECT count(*) FROM job_files") == 0);
}

TEST_CASE("store: a job whose outputs are files is delivered by a daemon of its host only, others by anyone",
          "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("hosts"));
  const auto on_a = finished_job(*store, "on-a", "A");
  // Another host's daemon does not take it, nor does a caller naming no host.
  CHECK_FALSE(store->claim_delivery("B/1/1", 60000, "B"));
  CHECK_FALSE(store->claim_delivery("X/1/1", 60000));
  CHECK(sql_integer(store->location(), "SELECT count(*) FROM jobs WHERE lease_owner IS NOT NULL") == 0);
  // A job with no file outputs (no host) is anyone's: B takes it while A's waits.
  const auto anyone = finished_job(*store, "anyone", "");
  const auto b = store->claim_delivery("B/1/1", 60000, "B");
  REQUIRE(b);
  CHECK(b->id == anyone);
  store->mark_delivered(anyone, store::JobState::Finished);
  CHECK_FALSE(store->claim_delivery("B/1/1", 60000, "B"));
  // A daemon of host A takes its job.
  const auto a = store->claim_delivery("A/1/1", 60000, "A");
  REQUIRE(a);
  CHECK(a->id == on_a);
  CHECK_FALSE(store->claim_delivery("A/2/2", 60000, "A"));
}

TEST_CASE("store: a delivery claim given back (a growing job's next round) is anyone's again at once, only by its owner",
          "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("release"));
  const auto job = finished_job(*store, "grown", "");
  REQUIRE(store->claim_delivery("A/1/1", 60000));
  CHECK_FALSE(store->claim_delivery("B/1/1", 60000));  // A's claim runs for a minute
  store->release_delivery(job, "B/1/1");                // not B's to give back
  CHECK_FALSE(store->claim_delivery("B/1/1", 60000));
  store->release_delivery(job, "A/1/1");
  const auto b = store->claim_delivery("B/1/1", 60000);
  REQUIRE(b);
  CHECK(b->id == job);
  CHECK_FALSE(store->job(job).delivered);
}

namespace {

// The layout of a version 4 store, as epdd wrote it before version 5 (the oracle of the
// upgrade): one finished job not yet delivered, with its source.
constexpr const char* kVersion4 = R"sql(
CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, input TEXT NOT NULL,
  identity TEXT NOT NULL UNIQUE, settings TEXT NOT NULL, state TEXT NOT NULL, message TEXT NOT NULL DEFAULT '',
  total INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
  searches INTEGER NOT NULL DEFAULT 0, cache_hits INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL, engine TEXT NOT NULL DEFAULT '', spec TEXT NOT NULL DEFAULT '',
  planned INTEGER NOT NULL DEFAULT 0, delivered INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, lease_expiry_ms INTEGER,
  started_ms INTEGER, runner TEXT);
CREATE TABLE items (job INTEGER NOT NULL REFERENCES jobs(id), idx INTEGER NOT NULL, key TEXT NOT NULL,
  state TEXT NOT NULL, result TEXT, error TEXT, attempts INTEGER NOT NULL DEFAULT 0, lease_owner TEXT,
  lease_expiry_ms INTEGER, request TEXT NOT NULL DEFAULT '', grp INTEGER, PRIMARY KEY (job, idx));
CREATE TABLE cache (key TEXT NOT NULL PRIMARY KEY, engine TEXT NOT NULL, analysis TEXT NOT NULL,
  searches INTEGER NOT NULL DEFAULT 0, hits INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL,
  used_ms INTEGER NOT NULL DEFAULT 0);
CREATE TABLE job_sources (job INTEGER PRIMARY KEY REFERENCES jobs(id), source BLOB NOT NULL);
CREATE INDEX items_by_key ON items (key);
CREATE INDEX items_by_state ON items (state, job, idx);
CREATE INDEX cache_by_use ON cache (used_ms);
CREATE INDEX items_by_group ON items (job, grp, idx) WHERE grp IS NOT NULL;
CREATE INDEX items_by_lease ON items (lease_owner, key) WHERE lease_owner IS NOT NULL;
INSERT INTO jobs (kind, input, identity, settings, state, total, done, searches, created_ms, updated_ms, engine, spec,
                  planned, delivered, started_ms, runner)
  VALUES ('analyse', 'a.epd', 'a', 's', 'running', 1, 1, 1, 1000000, 5000000, 'E', '{}', 1, 0, 1000000, 'me');
INSERT INTO job_sources (job, source) VALUES (1, 'A');
INSERT INTO items (job, idx, key, state, result, attempts, request) VALUES (1, 0, 'k1', 'done', '{"r":1}', 1, '{}');
INSERT INTO cache (key, engine, analysis, searches, hits, created_ms, used_ms)
  VALUES ('k1', 'E', '{"r":1}', 1, 0, 900000, 900000);
PRAGMA user_version = 4;
)sql";

}  // namespace

TEST_CASE("store: a version 4 file is upgraded in place to version 5, its jobs delivered by anyone",
          "[daemon][store]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "v4.db").string();
  sql(path, kVersion4);
  auto store = open_store(path);
  CHECK(sql_integer(path, "PRAGMA user_version") == 5);
  REQUIRE(store->jobs().size() == 1);
  CHECK(store->job_source(1) == "A");
  CHECK_FALSE(store->job_file(1, "book").has_value());
  // A job of a version 4 store names no host: any daemon delivers it, as before.
  const auto delivery = store->claim_delivery("B/1/1", 60000, "B");
  REQUIRE(delivery);
  CHECK(delivery->id == 1);
  // The new table works in the upgraded file.
  store::NewJob n{"annotate", "g.pgn", "new", "", "{}", "source"};
  n.files = {{"book", "bytes"}};
  const auto job = store->find_or_create_job(n).id;
  CHECK(store->job_file(job, "book") == std::optional<std::string>("bytes"));
  store.reset();
  store = open_store(path);
  CHECK(sql_integer(path, "PRAGMA user_version") == 5);
  CHECK(store->jobs().size() == 2);
}

TEST_CASE("store: a store set back to version 4 (no job_files, no delivery host) is upgraded when opened",
          "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  const std::string location = stores.location("v4");
  auto store = open_store(location);
  const auto old = finished_job(*store, "old", "");
  store.reset();
  const bool pg = test::StoreUnderTest::postgresql();
  sql(location, std::string("DROP TABLE job_files; ALTER TABLE jobs DROP COLUMN delivery_host; ") +
                    (pg ? "UPDATE epdd_schema SET version = 4;" : "PRAGMA user_version = 4;"));
  store = open_store(location);
  CHECK(sql_integer(location, pg ? "SELECT max(version) FROM epdd_schema" : "PRAGMA user_version") == 5);
  const auto delivery = store->claim_delivery("B/1/1", 60000, "B");
  REQUIRE(delivery);
  CHECK(delivery->id == old);
  store::NewJob n{"annotate", "g.pgn", "new", "", "{}", "source"};
  n.files = {{"book", "bytes"}};
  n.delivery_host = "A";
  const auto job = store->find_or_create_job(n).id;
  CHECK(store->job_file(job, "book") == std::optional<std::string>("bytes"));
}
