// The store: persistence across reopening, idempotent jobs and items, the counters kept by the
// commits, files refused with their path named, private permissions, two connections on one
// file, and a writer killed with SIGKILL losing nothing it committed.
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "store/store.hpp"
#include "store_support.hpp"
#include "test_support.hpp"

using namespace epdd;
using epdd::test::open_store;
using store::ItemState;
using store::JobState;
using store::Store;

namespace {


std::string key_of(std::int64_t index) { return "fen " + std::to_string(index) + " | engine | nodes 1000"; }
std::string result_of(std::int64_t index) { return "{\"bestmove\":\"m" + std::to_string(index) + "\"}"; }

std::vector<std::pair<std::int64_t, std::string>> items_with_keys(std::int64_t count) {
  std::vector<std::pair<std::int64_t, std::string>> items;
  for (std::int64_t i = 0; i < count; ++i) items.emplace_back(i, key_of(i));
  return items;
}

// A store with one job of `count` items; returns the job's id.
std::int64_t job_with_items(store::Store& store, std::int64_t count, const std::string& identity = "suite wac.epd sf") {
  const std::int64_t job = store.find_or_create_job("suite", "wac.epd", identity, "{\"nodes\":1000}").id;
  store.add_items(job, items_with_keys(count));
  return job;
}

// Sets PRAGMA user_version by writing the database header (big-endian, offset 60), the way a
// newer epdd's store would look, without SQLite in the test.
void write_user_version(const std::string& path, std::uint32_t version) {
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  REQUIRE(file.good());
  file.seekp(60);
  const char bytes[4] = {static_cast<char>(version >> 24), static_cast<char>(version >> 16),
                         static_cast<char>(version >> 8), static_cast<char>(version)};
  file.write(bytes, 4);
  REQUIRE(file.good());
}

}  // namespace

TEST_CASE("store: job and item states have stored names that parse back", "[daemon][store]") {
  for (store::JobState s : {store::JobState::Queued, store::JobState::Running, store::JobState::Finished, store::JobState::Failed, store::JobState::Cancelled})
    CHECK(store::parse_job_state(store::to_string(s)) == s);
  for (store::ItemState s : {store::ItemState::Pending, store::ItemState::Done, store::ItemState::Failed})
    CHECK(store::parse_item_state(store::to_string(s)) == s);
  CHECK(store::to_string(store::JobState::Cancelled) == std::string("cancelled"));
  CHECK_FALSE(store::parse_job_state("Queued").has_value());
  CHECK_FALSE(store::parse_item_state("").has_value());
}

TEST_CASE("store: created, reopened, and everything written is still there", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  const std::string path = stores.location("store");
  std::int64_t job = 0;
  {
    auto store = open_store(path);
    CHECK(store->path() == path);
    CHECK(store->location() == path);
    CHECK(store->jobs().empty());
    job = job_with_items(*store, 3);
    store->set_job_state(job, store::JobState::Running);
  }
  auto store = open_store(path);
  const auto jobs = store->jobs();
  REQUIRE(jobs.size() == 1);
  const store::JobRow& row = jobs[0];
  CHECK(row.id == job);
  CHECK(row.kind == "suite");
  CHECK(row.input == "wac.epd");
  CHECK(row.identity == "suite wac.epd sf");
  CHECK(row.settings == "{\"nodes\":1000}");
  CHECK(row.state == store::JobState::Running);
  CHECK(row.message.empty());
  CHECK(row.total == 3);
  CHECK(row.done == 0);
  CHECK(row.created_ms > 1600000000000);  // milliseconds since the epoch, not seconds
  CHECK(row.updated_ms >= row.created_ms);
  const auto items = store->items(job);
  REQUIRE(items.size() == 3);
  for (std::int64_t i = 0; i < 3; ++i) {
    CHECK(items[i].job == job);
    CHECK(items[i].index == i);
    CHECK(items[i].key == key_of(i));
    CHECK(items[i].state == store::ItemState::Pending);
    CHECK(items[i].result.empty());
    CHECK(items[i].attempts == 0);
  }
  store->set_job_state(job, store::JobState::Failed, "engine crashed 4 times");
  CHECK(store->job(job).state == store::JobState::Failed);
  CHECK(store->job(job).message == "engine crashed 4 times");
}

