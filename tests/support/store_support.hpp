// Shared by the store's tests: a store opened or the test stopped with its reason; fresh store
// locations of the backend under test (StoreUnderTest); SQL run on a store by the database
// itself (SQLite on a file, libpqxx on a postgresql:// location).
#pragma once

#include <sqlite3.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pg_support.hpp"
#include "store/location.hpp"
#include "store/store.hpp"
#include "test_support.hpp"

namespace epdd::test {

inline std::unique_ptr<store::Store> open_store(const std::string& path) {
  auto store = store::Store::open(path);
  INFO((store ? std::string() : store.error()));
  REQUIRE(store.has_value());
  return std::move(*store);
}

// Fresh store locations of the backend under test, for the tests tagged [backend], which are one
// test body for both backends: SQLite files in a temporary folder, or (EPDD_STORE_BACKEND=
// postgresql, as the ctest `store_tests: postgresql` runs them under pg_virtualenv) one fresh
// PostgreSQL database per location, in the throwaway cluster.
class StoreUnderTest {
 public:
  static bool postgresql() {
    const char* backend = std::getenv("EPDD_STORE_BACKEND");
    return backend != nullptr && std::string(backend) == "postgresql";
  }
  // A new, empty store's location; `name` tells two of one test apart.
  std::string location(const std::string& name) {
    if (!postgresql()) return (dir_.path() / (name + ".db")).string();
    databases_.push_back(std::make_unique<FreshPostgresDatabase>());
    return databases_.back()->url();
  }

 private:
  TempDir dir_;
  std::vector<std::unique_ptr<FreshPostgresDatabase>> databases_;
};

// Runs SQL on the file with SQLite itself: fixtures the Store API cannot make (an old schema,
// times in the past).
inline void sql(const std::string& path, const std::string& statements) {
  if (store::is_postgresql_location(path)) {
    pqxx::connection c(path);
    pqxx::work w(c);
    w.exec(statements);
    w.commit();
    return;
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_busy_timeout(db, 10000);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, statements.c_str(), nullptr, nullptr, &error);
  const std::string message = error ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  INFO(statements);
  INFO(message);
  REQUIRE(rc == SQLITE_OK);
}

// The integer in the first column of the first row of `query` on the file, read by SQLite
// itself: what the Store API does not show (the schema version, leases).
inline std::int64_t sql_integer(const std::string& path, const std::string& query) {
  if (store::is_postgresql_location(path)) {
    pqxx::connection c(path);
    pqxx::nontransaction n(c);
    return n.exec1(query)[0].as<std::int64_t>();
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, query.c_str(), -1, &statement, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
  const std::int64_t value = sqlite3_column_int64(statement, 0);
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return value;
}

}  // namespace epdd::test
