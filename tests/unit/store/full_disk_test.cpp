// A full store disk (issue 21): ReconnectingStore waits for space (StoreFull) with a growing pause,
// runs the operation again once there is room, tells the wait once, and gives up with StoreFull
// when the patience runs out. The disk is a real SQLite store behind a wrapper whose
// set_job_state finds the disk full a given number of times (a real full disk needs a mount:
// tests/integration/faults/disk_full_test.sh). ReconnectingStore is private to the store, so
// included by its path here.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../../../store/src/reconnecting_store.hpp"
#include "store/store.hpp"

namespace {

using namespace epdd::store;

// The disk shared by every store opened on it: how many more writes find it full.
struct Disk {
  int failures_left = 0;
  int failures = 0;
  int opens = 0;
};

// A real store whose set_job_state fails with StoreFull while the disk says so.
class FullDiskStore final : public Store {
 public:
  FullDiskStore(std::unique_ptr<Store> inner, std::shared_ptr<Disk> disk)
      : inner_(std::move(inner)), disk_(std::move(disk)) {}
  using Store::add_items;
  using Store::find_or_create_job;
  const std::string& path() const override { return inner_->path(); }
  const std::string& location() const override { return inner_->location(); }
  JobRow find_or_create_job(const NewJob& job) override { return inner_->find_or_create_job(job); }
  std::string job_source(std::int64_t job) override { return inner_->job_source(job); }
  void read_job_source(std::int64_t job, const SourcePart& part) override {
    inner_->read_job_source(job, part);
  }
  std::optional<std::string> job_file(std::int64_t job, const std::string& name) override {
    return inner_->job_file(job, name);
  }
  std::vector<std::int64_t> add_items(std::int64_t job, const ItemSource& items, const std::string& engine) override {
    return inner_->add_items(job, items, engine);
  }
  std::vector<ItemRow> items(std::int64_t job) override { return inner_->items(job); }
  std::vector<ItemRow> items(std::int64_t job, std::int64_t first, std::int64_t last) override {
    return inner_->items(job, first, last);
  }
  std::vector<GroupCount> group_counts(std::int64_t job) override { return inner_->group_counts(job); }
  std::optional<std::string> cached(const std::string& key) override { return inner_->cached(key); }
  void commit_analysis(std::int64_t job, std::int64_t index, const std::string& key, const std::string& engine,
                       const std::string& analysis_json) override {
    return inner_->commit_analysis(job, index, key, engine, analysis_json);
  }
  void commit_cached(std::int64_t job, std::int64_t index, const std::string& key,
                     const std::string& analysis_json) override {
    return inner_->commit_cached(job, index, key, analysis_json);
  }
  void commit_failure(std::int64_t job, std::int64_t index, const std::string& error) override {
    return inner_->commit_failure(job, index, error);
  }
  void commit_outcomes(const std::string& engine, const std::vector<PositionOutcome>& outcomes) override {
    return inner_->commit_outcomes(engine, outcomes);
  }
  void reset_failed(std::int64_t job) override { return inner_->reset_failed(job); }
  void set_job_state(std::int64_t job, JobState state, const std::string& message) override {
    if (disk_->failures_left > 0) {
      --disk_->failures_left;
      ++disk_->failures;
      throw StoreFull(path() + ": setting the state of a job: the disk is full (database or disk is full)");
    }
    inner_->set_job_state(job, state, message);
  }
  JobRow job(std::int64_t id) override { return inner_->job(id); }
  std::vector<JobRow> jobs() override { return inner_->jobs(); }
  std::vector<JobRow> jobs_updated_since(std::int64_t since_ms) override {
    return inner_->jobs_updated_since(since_ms);
  }
  std::vector<JobRow> jobs_to_plan() override { return inner_->jobs_to_plan(); }
  bool cancel_job(std::int64_t job, const std::string& message) override { return inner_->cancel_job(job, message); }
  void reopen_job(std::int64_t job, const std::string& input) override { return inner_->reopen_job(job, input); }
  std::optional<Claim> claim(const std::string& owner, const std::vector<std::string>& engines, std::int64_t lease_ms,
                             std::optional<std::int64_t> only_job) override {
    return inner_->claim(owner, engines, lease_ms, only_job);
  }
  std::int64_t renew_leases(const std::string& owner, std::int64_t lease_ms, const std::vector<std::string>& keys) override {
    return inner_->renew_leases(owner, lease_ms, keys);
  }
  std::int64_t release_leases(const std::string& owner, const std::string* key) override {
    return inner_->release_leases(owner, key);
  }
  std::vector<std::string> lease_owners() override { return inner_->lease_owners(); }
  std::optional<JobRow> claim_delivery(const std::string& owner, std::int64_t lease_ms,
                                       const std::string& host) override {
    return inner_->claim_delivery(owner, lease_ms, host);
  }
  void mark_delivered(std::int64_t job, JobState state, const std::string& message, const std::string& input) override {
    return inner_->mark_delivered(job, state, message, input);
  }
  void release_delivery(std::int64_t job, const std::string& owner) override { inner_->release_delivery(job, owner); }
  std::vector<Lease> job_leases(std::int64_t job) override { return inner_->job_leases(job); }
  std::vector<std::pair<std::string, std::int64_t>> abandoned_leases(const std::string& owner) override {
    return inner_->abandoned_leases(owner);
  }
  PurgeResult purge(const PurgeRequest& request) override { return inner_->purge(request); }
  void vacuum() override { return inner_->vacuum(); }
  CacheStats cache_stats() override { return inner_->cache_stats(); }
  std::uint64_t searches(const std::string& key) override { return inner_->searches(key); }

