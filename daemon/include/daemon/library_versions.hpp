#pragma once
// daemon's part of `epdd --version` (uci/library_versions.hpp says why each module has one).
#include <vector>

#include "uci/library_versions.hpp"

namespace epdd::daemon {

// daemon's libraries: toml++ (the configuration), spdlog (logging) and fmt (spdlog's, which
// every module formats with).
std::vector<uci::LibraryVersion> library_versions();

}  // namespace epdd::daemon
