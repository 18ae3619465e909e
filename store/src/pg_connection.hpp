// The PostgreSQL plumbing of the PostgreSQL backend (libpqxx): one connection to the database a
// postgresql:// location names, its messages (which name the location without its password,
// location.hpp), the database's clock, and the schema. Private to store/src: callers see only
// Store.
#pragma once

#include <pqxx/pqxx>

#include <cctype>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "store/store.hpp"

namespace epdd::store::pg {

// The schema version this code writes and reads: the one constant of both backends.
inline constexpr std::int64_t kSchemaVersion = store::kSchemaVersion;

// Milliseconds since the Unix epoch by the database's clock (the contract's time: every
// process using the database agrees on it whatever its own machine's clock says).
inline constexpr const char* kNowMs = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

// One connection to a PostgreSQL store. Not shared between threads (one Store object per
// thread, store.hpp).
class Connection {
 public:
  // Connects to `location` (libpq's URL: service files, PGPASSWORD, ~/.pgpass and sslmode are
  // libpq's). A StoreError naming the location without its password if it cannot.
  explicit Connection(const std::string& location);

  // The location without its password: what path() returns and every message names.
  const std::string& shown() const { return shown_; }
  // The URL libpq opened, password included: only for opening the same store again.
  const std::string& location() const { return location_; }
  pqxx::connection& db() { return *db_; }
  // A Transaction of this connection is open (libpqxx allows one at a time).
  bool busy() const { return busy_; }
  // Whether statements may be prepared on it (not behind a pooler that loses them).
  bool prepares() const { return prepares_; }
  void stop_preparing() { prepares_ = false; }

  // "<location>: <what>: <reason>": a StoreError, or a StoreUnavailable when the database did
  // not answer (`unavailable`).
  [[noreturn]] void fail(std::string_view what, std::string_view reason, bool unavailable = false) const {
    while (!reason.empty() && std::isspace(static_cast<unsigned char>(reason.back()))) reason.remove_suffix(1);
    const std::string message = fmt::format("{}: {}: {}", shown_, what, reason);  // libpq's end in a newline
    if (unavailable) throw StoreUnavailable(message);
    throw StoreError(message);
  }
  // The same for a libpqxx failure: StoreUnavailable when it says the database did not answer
  // (lost_connection).
  [[noreturn]] void fail(std::string_view what, const pqxx::failure& e) const { fail(what, e.what(), lost_connection(e)); }

  // Whether a libpqxx failure is one that running the operation again may get past, rather than
  // a refusal of the statement: the connection broken or refused, a COMMIT whose answer was
  // lost, SQLSTATE class 08 (connection exception), 57P01-57P03 (the server shutting down,
  // crashed, starting up), a deadlock's victim, a serialization failure, a lock timeout, a
  // standby's read-only refusal (a fail-over).
  static bool lost_connection(const pqxx::failure& e);

  // Milliseconds since the Unix epoch by the database's clock.
  std::int64_t now_ms();

  // Creates the schema in a database that has none, under an advisory lock (two processes
  // opening a new store at once create it once), and returns the version found before. Refuses
  // a database whose schema is newer than this code's and one that holds tables but no epdd
  // schema (not an epdd store).
  std::int64_t create_schema();

 private:
  std::string location_;
  std::string shown_;
  std::unique_ptr<pqxx::connection> db_;
  bool busy_ = false;
  bool prepares_ = true;
  friend class Transaction;
};

// One transaction of one Store operation (pqxx::work, READ COMMITTED): every statement's
// failure, and the commit's, is a StoreError "<location>: <what>: <PostgreSQL's reason>".
// Rolled back unless committed.
class Transaction {
 public:
  Transaction(Connection& connection, std::string what);
  ~Transaction() { connection_.busy_ = false; }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  // Runs `sql` with its parameters $1, $2... (std::optional: NULL; pqxx::binarystring: BYTEA).
  template <class... Args>
  pqxx::result run(const std::string& sql, const Args&... args) {
    try {
      return work_->exec_params(sql, args...);
    } catch (const pqxx::failure& e) {
      connection_.fail(what_, e);
    }
  }
  // The database's now, in ms since the epoch.
  std::int64_t now_ms() { return run(std::string("SELECT ") + kNowMs)[0][0].as<std::int64_t>(); }
  // A text quoted as an SQL literal.
  std::string quote(const std::string& text) { return work_->quote(text); }
  void commit();
  [[noreturn]] void fail(std::string_view reason) const { connection_.fail(what_, reason); }
  const std::string& what() const { return what_; }
  // What the next statements do, for their messages (one item of a batch).
  void set_what(std::string what) { what_ = std::move(what); }

 private:
  Connection& connection_;
  std::string what_;
  std::unique_ptr<pqxx::work> work_;
};

}  // namespace epdd::store::pg
