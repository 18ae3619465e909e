// Where a store is: Store::open's `location` names either a PostgreSQL database (libpq's URL,
// postgresql://... or postgres://...) or the path of an SQLite file. A URL may carry a password
// (user:password@host, or ?password=...); what the store shows of its location (path(), every
// message, every log line) is the URL without it, so a password never reaches a log or a
// terminal. (Passwords belong in PGPASSWORD, ~/.pgpass or a service file: libpq reads them.)
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace epdd::store {

// True when `location` is a PostgreSQL URL (starts with postgresql:// or postgres://): the
// PostgreSQL backend opens it; anything else is an SQLite path, opened as it is.
bool is_postgresql_location(std::string_view location);

// The location as it may be shown: a PostgreSQL URL without its password (the ":password" of
// its user part and any "password" parameter of its query, wherever it is); anything else
// unchanged. Opening the shown URL again reaches the same database (libpq then takes the
// password from PGPASSWORD, ~/.pgpass or a service file).
std::string location_without_password(const std::string& location);

// The passwords a PostgreSQL URL carries, as written and as libpq decodes them (%XX): what
// must not appear in a message. Empty for a URL without one and for an SQLite path.
std::vector<std::string> location_secrets(const std::string& location);

// `text` (libpq's message about `location`, which may quote the URL or a piece of it) with the
// URL shown without its password and every password of it replaced by "***".
std::string without_secrets(std::string text, const std::string& location);

}  // namespace epdd::store
