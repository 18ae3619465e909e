// A Store that outlives its database's restarts (issue 18): every operation is handed to the
// backend store it wraps; when the database does not answer (StoreUnavailable: the connection
// lost, refused, the server shutting down or starting up), the backend is dropped, a new one is
// opened with a growing pause between attempts (0.1 s doubling to 5 s), and the operation is run
// again from its start in a new transaction, until the patience runs out (then the
// StoreUnavailable is thrown, saying how long it waited). Each wait is told to the notice
// handler (store.hpp), so a daemon's log says why it stands still.
//
// Why running an operation again is safe: the transaction the connection lost was rolled back;
// or, when the answer to its COMMIT was lost, it may have been committed. Then a commit of
// results is not run again when its (first) item is found holding that very result (so a search
// is counted once); the other operations set rather than add, so that doing them twice leaves
// what doing them once does, except:
// - add_items and find_or_create_job with a source reader: their inputs are read as they go and
//   cannot be read twice; they wait for the database like every operation, then throw
//   StoreUnavailable without running again: the caller plans the job again (nothing of a
//   rolled-back transaction is there);
// - a claim whose answer was lost may have leased a position to this owner that nobody works
//   on: it is renewed while this owner has other searches in flight and expires after that, so
//   it is searched late, never twice at once and never lost; a delivery claim the same (the
//   job is delivered when its lease expires);
// - cancel_job answers true when the job is found cancelled with its message (this call did it);
//   purge and release_leases report what the second run did (often nothing).
// A full disk (StoreFull, an SQLite store opened with OnFullDisk::Wait) is waited for the same
// way: the operation is run again after pauses growing from 0.1 s to 5 s, until it is written or
// the patience runs out (then StoreFull).
// Private to store/src: Store::open makes one for a PostgreSQL location, and for an SQLite file
// opened with OnFullDisk::Wait.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "store/store.hpp"

namespace epdd::store {

class ReconnectingStore final : public Store {
 public:
  using Opener = std::function<Expected<std::unique_ptr<Store>, std::string>()>;
  // `first`: the backend, opened; `reopen`: opens another on the same location.
  ReconnectingStore(std::unique_ptr<Store> first, Opener reopen, std::chrono::milliseconds patience);

  using Store::add_items;
  using Store::find_or_create_job;

  const std::string& path() const override { return path_; }
  const std::string& location() const override { return location_; }

  JobRow find_or_create_job(const NewJob& job) override;
  std::string job_source(std::int64_t job) override;
  void read_job_source(std::int64_t job, const SourcePart& part) override;
  std::optional<std::string> job_file(std::int64_t job, const std::string& name) override;
  std::vector<std::int64_t> add_items(std::int64_t job, const ItemSource& items, const std::string& engine) override;
  std::vector<ItemRow> items(std::int64_t job) override;
  std::vector<ItemRow> items(std::int64_t job, std::int64_t first, std::int64_t last) override;
  std::vector<GroupCount> group_counts(std::int64_t job) override;
  std::optional<std::string> cached(const std::string& key) override;
  void commit_analysis(std::int64_t job, std::int64_t index, const std::string& key, const std::string& engine,
                       const std::string& analysis_json) override;
  void commit_cached(std::int64_t job, std::int64_t index, const std::string& key,
                     const std::string& analysis_json) override;
  void commit_failure(std::int64_t job, std::int64_t index, const std::string& error) override;
  void commit_outcomes(const std::string& engine, const std::vector<PositionOutcome>& outcomes) override;
  void reset_failed(std::int64_t job) override;
  void set_job_state(std::int64_t job, JobState state, const std::string& message) override;
  JobRow job(std::int64_t id) override;
  std::vector<JobRow> jobs() override;
  std::vector<JobRow> jobs_updated_since(std::int64_t since_ms) override;
  std::vector<JobRow> jobs_to_plan() override;
  bool cancel_job(std::int64_t job, const std::string& message) override;
  void reopen_job(std::int64_t job, const std::string& input) override;
  std::optional<Claim> claim(const std::string& owner, const std::vector<std::string>& engines, std::int64_t lease_ms,
                             std::optional<std::int64_t> only_job) override;
  std::int64_t renew_leases(const std::string& owner, std::int64_t lease_ms, const std::vector<std::string>& keys) override;
  std::int64_t release_leases(const std::string& owner, const std::string* key) override;
  std::vector<std::string> lease_owners() override;
  std::optional<JobRow> claim_delivery(const std::string& owner, std::int64_t lease_ms,
                                       const std::string& host) override;
  void mark_delivered(std::int64_t job, JobState state, const std::string& message, const std::string& input) override;
  void release_delivery(std::int64_t job, const std::string& owner) override;
  std::vector<Lease> job_leases(std::int64_t job) override;
  std::vector<std::pair<std::string, std::int64_t>> abandoned_leases(const std::string& owner) override;
  PurgeResult purge(const PurgeRequest& request) override;
  void vacuum() override;
  CacheStats cache_stats() override;
  std::uint64_t searches(const std::string& key) override;

 private:
  // Runs `operation` on the backend, reconnecting and running it again as the header says;
  // `once`: wait for the database but do not run it again.
  template <class Operation>
  auto run(Operation&& operation, bool once = false) -> decltype(operation(std::declval<Store&>()));
  // The waiting of one run(): the next pause (0.1 s doubling to 5 s), how many so far, and since
  // when the disk is full (a StoreFull, not a lost database).
  struct Backoff {
    std::chrono::milliseconds pause{100};
    int tries = 0;
    std::optional<std::chrono::steady_clock::time_point> full_since;
  };
  // Waits for the database (backoff) until a backend opens; `lost`: why it went. Throws
  // StoreUnavailable (StoreFull for a full disk) when the patience (counted from `since`) runs out.
  void reconnect(const std::string& lost, std::chrono::steady_clock::time_point since, Backoff& backoff);

  std::unique_ptr<Store> store_;  // null while the database is away
  Opener reopen_;
  std::chrono::milliseconds patience_;
  std::string path_, location_;
};

}  // namespace epdd::store
