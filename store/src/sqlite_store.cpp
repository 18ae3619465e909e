// The SQLite store's jobs, items and analysis cache.
#include "commit_messages.hpp"
#include "sqlite_store.hpp"

#include <limits>

namespace epdd::store {

using sqlite::Blob;
using sqlite::Connection;
using sqlite::now_ms;
using sqlite::Query;
using sqlite::Transaction;
using sqlite::ZeroBlob;

JobRow SqliteStore::read_job(const Query& q, std::string_view what) const {
  JobRow job;
  job.id = q.integer(0);
  job.kind = q.text(1);
  job.input = q.text(2);
  job.identity = q.text(3);
  job.settings = q.text(4);
  const std::string state = q.text(5);
  const auto parsed = parse_job_state(state);
  if (!parsed) connection_.fail(what, fmt::format("job {} has an unknown state '{}'", job.id, state));
  job.state = *parsed;
  job.message = q.text(6);
  job.total = q.integer(7);
  job.done = q.integer(8);
  job.failed = q.integer(9);
  job.searches = q.integer(10);
  job.cache_hits = q.integer(11);
  job.created_ms = q.integer(12);
  job.updated_ms = q.integer(13);
  job.engine = q.text(14);
  job.spec = q.text(15);
  job.planned = q.integer(16) != 0;
  job.delivered = q.integer(17) != 0;
  if (!q.null(18)) job.started_ms = q.integer(18);
  job.runner = q.text(19);
  return job;
}

// The item's state, after checking that it exists and (if `key` is given) has that key: a
// result recorded under the wrong position would be served from the cache for ever.
ItemState SqliteStore::item_state(std::int64_t job, std::int64_t index, const std::string* key,
                                  std::string_view what) {
  Query q = connection_.query("SELECT state, key FROM items WHERE job = ?1 AND idx = ?2", what);
  if (!q.bind(job, index).next()) connection_.fail(what, fmt::format("job {} has no item {}", job, index));
  const std::string state = q.text(0);
  if (key && q.text(1) != *key)
    connection_.fail(what, fmt::format("item {} of job {} has key '{}', not '{}'", index, job, q.text(1), *key));
  const auto parsed = parse_item_state(state);
  if (!parsed) connection_.fail(what, fmt::format("item {} of job {} has an unknown state '{}'", index, job, state));
  return *parsed;
}

// Moves the job's counters with one item's change of state, in the caller's transaction: a
// result committed twice is counted once.
void SqliteStore::count_transition(std::int64_t job, ItemState before, ItemState after, std::int64_t searches,
                                   std::int64_t hits, std::string_view what) {
  auto delta = [&](ItemState s) -> std::int64_t { return (after == s ? 1 : 0) - (before == s ? 1 : 0); };
  connection_
      .query("UPDATE jobs SET done = done + ?2, failed = failed + ?3, searches = searches + ?4, "
             "cache_hits = cache_hits + ?5, updated_ms = ?6 WHERE id = ?1",
             what)
      .bind(job, delta(ItemState::Done), delta(ItemState::Failed), searches, hits, now_ms())
      .run();
}
// A job made by a version 1 store has no spec and no source: the first run that finds it gives
// it both.
JobRow SqliteStore::find_or_create_job(const NewJob& n) {
  constexpr std::string_view kWhat = "finding or creating a job";
  Connection& c = connection_;
  Transaction transaction(c, kWhat);
  const std::int64_t now = now_ms();
  c.query("INSERT INTO jobs (kind, input, identity, settings, state, created_ms, updated_ms, spec, delivery_host) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8) ON CONFLICT (identity) DO UPDATE SET spec = excluded.spec "
          "WHERE jobs.spec = ''",
          kWhat)
      .bind(n.kind, n.input, n.identity, n.settings, to_string(JobState::Queued), now, n.spec, n.delivery_host)
      .run();
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs WHERE identity = ?1", kJobColumns);
  Query q = c.query(kSelect, kWhat);
  if (!q.bind(n.identity).next()) c.fail(kWhat, "the job vanished after its insertion");
  JobRow job = read_job(q, kWhat);
  q.run();
  // Its input, kept apart from the row that is read and updated all the time.
  if (!n.read_source) {
    c.query("INSERT INTO job_sources (job, source) VALUES (?1, ?2) ON CONFLICT (job) DO NOTHING", kWhat)
        .bind(job.id, Blob{n.source})
        .run();
  } else {
    c.query("INSERT INTO job_sources (job, source) VALUES (?1, ?2) ON CONFLICT (job) DO NOTHING", kWhat)
        .bind(job.id, ZeroBlob{n.source_size})
        .run();
    if (c.changes() > 0) write_source(job.id, n);
  }
  for (const auto& [name, bytes] : n.files)
    c.query("INSERT INTO job_files (job, name, bytes) VALUES (?1, ?2, ?3) "
            "ON CONFLICT (job, name) DO UPDATE SET bytes = excluded.bytes",
            kWhat)
        .bind(job.id, name, Blob{bytes})
        .run();
  transaction.commit();
  return job;
}

namespace {

// An open handle on a job's source for incremental blob I/O (job_sources' rowid is its job).
class SourceBlob {
 public:
  SourceBlob(Connection& c, std::int64_t job, bool write, std::string_view what) : c_(c), what_(what) {
    if (sqlite3_blob_open(c.db(), "main", "job_sources", "source", job, write ? 1 : 0, &blob_) != SQLITE_OK) {
      sqlite3_blob_close(blob_);  // SQLite may hand back a handle to close even on failure
      blob_ = nullptr;
      c.fail(what);
    }
  }
  ~SourceBlob() { sqlite3_blob_close(blob_); }
  SourceBlob(const SourceBlob&) = delete;
  SourceBlob& operator=(const SourceBlob&) = delete;
  std::size_t size() const { return static_cast<std::size_t>(sqlite3_blob_bytes(blob_)); }
  void write(const char* bytes, std::size_t n, std::size_t offset) {
    if (sqlite3_blob_write(blob_, bytes, static_cast<int>(n), static_cast<int>(offset)) != SQLITE_OK) c_.fail(what_);
  }
  void read(char* bytes, std::size_t n, std::size_t offset) {
    if (sqlite3_blob_read(blob_, bytes, static_cast<int>(n), static_cast<int>(offset)) != SQLITE_OK) c_.fail(what_);
  }

