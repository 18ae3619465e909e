// Opening an SQLite store: the file, the connection's settings, the schema and its upgrades.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <tuple>

#include "sqlite_store.hpp"
#include "store/store.hpp"

namespace epdd::store {

using sqlite::Query;
using sqlite::Transaction;

namespace {

// How long a statement waits for another connection's write lock before the store fails. SQLite's
// busy handler is not fair (a waiting connection sleeps while others take the lock), and a worker
// whose commit fails stops the daemon: under load a CI run saw a commit wait out 10 s. A minute
// rides out contention; a lock held longer than that is a fault worth failing on.
constexpr int kBusyTimeoutMs = 60000;

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

// Version 4 (annotate): the items' group (one game's positions, claimed and committed together);
// NULL, an item alone, is what every item of an older file is. The index finds the rest of a
// claimed group without reading the job's other items. items_by_lease: the workers' heartbeat
// asks several times a second which items a lease owner holds (abandoned_leases, lease_owners);
// without it each question read the whole table, requests and results included (an annotation
// job's requests carry the game's moves), and a run from the cache went at 300 positions/s.
// job_sources: the input's bytes moved out of jobs. In jobs the blob sat before the columns
// added later (planned, delivered, leases, started_ms, runner): every read of a job walked the
// whole input's overflow pages, and every counter update rewrote them (a 4 MB PGN: 4 MB per
// poll and per commit).
constexpr const char* kMigrate3To4 = R"sql(
ALTER TABLE items ADD COLUMN grp INTEGER;
CREATE INDEX items_by_group ON items (job, grp, idx) WHERE grp IS NOT NULL;
CREATE INDEX items_by_lease ON items (lease_owner, key) WHERE lease_owner IS NOT NULL;
CREATE TABLE job_sources (job INTEGER PRIMARY KEY REFERENCES jobs(id), source BLOB NOT NULL);
INSERT INTO job_sources (job, source) SELECT id, source FROM jobs WHERE source IS NOT NULL;
ALTER TABLE jobs DROP COLUMN source;
PRAGMA user_version = 4;
)sql";

// Version 5 (a store shared by many hosts, issue 18): the input files a job's settings name, kept
// with it so that no process opens a path from a job (annotate's --book); the host whose
// processes alone deliver a job (its outputs are files there). A job of an older store names
// none: anyone delivers it, as before.
constexpr const char* kMigrate4To5 = R"sql(
CREATE TABLE job_files (job INTEGER NOT NULL REFERENCES jobs(id), name TEXT NOT NULL, bytes BLOB NOT NULL,
                        PRIMARY KEY (job, name));
ALTER TABLE jobs ADD COLUMN delivery_host TEXT NOT NULL DEFAULT '';
PRAGMA user_version = 5;
)sql";

// The message of a damaged store: the file, SQLite's finding, that epdd wrote nothing, and what to do.
std::string damaged(const std::string& path, const std::string& finding) {
  return fmt::format(
      "{0}: the store is damaged ({1}); epdd did not write to it. Restore it from a backup, or save what can be "
      "saved with: sqlite3 {0} .recover | sqlite3 recovered.db",
      path, finding);
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

}  // namespace

Expected<std::unique_ptr<Store>, std::string> SqliteStore::open(const std::string& path) {
  if (auto created = create_private_file(path); !created) return unexpected(created.error());
  std::unique_ptr<SqliteStore> store(new SqliteStore(path));
  try {
    store->connection_.open();
    // A store that has its schema is opened without taking the write lock: a reader (status,
    // a resumed run) need not wait for a writer, nor for the recovery of one that was killed.
    if (store->configure() != kSchemaVersion) store->create_schema();
  } catch (const StoreError& e) {
    return unexpected(std::string(e.what()));
  }
  return std::unique_ptr<Store>(std::move(store));
}

const std::string& SqliteStore::path() const { return connection_.path(); }
const std::string& SqliteStore::location() const { return connection_.path(); }

