#pragma once
// store's part of `epdd --version` (uci/library_versions.hpp says why each module has one).
#include <vector>

#include "uci/library_versions.hpp"

namespace epdd::store {

// The schema version this epdd creates and upgrades to, on SQLite (its user_version) and on
// PostgreSQL (table epdd_schema) alike. A store of a newer version is refused, not written.
inline constexpr int kSchemaVersion = 5;

// store's libraries: SQLite (the version compiled against, and the running library's where it
// differs: a newer libsqlite3 may be loaded), libpqxx and nlohmann json; then the schema version.
std::vector<uci::LibraryVersion> library_versions();

}  // namespace epdd::store
