#include "uci/library_versions.hpp"

#include <boost/version.hpp>
#include <fmt/core.h>

namespace epdd::uci {

std::vector<core::LibraryVersion> library_versions() {
  // BOOST_VERSION is major * 100000 + minor * 100 + patch.
  return {{"Boost", fmt::format("{}.{}.{}", BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100)}};
}

}  // namespace epdd::uci
