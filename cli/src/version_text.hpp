// `epdd --version`: epdd's version, then the libraries it was built with, as each module names
// its own (uci/library_versions.hpp); cli adds CLI11 and composes the list.
#pragma once

#include <string>

namespace epdd::cli::detail {

// "epdd 0.1.0\nbuilt with:\n  Boost 1.74.0\n  ...\n  store schema version 5" (the schema last; no final newline:
// CLI11 adds it).
std::string version_text();

}  // namespace epdd::cli::detail
