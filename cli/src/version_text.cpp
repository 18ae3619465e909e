#include "version_text.hpp"

#include <CLI/Version.hpp>

#include "daemon/library_versions.hpp"
#include "store/library_versions.hpp"
#include "uci/library_versions.hpp"

namespace epdd::cli::detail {

std::string version_text() {
  std::vector<core::LibraryVersion> libraries = uci::library_versions();
  for (auto part : {daemon::library_versions(), {{"CLI11", CLI11_VERSION}}, store::library_versions()})
    libraries.insert(libraries.end(), part.begin(), part.end());
  std::string text = "epdd " EPDD_VERSION "\nbuilt with:";
  for (const auto& [name, version] : libraries) text += "\n  " + name + " " + version;
  return text;
}

}  // namespace epdd::cli::detail
