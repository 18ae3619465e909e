// Groups of items (issue 16, annotate): a game's positions are claimed together, to be searched
// in order on one engine session, and their outcomes committed together in one transaction, so
// that a run killed mid-game redoes that game from its start. Also the schema's version 4 (the
// items' group column) and the upgrade of a version 3 file.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "store/store.hpp"
#include "store_support.hpp"
#include "test_support.hpp"

using namespace epdd;
using epdd::test::open_store;
using epdd::test::sql;
using epdd::test::sql_integer;
using store::ClaimedPosition;
using store::ItemState;
using store::PositionOutcome;
using Items = std::vector<std::pair<std::int64_t, std::int64_t>>;

namespace {

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// One item: its key, and its group (none: it stands alone). Its request names its key.
struct Spec {
  std::string key;
  std::optional<std::int64_t> group;
};

std::string request_of(const std::string& key, std::int64_t index) {
  return "{\"key\":\"" + key + "\",\"index\":" + std::to_string(index) + "}";
}

// A planned job for engine "E" with one item per spec, indexes from 0; returns its id.
std::int64_t job_with(store::Store& store, const std::string& name, const std::vector<Spec>& specs) {
  const auto job = store.find_or_create_job(store::NewJob{"annotate", name + ".pgn", name, "", "{}", "bytes"});
  std::vector<store::NewItem> items;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto index = static_cast<std::int64_t>(i);
    items.push_back(store::NewItem{index, specs[i].key, request_of(specs[i].key, index), specs[i].group});
  }
  store.add_items(job.id, items, "E");
  return job.id;
}

// The keys of a claim's other positions, in order.
std::vector<std::string> rest_keys(const store::Claim& claim) {
  std::vector<std::string> keys;
  for (const ClaimedPosition& p : claim.rest) keys.push_back(p.key);
  return keys;
}

std::int64_t leased_items(const std::string& path, const std::string& owner) {
  return sql_integer(path, "SELECT count(*) FROM items WHERE lease_owner = '" + owner + "'");
}

// The layout of a version 3 store, as epdd wrote it before version 4 (the oracle of the
// upgrade), with two jobs: one finished, one with a pending item.
constexpr const char* kVersion3 = R"sql(
CREATE TABLE jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, input TEXT NOT NULL,
  identity TEXT NOT NULL UNIQUE, settings TEXT NOT NULL, state TEXT NOT NULL, message TEXT NOT NULL DEFAULT '',
  total INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0, failed INTEGER NOT NULL DEFAULT 0,
  searches INTEGER NOT NULL DEFAULT 0, cache_hits INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL, engine TEXT NOT NULL DEFAULT '', spec TEXT NOT NULL DEFAULT '', source BLOB,
  planned INTEGER NOT NULL DEFAULT 0, delivered INTEGER NOT NULL DEFAULT 0, lease_owner TEXT, lease_expiry_ms INTEGER,
  started_ms INTEGER, runner TEXT);
CREATE TABLE items (job INTEGER NOT NULL REFERENCES jobs(id), idx INTEGER NOT NULL, key TEXT NOT NULL,
  state TEXT NOT NULL, result TEXT, error TEXT, attempts INTEGER NOT NULL DEFAULT 0, lease_owner TEXT,
  lease_expiry_ms INTEGER, request TEXT NOT NULL DEFAULT '', PRIMARY KEY (job, idx));
CREATE TABLE cache (key TEXT NOT NULL PRIMARY KEY, engine TEXT NOT NULL, analysis TEXT NOT NULL,
  searches INTEGER NOT NULL DEFAULT 0, hits INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL,
  used_ms INTEGER NOT NULL DEFAULT 0);
CREATE INDEX items_by_key ON items (key);
CREATE INDEX items_by_state ON items (state, job, idx);
CREATE INDEX cache_by_use ON cache (used_ms);
INSERT INTO jobs (kind, input, identity, settings, state, total, done, searches, created_ms, updated_ms, engine, spec,
                  source, planned, delivered, started_ms, runner)
  VALUES ('analyse', 'a.epd', 'a', 's', 'finished', 2, 2, 2, 1000000, 5000000, 'E', '{}', 'A', 1, 1, 1000000, 'me'),
         ('suite', 'b.epd', 'b', '', 'running', 2, 1, 1, 2000000, 2000000, 'E', '{}', 'B', 1, 0, NULL, NULL);
