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
// CONFLICT), so the shared-queue port is a connection, not a redesign. Version 3 (PRAGMA
// user_version; a version 1 or 2 file is upgraded in place when opened):
//   jobs(id, kind, input, identity UNIQUE, settings, state, message, total, done, failed,
//        searches, cache_hits, created_ms, updated_ms, engine, spec, source, planned, delivered,
//        lease_owner, lease_expiry_ms, started_ms, runner)
//   items(job -> jobs.id, idx, key, state, result, error, attempts, lease_owner,
//         lease_expiry_ms, request; PRIMARY KEY(job, idx))
//   cache(key PRIMARY KEY, engine, analysis, searches, hits, created_ms, used_ms)
// Timestamps are milliseconds since the Unix epoch.
//
// Leases (how several processes share the queue, ARCHITECTURE.md): a worker claims the pending
// items of one position (cache key) for a time; nobody else claims that position while the
// lease is live, so a position is searched once. The worker renews its leases while it
// searches, commits (which clears the lease) or releases them. A worker that dies leaves leases
// that expire and are claimed again (or released at once by a process on the same machine that
// sees the owner is gone). A finished job is delivered (its outputs written) under a lease on
// the job, so exactly one process delivers it and a killed delivery is done again.
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

namespace epdd::store {

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
  std::string engine;    // the engine identity its items' keys are for; empty until planned
  std::string spec;      // what running and delivering it needs (JSON, daemon/job_spec.hpp)
  bool planned = false;  // its items are in the store
  bool delivered = false;
  // When its first item was claimed: work started (a job may wait in the queue for hours).
  // Empty until then.
  std::optional<std::int64_t> started_ms;
  std::string runner;  // the lease owner of its last claim ("HOST/PID/START"); empty until then

  // Every item Done or Failed (and the items are there).
  bool complete() const { return planned && done + failed >= total; }
};

// What a new job is made of.
struct NewJob {
  std::string kind, input, identity, settings;
  std::string spec;    // JSON
  std::string source;  // the input's bytes, kept so the job can be run and its output written
                       // when the file has moved or changed
};

// A new item: its position's cache key, and the analysis request (JSON) that answers it.
struct NewItem {
  std::int64_t index = 0;
  std::string key;
  std::string request;
};

// Work claimed: one position and every pending item that waits for it.
struct Claim {
  std::string key;
  std::string request;  // JSON
  std::string engine;   // the engine identity of the jobs
  std::vector<std::pair<std::int64_t, std::int64_t>> items;  // (job, index)
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

// The live or expired lease one owner holds on a job's pending items.
struct Lease {
  std::string owner;
  std::int64_t expiry_ms = 0;  // the latest of its items'
};

// What `epdd purge` removes: jobs that ended (finished, failed, cancelled) before a time, with
// their inputs and items; cache entries not used since a time. Nothing is removed without a time.
struct PurgeRequest {
  std::optional<std::int64_t> ended_before_ms;
  std::optional<std::int64_t> cache_unused_since_ms;
  bool dry_run = false;  // count and list, remove nothing
};

struct PurgeResult {
  std::vector<JobRow> jobs;        // removed (or that would be), by id
  std::int64_t items = 0;          // their items
  std::int64_t input_bytes = 0;    // their inputs' bytes
  std::int64_t cache_entries = 0;
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
  JobRow find_or_create_job(const NewJob& job);
  // The same with no spec and no source.
  JobRow find_or_create_job(const std::string& kind, const std::string& input, const std::string& identity,
                            const std::string& settings);
  // The input's bytes as the job was made with them.
  std::string job_source(std::int64_t job);

  // Adds Pending items (index, cache key) in one transaction; items already there are left as
  // they are, so re-adding them on resume changes nothing. Sets the job's total to its item count.
  // The job is then planned, its keys are for `engine` (an engine identity), and a Queued job
  // is Running.
  void add_items(std::int64_t job, const std::vector<NewItem>& items, const std::string& engine);
  // The same with no requests, for no engine.
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

  // Queued or Running jobs whose items are not there yet.
  std::vector<JobRow> jobs_to_plan();
  // Cancels a Queued or Running job; false if it had ended already. A StoreError if there is no
  // such job. Its items are no longer claimed; the workers that hold its positions see it in
  // abandoned_leases() and stop their searches.
  bool cancel_job(std::int64_t job, const std::string& message);

  // Makes a cancelled or failed job Running and undelivered again (a one-shot command rerun).
  void reopen_job(std::int64_t job);

  // Claims the next position to analyse for `owner`: the first pending item (by job, then index)
  // of an active planned job whose engine is one of `engines` (identities) and whose position
  // nobody holds a live lease on; then every pending item of an active job with that position.
  // `only_job`: from that job only. Nothing when there is nothing to claim now.
  std::optional<Claim> claim(const std::string& owner, const std::vector<std::string>& engines, std::int64_t lease_ms,
                             std::optional<std::int64_t> only_job = std::nullopt);
  // Moves the expiry of every lease of `owner` (items and jobs) to now + lease_ms; returns how
  // many items it holds.
  std::int64_t renew_leases(const std::string& owner, std::int64_t lease_ms);
  // Gives up the leases of `owner` (of one position's items if `key` is given; else every one,
  // jobs included): the items are claimable again at once. Returns how many items.
  std::int64_t release_leases(const std::string& owner, const std::string* key = nullptr);
  // Every owner that holds a lease, live or expired.
  std::vector<std::string> lease_owners();
  // A job to deliver, leased to `owner`: complete and not yet delivered, or cancelled or failed
  // and not yet delivered. Nothing if there is none (or all are leased to others).
  std::optional<JobRow> claim_delivery(const std::string& owner, std::int64_t lease_ms);
  // The job's outputs are written: its final state, delivered, its lease gone.
  void mark_delivered(std::int64_t job, JobState state, const std::string& message = "");

  // The owners that hold leases on the job's pending items, with the latest expiry of each.
  std::vector<Lease> job_leases(std::int64_t job);
  // (position key, job) for each position `owner` has leased whose items all belong to jobs
  // that are no longer queued or running (cancelled, failed): nobody waits for its search.
  std::vector<std::pair<std::string, std::int64_t>> abandoned_leases(const std::string& owner);

  // Removes (or, dry_run, lists) what the request names, in one transaction. A job is kept
  // while it is queued or running, while a process holds a live lease on it or on one of its
  // items (a search in flight or a delivery), and a cache entry while a pending item waits for
  // its position (a worker may be about to take it from the cache). The file does not shrink
  // until vacuum().
  PurgeResult purge(const PurgeRequest& request);
  // Rebuilds the file without its free pages (VACUUM) and truncates the write-ahead log, so the
  // space is given back to the file system. Waits for other writers like any write.
  void vacuum();

  CacheStats cache_stats();
  // How many searches were committed for `key`: 0 if it is not cached. More than 1 means work
  // was repeated (two processes analysed the same position at once).
  std::uint64_t searches(const std::string& key);

 private:
  struct Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace epdd::store
