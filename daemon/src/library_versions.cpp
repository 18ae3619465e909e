#include "daemon/library_versions.hpp"

#include <fmt/core.h>
#include <spdlog/version.h>
#include <toml++/toml.h>

namespace epdd::daemon {

std::vector<core::LibraryVersion> library_versions() {
  return {{"toml++", fmt::format("{}.{}.{}", TOML_LIB_MAJOR, TOML_LIB_MINOR, TOML_LIB_PATCH)},
          {"spdlog", fmt::format("{}.{}.{}", SPDLOG_VER_MAJOR, SPDLOG_VER_MINOR, SPDLOG_VER_PATCH)},
          // FMT_VERSION is major * 10000 + minor * 100 + patch.
          {"fmt", fmt::format("{}.{}.{}", FMT_VERSION / 10000, FMT_VERSION / 100 % 100, FMT_VERSION % 100)}};
}

}  // namespace epdd::daemon
