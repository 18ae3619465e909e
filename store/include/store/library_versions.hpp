#pragma once
// store's part of `epdd --version` (core/library_version.hpp says why each module has one).
#include <vector>

#include "core/library_version.hpp"

namespace epdd::store {

// store's libraries: SQLite (the version compiled against, and the running library's where it
// differs: a newer libsqlite3 may be loaded), libpqxx and nlohmann json; then the schema version
// (store.hpp's kSchemaVersion).
std::vector<core::LibraryVersion> library_versions();

}  // namespace epdd::store
