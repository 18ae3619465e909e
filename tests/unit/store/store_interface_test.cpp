// The store is an interface: callers hold a `Store&` and Store::open picks the backend for a
// location. Shown here with a second backend written in the test (jobs and items in memory, the
// part of the contract that planning a job needs) that the same calls, through the interface,
// drive exactly as they drive the SQLite store; and with the file the factory makes for a path.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "store/store.hpp"
#include "store_support.hpp"
#include "test_support.hpp"

using namespace epdd;
using store::ItemState;
using store::JobState;

namespace {

// Jobs and items in memory. Keeps the contract of the operations that find, plan and read a job
// (store.hpp); every other operation is a StoreError, so a caller that needs more fails loudly.
class MemoryStore final : public store::Store {
 public:
  // What the convenience overloads handed to the backend, to check they lose nothing.
  std::vector<store::NewJob> new_jobs;
  std::vector<std::pair<std::vector<store::NewItem>, std::string>> new_items;

  const std::string& path() const override { return location_; }
  const std::string& location() const override { return location_; }

  store::JobRow find_or_create_job(const store::NewJob& n) override {
    new_jobs.push_back(n);
    for (const auto& [id, row] : jobs_)
      if (row.identity == n.identity) return row;
    store::JobRow row;
    row.id = static_cast<std::int64_t>(jobs_.size()) + 1;
    row.kind = n.kind;
    row.input = n.input;
    row.identity = n.identity;
    row.settings = n.settings;
    row.spec = n.spec;
    sources_[row.id] = n.source;
    jobs_[row.id] = row;
    return row;
  }
  std::string job_source(std::int64_t job) override {
    existing(job);
    return sources_.at(job);
  }

  // It has no cache: every new item is Pending, none answered.
  std::vector<std::int64_t> add_items(std::int64_t job, const store::ItemSource& source,
                                      const std::string& engine) override {
    std::vector<store::NewItem> items;
    for (store::NewItem next; source(next);) items.push_back(next);
    new_items.emplace_back(items, engine);
    store::JobRow& row = existing(job);
    auto& mine = items_[job];
    for (const store::NewItem& n : items)
      mine.try_emplace(n.index, store::ItemRow{job, n.index, n.key, ItemState::Pending, "", "", 0, n.group});
    row.total = static_cast<std::int64_t>(mine.size());
    row.planned = true;
    row.engine = engine;
    if (row.state == JobState::Queued) row.state = JobState::Running;
    return {};
  }
  std::vector<store::ItemRow> items(std::int64_t job) override {
    std::vector<store::ItemRow> out;
    for (const auto& [index, item] : items_[job]) out.push_back(item);
    return out;
  }
  std::vector<store::GroupCount> group_counts(std::int64_t) override { unused("group_counts"); }
  std::vector<store::ItemRow> items(std::int64_t job, std::int64_t first, std::int64_t last) override {
    std::vector<store::ItemRow> out;
    for (auto it = items_[job].lower_bound(first); it != items_[job].end() && it->first < last; ++it) out.push_back(it->second);
    return out;
  }
  store::JobRow job(std::int64_t id) override { return existing(id); }
  std::vector<store::JobRow> jobs() override {
    std::vector<store::JobRow> out;
    for (const auto& [id, row] : jobs_) out.push_back(row);
    return out;
  }

  std::optional<std::string> cached(const std::string&) override { unused("cached"); }
  void commit_analysis(std::int64_t, std::int64_t, const std::string&, const std::string&,
                       const std::string&) override {
    unused("commit_analysis");
  }
  void commit_cached(std::int64_t, std::int64_t, const std::string&, const std::string&) override {
    unused("commit_cached");
  }
  void commit_failure(std::int64_t, std::int64_t, const std::string&) override { unused("commit_failure"); }
  void commit_outcomes(const std::string&, const std::vector<store::PositionOutcome>&) override {
    unused("commit_outcomes");
  }
  void reset_failed(std::int64_t) override { unused("reset_failed"); }
  void set_job_state(std::int64_t, JobState, const std::string&) override { unused("set_job_state"); }
  std::vector<store::JobRow> jobs_to_plan() override { unused("jobs_to_plan"); }
  bool cancel_job(std::int64_t, const std::string&) override { unused("cancel_job"); }
  void reopen_job(std::int64_t, const std::string&) override { unused("reopen_job"); }
  std::optional<store::Claim> claim(const std::string&, const std::vector<std::string>&, std::int64_t,
                                    std::optional<std::int64_t>) override {
    unused("claim");
  }
  std::int64_t renew_leases(const std::string&, std::int64_t, const std::vector<std::string>&) override { unused("renew_leases"); }
  std::int64_t release_leases(const std::string&, const std::string*) override { unused("release_leases"); }
  std::vector<std::string> lease_owners() override { unused("lease_owners"); }
  std::optional<store::JobRow> claim_delivery(const std::string&, std::int64_t, const std::string&) override {
    unused("claim_delivery");
  }
  std::optional<std::string> job_file(std::int64_t, const std::string&) override { unused("job_file"); }
  void mark_delivered(std::int64_t, JobState, const std::string&, const std::string&) override {
    unused("mark_delivered");
  }
  void release_delivery(std::int64_t, const std::string&) override { unused("release_delivery"); }
  std::vector<store::Lease> job_leases(std::int64_t) override { unused("job_leases"); }
  std::vector<std::pair<std::string, std::int64_t>> abandoned_leases(const std::string&) override {
    unused("abandoned_leases");
  }
  store::PurgeResult purge(const store::PurgeRequest&) override { unused("purge"); }
  void vacuum() override { unused("vacuum"); }
  store::CacheStats cache_stats() override { unused("cache_stats"); }
  std::uint64_t searches(const std::string&) override { unused("searches"); }

