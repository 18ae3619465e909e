// The SQLite plumbing of SqliteStore: a connection with its prepared statements, one use of a
// statement (Query), and a write transaction. Private to store/src: callers see only Store.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "store/store.hpp"

namespace epdd::store::sqlite {

// Milliseconds since the Unix epoch by this machine's clock: the database's clock, for a file
// that one machine uses.
std::int64_t now_ms();

class Connection;

// Bytes bound as a BLOB (an input file need not be UTF-8).
struct Blob {
  std::string_view bytes;
};

// That many zero bytes bound as a BLOB: room written afterwards with incremental blob I/O, so
// that a large input is never held whole (not even by SQLite, which copies a bound value).
struct ZeroBlob {
  std::size_t size = 0;
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
  // Nothing binds NULL.
  void bind_one(int index, const std::optional<std::int64_t>& value) {
    if (value) bind_one(index, *value);
    else check(sqlite3_bind_null(statement_, index));
  }
  void bind_one(int index, const std::optional<std::string>& value) {
    if (value) bind_one(index, *value);
    else check(sqlite3_bind_null(statement_, index));
  }
  void bind_one(int index, Blob value) {
    check(sqlite3_bind_blob64(statement_, index, value.bytes.data(), value.bytes.size(), SQLITE_TRANSIENT));
  }
  void bind_one(int index, ZeroBlob value) {
    check(sqlite3_bind_zeroblob64(statement_, index, static_cast<sqlite3_uint64>(value.size)));
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
  // SQLITE_FULL is a StoreFull that says so in words a user acts on.
  [[noreturn]] void fail(std::string_view what) const {
    if (db_ && sqlite3_errcode(db_) == SQLITE_FULL)
      throw StoreFull(fmt::format("{}: {}: the disk is full ({}): nothing of this step was written; free space, "
                                  "then run again to resume",
                                  path_, what, sqlite3_errmsg(db_)));
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

}  // namespace epdd::store::sqlite