TEST_CASE("store: jobs_updated_since lists only the jobs changed from a time on", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  const store::JobRow a = store->find_or_create_job("suite", "a.epd", "identity A", "{}");
  const store::JobRow b = store->find_or_create_job("suite", "b.epd", "identity B", "{}");
  CHECK(store->jobs_updated_since(0).size() == 2);
  // The newest stamp seen; a change after it is listed, the job left alone is not.
  std::int64_t seen = 0;
  for (const store::JobRow& job : store->jobs()) seen = std::max(seen, job.updated_ms);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  store->set_job_state(b.id, store::JobState::Cancelled, "stop");
  const auto changed = store->jobs_updated_since(seen + 1);
  REQUIRE(changed.size() == 1);
  CHECK(changed[0].id == b.id);
  CHECK(changed[0].state == store::JobState::Cancelled);
  CHECK(store->jobs_updated_since(changed[0].updated_ms + 1).empty());
  CHECK(a.id != b.id);
}

TEST_CASE("store: find_or_create_job returns the job of an identity as it is", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  const store::JobRow first = store->find_or_create_job("suite", "a.epd", "identity A", "settings A");
  CHECK(first.state == store::JobState::Queued);
  store->set_job_state(first.id, store::JobState::Running);
  const store::JobRow again = store->find_or_create_job("analyse", "b.epd", "identity A", "settings B");
  CHECK(again.id == first.id);
  CHECK(again.kind == "suite");
  CHECK(again.settings == "settings A");
  CHECK(again.state == store::JobState::Running);
  const store::JobRow other = store->find_or_create_job("suite", "a.epd", "identity B", "settings A");
  CHECK(other.id != first.id);
  CHECK(store->jobs().size() == 2);
}

TEST_CASE("store: add_items again on resume changes nothing already there", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  const std::int64_t job = job_with_items(*store, 2);
  store->commit_analysis(job, 0, key_of(0), "sf", result_of(0));
  store->add_items(job, items_with_keys(3));  // the same two and a new one
  store->add_items(job, items_with_keys(3));
  const auto items = store->items(job);
  REQUIRE(items.size() == 3);
  CHECK(items[0].state == store::ItemState::Done);
  CHECK(items[0].result == result_of(0));
  CHECK(items[2].state == store::ItemState::Pending);
  const store::JobRow row = store->job(job);
  CHECK(row.total == 3);
  CHECK(row.done == 1);
  CHECK_THROWS_AS(store->add_items(job + 1, items_with_keys(1)), store::StoreError);  // no such job
}

TEST_CASE("store: commit_analysis is there after reopening, with one search counted", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  const std::string path = stores.location("store");
  std::int64_t job = 0;
  {
    auto store = open_store(path);
    job = job_with_items(*store, 2);
    CHECK_FALSE(store->cached(key_of(0)).has_value());
    store->commit_analysis(job, 0, key_of(0), "Stockfish 15.1", result_of(0));
  }
  auto store = open_store(path);
  const auto items = store->items(job);
  CHECK(items[0].state == store::ItemState::Done);
  CHECK(items[0].result == result_of(0));
  CHECK(items[0].attempts == 1);
  CHECK(items[1].state == store::ItemState::Pending);
  CHECK(store->cached(key_of(0)) == result_of(0));
  CHECK(store->searches(key_of(0)) == 1);
  CHECK(store->searches(key_of(1)) == 0);
  const store::JobRow row = store->job(job);
  CHECK(row.done == 1);
  CHECK(row.searches == 1);
  CHECK(row.cache_hits == 0);
  const store::CacheStats stats = store->cache_stats();
  CHECK(stats.entries == 1);
  CHECK(stats.searches == 1);
  CHECK(stats.max_searches_per_key == 1);
  CHECK(stats.hits == 0);
}

