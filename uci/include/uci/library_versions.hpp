#pragma once
// The libraries a module was built with, for `epdd --version`: each module names its own
// (uci: Boost; store: SQLite, libpqxx, nlohmann json and the schema; daemon: toml++, spdlog,
// fmt; cli: CLI11), so that the list follows the module map and cli only composes it.
#include <string>
#include <vector>

namespace epdd::uci {

// One library and its version as its headers said when epdd was compiled ("1.74.0"), with a
// note where the running library differs (SQLite: "3.40.1, running 3.45.0").
struct LibraryVersion {
  std::string name;
  std::string version;
};

// uci's libraries: Boost (Boost.Process spawns the engines), from BOOST_VERSION.
std::vector<LibraryVersion> library_versions();

}  // namespace epdd::uci