INSERT INTO items (job, idx, key, state, result, attempts, request) VALUES (1, 0, 'k1', 'done', '{"r":1}', 1, '{}'),
  (1, 1, 'k2', 'done', '{"r":2}', 1, '{}'), (2, 0, 'k1', 'done', '{"r":1}', 0, '{}'),
  (2, 1, 'k3', 'pending', NULL, 0, '{"q":3}');
INSERT INTO cache (key, engine, analysis, searches, hits, created_ms, used_ms)
  VALUES ('k1', 'E', '{"r":1}', 1, 1, 900000, 900000), ('k2', 'E', '{"r":2}', 1, 0, 900000, 900000);
PRAGMA user_version = 3;
)sql";

}  // namespace

TEST_CASE("store: a version 3 file is upgraded in place to version 4, its rows kept, no item in a group",
          "[daemon][store][group]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "v3.db").string();
  sql(path, kVersion3);
  auto store = open_store(path);
  CHECK(sql_integer(path, "PRAGMA user_version") == 5);  // and on to the latest version
  const auto jobs = store->jobs();
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].identity == "a");
  CHECK(jobs[0].state == store::JobState::Finished);
  CHECK(jobs[0].done == 2);
  CHECK(jobs[0].searches == 2);
  CHECK(jobs[0].started_ms == std::optional<std::int64_t>(1000000));
  CHECK(jobs[1].kind == "suite");
  CHECK(jobs[1].done == 1);
  const auto items = store->items(2);
  REQUIRE(items.size() == 2);
  CHECK(items[0].state == ItemState::Done);
  CHECK(items[0].result == "{\"r\":1}");
  CHECK(items[1].state == ItemState::Pending);
  for (std::int64_t job : {1, 2})
    for (const store::ItemRow& item : store->items(job)) CHECK_FALSE(item.group.has_value());
  CHECK(store->cached("k2") == std::optional<std::string>("{\"r\":2}"));
  // The upgraded file works: its pending item is claimed on its own, as before.
  auto claim = store->claim("me", {"E"}, 60000);
  REQUIRE(claim);
  CHECK(claim->key == "k3");
  CHECK(claim->request == "{\"q\":3}");
  CHECK(claim->items == Items{{2, 1}});
  CHECK_FALSE(claim->group.has_value());
  CHECK(claim->rest.empty());
  // Opening it again changes nothing.
  store.reset();
  store = open_store(path);
  CHECK(sql_integer(path, "PRAGMA user_version") == 5);
  CHECK(store->jobs().size() == 2);
}

TEST_CASE("store: add_items writes each item's group, and items already there keep theirs", "[daemon][store][group][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("s"));
  const auto job = job_with(*store, "a", {{"k1", 3}, {"k2", 3}, {"k3", std::nullopt}, {"k4", 0}});
  auto items = store->items(job);
  REQUIRE(items.size() == 4);
  CHECK(items[0].group == std::optional<std::int64_t>(3));
  CHECK(items[1].group == std::optional<std::int64_t>(3));
  CHECK_FALSE(items[2].group.has_value());
  CHECK(items[3].group == std::optional<std::int64_t>(0));  // 0 is a group, not none
  // Resume: the same items again, with other groups, change nothing.
  store->add_items(job, {store::NewItem{0, "k1", "{}", 9}, store::NewItem{2, "k3", "{}", 9}}, "E");
  items = store->items(job);
  CHECK(items[0].group == std::optional<std::int64_t>(3));
  CHECK_FALSE(items[2].group.has_value());
  CHECK(store->job(job).total == 4);
}