TEST_CASE("store: a second search of a cached key keeps the first analysis and counts the search",
          "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  const std::int64_t job = store->find_or_create_job("suite", "x", "x", "").id;
  store->add_items(job, {{0, "same"}, {1, "same"}});
  store->commit_analysis(job, 0, "same", "sf", "{\"first\":1}");
  store->commit_analysis(job, 1, "same", "sf", "{\"second\":1}");
  CHECK(store->cached("same") == "{\"first\":1}");
  CHECK(store->searches("same") == 2);
  CHECK(store->cache_stats().max_searches_per_key == 2);
  CHECK(store->items(job)[1].result == "{\"second\":1}");  // the item keeps what its search found
  // Committing an item again does not count it twice.
  store->commit_analysis(job, 1, "same", "sf", "{\"second\":1}");
  CHECK(store->job(job).done == 2);
  CHECK(store->job(job).searches == 3);
}

TEST_CASE("store: add_items answers the items the cache has, once, and counts them as hits", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  const std::string path = stores.location("store");
  auto store = open_store(path);
  const std::int64_t first = job_with_items(*store, 2, "first");
  store->commit_analysis(first, 0, key_of(0), "sf", result_of(0));
  store->commit_analysis(first, 1, key_of(1), "sf", result_of(1));
  // A damaged entry (not JSON) is not handed out: its item stays to be searched.
  test::sql(path, "UPDATE cache SET analysis = '{not json' WHERE key = '" + key_of(1) + "'");
  const std::int64_t second = store->find_or_create_job("suite", "wac.epd", "second", "{}").id;
  const auto answered = store->add_items(second, items_with_keys(3));  // keys 0 (cached), 1 (damaged), 2
  CHECK(answered == std::vector<std::int64_t>{0});
  const auto items = store->items(second);
  REQUIRE(items.size() == 3);
  CHECK(items[0].state == store::ItemState::Done);
  CHECK(items[0].result == result_of(0));
  CHECK(items[0].attempts == 0);
  CHECK(items[1].state == store::ItemState::Pending);
  CHECK(items[2].state == store::ItemState::Pending);
  store::JobRow row = store->job(second);
  CHECK(row.total == 3);
  CHECK(row.done == 1);
  CHECK(row.cache_hits == 1);
  CHECK(row.searches == 0);
  CHECK(row.started_ms.has_value());
  CHECK(store->cache_stats().hits == 1);
  // Added again (a resumed run): nothing answered twice, nothing counted twice.
  CHECK(store->add_items(second, items_with_keys(3)).empty());
  row = store->job(second);
  CHECK(row.done == 1);
  CHECK(row.cache_hits == 1);
  CHECK(store->cache_stats().hits == 1);
  // The claim skips the answered item.
  const auto claim = store->claim("w", {""}, 60000);
  REQUIRE(claim.has_value());
  CHECK(claim->items.front() == std::make_pair(second, std::int64_t{1}));
}

TEST_CASE("store: commit_cached counts hits, not searches, and lookups count nothing", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  const std::int64_t first = job_with_items(*store, 1, "first");
  const std::int64_t second = job_with_items(*store, 1, "second");  // before the entry exists
  store->commit_analysis(first, 0, key_of(0), "sf", result_of(0));
  const auto hit = store->cached(key_of(0));
  REQUIRE(hit.has_value());
  CHECK(store->cached(key_of(0)).has_value());
  CHECK(store->cache_stats().hits == 0);
  store->commit_cached(second, 0, key_of(0), *hit);
  const auto item = store->items(second).at(0);
  CHECK(item.state == store::ItemState::Done);
  CHECK(item.result == result_of(0));
  CHECK(item.attempts == 0);
  const store::JobRow row = store->job(second);
  CHECK(row.done == 1);
  CHECK(row.searches == 0);
  CHECK(row.cache_hits == 1);
  CHECK(store->searches(key_of(0)) == 1);
  const store::CacheStats stats = store->cache_stats();
  CHECK(stats.entries == 1);
  CHECK(stats.searches == 1);
  CHECK(stats.hits == 1);
  CHECK_THROWS_AS(store->commit_cached(second, 0, "not cached", "{}"), store::StoreError);
}

