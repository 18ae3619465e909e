// The persistent store: jobs, their work items, leases and the analysis cache (ARCHITECTURE.md,
// "Store and daemon"), behind one interface with one implementation per database: SQLite (a
// file, the embedded default, sqlite_store.hpp) and PostgreSQL (one queue for many machines,
// pg_store.hpp). Callers open a store with Store::open and use nothing but this class.
//
// The contract every backend keeps:
// - Durability: a result is committed, in the same transaction that marks its item done and
//   counts it, before anything else hears of it: a run killed at any point (kill -9, power loss)
//   resumes with every committed result and loses at most the searches in flight.
// - Atomicity: each operation below is one transaction (all of it or none of it), unless its
//   comment says otherwise; a read sees one consistent state.
// - Sharing: several processes (or several Store objects) may use one store at once; writes wait
//   their turn (for a bounded time) rather than fail on a lock. One Store object belongs to one
//   thread: a thread that needs the store opens its own with Store::open(path()).
// - Time: every time the store stamps or compares (created, updated, started, lease expiries,
//   cache use) is read from the database's clock, not the caller's, in milliseconds since the
//   Unix epoch: processes on machines whose clocks differ still agree on who holds a lease.
//   (SQLite: the clock of the one machine the file is used on.)
// - Failures: an operation that cannot be done (I/O error, lock not obtained in time, a damaged
//   store, a job or item that does not exist) throws StoreError naming the store's location.
//
// The schema, the same tables and columns in every backend; version 5 (an older store is
// upgraded in place when opened):
//   jobs(id, kind, input, identity UNIQUE, settings, state, message, total, done, failed,
//        searches, cache_hits, created_ms, updated_ms, engine, spec, planned, delivered,
//        lease_owner, lease_expiry_ms, started_ms, runner, delivery_host)
//   job_sources(job PRIMARY KEY -> jobs.id, source): the input's bytes, apart from the job's row
//        (which is read and updated all the time)
//   job_files(job -> jobs.id, name, bytes; PRIMARY KEY(job, name)): the further input files its
//        settings name (annotate's --book), so that no process opens a path from a job
//   items(job -> jobs.id, idx, key, state, result, error, attempts, lease_owner,
//         lease_expiry_ms, request, grp (NULL: no group); PRIMARY KEY(job, idx))
//   cache(key PRIMARY KEY, engine, analysis, searches, hits, created_ms, used_ms)
//
// Leases (how several processes share the queue, ARCHITECTURE.md): a worker claims the pending
// items of one position (cache key) for a time; nobody else claims that position while the
// lease is live, so a position is searched once. The worker renews its leases while it
// searches, commits (which clears the lease) or releases them. A worker that dies leaves leases
// that expire and are claimed again (or released at once by a process on the same machine that
// sees the owner is gone). A finished job is delivered (its outputs written) under a lease on
// the job, so exactly one process delivers it and a killed delivery is done again.
//
// Groups (annotate): the items of one job with the same group (one game's positions) are
// claimed together, to be searched in order on one engine session, and their outcomes are
// committed together in one transaction (commit_outcomes): a run killed mid-game has committed
// nothing of that game, and its rerun searches the game again from its start, as an
// uninterrupted run did.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"