std::int64_t SqliteStore::configure() {
  sqlite3* db = connection_.db();
  const std::string& path = connection_.path();
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
  if ((rc & 0xff) == SQLITE_CORRUPT) throw StoreError(damaged(path, reason));
  if (rc != SQLITE_ROW) throw StoreError(fmt::format("{}: cannot read the store: {}", path, reason));
  if (version > kSchemaVersion)
    throw StoreError(fmt::format("{}: the store has schema version {}, newer than this epdd's {}: use a newer epdd",
                                 path, version, kSchemaVersion));
  if (version == 0 && objects > 0)
    throw StoreError(fmt::format("{}: an SQLite database that is not an epdd store (no schema version, {} objects)",
                                 path, objects));
  if (version > 0) check_pages();
  // WAL: readers beside one writer, from several processes. FULL: a commit is on disk (the WAL
  // synced) before it returns, so nothing committed is lost on power loss; NORMAL would be.
  {
    Query mode = connection_.query("PRAGMA journal_mode = WAL", "setting WAL journal mode");
    if (!mode.next() || mode.text(0) != "wal")
      throw StoreError(fmt::format("{}: cannot use WAL journal mode on this file system", path));
  }
  connection_.exec("PRAGMA synchronous = FULL", "setting synchronous = FULL");
  connection_.exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
  return version;
}

// The files whose pages this process has found whole, as they were then (device, inode, size,
// modification time): a daemon opens its store once per worker and for the spool at start, and
// reads a large store's pages once; a file written since is checked again.
namespace {
bool pages_checked(const std::string& path, bool mark) {
  static std::mutex mutex;
  static std::set<std::tuple<dev_t, ino_t, off_t, time_t, long>> checked;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  const auto key = std::make_tuple(st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
  const std::lock_guard lock(mutex);
  return mark ? (checked.insert(key), true) : checked.contains(key);
}
}  // namespace

// PRAGMA quick_check (every page's b-tree structure, about 1 s per GB from the page cache): a
// damaged page is found at open, before a write lands beside it, not by whichever later command
// happens to read it. Once per file and process.
void SqliteStore::check_pages() {
  if (pages_checked(connection_.path(), false)) return;
  sqlite3_stmt* check = nullptr;
  int rc = sqlite3_prepare_v2(connection_.db(), "PRAGMA quick_check(1)", -1, &check, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_step(check);
  std::string finding = sqlite3_errmsg(connection_.db());
  if (rc == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(check, 0));
    finding = text ? text : "";
    std::replace(finding.begin(), finding.end(), '\n', ' ');
    constexpr std::string_view kHeading = "*** in database main *** ";
    if (finding.starts_with(kHeading)) finding.erase(0, kHeading.size());
  }
  sqlite3_finalize(check);
  if (rc == SQLITE_ROW && finding == "ok") {
    pages_checked(connection_.path(), true);
    return;
  }
  if (rc == SQLITE_ROW || (rc & 0xff) == SQLITE_CORRUPT) throw StoreError(damaged(connection_.path(), finding));
  connection_.fail("checking the store's pages");
}

// Creates the schema in an empty file; checks the version again under the write lock, since
// another process may have created (or upgraded) it since configure() looked.
void SqliteStore::create_schema() {
  constexpr std::string_view kWhat = "creating the schema";
  Transaction transaction(connection_, kWhat);
  std::int64_t version = 0;
  {
    Query q = connection_.query("PRAGMA user_version", kWhat);
    if (q.next()) version = q.integer(0);
  }
  if (version == kSchemaVersion) return;
  if (version < 0 || version > kSchemaVersion)
    connection_.fail(kWhat, fmt::format("unexpected schema version {} (this epdd knows {})", version, kSchemaVersion));
  if (version == 0) connection_.exec(kSchema, kWhat);
  if (version <= 1) connection_.exec(kMigrate1To2, "upgrading the schema to version 2");
  if (version <= 2) connection_.exec(kMigrate2To3, "upgrading the schema to version 3");
  if (version <= 3) connection_.exec(kMigrate3To4, "upgrading the schema to version 4");
  connection_.exec(kMigrate4To5, "upgrading the schema to version 5");
  transaction.commit();
}

}  // namespace epdd::store