TEST_CASE("store: commit_failure is counted and reset_failed makes the item pending again", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  const std::int64_t job = job_with_items(*store, 3);
  store->commit_analysis(job, 0, key_of(0), "sf", result_of(0));
  store->commit_failure(job, 1, "engine crashed (signal 11)");
  store->commit_failure(job, 2, "timeout after 60000 ms");
  auto items = store->items(job);
  CHECK(items[1].state == store::ItemState::Failed);
  CHECK(items[1].error == "engine crashed (signal 11)");
  CHECK(items[1].attempts == 1);
  CHECK(store->job(job).failed == 2);
  CHECK(store->job(job).done == 1);
  store->reset_failed(job);
  items = store->items(job);
  CHECK(items[0].state == store::ItemState::Done);  // untouched
  CHECK(items[1].state == store::ItemState::Pending);
  CHECK(items[1].error.empty());
  CHECK(items[1].attempts == 1);
  CHECK(store->job(job).failed == 0);
  store->commit_analysis(job, 1, key_of(1), "sf", result_of(1));
  items = store->items(job);
  CHECK(items[1].state == store::ItemState::Done);
  CHECK(items[1].attempts == 2);
  CHECK(store->job(job).done == 2);
}

TEST_CASE("store: a missing job or item, or a result under another key, is a StoreError naming the file",
          "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  const std::string path = stores.location("store");
  auto store = open_store(path);
  const std::int64_t job = job_with_items(*store, 1);
  CHECK_THROWS_WITH(store->job(job + 7), Catch::StartsWith(path + ": reading job"));
  CHECK_THROWS_WITH(store->commit_analysis(job, 5, key_of(5), "sf", "{}"), Catch::Contains("has no item 5"));
  CHECK_THROWS_WITH(store->commit_analysis(job, 0, key_of(1), "sf", "{}"), Catch::Contains("has key"));
  CHECK_THROWS_WITH(store->commit_failure(job + 7, 0, "x"), Catch::StartsWith(path + ": "));
  CHECK_THROWS_AS(store->set_job_state(job + 7, store::JobState::Running), store::StoreError);
  // Nothing of the refused commits was kept.
  CHECK(store->job(job).done == 0);
  CHECK(store->cache_stats().entries == 0);
}

TEST_CASE("store: a file with a newer schema version is refused with both versions", "[daemon][store]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "store.db").string();
  { open_store(path); }
  write_user_version(path, 6);
  const auto store = store::Store::open(path);
  REQUIRE_FALSE(store.has_value());
  CHECK_THAT(store.error(), Catch::StartsWith(path + ": "));
  CHECK_THAT(store.error(), Catch::Contains("schema version 6") && Catch::Contains("epdd's 5"));
}

TEST_CASE("store: a file that is not SQLite is refused with its path", "[daemon][store]") {
  test::TempDir dir;
  std::string text;
  for (int i = 0; i < 100; ++i) text += "this is not an SQLite database\n";
  const std::string path = dir.write("notes.txt", text).string();
  const auto store = store::Store::open(path);
  REQUIRE_FALSE(store.has_value());
  CHECK_THAT(store.error(), Catch::StartsWith(path + ": not an SQLite database"));
  CHECK(test::read_file(path) == text);  // not touched
  const auto missing_dir = store::Store::open((dir.path() / "no such dir" / "store.db").string());
  REQUIRE_FALSE(missing_dir.has_value());
  CHECK_THAT(missing_dir.error(), Catch::Contains("no such dir/store.db: cannot create the store"));
}

TEST_CASE("store: a store with a damaged page is refused at open, said damaged, and not written", "[daemon][store]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "store.db").string();
  {
    auto store = open_store(path);
    const auto job = store->find_or_create_job("analyse", "in.epd", "damaged page test", "{}").id;
    std::vector<std::pair<std::int64_t, std::string>> items;
    for (int i = 0; i < 3000; ++i) items.emplace_back(i, "key number " + std::to_string(i) + " of the damaged store");
    store->add_items(job, items);
  }
  std::string bytes = test::read_file(path);
  REQUIRE(bytes.size() >= 20 * 4096);
  // A page in the middle of the file overwritten with text: page 1 (the header and the schema)
  // is whole, so only a check of every page finds it.
  const std::size_t page = bytes.size() / 4096 / 2;
  for (std::size_t i = 0; i < 4096; ++i) bytes[page * 4096 + i] = "damaged!"[i % 8];
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  const auto store = store::Store::open(path);
  REQUIRE_FALSE(store.has_value());
  CHECK_THAT(store.error(), Catch::StartsWith(path + ": the store is damaged (") &&
                                Catch::Contains("epdd did not write to it") && Catch::Contains(".recover"));
  CHECK(test::read_file(path) == bytes);
  CHECK_FALSE(std::filesystem::exists(path + "-wal"));
}