namespace epdd::store {

// The schema version this epdd creates and upgrades to (the schema above), on SQLite (its
// user_version) and on PostgreSQL (table epdd_schema) alike. A store of a newer version is
// refused, not written.
inline constexpr int kSchemaVersion = 5;

// A store operation failed (disk full, I/O error, lock not obtained in time, corrupt file, a
// job or item that does not exist). The message names the store's location, what was being done
// and the database's reason. Fatal for a run: nothing after it could be recorded.
class StoreError : public std::runtime_error {
 public:
  explicit StoreError(const std::string& message) : std::runtime_error(message) {}
};

// The database did not answer: the connection was lost or refused, the server is shutting down
// or starting up (PostgreSQL). The operation was not done, except that a commit whose answer was
// lost may have been. A PostgreSQL store waits for its database and runs the operation again
// (reconnecting_store.hpp) before it gives up with this; a caller that gets it may try again
// later (a daemon's main loop does), or stop.
class StoreUnavailable : public StoreError {
 public:
  explicit StoreUnavailable(const std::string& message) : StoreError(message) {}
};

// The disk that holds the store is full (SQLite's SQLITE_FULL): the operation was not done (its
// transaction rolled back). A store opened with OnFullDisk::Wait waits for space and runs the
// operation again (as a PostgreSQL store waits for its database) before it gives up with this.
class StoreFull : public StoreUnavailable {
 public:
  explicit StoreFull(const std::string& message) : StoreUnavailable(message) {}
};

// What an SQLite store does when its disk is full: a command fails at once (its rerun resumes);
// a daemon waits for space, so that it neither dies nor spins while someone frees the disk.
enum class OnFullDisk : std::uint8_t { Fail, Wait };

// Ends every wait of a store for its database or for disk space within 50 ms, and makes later
// failures give up at once, with StoreUnavailable (StoreFull): a daemon told to stop (SIGTERM)
// stops by its deadline instead of waiting out the patience. Async-signal-safe (it sets a
// lock-free atomic): a signal handler calls it. `false` lets stores wait again (a new run).
void set_waits_interrupted(bool interrupted) noexcept;

// Where a store tells what it does on its own that a user should hear of (waiting for its
// database to come back, reconnected): a daemon sends it to its log. Until one is set, the
// notices go to standard error. Process-wide; set it before opening stores.
void set_notice_handler(std::function<void(const std::string&)> handler);
// Tells `text` to the handler.
void notice(const std::string& text);

enum class JobState : std::uint8_t { Queued, Running, Finished, Failed, Cancelled };
enum class ItemState : std::uint8_t { Pending, Done, Failed };

// "queued", "running", "finished", "failed", "cancelled": the text stored in the store.
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
  // Instead of `source`, for an input that is not to be held whole (annotate: a file of
  // thousands of games): its size and a reader of its bytes in order, a chunk at a time (fills
  // at most `capacity` bytes of `buffer`, returns how many; 0 only at the end). Called only
  // when the job is new. A reader that gives more or fewer than `source_size` bytes (the file
  // changed meanwhile) fails the call (StoreError) and no job is made.
  std::size_t source_size = 0;
  std::function<std::size_t(char* buffer, std::size_t capacity)> read_source = nullptr;
  // Further input files by name (annotate: "book", the Polyglot file's bytes), kept with the
  // job (job_file reads them): a process that runs the job, maybe on another machine, reads
  // them from the store and never opens a path the job names. Given for a job that exists
  // already (a resumed run), they replace its files of the same name: a setting that is not in
  // the job's identity (annotate's --book) renders with the file the last run named.
  std::vector<std::pair<std::string, std::string>> files = {};
  // The host whose processes alone deliver the job (claim_delivery): the one it was made on,
  // when delivering it writes files there (its outputs, a spool's moves); empty, anyone's.
  std::string delivery_host = {};
};

// A new item: its position's cache key, the analysis request (JSON) that answers it, and its
// group: the items of one job with the same group are claimed and committed together (one game,
// searched in order on one session); no group, the item stands alone. (Every member after the
// first three has a default, so `NewItem{index, key, request}` still means an item alone.)
struct NewItem {
  std::int64_t index = 0;
  std::string key;
  std::string request;
  std::optional<std::int64_t> group = std::nullopt;
};

// A group of a job's items and how far it is.
struct GroupCount {
  std::int64_t group = 0;
  std::int64_t items = 0;
  std::int64_t pending = 0;
  bool operator==(const GroupCount&) const = default;
};

// Gives the items to add one at a time: fills `next` and returns true, or returns false when
// there are no more (a job of many items is planned without holding them all).
using ItemSource = std::function<bool(NewItem& next)>;

// One more position of a claimed group: its cache key, the request of the group's item at its
// first index, and every pending item of an active job that waits for it (the group's items
// with that key, and other jobs' items with it), by job then index.
struct ClaimedPosition {
  std::string key;
  std::string request;  // JSON
  std::vector<std::pair<std::int64_t, std::int64_t>> items;  // (job, index)
};

// Work claimed: one position and every pending item that waits for it; when that position's
// first item belongs to a group, the rest of the group too.
struct Claim {
  std::string key;
  std::string request;  // JSON
  std::string engine;   // the engine identity of the jobs
  std::vector<std::pair<std::int64_t, std::int64_t>> items;  // (job, index)
  // Set when the claimed item (the first claimable one) belongs to a group: that item's group
  // in that item's job (groups are a job's own). `items` may list other jobs' items first.
  std::optional<std::int64_t> group = std::nullopt;
  // The group's other positions, in the order of their first index in the group, leased with
  // this one; empty for an item alone.
  std::vector<ClaimedPosition> rest = {};
};

