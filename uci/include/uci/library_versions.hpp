#pragma once
// uci's part of `epdd --version` (core/library_version.hpp says why each module has one).
#include <vector>

#include "core/library_version.hpp"

namespace epdd::uci {

// uci's libraries: Boost (Boost.Process spawns the engines), from BOOST_VERSION.
std::vector<core::LibraryVersion> library_versions();

}  // namespace epdd::uci
