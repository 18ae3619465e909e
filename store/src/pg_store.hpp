// The store in a PostgreSQL database: one queue for many machines (ARCHITECTURE.md, "Store and
// daemon"). Private to store/src: callers open it with Store::open("postgresql://...") and hold
// a Store.
//
// How it keeps the contract of store.hpp:
// - Sharing: each operation is one transaction (READ COMMITTED); a claim reads its first item FOR
//   UPDATE SKIP LOCKED under an advisory lock on that position, and leases only rows with no live
//   lease as PostgreSQL re-reads them, so two owners never lease one position (pg_leases.cpp);
//   writes wait for row locks as PostgreSQL makes them.
// - Durability: a commit returns once PostgreSQL has it (synchronous_commit is the server's).
// - Time: the database's clock, read in each transaction (pg_connection.hpp, kNowMs).
// - Schema: version 4, the same tables and columns as SQLite's, in epdd_schema (pg_schema.cpp).
// - Messages and path(): the location without its password (location.hpp).
//
// The member functions are defined by theme as the SQLite backend's: jobs, items and the cache
// in pg_store.cpp; leases in pg_leases.cpp; purge, vacuum and the cache statistics in
// pg_purge.cpp; opening and the schema in pg_schema.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "pg_connection.hpp"
#include "store/store.hpp"

namespace epdd::store {

class PgStore final : public Store {
 public:
  // Opens the store in the database `location` names (postgresql:// or postgres://), creating
  // its schema if missing. Refuses a database that is not an epdd store and one whose schema is
  // newer than this code's. Every message names the location without its password.
  static Expected<std::unique_ptr<Store>, std::string> open(const std::string& location);

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
  explicit PgStore(const std::string& location) : connection_(location) {}

  using Tx = pg::Transaction;

  static constexpr const char* kJobColumns =
      "id, kind, input, identity, settings, state, message, total, done, failed, searches, cache_hits, created_ms, "
      "updated_ms, engine, spec, planned, delivered, started_ms, runner";
  JobRow read_job(const pqxx::row& row, std::string_view what) const;
  std::vector<JobRow> read_jobs(const std::string& sql, std::string_view what);
  void write_source(Tx& t, std::int64_t job, const NewJob& n);

  // A job whose items a claim may take: active, planned, not complete, for one of the engines;
  // `grouped`: some of its items have a group (annotate).
  struct ActiveJob {
    std::int64_t id = 0;
    std::string engine;
    bool grouped = false;
  };
  // The jobs a claim may take items from, by id: one read-only statement, no lock.
  std::vector<ActiveJob> claimable_jobs(const std::vector<std::string>& engines, std::optional<std::int64_t> only_job,
                                        const std::string& what);
  // Leases the job's first claimable position in one statement (a job without groups); nothing
  // if none (pg_leases.cpp says how two claims at once never lease one position).
  std::optional<Claim> lease_first(const ActiveJob& job, const std::string& owner, std::int64_t lease_ms,
                                   const std::string& what);
  // The same for a job with groups: the first claimable position and the rest of its group, in
  // one transaction.
  std::optional<Claim> lease_first_of_group(const ActiveJob& job, const std::string& owner, std::int64_t lease_ms,
                                            const std::string& what);
  static Claim read_claim(const pqxx::result& r, const ActiveJob& job);
  Claim lease_position(Tx& t, const std::string& key, const std::string& owner, std::int64_t now, std::int64_t expiry);
  std::vector<ClaimedPosition> lease_group(Tx& t, std::int64_t job, std::int64_t group, std::string claimed,
                                           const std::string& owner, std::int64_t now, std::int64_t expiry);

  ItemState item_state(Tx& t, std::int64_t job, std::int64_t index, const std::string* key);
  // One UPDATE of the jobs row `job` ($1) in a transaction of its own; a StoreError if there is
  // no such job.
  template <class... Args>
  void update_job(std::int64_t job, const std::string& what, const std::string& sql, const Args&... args) {
    Tx t(connection_, what);
    if (t.run(sql, job, args...).affected_rows() == 0) t.fail(fmt::format("there is no job {}", job));
    t.commit();
  }
  void record_analysis(Tx& t, std::int64_t job, std::int64_t index, const std::string& key, const std::string& engine,
                       const std::string& analysis_json);
  void record_cached(Tx& t, std::int64_t job, std::int64_t index, const std::string& key,
                     const std::string& analysis_json);
  // `first`: counted as the search (else as answered by it).
  void record_uncached(Tx& t, std::int64_t job, std::int64_t index, const std::string& key,
                       const std::string& analysis_json, bool first);
  void record_failure(Tx& t, std::int64_t job, std::int64_t index, const std::string& error);
  void count_transition(Tx& t, std::int64_t job, ItemState before, ItemState after, std::int64_t searches,
                        std::int64_t hits);

  pg::Connection connection_;
  // A second connection, opened when the input is read while a transaction of connection_ is
  // open: planning reads the input (annotate: a game at a time) from inside add_items' item
  // source, and a connection runs one transaction at a time.
  std::unique_ptr<pg::Connection> reader_;
  pg::Connection& reader();
};

}  // namespace epdd::store
