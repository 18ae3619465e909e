#pragma once
// One library and its version, for `epdd --version`: each module names the libraries it was
// built with (uci: Boost; store: SQLite, libpqxx, nlohmann json and the schema; daemon: toml++,
// spdlog, fmt; cli: CLI11) in its own library_versions(), so that the list follows the module
// map and cli only composes it. The type is core's: every module's list is made of it.
#include <string>

namespace epdd::core {

// As its headers said when epdd was compiled ("1.74.0"), with a note where the running library
// differs (SQLite: "3.40.1, running 3.45.0").
struct LibraryVersion {
  std::string name;
  std::string version;
};

}  // namespace epdd::core