 private:
  std::unique_ptr<Store> inner_;
  std::shared_ptr<Disk> disk_;
};

struct Notices {
  Notices() {
    set_notice_handler([this](const std::string& text) {
      std::lock_guard lock(mutex);
      seen.push_back(text);
    });
  }
  ~Notices() { set_notice_handler(nullptr); }
  std::mutex mutex;
  std::vector<std::string> seen;
};

// A store file in a fresh temporary directory, and a ReconnectingStore on it through the wrapper.
struct Fixture {
  explicit Fixture(std::chrono::milliseconds patience) {
    dir = std::filesystem::temp_directory_path() / ("epdd_full_disk_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "store.db").string();
    auto open = [path, d = disk]() -> epdd::Expected<std::unique_ptr<Store>, std::string> {
      auto opened = Store::open(path);
      if (!opened) return epdd::unexpected(opened.error());
      ++d->opens;
      return std::unique_ptr<Store>(std::make_unique<FullDiskStore>(std::move(*opened), d));
    };
    auto first = open();
    REQUIRE(first.has_value());
    store = std::make_unique<ReconnectingStore>(std::move(*first), open, patience);
    job = store->find_or_create_job("analyse", "in.epd", "full disk test", "{}").id;
  }
  ~Fixture() { std::filesystem::remove_all(dir); }
  std::filesystem::path dir;
  std::shared_ptr<Disk> disk = std::make_shared<Disk>();
  std::unique_ptr<ReconnectingStore> store;
  std::int64_t job = 0;
};

}  // namespace

TEST_CASE("a store waiting for space writes once the disk has room, after growing pauses, told once", "[store]") {
  Notices notices;
  Fixture f(std::chrono::seconds(30));
  f.disk->failures_left = 4;
  const auto started = std::chrono::steady_clock::now();
  f.store->set_job_state(f.job, JobState::Failed, "written after the disk was full");
  const auto waited = std::chrono::steady_clock::now() - started;
  CHECK(f.store->job(f.job).message == "written after the disk was full");
  CHECK(f.disk->failures == 4);
  // 0.1 + 0.2 + 0.4 + 0.8 s: the pause grows from one run of the operation to the next.
  CHECK(waited >= std::chrono::milliseconds(1500));
  CHECK(waited < std::chrono::milliseconds(4000));
  REQUIRE(notices.seen.size() == 2);
  CHECK_THAT(notices.seen[0], Catch::Contains("the disk is full") && Catch::Contains("waiting for space"));
  CHECK_THAT(notices.seen[1], Catch::Contains("written after the disk was full for"));
}

TEST_CASE("a store waiting for space gives up with StoreFull when the patience runs out", "[store]") {
  Notices notices;
  Fixture f(std::chrono::seconds(1));
  f.disk->failures_left = 1000;
  std::string message;
  try {
    f.store->set_job_state(f.job, JobState::Failed, "never written");
  } catch (const StoreFull& e) {
    message = e.what();
  }
  CHECK_THAT(message, Catch::Contains("the disk stayed full for 1 s; giving up") && Catch::Contains("store.db"));
  // About 0.1 + 0.2 + 0.4 s of pauses in a second: a few runs, not a busy loop.
  CHECK(f.disk->failures >= 3);
  CHECK(f.disk->failures <= 5);
  CHECK(f.store->job(f.job).state != JobState::Failed);
}

TEST_CASE("a store waiting for space stops waiting at once when the waits are interrupted (SIGTERM)", "[store]") {
  Notices notices;
  Fixture f(std::chrono::seconds(30));
  f.disk->failures_left = 1000;
  std::thread stopper([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    set_waits_interrupted(true);
  });
  const auto started = std::chrono::steady_clock::now();
  std::string message;
  try {
    f.store->set_job_state(f.job, JobState::Failed, "never written");
  } catch (const StoreFull& e) {
    message = e.what();
  }
  const auto waited = std::chrono::steady_clock::now() - started;
  stopper.join();
  set_waits_interrupted(false);
  CHECK_THAT(message, Catch::Contains("stopped waiting, the process is stopping"));
  CHECK(waited < std::chrono::milliseconds(1000));
}