TEST_CASE("store: the file is readable by its owner only, whatever the umask", "[daemon][store]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "store.db").string();
  const mode_t old_umask = umask(0);
  auto store = store::Store::open(path);
  umask(old_umask);
  REQUIRE(store.has_value());
  (*store)->find_or_create_job("suite", "x", "x", "");  // the WAL file exists while it is open
  for (const std::string& file : {path, path + "-wal"}) {
    struct stat st {};
    INFO(file);
    REQUIRE(stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0077) == 0);
    CHECK((st.st_mode & 0600) == 0600);
  }
}

TEST_CASE("store: two connections on one file commit in turn without lock errors", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  const std::string path = stores.location("store");
  auto a = open_store(path);
  auto b = open_store(path);
  const std::int64_t job = job_with_items(*a, 20);
  CHECK(b->find_or_create_job("suite", "wac.epd", "suite wac.epd sf", "").id == job);
  for (std::int64_t i = 0; i < 20; ++i) {
    store::Store& store = i % 2 == 0 ? *a : *b;
    REQUIRE_NOTHROW(store.commit_analysis(job, i, key_of(i), "sf", result_of(i)));
    CHECK((i % 2 == 0 ? *b : *a).job(job).done == i + 1);  // the other sees it at once
  }
  CHECK(a->cache_stats().entries == 20);
  CHECK(b->cached(key_of(3)) == result_of(3));
}

TEST_CASE("store: a writer killed with SIGKILL mid-loop loses nothing it committed", "[daemon][store]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "store.db").string();
  constexpr std::int64_t kItems = 100000;  // more than the child can commit before it is killed
  constexpr std::int64_t kKillAfter = 100;
  std::int64_t job = 0;
  {
    auto store = open_store(path);
    job = job_with_items(*store, kItems);
  }
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child only commits; no Catch2 here, and _exit so nothing of the parent's runs twice.
    try {
      auto store = store::Store::open(path);
      if (!store) _exit(2);
      for (std::int64_t i = 0; i < kItems; ++i) (*store)->commit_analysis(job, i, key_of(i), "sf", result_of(i));
    } catch (...) {
      _exit(3);
    }
    _exit(0);
  }
  {
    auto watcher = open_store(path);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (watcher->job(job).done < kKillAfter && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  kill(child, SIGKILL);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  INFO("child status " << status);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);

  auto store = open_store(path);
  std::int64_t done = 0;
  for (const store::ItemRow& item : store->items(job)) {
    if (item.state != store::ItemState::Done) {
      CHECK(item.result.empty());
      continue;
    }
    ++done;
    CHECK(item.result == result_of(item.index));
    CHECK(store->cached(item.key) == item.result);
  }
  CHECK(done >= kKillAfter);
  CHECK(done < kItems);
  const store::JobRow row = store->job(job);
  CHECK(row.done == done);
  CHECK(row.searches == done);
  CHECK(store->cache_stats().entries == static_cast<std::uint64_t>(done));
}

// A reader of `bytes` in chunks of at most `chunk` bytes, as NewJob::read_source takes it.
std::function<std::size_t(char*, std::size_t)> reader_of(const std::string& bytes, std::size_t chunk) {
  return [&bytes, chunk, at = std::size_t{0}](char* buffer, std::size_t capacity) mutable {
    const std::size_t n = std::min({chunk, capacity, bytes.size() - at});
    std::copy_n(bytes.data() + at, n, buffer);
    at += n;
    return n;
  };
}

