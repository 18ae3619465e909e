#pragma once
// daemon's part of `epdd --version` (core/library_version.hpp says why each module has one).
#include <vector>

#include "core/library_version.hpp"

namespace epdd::daemon {

// daemon's libraries: toml++ (the configuration), spdlog (logging) and fmt (spdlog's, which
// every module formats with).
std::vector<core::LibraryVersion> library_versions();

}  // namespace epdd::daemon
