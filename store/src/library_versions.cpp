#include "store/library_versions.hpp"
#include "store/store.hpp"

#include <sqlite3.h>

#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <pqxx/version>

namespace epdd::store {

std::vector<core::LibraryVersion> library_versions() {
  std::string sqlite = SQLITE_VERSION;
  if (const std::string running = sqlite3_libversion(); running != sqlite) sqlite += ", running " + running;
  return {{"SQLite", sqlite},
          // The header's macro: Debian's libpqxx 6.4.5 still says 6.4.4 (upstream did not bump it).
          {"libpqxx", PQXX_VERSION},
          {"nlohmann json", fmt::format("{}.{}.{}", NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                                        NLOHMANN_JSON_VERSION_PATCH)},
          {"store schema version", std::to_string(kSchemaVersion)}};
}

}  // namespace epdd::store
