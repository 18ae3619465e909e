#include "store/store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>
#include <unordered_map>

namespace epdd::store {

namespace {

constexpr int kSchemaVersion = 3;
constexpr int kBusyTimeoutMs = 10000;

// Plain SQL that PostgreSQL reads the same way (AUTOINCREMENT becomes an identity column there).
// No CHECK on the state columns: a state added later should not need a table rebuild, and the
// reader refuses text it does not know.
constexpr const char* kSchema = R"sql(
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  input TEXT NOT NULL,
  identity TEXT NOT NULL UNIQUE,
  settings TEXT NOT NULL,
  state TEXT NOT NULL,
  message TEXT NOT NULL DEFAULT '',
  total INTEGER NOT NULL DEFAULT 0,
  done INTEGER NOT NULL DEFAULT 0,
  failed INTEGER NOT NULL DEFAULT 0,
  searches INTEGER NOT NULL DEFAULT 0,
  cache_hits INTEGER NOT NULL DEFAULT 0,
  created_ms INTEGER NOT NULL,
  updated_ms INTEGER NOT NULL
);
CREATE TABLE items (
  job INTEGER NOT NULL REFERENCES jobs(id),
  idx INTEGER NOT NULL,
  key TEXT NOT NULL,
  state TEXT NOT NULL,
  result TEXT,
  error TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT,
  lease_expiry_ms INTEGER,
  PRIMARY KEY (job, idx)
);
CREATE TABLE cache (
  key TEXT NOT NULL PRIMARY KEY,
  engine TEXT NOT NULL,
  analysis TEXT NOT NULL,
  searches INTEGER NOT NULL DEFAULT 0,
  hits INTEGER NOT NULL DEFAULT 0,
  created_ms INTEGER NOT NULL
);
PRAGMA user_version = 1;
)sql";

// Version 2 (the daemon): what a job needs to be run by a process other than the one that made
// it (its spec, its input's bytes, the engine identity its keys are for), and leases.
constexpr const char* kMigrate1To2 = R"sql(
ALTER TABLE jobs ADD COLUMN engine TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN spec TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN source BLOB;
ALTER TABLE jobs ADD COLUMN planned INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN delivered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN lease_owner TEXT;
ALTER TABLE jobs ADD COLUMN lease_expiry_ms INTEGER;
ALTER TABLE items ADD COLUMN request TEXT NOT NULL DEFAULT '';
CREATE INDEX items_by_key ON items (key);
CREATE INDEX items_by_state ON items (state, job, idx);
UPDATE jobs SET planned = 1;
PRAGMA user_version = 2;
)sql";

// Version 3 (status and purge): when a job's first item was claimed (its rate counts from
// there, not from when it was queued) and which process claimed last (status says when no live
// process holds it); when each cache entry was last used (purge --cache-unused-since). What an
// older file cannot know is derived: a job that has results started when it was made (the old
// reading); an entry was last used no later than the last change of a job that has its key.
constexpr const char* kMigrate2To3 = R"sql(
ALTER TABLE jobs ADD COLUMN started_ms INTEGER;
ALTER TABLE jobs ADD COLUMN runner TEXT;
ALTER TABLE cache ADD COLUMN used_ms INTEGER NOT NULL DEFAULT 0;
UPDATE jobs SET started_ms = created_ms WHERE done + failed > 0;
UPDATE cache SET used_ms = max(created_ms, coalesce((SELECT max(j.updated_ms) FROM items i JOIN jobs j ON j.id = i.job
                                                     WHERE i.key = cache.key), 0));
CREATE INDEX cache_by_use ON cache (used_ms);
PRAGMA user_version = 3;
)sql";

constexpr const char* kJobColumns =
    "id, kind, input, identity, settings, state, message, total, done, failed, searches, cache_hits, created_ms, "
    "updated_ms, engine, spec, planned, delivered, started_ms, runner";

constexpr std::array kJobStateNames = {"queued", "running", "finished", "failed", "cancelled"};
constexpr std::array kItemStateNames = {"pending", "done", "failed"};

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

template <class State, std::size_t N>
std::optional<State> parse_state(std::string_view text, const std::array<const char*, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    if (text == names[i]) return static_cast<State>(i);
  return std::nullopt;
}

// Creates the file if it is missing, with mode 0600, before SQLite sees it: SQLite would create
// it 0644 (less the umask), and its -wal and -shm files take the database file's mode.
Expected<void, std::string> create_private_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::close(fd);
    return {};
  }
  if (errno == EEXIST) return {};
  return unexpected(fmt::format("{}: cannot create the store: {}", path, std::strerror(errno)));
}

