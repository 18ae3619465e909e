// Shared by the store's PostgreSQL tests: a fresh database per test in the cluster the
// environment names (pg_virtualenv sets PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE).
// Without that environment the test FAILS saying so: the PostgreSQL half never passes by
// running nothing.
#pragma once

#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <string>

#include <pqxx/pqxx>

namespace epdd::test {

// How the cluster of the environment is reached (pg_virtualenv's PGUSER, PGPASSWORD, PGHOST,
// PGPORT), for tests that spell a URL, a service file or a password file out.
struct ClusterLogin {
  std::string user, password, host, port;
  static ClusterLogin from_environment() {
    const auto get = [](const char* name, const char* otherwise) {
      const char* v = std::getenv(name);
      return std::string(v ? v : otherwise);
    };
    ClusterLogin login{get("PGUSER", ""), get("PGPASSWORD", ""), get("PGHOST", "localhost"), get("PGPORT", "5432")};
    if (login.user.empty() || login.password.empty())
      FAIL("PGUSER and PGPASSWORD are not set: run under pg_virtualenv, as the ctest does");
    return login;
  }
};

// A database made for one test (in a throwaway cluster); `url` opens it (libpq takes the host,
// port, user and password from the environment).
class FreshPostgresDatabase {
 public:
  FreshPostgresDatabase() {
    if (std::getenv("PGHOST") == nullptr || std::getenv("PGDATABASE") == nullptr)
      FAIL("no PostgreSQL cluster: PGHOST and PGDATABASE are not set. Run the PostgreSQL tests under "
           "`pg_virtualenv -v 15` (Debian package postgresql-common), as the ctest `store_tests: postgresql` does");
    static std::atomic<int> made{0};
    name_ = "epdd_test_" + std::to_string(::getpid()) + "_" + std::to_string(made++);
    pqxx::connection admin;
    pqxx::nontransaction n(admin);
    n.exec("DROP DATABASE IF EXISTS " + name_);
    n.exec("CREATE DATABASE " + name_);
    url_ = "postgresql:///" + name_;
  }
  // Not dropped: the cluster is a throwaway one (pg_virtualenv removes it with every database),
  // and DROP DATABASE forces a checkpoint each time, which doubled the run (14 s, 7 s without).
  ~FreshPostgresDatabase() = default;
  FreshPostgresDatabase(const FreshPostgresDatabase&) = delete;
  FreshPostgresDatabase& operator=(const FreshPostgresDatabase&) = delete;

  const std::string& url() const { return url_; }
  const std::string& name() const { return name_; }

  // Runs SQL on the database itself: fixtures and checks the Store API cannot make.
  void sql(const std::string& statements) const {
    pqxx::connection c(url_);
    pqxx::work w(c);
    w.exec(statements);
    w.commit();
  }
  std::int64_t integer(const std::string& query) const {
    pqxx::connection c(url_);
    pqxx::nontransaction n(c);
    return n.exec1(query)[0].as<std::int64_t>();
  }

 private:
  std::string name_;
  std::string url_;
};

}  // namespace epdd::test