namespace {

// A job's source as read_job_source hands it over, checking that the parts come in order, each
// at most Store::kSourcePart, the first at 0.
std::string read_in_parts(store::Store& store, std::int64_t job, std::size_t* parts = nullptr) {
  std::string bytes;
  std::size_t count = 0;
  store.read_job_source(job, [&](std::size_t offset, std::string_view part) {
    CHECK(offset == bytes.size());
    CHECK(part.size() <= store::Store::kSourcePart);
    CHECK_FALSE(part.empty());
    bytes += part;
    ++count;
  });
  if (parts) *parts = count;
  return bytes;
}

}  // namespace

TEST_CASE("store: a source written from a reader in chunks reads back whole and in parts", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  // Not text, longer than a chunk of the writer (64 KB) and than a page, with every byte value.
  std::string bytes;
  for (std::size_t i = 0; i < 200000; ++i) bytes += static_cast<char>((i * 7919) % 256);
  store::NewJob n{"annotate", "a.pgn", "identity A", "settings", "{}", ""};
  n.source_size = bytes.size();
  n.read_source = reader_of(bytes, 1000);
  const auto job = store->find_or_create_job(n).id;
  CHECK(store->job_source(job) == bytes);
  CHECK(read_in_parts(*store, job) == bytes);
  // Longer than a part: several, in order.
  std::string big;
  while (big.size() < 2 * store::Store::kSourcePart + 12345) big += bytes;
  store::NewJob nb{"annotate", "big.pgn", "identity big", "settings", "{}", ""};
  nb.source_size = big.size();
  nb.read_source = reader_of(big, 65536);
  const auto big_job = store->find_or_create_job(nb).id;
  std::size_t parts = 0;
  CHECK(read_in_parts(*store, big_job, &parts) == big);
  CHECK(parts == 3);
  // Found again: the reader is not called (the job has its source).
  n.read_source = [](char*, std::size_t) -> std::size_t { FAIL("read again"); return 0; };
  CHECK(store->find_or_create_job(n).id == job);
  // A job made from bytes in memory reads in parts the same way.
  const auto other = store->find_or_create_job(store::NewJob{"suite", "b.epd", "identity B", "s", "{}", "abcdef"}).id;
  CHECK(read_in_parts(*store, other) == "abcdef");
  // A job without source reads as empty; no job is an error.
  const auto none = store->find_or_create_job("suite", "c.epd", "identity C", "s").id;
  std::size_t none_parts = 1;
  CHECK(read_in_parts(*store, none, &none_parts).empty());
  CHECK(none_parts == 0);
  CHECK_THROWS_AS(read_in_parts(*store, none + 1000), store::StoreError);
}

TEST_CASE("store: the input is read in parts from inside add_items' item source", "[daemon][store][backend]") {
  // The input may be read while add_items' transaction is open (PostgreSQL: on a second
  // connection), as planning once read its games while it added their positions.
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  const auto job = store->find_or_create_job(store::NewJob{"annotate", "a.pgn", "i", "s", "{}", "k0 k1 k2 k3"}).id;
  std::int64_t index = 0;
  store->add_items(
      job,
      [&](store::NewItem& next) {
        if (index == 4) return false;
        next = store::NewItem{index, read_in_parts(*store, job).substr(static_cast<std::size_t>(index) * 3, 2), "{}"};
        CHECK(read_in_parts(*store, job).size() == 11);
        ++index;
        return true;
      },
      "E");
  const auto items = store->items(job);
  REQUIRE(items.size() == 4);
  CHECK(items[0].key == "k0");
  CHECK(items[3].key == "k3");
}

TEST_CASE("store: a source whose reader gives other than its size makes no job", "[daemon][store][backend]") {
  test::StoreUnderTest stores;
  auto store = open_store(stores.location("store"));
  const std::string bytes(5000, 'x');
  for (const std::size_t announced : {std::size_t{4999}, std::size_t{5001}}) {
    INFO(announced);
    store::NewJob n{"annotate", "a.pgn", "identity " + std::to_string(announced), "settings", "{}", ""};
    n.source_size = announced;
    n.read_source = reader_of(bytes, 700);
    CHECK_THROWS_WITH(store->find_or_create_job(n), Catch::Contains("the input changed while it was read"));
    CHECK(store->jobs().empty());
  }
}