TEST_CASE("store: a group claim is the whole group in index order, a repeated position once with all its items",
          "[daemon][store][group][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("s"));
  // Game 1 of job a: k1 k2 k3 k2 (a repetition) k4; game 2: k5 k6. Job b waits for k3 and k5
  // too, on their own.
  const auto a = job_with(*store, "a", {{"k1", 1}, {"k2", 1}, {"k3", 1}, {"k2", 1}, {"k4", 1}, {"k5", 2}, {"k6", 2}});
  const auto b = job_with(*store, "b", {{"k3", std::nullopt}, {"k7", std::nullopt}, {"k5", std::nullopt}});

  auto first = store->claim("one", {"E"}, 60000);
  REQUIRE(first);
  CHECK(first->group == std::optional<std::int64_t>(1));
  CHECK(first->key == "k1");
  CHECK(first->request == request_of("k1", 0));
  CHECK(first->engine == "E");
  CHECK(first->items == Items{{a, 0}});
  REQUIRE(rest_keys(*first) == std::vector<std::string>{"k2", "k3", "k4"});
  CHECK(first->rest[0].request == request_of("k2", 1));  // at its first index
  CHECK(first->rest[0].items == Items{{a, 1}, {a, 3}});
  CHECK(first->rest[1].request == request_of("k3", 2));
  CHECK(first->rest[1].items == Items{{a, 2}, {b, 0}});  // another job's item of that position
  CHECK(first->rest[2].items == Items{{a, 4}});

  // A second owner gets the next group, with b's item of its first position.
  auto second = store->claim("two", {"E"}, 60000);
  REQUIRE(second);
  CHECK(second->group == std::optional<std::int64_t>(2));
  CHECK(second->key == "k5");
  CHECK(second->items == Items{{a, 5}, {b, 2}});
  REQUIRE(rest_keys(*second) == std::vector<std::string>{"k6"});
  CHECK(second->rest[0].items == Items{{a, 6}});

  // Then b's one item nobody holds: on its own, as before groups.
  auto third = store->claim("three", {"E"}, 60000);
  REQUIRE(third);
  CHECK(third->key == "k7");
  CHECK(third->items == Items{{b, 1}});
  CHECK_FALSE(third->group.has_value());
  CHECK(third->rest.empty());
  CHECK_FALSE(store->claim("four", {"E"}, 60000));
}

TEST_CASE("store: a group claim leaves out positions another owner holds, which are claimed later on their own",
          "[daemon][store][group][backend]") {
  test::StoreUnderTest stores;
  const std::string path = stores.location("s");
  auto store = open_store(path);
  const auto x = job_with(*store, "x", {{"k2", std::nullopt}});
  const auto g = job_with(*store, "g", {{"k1", 7}, {"k2", 7}, {"k3", 7}});

  auto other = store->claim("other", {"E"}, 60000);  // x's k2, with g's item of k2
  REQUIRE(other);
  CHECK(other->key == "k2");
  CHECK(other->items == Items{{x, 0}, {g, 1}});
  CHECK_FALSE(other->group.has_value());

  auto game = store->claim("one", {"E"}, 60000);
  REQUIRE(game);
  CHECK(game->group == std::optional<std::int64_t>(7));
  CHECK(game->key == "k1");
  CHECK(game->items == Items{{g, 0}});
  CHECK(rest_keys(*game) == std::vector<std::string>{"k3"});
  CHECK(leased_items(path, "one") == 2);
  CHECK(leased_items(path, "other") == 2);
  CHECK_FALSE(store->claim("two", {"E"}, 60000));

  // The game's two positions are committed; the other owner gives its position up: the game's
  // later item is then the first claimable one, claimed with its group but nothing more.
  store->commit_outcomes("E", {PositionOutcome{PositionOutcome::Kind::Searched, "k1", {{g, 0}}, "{\"a\":1}", ""},
                               PositionOutcome{PositionOutcome::Kind::Searched, "k3", {{g, 2}}, "{\"a\":3}", ""}});
  CHECK(store->release_leases("other") == 2);
  auto later = store->claim("two", {"E"}, 60000, g);
  REQUIRE(later);
  CHECK(later->key == "k2");
  CHECK(later->group == std::optional<std::int64_t>(7));
  CHECK(later->items == Items{{x, 0}, {g, 1}});
  CHECK(later->rest.empty());
}

