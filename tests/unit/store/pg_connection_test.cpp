// The PostgreSQL backend's groundwork (store/src/pg_connection.hpp, private to the store, so
// included by its path here): connecting with messages that never show a password, the schema
// created once at version 5 and refused when newer or foreign, the database's clock. The tests
// tagged [postgresql] need a cluster (pg_virtualenv, tests/support/pg_support.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
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

// A CI run's two daemons on one store: a lease renewal chosen as a deadlock's victim stopped its
// daemon, because libpqxx 6.4 throws deadlock_detected (like serialization_failure and
// statement_completion_unknown) as a transaction_rollback, which is not an sql_error with a
// SQLSTATE. All of them are rolled back and may be run again.
TEST_CASE("postgresql store: a rolled-back transaction (deadlock, serialization) is one to run again", "[store]") {
  CHECK(pg::Connection::lost_connection(pqxx::deadlock_detected("ERROR:  deadlock detected")));
  CHECK(pg::Connection::lost_connection(pqxx::serialization_failure("ERROR:  could not serialize access")));
  CHECK(pg::Connection::lost_connection(pqxx::statement_completion_unknown("the statement's outcome is unknown")));
  CHECK(pg::Connection::lost_connection(pqxx::transaction_rollback("ERROR:  rolled back")));
  CHECK(pg::Connection::lost_connection(pqxx::sql_error("ERROR:  lock timeout", "UPDATE", "55P03")));
  CHECK_FALSE(pg::Connection::lost_connection(pqxx::sql_error("ERROR:  syntax error", "SELEC", "42601")));
  CHECK_FALSE(pg::Connection::lost_connection(pqxx::unique_violation("ERROR:  duplicate key", "INSERT", "23505")));
}

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
  const auto login = epdd::test::ClusterLogin::from_environment();
  const std::string& password = login.password;
  const std::string& user = login.user;
  REQUIRE(password.size() >= 6);  // long enough not to turn up by chance
  // The host as a parameter: pg_virtualenv may name a socket folder.
  const std::string base = fmt::format("postgresql://{}@/{}?host={}&port={}", user, database.name(),
                                       login.host, login.port);
  const std::string url = fmt::format("postgresql://{}:{}@/{}?host={}&port={}", user, password, database.name(),
                                      login.host, login.port);
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
  unsetenv("PGPASSWORD");
  auto reopened = epdd::store::Store::open(store.location());
  setenv("PGPASSWORD", password.c_str(), 1);
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

namespace {

// Ends every other session on the test's database, as a server restart or a network cut does.
void cut_connections(const epdd::test::FreshPostgresDatabase& database) {
  pqxx::connection admin;
  pqxx::nontransaction n(admin);
  n.exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = " + n.quote(database.name()) +
         " AND pid <> pg_backend_pid()");
}

// Collects the store's notices while it lives; puts back the handler before it.
struct Notices {
  std::vector<std::string> seen;
  std::mutex mutex;
  Notices() {
    epdd::store::set_notice_handler([this](const std::string& text) {
      std::lock_guard lock(mutex);
      seen.push_back(text);
    });
  }
  ~Notices() { epdd::store::set_notice_handler(nullptr); }
  bool any(const std::string& part) {
    std::lock_guard lock(mutex);
    return std::any_of(seen.begin(), seen.end(), [&](const std::string& s) { return s.find(part) != std::string::npos; });
  }
};

}  // namespace

TEST_CASE("postgresql store: a lost connection is reopened and the operation runs again, a commit counted once",
          "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase database;
  Notices notices;
  auto opened = epdd::store::Store::open(database.url());
  REQUIRE(opened.has_value());
  auto& store = **opened;
  const auto job = store.find_or_create_job("suite", "x.epd", "x", "{}").id;
  store.add_items(job, {{0, "k0"}, {1, "k1"}});
  cut_connections(database);
  // Read, claim, commit: each on a connection the server has ended, each done once.
  CHECK(store.job(job).total == 2);
  CHECK(notices.any("the database does not answer"));
  CHECK(notices.any("reconnected after"));
  cut_connections(database);
  const auto claim = store.claim("h/1/1", {""}, 60000);
  REQUIRE(claim.has_value());
  cut_connections(database);
  store.commit_analysis(job, claim->items.front().second, claim->key, "", "{\"a\":1}");
  CHECK(store.job(job).done == 1);
  CHECK(store.job(job).searches == 1);
  CHECK(store.searches(claim->key) == 1);
  // A message names the location without its password, as every other does.
  for (const auto& text : notices.seen) CHECK(text.rfind(database.url(), 0) == 0);
}

