// The store's leases, deliveries and purge as one sequence, run on both backends ([backend]):
// who holds what (job_leases, lease_owners) to the database's now + lease_ms, renewal, the
// searches nobody waits for after a cancel, release, one delivery at a time, and purge (dry run
// and real) of the ended job and of the cache entry nobody waits for.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "store/store.hpp"
#include "store_support.hpp"

using namespace epdd;

namespace {

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

TEST_CASE("store: leases, a cancel's abandoned searches, one delivery, and the purge of what ended",
          "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = test::open_store(stores.location("store"));
  const auto job = store->find_or_create_job(store::NewJob{"suite", "x.epd", "x", "{}", "{}", "0123456789"}).id;
  store->add_items(job, std::vector<store::NewItem>{{0, "k0", "{}"}, {1, "k1", "{}"}, {2, "k2", "{}"}}, "E");

  const std::int64_t before = now_ms();
  const auto claim = store->claim("a", {"E"}, 60000);
  const std::int64_t after = now_ms();
  REQUIRE(claim);
  CHECK(claim->key == "k0");
  const auto leases = store->job_leases(job);
  REQUIRE(leases.size() == 1);
  CHECK(leases[0].owner == "a");
  // The database's clock: on this machine, the same as the test's to within a second.
  CHECK(leases[0].expiry_ms >= before + 60000 - 1000);
  CHECK(leases[0].expiry_ms <= after + 60000 + 1000);
  CHECK(store->renew_leases("a", 120000, {"k0"}) == 1);
  CHECK(store->job_leases(job)[0].expiry_ms >= before + 120000 - 1000);
  CHECK(store->lease_owners() == std::vector<std::string>{"a"});
  CHECK(store->abandoned_leases("a").empty());

  store->commit_analysis(job, 1, "k1", "E", "{\"k\":1}");
  CHECK(store->cancel_job(job, "stop"));
  CHECK_FALSE(store->cancel_job(job, "again"));
  CHECK(store->abandoned_leases("a") == std::vector<std::pair<std::string, std::int64_t>>{{"k0", job}});
  CHECK(store->release_leases("a") == 1);
  CHECK(store->lease_owners().empty());

  const auto delivery = store->claim_delivery("d", 60000);
  REQUIRE(delivery);
  CHECK(delivery->id == job);
  CHECK(delivery->state == store::JobState::Cancelled);
  CHECK_FALSE(store->claim_delivery("e", 60000));
  CHECK(store->lease_owners() == std::vector<std::string>{"d"});
  store->mark_delivered(job, store::JobState::Cancelled, "stop", "spool/failed/x.epd");
  CHECK(store->job(job).delivered);
  CHECK(store->job(job).input == "spool/failed/x.epd");  // where the delivery put the input file
  // Reopened (the file dropped again): it is where it is now; an empty path keeps the row's.
  store->reopen_job(job, "spool/inbox/x.epd");
  CHECK(store->job(job).input == "spool/inbox/x.epd");
  CHECK_FALSE(store->job(job).delivered);
  store->cancel_job(job, "stop");
  REQUIRE(store->claim_delivery("d", 60000));
  store->mark_delivered(job, store::JobState::Cancelled, "stop");
  CHECK(store->job(job).input == "spool/inbox/x.epd");
  CHECK(store->job(job).delivered);
  CHECK(store->lease_owners().empty());
  CHECK_FALSE(store->claim_delivery("d", 60000));

  const std::int64_t later = now_ms() + 3600000;
  const auto dry = store->purge(store::PurgeRequest{later, later, true});
  REQUIRE(dry.jobs.size() == 1);
  CHECK(dry.jobs[0].id == job);
  CHECK(dry.items == 3);
  CHECK(dry.input_bytes == 10);
  CHECK(dry.cache_entries == 1);
  CHECK(store->jobs().size() == 1);
  const auto purged = store->purge(store::PurgeRequest{later, later, false});
  CHECK(purged.jobs.size() == 1);
  CHECK(purged.cache_entries == 1);
  CHECK(store->jobs().empty());
  CHECK(store->cache_stats().entries == 0);
  CHECK_NOTHROW(store->vacuum());
}

TEST_CASE("store: a renewal moves the leases of the positions named, and leaves the owner's others to expire",
          "[daemon][store][backend]") {
  // The owner's lease on k1 is one a claim whose answer was lost left: no search of it runs,
  // so the renewal does not name it (issue 37).
  test::StoreUnderTest stores;
  auto store = test::open_store(stores.location("store"));
  const auto job = store->find_or_create_job(store::NewJob{"suite", "x.epd", "x", "{}", "{}", "01"}).id;
  store->add_items(job, std::vector<store::NewItem>{{0, "k0", "{}"}, {1, "k1", "{}"}}, "E");
  REQUIRE(store->claim("a", {"E"}, 50));
  REQUIRE(store->claim("a", {"E"}, 50));
  CHECK(store->renew_leases("a", 60000, {"k0"}) == 1);
  // (A pause lasts at least what it asks: k1's 50 ms are over, k0's minute is not.)
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const auto taken = store->claim("b", {"E"}, 60000);
  REQUIRE(taken);
  CHECK(taken->key == "k1");
  CHECK_FALSE(store->claim("b", {"E"}, 60000));
  CHECK(store->renew_leases("a", 60000, {}) == 0);
}

TEST_CASE("store: owners claiming at once never share a position, also through the items of two jobs",
          "[daemon][store][backend]") {
  // Two jobs of the same 40 positions (a position's items in both), four owners claiming from
  // their own connections until nothing is left: each position claimed once, with both its items.
  test::StoreUnderTest stores;
  const std::string location = stores.location("store");
  constexpr int kPositions = 40;
  {
    auto store = test::open_store(location);
    for (const char* name : {"a", "b"}) {
      const auto job = store->find_or_create_job("suite", name, name, "{}");
      std::vector<store::NewItem> items;
      for (int i = 0; i < kPositions; ++i) items.push_back({i, "k" + std::to_string(i), "{}"});
      store->add_items(job.id, items, "E");
    }
  }
  std::vector<std::vector<store::Claim>> claimed(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < claimed.size(); ++t)
    threads.emplace_back([&, t] {
      auto store = store::Store::open(location);
      if (!store) return;
      while (auto claim = (*store)->claim("owner" + std::to_string(t), {"E"}, 60000)) claimed[t].push_back(*claim);
    });
  for (std::thread& thread : threads) thread.join();
  std::map<std::string, int> claims_of;
  std::size_t items = 0;
  for (const auto& mine : claimed)
    for (const store::Claim& claim : mine) {
      ++claims_of[claim.key];
      items += claim.items.size();
      CHECK(claim.items.size() == 2);
    }
  CHECK(claims_of.size() == kPositions);
  for (const auto& [key, n] : claims_of) CHECK(n == 1);
  CHECK(items == 2 * kPositions);
}

TEST_CASE("store: claims go job by job and index by index, past a cancelled job's pending items",
          "[daemon][store][backend]") {
  // A cancelled job of positions c0..c299 and a queued job after it (some of the same positions,
  // some new): its items in index order, then nothing; none of the cancelled job's is leased.
  test::StoreUnderTest stores;
  auto store = test::open_store(stores.location("store"));
  const auto cancelled = store->find_or_create_job("suite", "big", "big", "{}").id;
  std::vector<store::NewItem> big;
  for (int i = 0; i < 300; ++i) big.push_back({i, "c" + std::to_string(i), "{}"});
  store->add_items(cancelled, big, "E");
  CHECK(store->cancel_job(cancelled, "stop"));
  const auto next = store->find_or_create_job("suite", "next", "next", "{}").id;
  store->add_items(next, std::vector<store::NewItem>{{0, "n0", "{}"}, {1, "c7", "{}"}, {2, "n2", "{}"}}, "E");
  // Another engine's job in between is not this owner's.
  const auto other = store->find_or_create_job("suite", "other", "other", "{}").id;
  store->add_items(other, std::vector<store::NewItem>{{0, "o0", "{}"}}, "F");

  std::vector<std::string> keys;
  while (auto claim = store->claim("a", {"E"}, 60000)) {
    keys.push_back(claim->key);
    REQUIRE(claim->items.size() == 1);
    CHECK(claim->items[0].first == next);
    store->commit_analysis(claim->items[0].first, claim->items[0].second, claim->key, "E", "{}");
  }
  CHECK(keys == std::vector<std::string>{"n0", "c7", "n2"});
  CHECK(store->job_leases(cancelled).empty());
  const auto f = store->claim("b", {"F"}, 60000);
  REQUIRE(f);
  CHECK(f->key == "o0");
}