TEST_CASE("store: a group claim keeps to only_job, and groups are a job's own", "[daemon][store][group][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("s"));
  const auto a = job_with(*store, "a", {{"k1", 1}, {"k2", 1}});
  const auto b = job_with(*store, "b", {{"k3", 1}, {"k4", 1}});
  auto from_b = store->claim("one", {"E"}, 60000, b);
  REQUIRE(from_b);
  CHECK(from_b->key == "k3");
  CHECK(from_b->items == Items{{b, 0}});
  REQUIRE(rest_keys(*from_b) == std::vector<std::string>{"k4"});
  CHECK(from_b->rest[0].items == Items{{b, 1}});
  auto from_a = store->claim("two", {"E"}, 60000);
  REQUIRE(from_a);
  CHECK(from_a->key == "k1");
  CHECK(from_a->items == Items{{a, 0}});
  CHECK(rest_keys(*from_a) == std::vector<std::string>{"k2"});
  CHECK_FALSE(store->claim("three", {"E"}, 60000));
}

TEST_CASE("store: a group's leases run to now plus lease_ms, expire together and are released together",
          "[daemon][store][group][backend]") {
  test::StoreUnderTest stores;
  const std::string path = stores.location("s");
  auto store = open_store(path);
  const auto g = job_with(*store, "g", {{"k1", 4}, {"k2", 4}, {"k1", 4}, {"k3", 4}});
  const std::int64_t before = now_ms();
  auto claim = store->claim("one", {"E"}, 60000);
  const std::int64_t after = now_ms();
  REQUIRE(claim);
  CHECK(claim->items == Items{{g, 0}, {g, 2}});
  CHECK(rest_keys(*claim) == std::vector<std::string>{"k2", "k3"});
  CHECK(leased_items(path, "one") == 4);
  CHECK(sql_integer(path, "SELECT count(*) FROM items WHERE lease_expiry_ms BETWEEN " + std::to_string(before + 60000) +
                              " AND " + std::to_string(after + 60000)) == 4);
  CHECK_FALSE(store->claim("two", {"E"}, 60000));

  // Released: the whole group at once, claimed whole by the next owner.
  CHECK(store->release_leases("one") == 4);
  CHECK(store->lease_owners().empty());
  auto again = store->claim("two", {"E"}, -1000);  // a lease already past: nobody's
  REQUIRE(again);
  CHECK(again->items == Items{{g, 0}, {g, 2}});
  CHECK(rest_keys(*again) == std::vector<std::string>{"k2", "k3"});
  auto expired = store->claim("three", {"E"}, 60000);
  REQUIRE(expired);
  CHECK(expired->key == "k1");
  CHECK(rest_keys(*expired) == std::vector<std::string>{"k2", "k3"});
  CHECK(leased_items(path, "three") == 4);
  CHECK(leased_items(path, "two") == 0);
}

