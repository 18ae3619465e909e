// Shared by the store's tests: a store opened or the test stopped with SQLite's reason; SQL run
// on a store's file by SQLite itself.
#pragma once

#include <sqlite3.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>

#include "store/store.hpp"

namespace epdd::test {

inline std::unique_ptr<store::Store> open_store(const std::string& path) {
  auto store = store::Store::open(path);
  INFO((store ? std::string() : store.error()));
  REQUIRE(store.has_value());
  return std::move(*store);
}

// Runs SQL on the file with SQLite itself: fixtures the Store API cannot make (an old schema,
// times in the past).
inline void sql(const std::string& path, const std::string& statements) {
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