// What became of one claimed position, for commit_outcomes: searched (a new analysis), answered
// from the cache, or failed (engine crash, timeout, illegal output).
struct PositionOutcome {
  enum class Kind : std::uint8_t { Searched, Uncached, Cached, Failed };
  Kind kind = Kind::Searched;
  std::string key;
  std::vector<std::pair<std::int64_t, std::int64_t>> items;  // (job, index)
  std::string analysis_json;  // Searched, Uncached and Cached
  std::string error;          // Failed
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
  std::optional<std::int64_t> group = std::nullopt;  // as added (NewItem::group); none in an older store
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

// The store's operations. Each is pure virtual: a backend implements all of them and keeps
// the contract above and the promise in each one's comment. Default arguments belong to this
// interface (callers hold a Store&); a backend's overrides repeat none.
class Store {
 public:
  // The one way to open a store: picks the backend for `location`, and creates the store (with
  // nothing readable by group or others: it may hold private inputs) and its schema if missing.
  // Refuses a store that is not an epdd store and one whose schema is newer than this code's.
  // Every message names the location. A `postgresql://` or `postgres://` location (libpq's URL)
  // picks the PostgreSQL backend (one that waits for its database when it goes away: the
  // environment's EPDD_STORE_PATIENCE_SECONDS, default 600, then StoreUnavailable); any other is
  // the path of an SQLite file (location.hpp); with OnFullDisk::Wait, one that waits for space
  // on a full disk the same way (and with the same patience), then StoreFull.
  static Expected<std::unique_ptr<Store>, std::string> open(const std::string& location,
                                                            OnFullDisk on_full_disk = OnFullDisk::Fail);

  virtual ~Store() = default;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The location the store was opened with; Store::open(path()) opens the same store again
  // (how each worker thread gets its own). A PostgreSQL URL without its password
  // (location.hpp): reopening it then takes the password from PGPASSWORD, ~/.pgpass or a
  // service file, never from the URL.
  virtual const std::string& path() const = 0;
  // The location exactly as it was opened, a URL's password included: what a worker thread
  // passes to Store::open to open the same store again. Never shown (path() is for people).
  virtual const std::string& location() const = 0;

  // The job with this identity as it stands (how an interrupted run resumes), or a new Queued
  // one. Atomic: two processes asking at once get the same job.
  virtual JobRow find_or_create_job(const NewJob& job) = 0;
  // The same with no spec and no source (not virtual: a backend implements the one above).
  JobRow find_or_create_job(const std::string& kind, const std::string& input, const std::string& identity,
                            const std::string& settings);
  // The input's bytes as the job was made with them.
  virtual std::string job_source(std::int64_t job) = 0;
  // Its bytes front to back, handed to `part(offset, bytes)` a piece at a time
  // (kSourcePart bytes at most, consecutive, offset 0 first), so that an input is never held
  // whole (annotate copies its input with it). One pass over the store: the cost is linear in
  // the input's size, however large (SQLite: one blob handle for the whole read, not a handle a
  // part, each walking the row's overflow pages from the first; PostgreSQL: the value once into a
  // large object, not substring() a part, which decompresses the column up to the part each
  // time). A store that runs the read again after a lost connection starts again at offset 0.
  // Defaults read job_source() whole.
  static constexpr std::size_t kSourcePart = std::size_t{1} << 20;
  using SourcePart = std::function<void(std::size_t offset, std::string_view bytes)>;
  virtual void read_job_source(std::int64_t job, const SourcePart& part);
  // The bytes of the job's input file of this name (NewJob::files) as the job was made with
  // them; nothing when the job has no file of that name. A job that does not exist throws.
  virtual std::optional<std::string> job_file(std::int64_t job, const std::string& name) = 0;

  // Adds items (index, cache key, request, group) in one transaction; items already there are
  // left as they are (their group too), so re-adding them on resume changes nothing. A new item
  // whose key the cache has is added Done with the cached analysis, counted as a cache hit of
  // the job and of the entry (a worker would answer it so; here no worker moves it, nor its
  // JSON, one by one); the others are Pending. Sets the job's total to its item count. The job
  // is then planned, its keys are for `engine` (an engine identity), and a Queued job is
  // Running. Returns the indexes of the items answered from the cache, in order.
  virtual std::vector<std::int64_t> add_items(std::int64_t job, const ItemSource& items, const std::string& engine) = 0;
  // The same with the items in a vector (not virtual: a backend implements the one above).
  std::vector<std::int64_t> add_items(std::int64_t job, const std::vector<NewItem>& items, const std::string& engine);
  // The same with no requests, for no engine (not virtual: a backend implements the one above).
  std::vector<std::int64_t> add_items(std::int64_t job,
                                      const std::vector<std::pair<std::int64_t, std::string>>& index_and_key);