namespace {

// What a store shows of its jobs, items and cache entries, less the times: equal in two stores
// when the same results were committed to both.
std::string state_of(store::Store& store, const std::string& path) {
  std::string out;
  for (const store::JobRow& job : store.jobs()) {
    out += fmt::format("job {} {} total {} done {} failed {} searches {} hits {}\n", job.id, store::to_string(job.state),
                       job.total, job.done, job.failed, job.searches, job.cache_hits);
    for (const store::ItemRow& item : store.items(job.id))
      out += fmt::format("  item {} {} {} result '{}' error '{}' attempts {} group {}\n", item.index, item.key,
                         store::to_string(item.state), item.result, item.error, item.attempts,
                         item.group ? std::to_string(*item.group) : "none");
  }
  for (const char* key : {"k1", "k3", "k4", "k5"})
    out += fmt::format("cache {} '{}' searches {} hits {}\n", key, store.cached(key).value_or("none"), store.searches(key),
                       sql_integer(path, fmt::format("SELECT coalesce(max(hits), -1) FROM cache WHERE key = '{}'", key)));
  const store::CacheStats stats = store.cache_stats();
  out += fmt::format("cache entries {} searches {} max {} hits {}\n", stats.entries, stats.searches,
                     stats.max_searches_per_key, stats.hits);
  out += fmt::format("leased items {}\n", sql_integer(path, "SELECT count(*) FROM items WHERE lease_owner IS NOT NULL"));
  return out;
}

// Job c puts k3 and k5 in the cache; job a is a game (k1 k3 k4 k4 k5), job b waits for k1.
// Returns the ids of a and b.
std::pair<std::int64_t, std::int64_t> outcome_fixture(store::Store& store) {
  // k3 and k5 are cached after a's items are added (added later, they would be answered then).
  const auto c = job_with(store, "c", {{"k3", std::nullopt}, {"k5", std::nullopt}});
  const auto a = job_with(store, "a", {{"k1", 1}, {"k3", 1}, {"k4", 1}, {"k4", 1}, {"k5", 1}});
  const auto b = job_with(store, "b", {{"k1", std::nullopt}});
  store.commit_analysis(c, 0, "k3", "E", "{\"c\":3}");
  store.commit_analysis(c, 1, "k5", "E", "{\"c\":5}");
  return {a, b};
}

}  // namespace

TEST_CASE("store: commit_outcomes records each kind exactly as the single commits do", "[daemon][store][group][backend]") {
  test::StoreUnderTest stores;
  const std::string single_path = stores.location("single");
  const std::string batch_path = stores.location("batch");
  auto single = open_store(single_path);
  auto batch = open_store(batch_path);
  const auto [a, b] = outcome_fixture(*single);
  REQUIRE(outcome_fixture(*batch) == std::make_pair(a, b));
  REQUIRE(single->claim("one", {"E"}, 60000));
  REQUIRE(batch->claim("one", {"E"}, 60000));

  single->commit_analysis(a, 0, "k1", "E", "{\"a\":1}");
  single->commit_cached(b, 0, "k1", "{\"a\":1}");
  single->commit_cached(a, 1, "k3", "{\"c\":3}");
  single->commit_failure(a, 2, "engine crashed");
  single->commit_failure(a, 3, "engine crashed");
  single->commit_analysis(a, 4, "k5", "E", "{\"a\":5}");  // a second search of a cached position

  using Kind = PositionOutcome::Kind;
  batch->commit_outcomes("E", {PositionOutcome{Kind::Searched, "k1", {{a, 0}, {b, 0}}, "{\"a\":1}", ""},
                               PositionOutcome{Kind::Cached, "k3", {{a, 1}}, "{\"c\":3}", ""},
                               PositionOutcome{Kind::Failed, "k4", {{a, 2}, {a, 3}}, "", "engine crashed"},
                               PositionOutcome{Kind::Searched, "k5", {{a, 4}}, "{\"a\":5}", ""}});

  const std::string expected = state_of(*single, single_path);
  CHECK(state_of(*batch, batch_path) == expected);
  // The figures themselves, worked out by hand.
  const store::JobRow job = batch->job(a);
  CHECK(job.done == 3);
  CHECK(job.failed == 2);
  CHECK(job.searches == 2);
  CHECK(job.cache_hits == 1);
  CHECK(batch->job(b).cache_hits == 1);
  CHECK(batch->searches("k5") == 2);
  CHECK(batch->cached("k5") == std::optional<std::string>("{\"c\":5}"));  // the first search's
  CHECK(batch->items(a).at(4).result == "{\"a\":5}");
  CHECK(batch->items(a).at(3).error == "engine crashed");
  CHECK(batch->cache_stats().hits == 2);
  CHECK(batch->lease_owners().empty());
  CHECK(batch->job(a).complete());
  batch->commit_outcomes("E", {});  // nothing to do
  CHECK(state_of(*batch, batch_path) == expected);
}

