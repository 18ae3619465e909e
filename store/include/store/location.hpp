// Where a store is: Store::open's `location` names either a PostgreSQL database (libpq's URL,
// postgresql://... or postgres://...) or the path of an SQLite file. A URL may carry a password
// (user:password@host, or ?password=...); what the store shows of its location (path(), every
// message, every log line) is the URL without it, so a password never reaches a log or a
// terminal. (Passwords belong in PGPASSWORD, ~/.pgpass or a service file: libpq reads them.)
#pragma once

#include <string>
#include <string_view>

namespace epdd::store {

// True when `location` is a PostgreSQL URL (starts with postgresql:// or postgres://): the
// PostgreSQL backend opens it; anything else is an SQLite path, opened as it is.
bool is_postgresql_location(std::string_view location);

// The location as it may be shown: a PostgreSQL URL without its password (the ":password" of
// its user part and any "password" parameter of its query, wherever it is); anything else
// unchanged. Opening the shown URL again reaches the same database (libpq then takes the
// password from PGPASSWORD, ~/.pgpass or a service file).
std::string location_without_password(const std::string& location);

}  // namespace epdd::store