  // The job's items by index.
  virtual std::vector<ItemRow> items(std::int64_t job) = 0;
  // Those with first <= index < last, by index (a large job's results read a part at a time).
  virtual std::vector<ItemRow> items(std::int64_t job, std::int64_t first, std::int64_t last) = 0;
  // The job's groups (items with a group: annotate's games), each with its number of items and
  // of those still pending, by group (progress in games).
  virtual std::vector<GroupCount> group_counts(std::int64_t job) = 0;

  // The cached analysis JSON for `key`, if any. Read-only: counting a hit is commit_cached's job,
  // in the transaction that uses it.
  virtual std::optional<std::string> cached(const std::string& key) = 0;

  // Records a search's result in one transaction: the cache entry (created; or, if another
  // search got there first, kept as it is with its search count raised), the item Done with
  // `analysis_json` as its result, the job's counters. A result is committed before it is counted.
  virtual void commit_analysis(std::int64_t job, std::int64_t index, const std::string& key,
                               const std::string& engine, const std::string& analysis_json) = 0;

  // Marks the item Done with a result taken from the cache, in one transaction that counts the
  // hit on the cache entry and on the job. The entry must exist.
  virtual void commit_cached(std::int64_t job, std::int64_t index, const std::string& key,
                             const std::string& analysis_json) = 0;

  // Marks the item Failed with `error` (its result, if any, is dropped) and counts it.
  virtual void commit_failure(std::int64_t job, std::int64_t index, const std::string& error) = 0;

  // Commits the outcomes of a claimed group (or of any claims) in ONE transaction: a Searched
  // position as commit_analysis for its first item (the cache entry for `engine`) and
  // commit_cached for the others; an Uncached one (a result that answers these items and no
  // others: a search that ended without a score) as Searched without the cache entry, the first
  // item counted as the search and the others as answered by it; a Cached one as commit_cached for each
  // item (the entry must exist); a Failed one as commit_failure for each item. The counters (the jobs', the cache
  // entries') end as those single commits, in that order, leave them. All or nothing: an outcome
  // that cannot be committed (no such item, an item under another key, a Cached outcome with no
  // cache entry, an outcome with no item) is a StoreError, and nothing of the batch is written
  // (the leases stay as they were). Why: a game's results are there all together or not at all,
  // so that a rerun after a kill redoes the whole game on a fresh session.
  virtual void commit_outcomes(const std::string& engine, const std::vector<PositionOutcome>& outcomes) = 0;

  // Puts the job's Failed items back to Pending, so that a rerun retries them (after an engine
  // crash, say). Their attempts are kept.
  virtual void reset_failed(std::int64_t job) = 0;

  // Sets the job's state and its message (why it failed or was cancelled). A StoreError if
  // there is no such job.
  virtual void set_job_state(std::int64_t job, JobState state, const std::string& message = "") = 0;
  // The job with this id; a StoreError if there is none.
  virtual JobRow job(std::int64_t id) = 0;
  // Every job, by id.
  virtual std::vector<JobRow> jobs() = 0;
  // The jobs whose updated_ms is since_ms or later, by id: what changed since a reader last
  // looked (every change of a job stamps updated_ms with the database's clock), so that a daemon
  // watching the store each poll reads a few rows rather than every job it ever ran. A stamp is
  // taken before its transaction commits: a reader asks again from a little before the newest
  // stamp it saw. The default filters jobs(); a backend reads only those rows.
  virtual std::vector<JobRow> jobs_updated_since(std::int64_t since_ms);

  // Queued or Running jobs whose items are not there yet.
  virtual std::vector<JobRow> jobs_to_plan() = 0;
  // Cancels a Queued or Running job; false if it had ended already. A StoreError if there is no
  // such job. Its items are no longer claimed; the workers that hold its positions see it in
  // abandoned_leases() and stop their searches.
  virtual bool cancel_job(std::int64_t job, const std::string& message) = 0;

  // Makes a cancelled or failed job Running and undelivered again (a one-shot command rerun, a
  // spool file dropped again); `input`, when not empty, is where its input file is now.
  virtual void reopen_job(std::int64_t job, const std::string& input = "") = 0;

