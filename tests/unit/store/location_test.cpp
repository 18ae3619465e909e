// Store locations: which ones pick PostgreSQL, and a PostgreSQL URL shown without its password
// (path(), messages and logs show only this form).
#include <catch2/catch.hpp>

#include <string>

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
