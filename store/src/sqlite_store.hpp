// The store in one SQLite file: the embedded default (ARCHITECTURE.md, "Store and daemon").
// Private to store/src: callers open it with Store::open(path) and hold a Store.
//
// How it keeps the contract of store.hpp:
// - Sharing: several processes (or several SqliteStore objects) may open the same file: WAL lets
//   readers run beside the one writer, writes take the write lock up front (BEGIN IMMEDIATE) and
//   wait up to a minute for it (busy_timeout).
// - Durability: synchronous = FULL, so a commit is on disk (the WAL synced) before it returns.
// - Time: the clock of the machine, read by each process (a file is used on one machine).
// - Schema versions: PRAGMA user_version; a version 1, 2 or 3 file is upgraded in place when
//   opened, under the write lock.
//
// The schema keeps to SQL that PostgreSQL reads the same way (integer ids, text, INSERT ... ON
// CONFLICT), so the shared-queue port is a connection, not a redesign.
//
// The member functions are defined by theme: opening and the schema in sqlite_schema.cpp; jobs,
// items and the cache in sqlite_store.cpp; leases in sqlite_leases.cpp; purge, vacuum and the
// cache statistics in sqlite_purge.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "sqlite_connection.hpp"
#include "store/store.hpp"

namespace epdd::store {

class SqliteStore final : public Store {
 public:
  // Opens the store in the file at `path`, creating it (mode 0600) and its schema if missing.
  // Refuses a file that is not SQLite, an SQLite file that is not an epdd store, and one whose
  // schema is newer than this code's. Every message names the path.
  static Expected<std::unique_ptr<Store>, std::string> open(const std::string& path);

  // The convenience overloads of Store, which this class's overrides would hide.
  using Store::add_items;
  using Store::find_or_create_job;

  const std::string& path() const override;
  const std::string& location() const override;

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
  explicit SqliteStore(std::string path) : connection_(std::move(path)) {}
  // The size of a job's input (0 without one); a job that does not exist throws.
  std::size_t job_source_size(std::int64_t job);

  // The columns read_job reads, in its order.
  static constexpr const char* kJobColumns =
      "id, kind, input, identity, settings, state, message, total, done, failed, searches, cache_hits, created_ms, "
      "updated_ms, engine, spec, planned, delivered, started_ms, runner";
  // The job in the row `q` is on, its columns as kJobColumns.
  JobRow read_job(const sqlite::Query& q, std::string_view what) const;
  // A new job's source from NewJob::read_source, in the caller's transaction.
  void write_source(std::int64_t job, const NewJob& n);

  // The item a claim starts from: its position, its job, its group.
  struct FirstItem {
    std::string key;
    std::int64_t job = 0;
    std::optional<std::int64_t> group;
  };
  // The parts of claim() (sqlite_leases.cpp), in its transaction.
  // Whether any active, planned, unfinished job is for one of the engines: a read, no lock.
  bool any_claimable_job(const std::vector<std::string>& engines, std::optional<std::int64_t> only_job,
                         std::string_view what);
  std::optional<FirstItem> first_claimable(const std::vector<std::string>& engines,
                                           std::optional<std::int64_t> only_job, std::int64_t now,
                                           std::string_view what);
  Claim lease_position(const std::string& key, const std::string& owner, std::int64_t expiry, std::string_view what);
  bool position_held(const std::string& key, std::int64_t now, std::string_view what);
  std::vector<ClaimedPosition> lease_group(std::int64_t job, std::int64_t group, std::string claimed,
                                           const std::string& owner, std::int64_t now, std::int64_t expiry,
                                           std::string_view what);

  // Connection settings, and the checks that come before anything is written to the file.
  // Returns the schema version found.
  std::int64_t configure();
  void create_schema();
  // Throws a StoreError saying the store is damaged unless PRAGMA quick_check finds it whole.
  void check_pages();
  ItemState item_state(std::int64_t job, std::int64_t index, const std::string* key, std::string_view what);
  // Runs one UPDATE of the jobs row `job` (parameter ?1) in a transaction of its own; a
  // StoreError if there is no such job.
  template <class... Args>
  void update_job(std::int64_t job, const std::string& what, const std::string& sql, const Args&... args) {
    sqlite::Transaction transaction(connection_, what);
    connection_.query(sql, what).bind(job, args...).run();
    if (connection_.changes() == 0) connection_.fail(what, fmt::format("there is no job {}", job));
    transaction.commit();
  }
  // The bodies of commit_analysis, commit_cached and commit_failure, in the caller's transaction
  // (theirs, or commit_outcomes' one for a whole group); `what` names the item in messages.
  void record_analysis(std::int64_t job, std::int64_t index, const std::string& key, const std::string& engine,
                       const std::string& analysis_json, std::string_view what);
  void record_cached(std::int64_t job, std::int64_t index, const std::string& key, const std::string& analysis_json,
                     std::string_view what);
  // `first`: counted as the search (else as answered by it).
  void record_uncached(std::int64_t job, std::int64_t index, const std::string& key, const std::string& analysis_json,
                       bool first, std::string_view what);
  void record_failure(std::int64_t job, std::int64_t index, const std::string& error, std::string_view what);
  void count_transition(std::int64_t job, ItemState before, ItemState after, std::int64_t searches,
                        std::int64_t hits, std::string_view what);

  sqlite::Connection connection_;
};

}  // namespace epdd::store