class Connection;

// Bytes bound as a BLOB (an input file need not be UTF-8).
struct Blob {
  std::string_view bytes;
};

// One use of a cached prepared statement: binds parameters, steps through rows, and resets the
// statement when it goes out of scope, so that no statement keeps a read transaction open.
class Query {
 public:
  Query(const Connection& connection, sqlite3_stmt* statement, std::string_view what)
      : connection_(connection), statement_(statement), what_(what) {}
  ~Query() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  template <class T>
  Query& bind_at(int index, const T& value) {
    bind_one(index, value);
    return *this;
  }
  template <class... Args>
  Query& bind(const Args&... args) {
    int index = 0;
    (bind_one(++index, args), ...);
    return *this;
  }
  // True with a row to read, false when done; a StoreError on failure.
  bool next();
  // Steps to the end (statements without rows).
  void run() {
    while (next()) {
    }
  }
  std::int64_t integer(int column) const { return sqlite3_column_int64(statement_, column); }
  bool null(int column) const { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
  // NULL reads as empty. A BLOB reads as its bytes.
  std::string text(int column) const {
    if (sqlite3_column_type(statement_, column) == SQLITE_BLOB) {
      const auto* b = static_cast<const char*>(sqlite3_column_blob(statement_, column));
      return b ? std::string(b, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))) : std::string();
    }
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
    return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))) : std::string();
  }

 private:
  void bind_one(int index, std::int64_t value) { check(sqlite3_bind_int64(statement_, index, value)); }
  void bind_one(int index, std::string_view value) {
    check(sqlite3_bind_text64(statement_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
  }
  void bind_one(int index, const std::string& value) { bind_one(index, std::string_view(value)); }
  void bind_one(int index, const char* value) { bind_one(index, std::string_view(value)); }
  void bind_one(int index, Blob value) {
    check(sqlite3_bind_blob64(statement_, index, value.bytes.data(), value.bytes.size(), SQLITE_TRANSIENT));
  }
  void check(int rc);

  const Connection& connection_;
  sqlite3_stmt* statement_;
  std::string_view what_;
};

// The SQLite connection of one Store and its prepared statements, each prepared once and
// reused: a run commits once per analysed position.
class Connection {
 public:
  explicit Connection(std::string path) : path_(std::move(path)) {}
  ~Connection() {
    for (auto& [sql, statement] : statements_) sqlite3_finalize(statement);
    if (db_) sqlite3_close_v2(db_);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  const std::string& path() const { return path_; }
  sqlite3* db() const { return db_; }
  void open() {
    if (sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK)
      fail("cannot open the store");
    sqlite3_extended_result_codes(db_, 1);
  }

  // "<path>: <what>: <SQLite's message>": the file, what we were doing, why it failed.
  [[noreturn]] void fail(std::string_view what) const {
    throw StoreError(fmt::format("{}: {}: {}", path_, what, db_ ? sqlite3_errmsg(db_) : "out of memory"));
  }
  // For failures SQLite does not know about (a missing job, a wrong key).
  [[noreturn]] void fail(std::string_view what, std::string_view reason) const {
    throw StoreError(fmt::format("{}: {}: {}", path_, what, reason));
  }

  Query query(const std::string& sql, std::string_view what) {
    auto [it, added] = statements_.try_emplace(sql, nullptr);
    if (added) {
      const int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size() + 1),
                                        SQLITE_PREPARE_PERSISTENT, &it->second, nullptr);
      if (rc != SQLITE_OK) {
        statements_.erase(it);
        fail(what);
      }
    }
    return Query(*this, it->second, what);
  }

  // Runs statements that are not worth caching (opening, the schema).
  void exec(const char* sql, std::string_view what) {
    if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(what);
  }

  std::int64_t changes() const { return sqlite3_changes64(db_); }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  std::unordered_map<std::string, sqlite3_stmt*> statements_;
};

bool Query::next() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  connection_.fail(what_);
}

void Query::check(int rc) {
  if (rc != SQLITE_OK) connection_.fail(what_);
}