 private:
  Connection& c_;
  std::string_view what_;
  sqlite3_blob* blob_ = nullptr;
};

}  // namespace

// The new job's source written from its reader a chunk at a time, in the caller's transaction.
void SqliteStore::write_source(std::int64_t job, const NewJob& n) {
  constexpr std::string_view kWhat = "writing the input of a new job";
  SourceBlob blob(connection_, job, true, kWhat);
  std::string chunk(std::size_t{1} << 16, '\0');
  std::size_t at = 0;
  for (;;) {
    const std::size_t got = n.read_source(chunk.data(), chunk.size());
    if (got == 0) break;
    if (got > n.source_size - at) break;  // more than announced
    blob.write(chunk.data(), got, at);
    at += got;
  }
  if (at != n.source_size || n.read_source(chunk.data(), 1) != 0)
    connection_.fail(kWhat, fmt::format("the input changed while it was read (it had {} bytes)", n.source_size));
}

std::size_t SqliteStore::job_source_size(std::int64_t job) {
  const std::string what = fmt::format("reading the size of the input of job {}", job);
  Query q = connection_.query(
      "SELECT coalesce(length(s.source), 0) FROM jobs j LEFT JOIN job_sources s ON s.job = j.id WHERE j.id = ?1", what);
  if (!q.bind(job).next()) connection_.fail(what, "there is no such job");
  return static_cast<std::size_t>(q.integer(0));
}

void SqliteStore::read_job_source(std::int64_t job, const SourcePart& part) {
  const std::string what = fmt::format("reading the input of job {}", job);
  if (job_source_size(job) == 0) return;  // also: the job exists; a job without source reads as empty
  // One handle for the whole read: SQLite keeps the handle's list of the row's overflow pages, so
  // each part is read where it is. A handle a part would walk the chain from its first page each
  // time, and the whole read would take time in the square of the input's size.
  SourceBlob blob(connection_, job, false, what);
  std::string bytes;
  for (std::size_t at = 0; at < blob.size(); at += bytes.size()) {
    bytes.resize(std::min(kSourcePart, blob.size() - at));
    blob.read(bytes.data(), bytes.size(), at);
    part(at, bytes);
  }
}

std::string SqliteStore::job_source(std::int64_t job) {
  const std::string what = fmt::format("reading the input of job {}", job);
  Query q = connection_.query(
      "SELECT coalesce(s.source, '') FROM jobs j LEFT JOIN job_sources s ON s.job = j.id WHERE j.id = ?1", what);
  if (!q.bind(job).next()) connection_.fail(what, "there is no such job");
  return q.text(0);
}
std::optional<std::string> SqliteStore::job_file(std::int64_t job, const std::string& name) {
  const std::string what = fmt::format("reading the input file {} of job {}", name, job);
  Query q = connection_.query(
      "SELECT f.bytes IS NOT NULL, coalesce(f.bytes, '') FROM jobs j LEFT JOIN job_files f ON f.job = j.id AND "
      "f.name = ?2 WHERE j.id = ?1",
      what);
  if (!q.bind(job, name).next()) connection_.fail(what, "there is no such job");
  if (q.integer(0) == 0) return std::nullopt;
  return q.text(1);
}

std::vector<std::int64_t> SqliteStore::add_items(std::int64_t job, const ItemSource& items, const std::string& engine) {
  const std::string what = fmt::format("adding items to job {}", job);
  Connection& c = connection_;
  Transaction transaction(c, what);
  const std::int64_t now = now_ms();
  std::vector<std::int64_t> answered;
  NewItem item;
  while (items(item)) {
    // json_valid: an entry that is not JSON (a damaged file) is searched again, not copied.
    std::optional<std::string> analysis;
    {
      Query hit = c.query("SELECT analysis FROM cache WHERE key = ?1 AND json_valid(analysis)", what);
      if (hit.bind(item.key).next()) analysis = hit.text(0);
    }
    c.query("INSERT INTO items (job, idx, key, state, request, grp, result) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) "
            "ON CONFLICT (job, idx) DO NOTHING",
            what)
        .bind(job, item.index, item.key, to_string(analysis ? ItemState::Done : ItemState::Pending), item.request,
              item.group, analysis)
        .run();
    if (!analysis || c.changes() == 0) continue;
    c.query("UPDATE cache SET hits = hits + 1, used_ms = ?2 WHERE key = ?1", what).bind(item.key, now).run();
    answered.push_back(item.index);
  }
  const auto n = static_cast<std::int64_t>(answered.size());
  c.query("UPDATE jobs SET total = (SELECT count(*) FROM items WHERE job = ?1), updated_ms = ?2, planned = 1, "
          "engine = ?3, state = CASE WHEN state = ?4 THEN ?5 ELSE state END, done = done + ?6, "
          "cache_hits = cache_hits + ?6, started_ms = CASE WHEN ?6 > 0 THEN coalesce(started_ms, ?2) "
          "ELSE started_ms END WHERE id = ?1",
          what)
      .bind(job, now, engine, to_string(JobState::Queued), to_string(JobState::Running), n)
      .run();
  if (c.changes() == 0) c.fail(what, fmt::format("there is no job {}", job));
  transaction.commit();
  return answered;
}

std::vector<ItemRow> SqliteStore::items(std::int64_t job) {
  return items(job, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
}

std::vector<ItemRow> SqliteStore::items(std::int64_t job, std::int64_t first, std::int64_t last) {
  const std::string what = fmt::format("reading the items of job {}", job);
  Query q = connection_.query(
      "SELECT idx, key, state, result, error, attempts, grp FROM items WHERE job = ?1 AND idx >= ?2 AND idx < ?3 "
      "ORDER BY idx",
      what);
  q.bind(job, first, last);
  std::vector<ItemRow> items;
  while (q.next()) {
    ItemRow item{job, q.integer(0), q.text(1), ItemState::Pending, q.text(3), q.text(4), q.integer(5)};
    if (!q.null(6)) item.group = q.integer(6);
    const std::string state = q.text(2);
    const auto parsed = parse_item_state(state);
    if (!parsed) connection_.fail(what, fmt::format("item {} has an unknown state '{}'", item.index, state));
    item.state = *parsed;
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<GroupCount> SqliteStore::group_counts(std::int64_t job) {
  Query q = connection_.query(
      "SELECT grp, count(*), sum(state = 'pending') FROM items WHERE job = ?1 AND grp IS NOT NULL GROUP BY grp "
      "ORDER BY grp",
      fmt::format("counting the groups of job {}", job));
  q.bind(job);
  std::vector<GroupCount> out;
  while (q.next()) out.push_back(GroupCount{q.integer(0), q.integer(1), q.integer(2)});
  return out;
}

std::optional<std::string> SqliteStore::cached(const std::string& key) {
  Query q = connection_.query("SELECT analysis FROM cache WHERE key = ?1", "looking up the cache");
  if (!q.bind(key).next()) return std::nullopt;
  return q.text(0);
}

void SqliteStore::record_analysis(std::int64_t job, std::int64_t index, const std::string& key,
                                  const std::string& engine, const std::string& analysis_json, std::string_view what) {
  connection_
      .query("INSERT INTO cache (key, engine, analysis, searches, hits, created_ms, used_ms) VALUES (?1, ?2, ?3, 1, 0, ?4, ?4) "
             "ON CONFLICT (key) DO UPDATE SET searches = cache.searches + 1, used_ms = excluded.used_ms",
             what)
      .bind(key, engine, analysis_json, now_ms())
      .run();
  record_uncached(job, index, key, analysis_json, true, what);  // (the item, as a search)
}

void SqliteStore::record_cached(std::int64_t job, std::int64_t index, const std::string& key,
                                const std::string& analysis_json, std::string_view what) {
  Connection& c = connection_;
  const ItemState before = item_state(job, index, &key, what);
  c.query("UPDATE cache SET hits = hits + 1, used_ms = ?2 WHERE key = ?1", what).bind(key, now_ms()).run();
  if (c.changes() == 0) c.fail(what, fmt::format("no cache entry for key '{}'", key));
  c.query("UPDATE items SET state = ?3, result = ?4, error = NULL, lease_owner = NULL, lease_expiry_ms = NULL "
          "WHERE job = ?1 AND idx = ?2",
          what)
      .bind(job, index, to_string(ItemState::Done), analysis_json)
      .run();
  count_transition(job, before, ItemState::Done, 0, 1, what);
}

void SqliteStore::record_failure(std::int64_t job, std::int64_t index, const std::string& error,
                                 std::string_view what) {
  const ItemState before = item_state(job, index, nullptr, what);
  connection_
      .query("UPDATE items SET state = ?3, result = NULL, error = ?4, attempts = attempts + 1, lease_owner = NULL, "
             "lease_expiry_ms = NULL WHERE job = ?1 AND idx = ?2",
             what)
      .bind(job, index, to_string(ItemState::Failed), error)
      .run();
  count_transition(job, before, ItemState::Failed, 0, 0, what);
}

void SqliteStore::record_uncached(std::int64_t job, std::int64_t index, const std::string& key,
                                  const std::string& analysis_json, bool first, std::string_view what) {
  Connection& c = connection_;
  const ItemState before = item_state(job, index, &key, what);
  c.query("UPDATE items SET state = ?3, result = ?4, error = NULL, attempts = attempts + ?5, lease_owner = NULL, "
          "lease_expiry_ms = NULL WHERE job = ?1 AND idx = ?2",
          what)
      .bind(job, index, to_string(ItemState::Done), analysis_json, first ? 1 : 0)
      .run();
  count_transition(job, before, ItemState::Done, first ? 1 : 0, first ? 0 : 1, what);
}

void SqliteStore::commit_analysis(std::int64_t job, std::int64_t index, const std::string& key,
                                  const std::string& engine, const std::string& analysis_json) {
  const std::string what = analysis_what(job, index);
  Transaction transaction(connection_, what);
  record_analysis(job, index, key, engine, analysis_json, what);
  transaction.commit();
}

void SqliteStore::commit_cached(std::int64_t job, std::int64_t index, const std::string& key,
                                const std::string& analysis_json) {
  const std::string what = cached_what(job, index);
  Transaction transaction(connection_, what);
  record_cached(job, index, key, analysis_json, what);
  transaction.commit();
}

void SqliteStore::commit_failure(std::int64_t job, std::int64_t index, const std::string& error) {
  const std::string what = failure_what(job, index);
  Transaction transaction(connection_, what);
  record_failure(job, index, error, what);
  transaction.commit();
}

// One search answers every item of its position: the first item's commit makes the cache entry,
// the others are answered from it, as a worker committing them one by one would.
void SqliteStore::commit_outcomes(const std::string& engine, const std::vector<PositionOutcome>& outcomes) {
  if (outcomes.empty()) return;
  const std::string what = fmt::format("committing the outcomes of {} positions", outcomes.size());
  Transaction transaction(connection_, what);
  for (const PositionOutcome& outcome : outcomes) {
    if (outcome.items.empty()) connection_.fail(what, fmt::format("the outcome for key '{}' has no item", outcome.key));
    bool first = true;
    for (const auto& [job, index] : outcome.items) {
      switch (outcome.kind) {
        case PositionOutcome::Kind::Searched:
          if (first) record_analysis(job, index, outcome.key, engine, outcome.analysis_json, analysis_what(job, index));
          else record_cached(job, index, outcome.key, outcome.analysis_json, cached_what(job, index));
          break;
        case PositionOutcome::Kind::Uncached:
          record_uncached(job, index, outcome.key, outcome.analysis_json, first, analysis_what(job, index));
          break;
        case PositionOutcome::Kind::Cached:
          record_cached(job, index, outcome.key, outcome.analysis_json, cached_what(job, index));
          break;
        case PositionOutcome::Kind::Failed:
          record_failure(job, index, outcome.error, failure_what(job, index));
          break;
      }
      first = false;
    }
  }
  transaction.commit();
}

void SqliteStore::reset_failed(std::int64_t job) {
  const std::string what = fmt::format("resetting the failed items of job {}", job);
  Connection& c = connection_;
  Transaction transaction(c, what);
  c.query("UPDATE items SET state = ?2, error = NULL WHERE job = ?1 AND state = ?3", what)
      .bind(job, to_string(ItemState::Pending), to_string(ItemState::Failed))
      .run();
  c.query("UPDATE jobs SET failed = (SELECT count(*) FROM items WHERE job = ?1 AND state = ?2), updated_ms = ?3 "
          "WHERE id = ?1",
          what)
      .bind(job, to_string(ItemState::Failed), now_ms())
      .run();
  if (c.changes() == 0) c.fail(what, fmt::format("there is no job {}", job));
  transaction.commit();
}

void SqliteStore::set_job_state(std::int64_t job, JobState state, const std::string& message) {
  update_job(job, fmt::format("setting the state of job {} to {}", job, to_string(state)),
             "UPDATE jobs SET state = ?2, message = ?3, updated_ms = ?4 WHERE id = ?1", to_string(state), message,
             now_ms());
}

JobRow SqliteStore::job(std::int64_t id) {
  const std::string what = fmt::format("reading job {}", id);
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs WHERE id = ?1", kJobColumns);
  Query q = connection_.query(kSelect, what);
  if (!q.bind(id).next()) connection_.fail(what, "there is no such job");
  return read_job(q, what);
}

std::vector<JobRow> SqliteStore::jobs_updated_since(std::int64_t since_ms) {
  constexpr std::string_view kWhat = "reading the jobs changed lately";
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs WHERE updated_ms >= ?1 ORDER BY id", kJobColumns);
  Query q = connection_.query(kSelect, kWhat);
  q.bind(since_ms);
  std::vector<JobRow> jobs;
  while (q.next()) jobs.push_back(read_job(q, kWhat));
  return jobs;
}

std::vector<JobRow> SqliteStore::jobs() {
  constexpr std::string_view kWhat = "reading the jobs";
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs ORDER BY id", kJobColumns);
  Query q = connection_.query(kSelect, kWhat);
  std::vector<JobRow> jobs;
  while (q.next()) jobs.push_back(read_job(q, kWhat));
  return jobs;
}

std::vector<JobRow> SqliteStore::jobs_to_plan() {
  constexpr std::string_view kWhat = "reading the jobs to plan";
  static const std::string kSelect = fmt::format(
      "SELECT {} FROM jobs WHERE planned = 0 AND state IN ('queued', 'running') ORDER BY id", kJobColumns);
  Query q = connection_.query(kSelect, kWhat);
  std::vector<JobRow> jobs;
  while (q.next()) jobs.push_back(read_job(q, kWhat));
  return jobs;
}
void SqliteStore::reopen_job(std::int64_t job, const std::string& input) {
  update_job(job, fmt::format("reopening job {}", job),
             "UPDATE jobs SET state = ?2, message = '', delivered = 0, updated_ms = ?3, "
             "input = coalesce(nullif(?4, ''), input) WHERE id = ?1",
             to_string(JobState::Running), now_ms(), input);
}

bool SqliteStore::cancel_job(std::int64_t job, const std::string& message) {
  const std::string what = fmt::format("cancelling job {}", job);
  Connection& c = connection_;
  Transaction transaction(c, what);
  c.query("UPDATE jobs SET state = 'cancelled', message = ?2, updated_ms = ?3 WHERE id = ?1 AND state IN ('queued', "
          "'running')",
          what)
      .bind(job, message, now_ms())
      .run();
  const bool changed = c.changes() > 0;
  if (!changed) {
    Query q = c.query("SELECT 1 FROM jobs WHERE id = ?1", what);
    if (!q.bind(job).next()) c.fail(what, "there is no such job");
  }
  transaction.commit();
  return changed;
}

}  // namespace epdd::store
