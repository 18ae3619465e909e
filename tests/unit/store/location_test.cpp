// Store locations: which ones pick PostgreSQL, and a PostgreSQL URL shown without its password
// (path(), messages and logs show only this form).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "store/location.hpp"

using epdd::store::is_postgresql_location;
using epdd::store::location_without_password;

TEST_CASE("store location: postgresql:// and postgres:// pick PostgreSQL, anything else is an SQLite path",
          "[store][location]") {
  CHECK(is_postgresql_location("postgresql://localhost/epdd"));
  CHECK(is_postgresql_location("postgres://u@db.example.org:5433/epdd?sslmode=require"));
  CHECK(is_postgresql_location("postgresql://"));
  CHECK_FALSE(is_postgresql_location("store.db"));
  CHECK_FALSE(is_postgresql_location("/var/lib/epdd/postgresql://x"));
  CHECK_FALSE(is_postgresql_location("postgresql:/x"));
  CHECK_FALSE(is_postgresql_location("PostgreSQL-store.db"));
  CHECK_FALSE(is_postgresql_location(""));
}

TEST_CASE("store location: a PostgreSQL URL is shown without its password", "[store][location]") {
  CHECK(location_without_password("postgresql://epdd:s3cret@db.example.org:5432/epdd") ==
        "postgresql://epdd@db.example.org:5432/epdd");
  CHECK(location_without_password("postgres://epdd:s3cret@db/epdd?sslmode=require") ==
        "postgres://epdd@db/epdd?sslmode=require");
  // A password with characters percent-encoded, and an empty one.
  CHECK(location_without_password("postgresql://u:p%40ss%3Aw@h/d") == "postgresql://u@h/d");
  CHECK(location_without_password("postgresql://u:@h/d") == "postgresql://u@h/d");
  // In the query, first, last, alone, beside the user part's.
  CHECK(location_without_password("postgresql://h/d?password=s3cret&sslmode=require") ==
        "postgresql://h/d?sslmode=require");
  CHECK(location_without_password("postgresql://h/d?sslmode=require&password=s3cret") ==
        "postgresql://h/d?sslmode=require");
  CHECK(location_without_password("postgresql://h/d?password=s3cret") == "postgresql://h/d");
  CHECK(location_without_password("postgresql://u:one@h/d?password=two&application_name=epdd") ==
        "postgresql://u@h/d?application_name=epdd");
  // Nothing to remove: unchanged.
  CHECK(location_without_password("postgresql://u@h:5432/d") == "postgresql://u@h:5432/d");
  CHECK(location_without_password("postgresql:///epdd?host=/run/postgresql") ==
        "postgresql:///epdd?host=/run/postgresql");
  CHECK(location_without_password("postgresql://") == "postgresql://");
  // An '@' after the host part is not a user part (libpq reads it so too).
  CHECK(location_without_password("postgresql://h/d?application_name=a:b@c") ==
        "postgresql://h/d?application_name=a:b@c");
  // An SQLite path is never changed, whatever it contains.
  CHECK(location_without_password("/tmp/u:p@h/store.db") == "/tmp/u:p@h/store.db");
}

TEST_CASE("store location: a password parameter named with escapes is a password too, and libpq's messages lose theirs",
          "[store][location]") {
  // libpq decodes a parameter's name: pass%77ord is password.
  CHECK(location_without_password("postgresql://h/d?pass%77ord=s3cret&sslmode=require") ==
        "postgresql://h/d?sslmode=require");
  CHECK(epdd::store::location_secrets("postgresql://u:50%25off@h/d?pass%77ord=two") ==
        std::vector<std::string>{"50%25off", "50%off", "two"});
  CHECK(epdd::store::location_secrets("postgresql://u@h/d").empty());
  CHECK(epdd::store::location_secrets("/tmp/u:p@h/store.db").empty());
  // What libpq says of URLs it cannot read quotes a token of it, or all of it.
  using epdd::store::without_secrets;
  CHECK(without_secrets("invalid percent-encoded token: \"50%off\"", "postgresql://user:50%off@localhost/db") ==
        "invalid percent-encoded token: \"***\"");
  CHECK(without_secrets("end of IPv6 host address not found in URI: \"postgresql://user:s3cret@[::1/db\"",
                        "postgresql://user:s3cret@[::1/db") ==
        "end of IPv6 host address not found in URI: \"postgresql://user@[::1/db\"");
  CHECK(without_secrets("FATAL: database \"d\" does not exist", "postgresql://u:s3cret@h/d") ==
        "FATAL: database \"d\" does not exist");
}