TEST_CASE("store: commit_outcomes is all or nothing", "[daemon][store][group][backend]") {
  test::StoreUnderTest stores;
  const std::string path = stores.location("s");
  auto store = open_store(path);
  // Plain variables, not a structured binding: GENERATE_COPY's lambda captures them, which
  // clang 14 (the sanitizer build's compiler) does not allow of a binding.
  const auto jobs = outcome_fixture(*store);
  const std::int64_t a = jobs.first;
  const std::int64_t b = jobs.second;
  REQUIRE(store->claim("one", {"E"}, 60000));
  const std::string before = state_of(*store, path);
  using Kind = PositionOutcome::Kind;
  const PositionOutcome good{Kind::Searched, "k1", {{a, 0}, {b, 0}}, "{\"a\":1}", ""};
  const auto [bad, why] = GENERATE_COPY(table<PositionOutcome, std::string>({
      {PositionOutcome{Kind::Cached, "k4", {{a, 2}}, "{}", ""}, "no cache entry for key 'k4'"},
      {PositionOutcome{Kind::Failed, "k4", {{a + 10, 2}}, "", "x"}, fmt::format("job {} has no item 2", a + 10)},
      {PositionOutcome{Kind::Failed, "k4", {{a, 9}}, "", "x"}, fmt::format("job {} has no item 9", a)},
      {PositionOutcome{Kind::Searched, "k4", {{a, 1}}, "{}", ""}, "has key 'k3', not 'k4'"},
      {PositionOutcome{Kind::Cached, "k3", {{a, 1}, {a, 2}}, "{}", ""}, "has key 'k4', not 'k3'"},
      {PositionOutcome{Kind::Searched, "k4", {}, "{}", ""}, "no item"},
  }));
  INFO(why);
  CHECK_THROWS_WITH(store->commit_outcomes("E", {good, bad}),
                    Catch::StartsWith(path + ": ") && Catch::Contains(why));
  CHECK(state_of(*store, path) == before);  // nothing of the batch, the leases still held
  store->commit_outcomes("E", {good});
  CHECK(store->job(b).done == 1);
}

TEST_CASE("store: an answer committed uncached is its items' and no one else's", "[daemon][store][backend]") {
  // A search that ended without a score (issue 37): the items are Done with it, counted as one
  // search (and the others as answered by it), and no cache entry is made, alone or in a batch.
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("s"));
  const auto a = job_with(*store, "a", {{"k1", std::nullopt}, {"k2", std::nullopt}});
  const auto b = job_with(*store, "b", {{"k2", std::nullopt}, {"k3", std::nullopt}});
  store->commit_outcomes("E", {PositionOutcome{PositionOutcome::Kind::Uncached, "k1", {{a, 0}}, "{\"bare\":1}", ""}});
  store->commit_outcomes("E", {PositionOutcome{PositionOutcome::Kind::Uncached, "k2", {{a, 1}, {b, 0}}, "{\"bare\":2}", ""},
                               PositionOutcome{PositionOutcome::Kind::Searched, "k3", {{b, 1}}, "{\"a\":3}", ""}});
  CHECK_FALSE(store->cached("k1"));
  CHECK_FALSE(store->cached("k2"));
  CHECK(store->cached("k3") == std::optional<std::string>("{\"a\":3}"));
  const auto items_a = store->items(a);
  REQUIRE(items_a.size() == 2);
  CHECK((items_a[0].state == ItemState::Done && items_a[0].result == "{\"bare\":1}" && items_a[0].attempts == 1));
  CHECK((items_a[1].state == ItemState::Done && items_a[1].result == "{\"bare\":2}" && items_a[1].attempts == 1));
  const auto items_b = store->items(b);
  CHECK((items_b[0].state == ItemState::Done && items_b[0].result == "{\"bare\":2}" && items_b[0].attempts == 0));
  const auto job_a = store->job(a), job_b = store->job(b);
  CHECK((job_a.done == 2 && job_a.searches == 2 && job_a.cache_hits == 0));
  CHECK((job_b.done == 2 && job_b.searches == 1 && job_b.cache_hits == 1));
}