// A write transaction. BEGIN IMMEDIATE takes the write lock now (waiting up to the busy
// timeout), so a transaction never fails half-way on a lock another connection holds. Rolled
// back unless committed.
class Transaction {
 public:
  Transaction(Connection& connection, std::string_view what) : connection_(connection), what_(what) {
    connection_.query("BEGIN IMMEDIATE", what_).run();
  }
  ~Transaction() {
    if (!committed_ && !sqlite3_get_autocommit(connection_.db()))
      sqlite3_exec(connection_.db(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    connection_.query("COMMIT", what_).run();
    committed_ = true;
  }

 private:
  Connection& connection_;
  std::string_view what_;
  bool committed_ = false;
};

JobRow read_job(const Query& q, const Connection& connection, std::string_view what) {
  JobRow job;
  job.id = q.integer(0);
  job.kind = q.text(1);
  job.input = q.text(2);
  job.identity = q.text(3);
  job.settings = q.text(4);
  const std::string state = q.text(5);
  const auto parsed = parse_job_state(state);
  if (!parsed) connection.fail(what, fmt::format("job {} has an unknown state '{}'", job.id, state));
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

}  // namespace

const char* to_string(JobState state) { return kJobStateNames.at(static_cast<std::size_t>(state)); }
const char* to_string(ItemState state) { return kItemStateNames.at(static_cast<std::size_t>(state)); }
std::optional<JobState> parse_job_state(std::string_view text) { return parse_state<JobState>(text, kJobStateNames); }
std::optional<ItemState> parse_item_state(std::string_view text) {
  return parse_state<ItemState>(text, kItemStateNames);
}

struct Store::Impl {
  explicit Impl(std::string path) : connection(std::move(path)) {}
  // Returns the schema version found.
  std::int64_t configure();
  void create_schema();
  ItemState item_state(std::int64_t job, std::int64_t index, const std::string* key, std::string_view what);
  // Runs one UPDATE of the jobs row `job` (parameter ?1) in a transaction of its own; a
  // StoreError if there is no such job.
  template <class... Args>
  void update_job(std::int64_t job, const std::string& what, const std::string& sql, const Args&... args) {
    Transaction transaction(connection, what);
    connection.query(sql, what).bind(job, args...).run();
    if (connection.changes() == 0) connection.fail(what, fmt::format("there is no job {}", job));
    transaction.commit();
  }
  void count_transition(std::int64_t job, ItemState before, ItemState after, std::int64_t searches,
                        std::int64_t hits, std::string_view what);
  Connection connection;
};

// Connection settings, and the checks that come before anything is written to the file.
std::int64_t Store::Impl::configure() {
  sqlite3* db = connection.db();
  const std::string& path = connection.path();
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  // One statement, so that the version and the tables are seen in the same state even while
  // another process is creating the schema.
  sqlite3_stmt* probe = nullptr;
  int rc = sqlite3_prepare_v2(
      db, "SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)", -1, &probe,
      nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_step(probe);
  const std::int64_t version = rc == SQLITE_ROW ? sqlite3_column_int64(probe, 0) : 0;
  const std::int64_t objects = rc == SQLITE_ROW ? sqlite3_column_int64(probe, 1) : 0;
  const std::string reason = sqlite3_errmsg(db);
  sqlite3_finalize(probe);
  if ((rc & 0xff) == SQLITE_NOTADB) throw StoreError(fmt::format("{}: not an SQLite database ({})", path, reason));
  if (rc != SQLITE_ROW) throw StoreError(fmt::format("{}: cannot read the store: {}", path, reason));
  if (version > kSchemaVersion)
    throw StoreError(fmt::format("{}: the store has schema version {}, newer than this epdd's {}: use a newer epdd",
                                 path, version, kSchemaVersion));
  if (version == 0 && objects > 0)
    throw StoreError(fmt::format("{}: an SQLite database that is not an epdd store (no schema version, {} objects)",
                                 path, objects));
  // WAL: readers beside one writer, from several processes. FULL: a commit is on disk (the WAL
  // synced) before it returns, so nothing committed is lost on power loss; NORMAL would be.
  {
    Query mode = connection.query("PRAGMA journal_mode = WAL", "setting WAL journal mode");
    if (!mode.next() || mode.text(0) != "wal")
      throw StoreError(fmt::format("{}: cannot use WAL journal mode on this file system", path));
  }
  connection.exec("PRAGMA synchronous = FULL", "setting synchronous = FULL");
  connection.exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
  return version;
}

// Creates the schema in an empty file; checks the version again under the write lock, since
// another process may have created (or upgraded) it since configure() looked.
void Store::Impl::create_schema() {
  constexpr std::string_view kWhat = "creating the schema";
  Transaction transaction(connection, kWhat);
  std::int64_t version = 0;
  {
    Query q = connection.query("PRAGMA user_version", kWhat);
    if (q.next()) version = q.integer(0);
  }
  if (version == kSchemaVersion) return;
  if (version < 0 || version > kSchemaVersion)
    connection.fail(kWhat, fmt::format("unexpected schema version {} (this epdd knows {})", version, kSchemaVersion));
  if (version == 0) connection.exec(kSchema, kWhat);
  if (version <= 1) connection.exec(kMigrate1To2, "upgrading the schema to version 2");
  connection.exec(kMigrate2To3, "upgrading the schema to version 3");
  transaction.commit();
}

// The item's state, after checking that it exists and (if `key` is given) has that key: a
// result recorded under the wrong position would be served from the cache for ever.
ItemState Store::Impl::item_state(std::int64_t job, std::int64_t index, const std::string* key,
                                  std::string_view what) {
  Query q = connection.query("SELECT state, key FROM items WHERE job = ?1 AND idx = ?2", what);
  if (!q.bind(job, index).next()) connection.fail(what, fmt::format("job {} has no item {}", job, index));
  const std::string state = q.text(0);
  if (key && q.text(1) != *key)
    connection.fail(what, fmt::format("item {} of job {} has key '{}', not '{}'", index, job, q.text(1), *key));
  const auto parsed = parse_item_state(state);
  if (!parsed) connection.fail(what, fmt::format("item {} of job {} has an unknown state '{}'", index, job, state));
  return *parsed;
}

// Moves the job's counters with one item's change of state, in the caller's transaction: a
// result committed twice is counted once.
void Store::Impl::count_transition(std::int64_t job, ItemState before, ItemState after, std::int64_t searches,
                                   std::int64_t hits, std::string_view what) {
  auto delta = [&](ItemState s) -> std::int64_t { return (after == s ? 1 : 0) - (before == s ? 1 : 0); };
  connection
      .query("UPDATE jobs SET done = done + ?2, failed = failed + ?3, searches = searches + ?4, "
             "cache_hits = cache_hits + ?5, updated_ms = ?6 WHERE id = ?1",
             what)
      .bind(job, delta(ItemState::Done), delta(ItemState::Failed), searches, hits, now_ms())
      .run();
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::~Store() = default;

Expected<std::unique_ptr<Store>, std::string> Store::open(const std::string& path) {
  if (auto created = create_private_file(path); !created) return unexpected(created.error());
  auto impl = std::make_unique<Impl>(path);
  try {
    impl->connection.open();
    // A store that has its schema is opened without taking the write lock: a reader (status,
    // a resumed run) need not wait for a writer, nor for the recovery of one that was killed.
    if (impl->configure() != kSchemaVersion) impl->create_schema();
  } catch (const StoreError& e) {
    return unexpected(std::string(e.what()));
  }
  return std::unique_ptr<Store>(new Store(std::move(impl)));
}

const std::string& Store::path() const { return impl_->connection.path(); }

JobRow Store::find_or_create_job(const std::string& kind, const std::string& input, const std::string& identity,
                                 const std::string& settings) {
  return find_or_create_job(NewJob{kind, input, identity, settings, "", ""});
}

// A job made by a version 1 store has no spec and no source: the first run that finds it gives
// it both.
JobRow Store::find_or_create_job(const NewJob& n) {
  constexpr std::string_view kWhat = "finding or creating a job";
  Connection& c = impl_->connection;
  Transaction transaction(c, kWhat);
  const std::int64_t now = now_ms();
  c.query("INSERT INTO jobs (kind, input, identity, settings, state, created_ms, updated_ms, spec, source) "
          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?7, ?8) ON CONFLICT (identity) DO UPDATE SET spec = excluded.spec, "
          "source = excluded.source WHERE jobs.spec = ''",
          kWhat)
      .bind(n.kind, n.input, n.identity, n.settings, to_string(JobState::Queued), now, n.spec, Blob{n.source})
      .run();
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs WHERE identity = ?1", kJobColumns);
  Query q = c.query(kSelect, kWhat);
  if (!q.bind(n.identity).next()) c.fail(kWhat, "the job vanished after its insertion");
  JobRow job = read_job(q, c, kWhat);
  q.run();
  transaction.commit();
  return job;
}

std::string Store::job_source(std::int64_t job) {
  const std::string what = fmt::format("reading the input of job {}", job);
  Query q = impl_->connection.query("SELECT source FROM jobs WHERE id = ?1", what);
  if (!q.bind(job).next()) impl_->connection.fail(what, "there is no such job");
  return q.text(0);
}

void Store::add_items(std::int64_t job, const std::vector<std::pair<std::int64_t, std::string>>& index_and_key) {
  std::vector<NewItem> items;
  for (const auto& [index, key] : index_and_key) items.push_back(NewItem{index, key, ""});
  add_items(job, items, "");
}

void Store::add_items(std::int64_t job, const std::vector<NewItem>& items, const std::string& engine) {
  const std::string what = fmt::format("adding {} items to job {}", items.size(), job);
  Connection& c = impl_->connection;
  Transaction transaction(c, what);
  for (const auto& item : items)
    c.query("INSERT INTO items (job, idx, key, state, request) VALUES (?1, ?2, ?3, ?4, ?5) "
            "ON CONFLICT (job, idx) DO NOTHING",
            what)
        .bind(job, item.index, item.key, to_string(ItemState::Pending), item.request)
        .run();
  c.query("UPDATE jobs SET total = (SELECT count(*) FROM items WHERE job = ?1), updated_ms = ?2, planned = 1, "
          "engine = ?3, state = CASE WHEN state = ?4 THEN ?5 ELSE state END WHERE id = ?1",
          what)
      .bind(job, now_ms(), engine, to_string(JobState::Queued), to_string(JobState::Running))
      .run();
  if (c.changes() == 0) c.fail(what, fmt::format("there is no job {}", job));
  transaction.commit();
}

std::vector<ItemRow> Store::items(std::int64_t job) {
  const std::string what = fmt::format("reading the items of job {}", job);
  Query q = impl_->connection.query(
      "SELECT idx, key, state, result, error, attempts FROM items WHERE job = ?1 ORDER BY idx", what);
  q.bind(job);
  std::vector<ItemRow> items;
  while (q.next()) {
    ItemRow item{job, q.integer(0), q.text(1), ItemState::Pending, q.text(3), q.text(4), q.integer(5)};
    const std::string state = q.text(2);
    const auto parsed = parse_item_state(state);
    if (!parsed) impl_->connection.fail(what, fmt::format("item {} has an unknown state '{}'", item.index, state));
    item.state = *parsed;
    items.push_back(std::move(item));
  }
  return items;
}

std::optional<std::string> Store::cached(const std::string& key) {
  Query q = impl_->connection.query("SELECT analysis FROM cache WHERE key = ?1", "looking up the cache");
  if (!q.bind(key).next()) return std::nullopt;
  return q.text(0);
}

void Store::commit_analysis(std::int64_t job, std::int64_t index, const std::string& key, const std::string& engine,
                            const std::string& analysis_json) {
  const std::string what = fmt::format("committing the analysis of item {} of job {}", index, job);
  Connection& c = impl_->connection;
  Transaction transaction(c, what);
  const ItemState before = impl_->item_state(job, index, &key, what);
  c.query("INSERT INTO cache (key, engine, analysis, searches, hits, created_ms, used_ms) VALUES (?1, ?2, ?3, 1, 0, ?4, ?4) "
          "ON CONFLICT (key) DO UPDATE SET searches = cache.searches + 1, used_ms = excluded.used_ms",
          what)
      .bind(key, engine, analysis_json, now_ms())
      .run();
  c.query("UPDATE items SET state = ?3, result = ?4, error = NULL, attempts = attempts + 1, lease_owner = NULL, "
          "lease_expiry_ms = NULL WHERE job = ?1 AND idx = ?2",
          what)
      .bind(job, index, to_string(ItemState::Done), analysis_json)
      .run();
  impl_->count_transition(job, before, ItemState::Done, 1, 0, what);
  transaction.commit();
}

void Store::commit_cached(std::int64_t job, std::int64_t index, const std::string& key,
                          const std::string& analysis_json) {
  const std::string what = fmt::format("committing the cached analysis of item {} of job {}", index, job);
  Connection& c = impl_->connection;
  Transaction transaction(c, what);
  const ItemState before = impl_->item_state(job, index, &key, what);
  c.query("UPDATE cache SET hits = hits + 1, used_ms = ?2 WHERE key = ?1", what).bind(key, now_ms()).run();
  if (c.changes() == 0) c.fail(what, fmt::format("no cache entry for key '{}'", key));
  c.query("UPDATE items SET state = ?3, result = ?4, error = NULL, lease_owner = NULL, lease_expiry_ms = NULL "
          "WHERE job = ?1 AND idx = ?2",
          what)
      .bind(job, index, to_string(ItemState::Done), analysis_json)
      .run();
  impl_->count_transition(job, before, ItemState::Done, 0, 1, what);
  transaction.commit();
}

void Store::commit_failure(std::int64_t job, std::int64_t index, const std::string& error) {
  const std::string what = fmt::format("recording the failure of item {} of job {}", index, job);
  Connection& c = impl_->connection;
  Transaction transaction(c, what);
  const ItemState before = impl_->item_state(job, index, nullptr, what);
  c.query("UPDATE items SET state = ?3, result = NULL, error = ?4, attempts = attempts + 1, lease_owner = NULL, "
          "lease_expiry_ms = NULL WHERE job = ?1 AND idx = ?2",
          what)
      .bind(job, index, to_string(ItemState::Failed), error)
      .run();
  impl_->count_transition(job, before, ItemState::Failed, 0, 0, what);
  transaction.commit();
}

void Store::reset_failed(std::int64_t job) {
  const std::string what = fmt::format("resetting the failed items of job {}", job);
  Connection& c = impl_->connection;
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

void Store::set_job_state(std::int64_t job, JobState state, const std::string& message) {
  impl_->update_job(job, fmt::format("setting the state of job {} to {}", job, to_string(state)),
                    "UPDATE jobs SET state = ?2, message = ?3, updated_ms = ?4 WHERE id = ?1", to_string(state), message,
                    now_ms());
}

JobRow Store::job(std::int64_t id) {
  const std::string what = fmt::format("reading job {}", id);
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs WHERE id = ?1", kJobColumns);
  Query q = impl_->connection.query(kSelect, what);
  if (!q.bind(id).next()) impl_->connection.fail(what, "there is no such job");
  return read_job(q, impl_->connection, what);
}

std::vector<JobRow> Store::jobs() {
  constexpr std::string_view kWhat = "reading the jobs";
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs ORDER BY id", kJobColumns);
  Query q = impl_->connection.query(kSelect, kWhat);
  std::vector<JobRow> jobs;
  while (q.next()) jobs.push_back(read_job(q, impl_->connection, kWhat));
  return jobs;
}

std::vector<JobRow> Store::jobs_to_plan() {
  constexpr std::string_view kWhat = "reading the jobs to plan";
  static const std::string kSelect = fmt::format(
      "SELECT {} FROM jobs WHERE planned = 0 AND state IN ('queued', 'running') ORDER BY id", kJobColumns);
  Query q = impl_->connection.query(kSelect, kWhat);
  std::vector<JobRow> jobs;
  while (q.next()) jobs.push_back(read_job(q, impl_->connection, kWhat));
  return jobs;
}

std::optional<Claim> Store::claim(const std::string& owner, const std::vector<std::string>& engines,
                                  std::int64_t lease_ms, std::optional<std::int64_t> only_job) {
  if (engines.empty()) return std::nullopt;
  const std::string what = fmt::format("claiming work for {}", owner);
  Connection& c = impl_->connection;
  Transaction transaction(c, what);
  const std::int64_t now = now_ms();
  // The first pending item (by job, then index) of an active job on one of our engines whose
  // lease is free or expired, and whose position nobody holds a live lease on.
  std::string in;
  for (std::size_t i = 0; i < engines.size(); ++i) in += fmt::format("{}?{}", i ? ", " : "", i + 3);
  const std::string pick = fmt::format(
      "SELECT i.key FROM items i JOIN jobs j ON j.id = i.job "
      "WHERE i.state = 'pending' AND j.state IN ('queued', 'running') AND j.planned = 1 AND j.engine IN ({}) "
      "AND (?2 < 0 OR j.id = ?2) "
      "AND NOT EXISTS (SELECT 1 FROM items o WHERE o.key = i.key AND o.state = 'pending' AND o.lease_owner IS NOT NULL "
      "AND o.lease_expiry_ms >= ?1) "
      "ORDER BY i.job, i.idx LIMIT 1",
      in);
  Claim claim;
  {
    Query q = c.query(pick, what);
    q.bind(now, only_job.value_or(-1));
    for (std::size_t i = 0; i < engines.size(); ++i) q.bind_at(static_cast<int>(i + 3), engines[i]);
    if (!q.next()) return std::nullopt;
    claim.key = q.text(0);
  }
  // Every pending item of an active job with that position, wherever it is: one search answers
  // them all.
  c.query("UPDATE items SET lease_owner = ?2, lease_expiry_ms = ?3 WHERE key = ?1 AND state = 'pending' "
          "AND job IN (SELECT id FROM jobs WHERE state IN ('queued', 'running'))",
          what)
      .bind(claim.key, owner, now + lease_ms)
      .run();
  {
    Query q = c.query(
        "SELECT i.job, i.idx, i.request, j.engine FROM items i JOIN jobs j ON j.id = i.job "
        "WHERE i.key = ?1 AND i.state = 'pending' AND i.lease_owner = ?2 ORDER BY i.job, i.idx",
        what);
    q.bind(claim.key, owner);
    while (q.next()) {
      claim.items.emplace_back(q.integer(0), q.integer(1));
      if (claim.request.empty()) claim.request = q.text(2);
      if (claim.engine.empty()) claim.engine = q.text(3);
    }
  }
  // The jobs' first claim starts their clock (status rates); the last claimer is who runs them.
  std::int64_t last_job = -1;
  for (const auto& item : claim.items) {
    if (item.first == last_job) continue;  // items come by job
    last_job = item.first;
    c.query("UPDATE jobs SET started_ms = coalesce(started_ms, ?2), runner = ?3 WHERE id = ?1", what)
        .bind(last_job, now, owner)
        .run();
  }
  transaction.commit();
  return claim;
}

std::int64_t Store::renew_leases(const std::string& owner, std::int64_t lease_ms) {
  const std::string what = fmt::format("renewing the leases of {}", owner);
  Connection& c = impl_->connection;
  Transaction transaction(c, what);
  const std::int64_t expiry = now_ms() + lease_ms;
  c.query("UPDATE items SET lease_expiry_ms = ?2 WHERE lease_owner = ?1 AND state = 'pending'", what)
      .bind(owner, expiry)
      .run();
  const std::int64_t n = c.changes();
  c.query("UPDATE jobs SET lease_expiry_ms = ?2 WHERE lease_owner = ?1", what).bind(owner, expiry).run();
  transaction.commit();
  return n;
}

std::int64_t Store::release_leases(const std::string& owner, const std::string* key) {
  const std::string what = fmt::format("releasing the leases of {}", owner);
  Connection& c = impl_->connection;
  Transaction transaction(c, what);
  if (key) {
    c.query("UPDATE items SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = ?1 AND key = ?2", what)
        .bind(owner, *key)
        .run();
  } else {
    c.query("UPDATE items SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = ?1", what)
        .bind(owner)
        .run();
  }
  const std::int64_t n = c.changes();
  if (!key)
    c.query("UPDATE jobs SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = ?1", what).bind(owner).run();
  transaction.commit();
  return n;
}

std::vector<std::string> Store::lease_owners() {
  Query q = impl_->connection.query(
      "SELECT lease_owner FROM items WHERE lease_owner IS NOT NULL UNION "
      "SELECT lease_owner FROM jobs WHERE lease_owner IS NOT NULL",
      "reading the lease owners");
  std::vector<std::string> out;
  while (q.next()) out.push_back(q.text(0));
  return out;
}

std::optional<JobRow> Store::claim_delivery(const std::string& owner, std::int64_t lease_ms) {
  const std::string what = fmt::format("claiming a job to deliver for {}", owner);
  Connection& c = impl_->connection;
  Transaction transaction(c, what);
  const std::int64_t now = now_ms();
  static const std::string kSelect = fmt::format(
      "SELECT {} FROM jobs WHERE delivered = 0 AND (lease_owner IS NULL OR lease_expiry_ms < ?1) AND "
      "((state IN ('queued', 'running') AND planned = 1 AND done + failed >= total) OR state IN ('cancelled', "
      "'failed')) ORDER BY id LIMIT 1",
      kJobColumns);
  std::optional<JobRow> job;
  {
    Query q = c.query(kSelect, what);
    if (!q.bind(now).next()) return std::nullopt;
    job = read_job(q, c, what);
  }
  c.query("UPDATE jobs SET lease_owner = ?2, lease_expiry_ms = ?3 WHERE id = ?1", what)
      .bind(job->id, owner, now + lease_ms)
      .run();
  transaction.commit();
  return job;
}

void Store::mark_delivered(std::int64_t job, JobState state, const std::string& message) {
  impl_->update_job(job, fmt::format("recording the delivery of job {}", job),
                    "UPDATE jobs SET state = ?2, message = ?3, delivered = 1, lease_owner = NULL, "
                    "lease_expiry_ms = NULL, updated_ms = ?4 WHERE id = ?1",
                    to_string(state), message, now_ms());
}

void Store::reopen_job(std::int64_t job) {
  impl_->update_job(job, fmt::format("reopening job {}", job),
                    "UPDATE jobs SET state = ?2, message = '', delivered = 0, updated_ms = ?3 WHERE id = ?1",
                    to_string(JobState::Running), now_ms());
}

bool Store::cancel_job(std::int64_t job, const std::string& message) {
  const std::string what = fmt::format("cancelling job {}", job);
  Connection& c = impl_->connection;
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

std::vector<Lease> Store::job_leases(std::int64_t job) {
  Query q = impl_->connection.query(
      "SELECT lease_owner, max(lease_expiry_ms) FROM items WHERE job = ?1 AND state = 'pending' AND lease_owner IS NOT "
      "NULL GROUP BY lease_owner ORDER BY lease_owner",
      "reading the leases of a job");
  q.bind(job);
  std::vector<Lease> out;
  while (q.next()) out.push_back(Lease{q.text(0), q.integer(1)});
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> Store::abandoned_leases(const std::string& owner) {
  Query q = impl_->connection.query(
      "SELECT DISTINCT i.key, i.job FROM items i WHERE i.lease_owner = ?1 AND i.state = 'pending' AND NOT EXISTS "
      "(SELECT 1 FROM items o JOIN jobs j ON j.id = o.job WHERE o.key = i.key AND o.lease_owner = ?1 AND "
      "o.state = 'pending' AND j.state IN ('queued', 'running')) ORDER BY i.key, i.job",
      "looking for searches nobody waits for");
  q.bind(owner);
  std::vector<std::pair<std::string, std::int64_t>> out;
  while (q.next()) out.emplace_back(q.text(0), q.integer(1));
  return out;
}

PurgeResult Store::purge(const PurgeRequest& r) {
  constexpr std::string_view kWhat = "purging the store";
  Connection& c = impl_->connection;
  Transaction transaction(c, kWhat);
  const std::int64_t now = now_ms();
  PurgeResult out;
  if (r.ended_before_ms) {
    static const std::string kSelect = fmt::format(
        "SELECT {}, (SELECT count(*) FROM items i WHERE i.job = j.id), coalesce(length(j.source), 0) FROM jobs j "
        "WHERE j.state IN ('finished', 'failed', 'cancelled') AND j.updated_ms < ?1 "
        "AND NOT (j.lease_owner IS NOT NULL AND j.lease_expiry_ms >= ?2) "
        "AND NOT EXISTS (SELECT 1 FROM items i WHERE i.job = j.id AND i.lease_owner IS NOT NULL "
        "AND i.lease_expiry_ms >= ?2) ORDER BY j.id",
        kJobColumns);
    Query q = c.query(kSelect, kWhat);
    q.bind(*r.ended_before_ms, now);
    while (q.next()) {
      out.jobs.push_back(read_job(q, c, kWhat));
      out.items += q.integer(20);
      out.input_bytes += q.integer(21);
    }
  }
  if (!r.dry_run)
    for (const JobRow& job : out.jobs) {
      c.query("DELETE FROM items WHERE job = ?1", kWhat).bind(job.id).run();
      c.query("DELETE FROM jobs WHERE id = ?1", kWhat).bind(job.id).run();
    }
  if (r.cache_unused_since_ms) {
    // Kept: the positions that an active job waits for or a worker holds (it may be about to
    // answer from the entry). The purged jobs are neither, so a dry run counts the same.
    static const std::string kUnused =
        "FROM cache WHERE used_ms < ?1 AND NOT EXISTS (SELECT 1 FROM items i JOIN jobs j ON j.id = i.job "
        "WHERE i.key = cache.key AND i.state = 'pending' AND (j.state IN ('queued', 'running') OR "
        "(i.lease_owner IS NOT NULL AND i.lease_expiry_ms >= ?2)))";
    Query q = c.query((r.dry_run ? "SELECT count(*) " : "DELETE ") + kUnused, kWhat);
    q.bind(*r.cache_unused_since_ms, now);
    if (r.dry_run) {
      if (q.next()) out.cache_entries = q.integer(0);
    } else {
      q.run();
      out.cache_entries = c.changes();
    }
  }
  if (!r.dry_run) transaction.commit();
  return out;
}

void Store::vacuum() {
  impl_->connection.exec("VACUUM", "compacting the store (VACUUM)");
  impl_->connection.exec("PRAGMA wal_checkpoint(TRUNCATE)", "truncating the write-ahead log");
}

CacheStats Store::cache_stats() {
  Query q = impl_->connection.query(
      "SELECT count(*), coalesce(sum(searches), 0), coalesce(max(searches), 0), coalesce(sum(hits), 0) FROM cache",
      "reading the cache statistics");
  q.next();
  auto u = [&](int column) { return static_cast<std::uint64_t>(q.integer(column)); };
  return CacheStats{u(0), u(1), u(2), u(3)};
}

std::uint64_t Store::searches(const std::string& key) {
  Query q = impl_->connection.query("SELECT searches FROM cache WHERE key = ?1", "reading a cache entry's searches");
  return q.bind(key).next() ? static_cast<std::uint64_t>(q.integer(0)) : 0;
}

}  // namespace epdd::store