 private:
  store::JobRow& existing(std::int64_t job) {
    const auto it = jobs_.find(job);
    if (it == jobs_.end()) throw store::StoreError(location_ + ": there is no job " + std::to_string(job));
    return it->second;
  }
  [[noreturn]] void unused(const char* operation) const {
    throw store::StoreError(location_ + ": " + operation + " is not in this test's store");
  }

  std::string location_ = "memory";
  std::map<std::int64_t, store::JobRow> jobs_;
  std::map<std::int64_t, std::string> sources_;
  std::map<std::int64_t, std::map<std::int64_t, store::ItemRow>> items_;
};

// A job found again by its identity and planned twice, as a resumed run does, through nothing but
// the interface; checks what the contract promises at each step. Returns the job's id.
std::int64_t find_and_plan(store::Store& store) {
  const store::JobRow made = store.find_or_create_job("suite", "wac.epd", "suite wac.epd sf", "nodes 1000");
  CHECK(made.state == JobState::Queued);
  CHECK_FALSE(made.planned);
  CHECK(made.total == 0);
  const store::JobRow again = store.find_or_create_job("analyse", "other.epd", "suite wac.epd sf", "nodes 9");
  CHECK(again.id == made.id);
  CHECK(again.kind == "suite");
  CHECK(again.input == "wac.epd");
  CHECK(store.find_or_create_job("suite", "wac.epd", "another identity", "").id != made.id);

  store.add_items(made.id, {{0, "key 0"}, {1, "key 1"}});
  store.add_items(made.id, {{1, "not key 1"}, {2, "key 2"}});  // item 1 is there already: kept
  const store::JobRow planned = store.job(made.id);
  CHECK(planned.planned);
  CHECK(planned.total == 3);
  CHECK(planned.state == JobState::Running);
  CHECK(planned.engine.empty());
  const auto items = store.items(made.id);
  REQUIRE(items.size() == 3);
  for (std::int64_t i = 0; i < 3; ++i) {
    CHECK(items[i].index == i);
    CHECK(items[i].key == "key " + std::to_string(i));
    CHECK(items[i].state == ItemState::Pending);
  }
  CHECK(store.jobs().size() == 2);
  CHECK_THROWS_AS(store.job(made.id + 100), store::StoreError);
  return made.id;
}

}  // namespace

TEST_CASE("store interface: a second backend is driven by the same calls as the SQLite store",
          "[store][interface]") {
  test::TempDir dir;
  std::unique_ptr<store::Store> sqlite = test::open_store((dir.path() / "store.db").string());
  MemoryStore memory;
  const std::int64_t in_sqlite = find_and_plan(*sqlite);
  const std::int64_t in_memory = find_and_plan(memory);
  CHECK(sqlite->job(in_sqlite).identity == memory.job(in_memory).identity);
  CHECK_THROWS_WITH(static_cast<store::Store&>(memory).claim("me", {"engine"}, 1000),
                    "memory: claim is not in this test's store");
}

TEST_CASE("store interface: the overloads without spec or requests reach the backend with them empty",
          "[store][interface]") {
  MemoryStore memory;
  store::Store& store = memory;
  const std::int64_t job = store.find_or_create_job("suite", "wac.epd", "identity", "settings").id;
  REQUIRE(memory.new_jobs.size() == 1);
  const store::NewJob& n = memory.new_jobs[0];
  CHECK(n.kind == "suite");
  CHECK(n.input == "wac.epd");
  CHECK(n.identity == "identity");
  CHECK(n.settings == "settings");
  CHECK(n.spec.empty());
  CHECK(n.source.empty());
  store.add_items(job, {{4, "k4"}, {7, "k7"}});
  REQUIRE(memory.new_items.size() == 1);
  const auto& [items, engine] = memory.new_items[0];
  CHECK(engine.empty());
  REQUIRE(items.size() == 2);
  CHECK(items[0].index == 4);
  CHECK(items[0].key == "k4");
  CHECK(items[0].request.empty());
  CHECK(items[1].index == 7);
  CHECK(items[1].key == "k7");
  CHECK(items[1].request.empty());
}

TEST_CASE("store interface: a path opens an SQLite file at that path", "[store][interface]") {
  test::TempDir dir;
  const std::string path = (dir.path() / "jobs.db").string();
  {
    auto opened = store::Store::open(path);
    REQUIRE(opened.has_value());
    CHECK((*opened)->path() == path);
    (*opened)->find_or_create_job("suite", "wac.epd", "identity", "settings");
  }
  // The SQLite file format's header (sqlite.org/fileformat.html, "The Database Header").
  std::ifstream file(path, std::ios::binary);
  std::string header(16, '\0');
  REQUIRE(file.read(header.data(), 16));
  CHECK(header == std::string("SQLite format 3\0", 16));
  auto reopened = test::open_store(path);
  CHECK(reopened->jobs().size() == 1);
}