TEST_CASE("postgresql store: a database that stays away is given up after the patience, saying how long",
          "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase database;
  Notices notices;
  setenv("EPDD_STORE_PATIENCE_SECONDS", "1", 1);
  auto opened = epdd::store::Store::open(database.url());
  unsetenv("EPDD_STORE_PATIENCE_SECONDS");
  REQUIRE(opened.has_value());
  auto& store = **opened;
  {
    pqxx::connection admin;
    pqxx::nontransaction n(admin);
    n.exec("ALTER DATABASE " + database.name() + " ALLOW_CONNECTIONS false");
  }
  cut_connections(database);
  const auto started = std::chrono::steady_clock::now();
  std::string message;
  try {
    store.jobs();
  } catch (const epdd::store::StoreUnavailable& e) {
    message = e.what();
  }
  const auto waited = std::chrono::steady_clock::now() - started;
  CHECK_THAT(message, Catch::StartsWith(database.url() + ": the database did not answer for 1 s; giving up: "));
  CHECK(waited >= std::chrono::milliseconds(300));
  CHECK(waited < std::chrono::seconds(3));
  pqxx::connection admin;
  pqxx::nontransaction n(admin);
  n.exec("ALTER DATABASE " + database.name() + " ALLOW_CONNECTIONS true");
}

TEST_CASE("postgresql store: a service file and a password file are libpq's, passed through", "[store][postgresql]") {
  epdd::test::FreshPostgresDatabase database;
  const auto login = epdd::test::ClusterLogin::from_environment();
  const auto dir = std::filesystem::temp_directory_path() / ("epdd_pgservice_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto services = dir / "pg_service.conf";
  const auto passwords = dir / "pgpass";
  std::ofstream(services) << "[epdd_test]\nhost=" << login.host << "\nport=" << login.port
                          << "\ndbname=" << database.name() << "\nuser=" << login.user << "\n";
  std::ofstream(passwords) << "*:*:*:" << login.user << ":" << login.password << "\n";
  std::filesystem::permissions(passwords, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  // Nothing but the two files: no password, host or database in the URL or the environment.
  unsetenv("PGPASSWORD");
  setenv("PGSERVICEFILE", services.c_str(), 1);
  setenv("PGPASSFILE", passwords.c_str(), 1);
  auto opened = epdd::store::Store::open("postgresql://?service=epdd_test");
  unsetenv("PGSERVICEFILE");
  unsetenv("PGPASSFILE");
  setenv("PGPASSWORD", login.password.c_str(), 1);
  std::filesystem::remove_all(dir);
  INFO((opened ? std::string() : opened.error()));
  REQUIRE(opened.has_value());
  const auto job = (*opened)->find_or_create_job("suite", "wac.epd", "by service", "{}");
  CHECK(database.integer("SELECT count(*) FROM jobs WHERE identity = 'by service'") == 1);
  CHECK(job.id > 0);
}

TEST_CASE("postgresql store: two owners committing one item at the same moment count it once", "[store][postgresql]") {
  // An item's lease expired under its first owner (the database away longer than the lease),
  // a second owner claimed and searched it too, and both commit at once: the item is done once
  // in the job's counters, or the job looks complete while items are pending.
  epdd::test::FreshPostgresDatabase database;
  auto a = epdd::store::Store::open(database.url());
  auto b = epdd::store::Store::open(database.url());
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  constexpr int kItems = 150;
  const auto job = (*a)->find_or_create_job("suite", "x", "x", "{}").id;
  std::vector<epdd::store::NewItem> items;
  for (int i = 0; i < kItems; ++i) items.push_back({i, "k" + std::to_string(i), "{}"});
  (*a)->add_items(job, items, "E");
  std::atomic<int> turn_a{0}, turn_b{0};
  const auto run = [&](epdd::store::Store& store, std::atomic<int>& mine, std::atomic<int>& other) {
    for (int i = 0; i < kItems; ++i) {
      mine = i;
      while (other.load() < i) std::this_thread::yield();  // both at item i, then both commit
      store.commit_analysis(job, i, "k" + std::to_string(i), "E", "{\"a\":" + std::to_string(i) + "}");
    }
    mine = kItems;
  };
  std::thread one([&] { run(**a, turn_a, turn_b); });
  std::thread two([&] { run(**b, turn_b, turn_a); });
  one.join();
  two.join();
  const auto row = (*a)->job(job);
  CHECK(row.done == kItems);
  CHECK(row.total == kItems);
  CHECK(row.searches == 2 * kItems);  // each search is counted: the work was done twice
}
