// The PostgreSQL backend's groundwork (store/src/pg_connection.hpp, private to the store, so
// included by its path here): connecting with messages that never show a password, the schema
// created once at version 4 and refused when newer or foreign, the database's clock. The tests
// tagged [postgresql] need a cluster (pg_virtualenv, tests/support/pg_support.hpp).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <string>

#include "../../../store/src/pg_connection.hpp"
#include "pg_support.hpp"

using epdd::store::StoreError;
namespace pg = epdd::store::pg;

namespace {

// The message of the StoreError `f` throws; fails the test if it throws none.
template <class F>
std::string store_error(F f) {
  try {
    f();
  } catch (const StoreError& e) {
    return e.what();
  }
  FAIL("no StoreError");
  return "";
}

}  // namespace

TEST_CASE("postgresql store: a connection that fails names the location without its password", "[store]") {
  // Port 1 of this machine: nothing listens there.
  const std::string message =
      store_error([] { pg::Connection c("postgresql://epdd:s3cretpw@127.0.0.1:1/epdd?password=s3cretpw2"); });
  INFO(message);
  CHECK(message.find("s3cretpw") == std::string::npos);
  CHECK(message.rfind("postgresql://epdd@127.0.0.1:1/epdd: cannot connect to the store: ", 0) == 0);
}

TEST_CASE("postgresql store: the schema is created once at version 4", "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase database;
  {
    pg::Connection c(database.url());
    CHECK(c.shown() == database.url());
    CHECK(c.create_schema() == 0);
  }
  CHECK(database.integer("SELECT version FROM epdd_schema") == 4);
  CHECK(database.integer("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 5);
  CHECK(database.integer("SELECT count(*) FROM information_schema.columns WHERE table_name = 'jobs'") == 22);
  CHECK(database.integer("SELECT count(*) FROM information_schema.columns WHERE table_name = 'items'") == 11);
  database.sql("INSERT INTO cache (key, engine, analysis, created_ms) VALUES ('k', 'e', '{}', 1)");
  pg::Connection again(database.url());
  CHECK(again.create_schema() == 4);
  CHECK(database.integer("SELECT count(*) FROM cache") == 1);
  CHECK(database.integer("SELECT count(*) FROM epdd_schema") == 1);
}

TEST_CASE("postgresql store: a newer schema and a foreign database are refused, named", "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase newer;
  pg::Connection(newer.url()).create_schema();
  newer.sql("UPDATE epdd_schema SET version = 5");
  CHECK(store_error([&] { pg::Connection(newer.url()).create_schema(); }) ==
        newer.url() + ": creating the schema: the store has schema version 5, newer than this epdd's 4: use a newer epdd");

  epdd::test::FreshPostgresDatabase foreign;
  foreign.sql("CREATE TABLE accounts (id INTEGER); CREATE TABLE jobs (id INTEGER)");
  CHECK(store_error([&] { pg::Connection(foreign.url()).create_schema(); }) ==
        foreign.url() + ": creating the schema: a database that is not an epdd store (no epdd_schema table, 2 tables)");
  CHECK(foreign.integer("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 2);
}

TEST_CASE("postgresql store: times are the database's clock in ms since the epoch", "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase database;
  pg::Connection c(database.url());
  const std::int64_t before = database.integer("SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint");
  const std::int64_t now = c.now_ms();
  const std::int64_t after = database.integer("SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint");
  CHECK(before <= now);
  CHECK(now <= after);
  // The same machine here: the database's clock is this one's, to within a minute.
  const auto local = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
  CHECK(std::abs(local - now) < 60000);
}
