#pragma once
// store's part of `epdd --version` (uci/library_versions.hpp says why each module has one).
#include <vector>

#include "uci/library_versions.hpp"

namespace epdd::store {

// store's libraries: SQLite (the version compiled against, and the running library's where it
// differs: a newer libsqlite3 may be loaded), libpqxx and nlohmann json; then the schema version
// (store.hpp's kSchemaVersion).
std::vector<uci::LibraryVersion> library_versions();

}  // namespace epdd::store
