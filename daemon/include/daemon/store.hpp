// The persistent store: jobs, their work items and the analysis cache, in one SQLite file
// (ARCHITECTURE.md, "Store and daemon"). A result is committed, in the same transaction that
// marks its item done and counts it, before anything else hears of it: a run killed at any
// point (kill -9, power loss) resumes with every committed result and loses at most the
// searches in flight.
//
// Concurrency: one Store object belongs to one thread. Several processes (or several Store
// objects) may open the same file: WAL lets readers run beside the one writer, writes take the
// write lock up front (BEGIN IMMEDIATE) and wait up to 10 s for it (busy_timeout).
//
// The schema keeps to SQL that PostgreSQL reads the same way (integer ids, text, INSERT ... ON
// CONFLICT), so the shared-queue port is a connection, not a redesign. Version 1 (PRAGMA
// user_version):
//   jobs(id, kind, input, identity UNIQUE, settings, state, message, total, done, failed,
//        searches, cache_hits, created_ms, updated_ms)
//   items(job -> jobs.id, idx, key, state, result, error, attempts, lease_owner,
//         lease_expiry_ms; PRIMARY KEY(job, idx))    leases: NULL until the daemon claims items
//   cache(key PRIMARY KEY, engine, analysis, searches, hits, created_ms)
// Timestamps are milliseconds since the Unix epoch.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"

namespace epdd::daemon {

// A store operation failed (disk full, I/O error, lock not obtained in time, corrupt file, a
// job or item that does not exist). The message names the file, what was being done and
// SQLite's reason. Fatal for a run: nothing after it could be recorded.
class StoreError : public std::runtime_error {
 public:
  explicit StoreError(const std::string& message) : std::runtime_error(message) {}
};

enum class JobState : std::uint8_t { Queued, Running, Finished, Failed, Cancelled };
enum class ItemState : std::uint8_t { Pending, Done, Failed };

// "queued", "running", "finished", "failed", "cancelled": the text stored in the file.
const char* to_string(JobState state);
// "pending", "done", "failed".
const char* to_string(ItemState state);
// The state a stored text names; nothing for text that names none.
std::optional<JobState> parse_job_state(std::string_view text);
std::optional<ItemState> parse_item_state(std::string_view text);

// One job. `identity` says what makes two runs the same job (inputs, engine, limits): a run
// that finds its identity in the store continues that job. The counters are kept in step with
// the items by the same transactions that change them.
struct JobRow {
  std::int64_t id = 0;
  std::string kind;      // analyse, suite, annotate, backsolve
  std::string input;     // what the job reads, for people (file names)
  std::string identity;  // unique
  std::string settings;  // engine, limits, options, as the job's code writes them
  JobState state = JobState::Queued;
  std::string message;   // why it failed or was cancelled; empty otherwise
  std::int64_t total = 0;       // items
  std::int64_t done = 0;        // items Done (by search or from the cache)
  std::int64_t failed = 0;      // items Failed
  std::int64_t searches = 0;    // results this job got from an engine
  std::int64_t cache_hits = 0;  // results this job got from the cache
  std::int64_t created_ms = 0;
  std::int64_t updated_ms = 0;
};

// One position of a job to analyse. `key` is its analysis cache key.
struct ItemRow {
  std::int64_t job = 0;
  std::int64_t index = 0;
  std::string key;
  ItemState state = ItemState::Pending;
  std::string result;  // the analysis JSON when Done; empty otherwise
  std::string error;   // why it failed when Failed; empty otherwise
  std::int64_t attempts = 0;  // searches and failures recorded for it (cache hits not counted)
};

struct CacheStats {
  std::uint64_t entries = 0;
  std::uint64_t searches = 0;              // over all entries
  std::uint64_t max_searches_per_key = 0;  // 1 when no position was ever analysed twice
  std::uint64_t hits = 0;                  // results answered from the cache
};

class Store {
 public:
  // Opens the store at `path`, creating it (mode 0600: it may hold private inputs, so never
  // readable by group or others) and its schema if missing. Refuses a file that is not SQLite,
  // an SQLite file that is not an epdd store, and one whose schema is newer than this code's.
  // Every message names the path.
  static Expected<std::unique_ptr<Store>, std::string> open(const std::string& path);

  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const;

  // The job with this identity as it stands (how an interrupted run resumes), or a new Queued
  // one. Atomic: two processes asking at once get the same job.
  JobRow find_or_create_job(const std::string& kind, const std::string& input, const std::string& identity,
                            const std::string& settings);

  // Adds Pending items (index, cache key) in one transaction; items already there are left as
  // they are, so re-adding them on resume changes nothing. Sets the job's total to its item count.
  void add_items(std::int64_t job, const std::vector<std::pair<std::int64_t, std::string>>& index_and_key);

  // The job's items by index.
  std::vector<ItemRow> items(std::int64_t job);

  // The cached analysis JSON for `key`, if any. Read-only: counting a hit is commit_cached's job,
  // in the transaction that uses it.
  std::optional<std::string> cached(const std::string& key);

  // Records a search's result in one transaction: the cache entry (created; or, if another
  // search got there first, kept as it is with its search count raised), the item Done with
  // `analysis_json` as its result, the job's counters. A result is committed before it is counted.
  void commit_analysis(std::int64_t job, std::int64_t index, const std::string& key, const std::string& engine,
                       const std::string& analysis_json);

  // Marks the item Done with a result taken from the cache, in one transaction that counts the
  // hit on the cache entry and on the job. The entry must exist.
  void commit_cached(std::int64_t job, std::int64_t index, const std::string& key, const std::string& analysis_json);

  // Marks the item Failed with `error` (its result, if any, is dropped) and counts it.
  void commit_failure(std::int64_t job, std::int64_t index, const std::string& error);

  // Puts the job's Failed items back to Pending, so that a rerun retries them (after an engine
  // crash, say). Their attempts are kept.
  void reset_failed(std::int64_t job);

  void set_job_state(std::int64_t job, JobState state, const std::string& message = "");
  // The job with this id; a StoreError if there is none.
  JobRow job(std::int64_t id);
  // Every job, by id.
  std::vector<JobRow> jobs();

  CacheStats cache_stats();
  // How many searches were committed for `key`: 0 if it is not cached. More than 1 means work
  // was repeated (two processes analysed the same position at once).
  std::uint64_t searches(const std::string& key);

 private:
  struct Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace epdd::daemon
