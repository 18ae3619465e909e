// The PostgreSQL backend's groundwork (store/src/pg_connection.hpp, private to the store, so
// included by its path here): connecting with messages that never show a password, the schema
// created once at version 5 and refused when newer or foreign, the database's clock. The tests
// tagged [postgresql] need a cluster (pg_virtualenv, tests/support/pg_support.hpp).
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "../../../store/src/pg_connection.hpp"
#include "pg_support.hpp"
#include "store/store.hpp"

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

TEST_CASE("postgresql store: the schema is created once at version 5", "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase database;
  {
    pg::Connection c(database.url());
    CHECK(c.shown() == database.url());
    CHECK(c.create_schema() == 0);
  }
  CHECK(database.integer("SELECT version FROM epdd_schema") == 5);
  CHECK(database.integer("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 6);
  CHECK(database.integer("SELECT count(*) FROM information_schema.columns WHERE table_name = 'jobs'") == 23);
  CHECK(database.integer("SELECT count(*) FROM information_schema.columns WHERE table_name = 'items'") == 11);
  database.sql("INSERT INTO cache (key, engine, analysis, created_ms) VALUES ('k', 'e', '{}', 1)");
  pg::Connection again(database.url());
  CHECK(again.create_schema() == 5);
  CHECK(database.integer("SELECT count(*) FROM cache") == 1);
  CHECK(database.integer("SELECT count(*) FROM epdd_schema") == 1);
}

TEST_CASE("postgresql store: a newer schema and a foreign database are refused, named", "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase newer;
  pg::Connection(newer.url()).create_schema();
  newer.sql("UPDATE epdd_schema SET version = 6");
  CHECK(store_error([&] { pg::Connection(newer.url()).create_schema(); }) ==
        newer.url() + ": creating the schema: the store has schema version 6, newer than this epdd's 5: use a newer epdd");

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

TEST_CASE("postgresql store: a URL with a password opens the store, and path() and messages do not show it",
          "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase database;
  const char* password = std::getenv("PGPASSWORD");
  const char* user = std::getenv("PGUSER");
  const char* host = std::getenv("PGHOST");
  const char* port = std::getenv("PGPORT");
  REQUIRE(password != nullptr);
  REQUIRE(user != nullptr);
  REQUIRE(std::string(password).size() >= 6);  // long enough not to turn up by chance
  // The host as a parameter: pg_virtualenv may name a socket folder.
  const std::string base = fmt::format("postgresql://{}@/{}?host={}&port={}", user, database.name(),
                                       host ? host : "localhost", port ? port : "5432");
  const std::string url = fmt::format("postgresql://{}:{}@/{}?host={}&port={}", user, password, database.name(),
                                      host ? host : "localhost", port ? port : "5432");
  auto opened = epdd::store::Store::open(url);
  INFO((opened ? std::string() : opened.error()));
  REQUIRE(opened.has_value());
  auto& store = **opened;
  CHECK(store.path() == base);
  const std::string message = store_error([&] { store.job(42); });
  CHECK(message == base + ": reading job 42: there is no such job");
  CHECK(message.find(password) == std::string::npos);
  // Reopening what path() shows reaches the same store (libpq takes the password from
  // PGPASSWORD), as a worker thread of the daemon does.
  const auto job = store.find_or_create_job("suite", "wac.epd", "id", "{}");
  auto again = epdd::store::Store::open(store.path());
  REQUIRE(again.has_value());
  CHECK((*again)->job(job.id).identity == "id");
  // location() is the URL as opened, password included: a worker thread reopens the store
  // with it even where nothing else supplies the password.
  CHECK(store.location() == url);
  const std::string saved = password;
  unsetenv("PGPASSWORD");
  auto reopened = epdd::store::Store::open(store.location());
  setenv("PGPASSWORD", saved.c_str(), 1);
  REQUIRE(reopened.has_value());
  CHECK((*reopened)->job(job.id).identity == "id");
}

TEST_CASE("postgresql store: owners claiming at once from their own connections never share a position",
          "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase database;
  constexpr int kPositions = 60;
  {
    auto store = epdd::store::Store::open(database.url());
    REQUIRE(store.has_value());
    const auto job = (*store)->find_or_create_job("suite", "x.epd", "x", "{}");
    std::vector<epdd::store::NewItem> items;
    for (int i = 0; i < kPositions; ++i) items.push_back({i, "k" + std::to_string(i), "{}"});
    (*store)->add_items(job.id, items, "E");
  }
  std::vector<std::vector<std::string>> claimed(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < claimed.size(); ++t)
    threads.emplace_back([&, t] {
      auto store = epdd::store::Store::open(database.url());
      if (!store) return;
      while (auto claim = (*store)->claim("owner" + std::to_string(t), {"E"}, 60000)) claimed[t].push_back(claim->key);
    });
  for (std::thread& thread : threads) thread.join();
  std::set<std::string> keys;
  std::size_t total = 0;
  for (const auto& mine : claimed) {
    total += mine.size();
    keys.insert(mine.begin(), mine.end());
  }
  CHECK(total == kPositions);
  CHECK(keys.size() == kPositions);
}