  // Claims the next position to analyse for `owner`: the first pending item (by job, then index)
  // of an active planned job whose engine is one of `engines` (identities) and whose position
  // nobody holds a live lease on; then every pending item of an active job with that position.
  // `only_job`: from that job only. Nothing when there is nothing to claim now. Atomic: of two
  // owners claiming at once, one gets the position and the other the next one; the lease runs
  // to the database's now + lease_ms, and a lease whose expiry is past is nobody's.
  // When that first item has a group, the claim is of the whole group (Claim::group is set):
  // `rest` lists, by index, every other pending item of that job and group whose position nobody
  // holds a live lease on, one ClaimedPosition per position (a position repeated in the group
  // is listed once, at its first index, with all its items; one that is the claim's own is in
  // `items`), and all of them are leased to `owner` in the same transaction, to the same expiry.
  // A group position someone else held is left out: it is claimed later on its own (with its
  // group set and nothing in `rest` unless more of the group is pending and free).
  virtual std::optional<Claim> claim(const std::string& owner, const std::vector<std::string>& engines,
                                     std::int64_t lease_ms, std::optional<std::int64_t> only_job = std::nullopt) = 0;
  // Moves the expiry of `owner`'s leases to the database's now + lease_ms: of its items on the
  // positions `keys` names (those its searches work on), and of its jobs; returns how many items.
  // A lease it holds on another position (a claim whose answer was lost on the way: committed,
  // then tried again and given another position) is left to expire, and claimed again.
  virtual std::int64_t renew_leases(const std::string& owner, std::int64_t lease_ms,
                                    const std::vector<std::string>& keys) = 0;
  // Gives up the leases of `owner` (of one position's items if `key` is given; else every one,
  // jobs included): the items are claimable again at once. Returns how many items.
  virtual std::int64_t release_leases(const std::string& owner, const std::string* key = nullptr) = 0;
  // Every owner that holds a lease, live or expired.
  virtual std::vector<std::string> lease_owners() = 0;
  // A job to deliver, leased to `owner` until the database's now + lease_ms: complete and not
  // yet delivered, or cancelled or failed and not yet delivered, and whose delivery host
  // (NewJob::delivery_host) is empty or `host` (the caller's: a job whose outputs are files
  // on its host waits for a process there). Nothing if there is none (or all are leased to
  // others). Atomic: a job is leased to one owner at a time.
  virtual std::optional<JobRow> claim_delivery(const std::string& owner, std::int64_t lease_ms,
                                               const std::string& host = "") = 0;
  // The job's outputs are written: its final state, delivered, its lease gone; `input`, when not
  // empty, is where its input file is now (a spool's input moved to done/ or failed/).
  virtual void mark_delivered(std::int64_t job, JobState state, const std::string& message = "",
                              const std::string& input = "") = 0;
  // Gives back a job claimed for delivery without delivering it (its items grew: book-grow's next
  // round), so that whoever finds it complete next claims it at once; only `owner`'s claim.
  virtual void release_delivery(std::int64_t job, const std::string& owner) = 0;

  // The owners that hold leases on the job's pending items, with the latest expiry of each.
  virtual std::vector<Lease> job_leases(std::int64_t job) = 0;
  // (position key, job) for each position `owner` has leased whose items all belong to jobs
  // that are no longer queued or running (cancelled, failed): nobody waits for its search.
  virtual std::vector<std::pair<std::string, std::int64_t>> abandoned_leases(const std::string& owner) = 0;

  // Removes (or, dry_run, lists) what the request names, in one transaction. A job is kept
  // while it is queued or running, while a process holds a live lease on it or on one of its
  // items (a search in flight or a delivery), and a cache entry while a pending item waits for
  // its position (a worker may be about to take it from the cache). "Live" is in the database's
  // clock; the request's times are compared with the stored ones as they are. The store does
  // not shrink on disk until vacuum().
  virtual PurgeResult purge(const PurgeRequest& request) = 0;
  // Gives the space that purge freed back to the file system (SQLite: the file rebuilt without
  // its free pages, the write-ahead log truncated). Not one transaction with purge; waits for
  // other writers like any write.
  virtual void vacuum() = 0;

  // Counts over the whole analysis cache.
  virtual CacheStats cache_stats() = 0;
  // How many searches were committed for `key`: 0 if it is not cached. More than 1 means work
  // was repeated (two processes analysed the same position at once).
  virtual std::uint64_t searches(const std::string& key) = 0;

 protected:
  Store() = default;
};

}  // namespace epdd::store
