#include "daemon/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text.hpp"

namespace epdd::daemon {

namespace {

// The process umask without changing it (umask(2) can only be read by setting it, which races
// with other threads creating files). Linux reports it in /proc/self/status since 4.7.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  return 022;
}

}  // namespace

Expected<std::string, std::string> read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return unexpected(core::escaped(path) + ": cannot open for reading: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return unexpected(core::escaped(path) + ": read error");
  return ss.str();
}

Expected<void, std::string> write_file_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string tmpl = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = mkstemp(tmpl.data());
  const std::string shown = core::escaped(path);
  if (fd < 0)
    return unexpected(shown + ": cannot create a temporary file in " + core::escaped(dir.string()) + ": " +
                      std::strerror(errno));
  auto fail = [&](const char* what) -> Expected<void, std::string> {
    const std::string reason = std::strerror(errno);
    close(fd);
    unlink(tmpl.c_str());
    return unexpected(shown + ": " + what + ": " + reason);
  };
  // mkstemp creates 0600; give the file the permissions a plain create would (umask applies).
  if (fchmod(fd, 0666 & ~current_umask()) != 0) return fail("cannot set permissions");
  std::size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("write failed");
    }
    written += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0) return fail("fsync failed");
  if (close(fd) != 0) {
    unlink(tmpl.c_str());
    return unexpected(shown + ": close failed: " + std::strerror(errno));
  }
  if (std::rename(tmpl.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    unlink(tmpl.c_str());
    return unexpected(shown + ": cannot rename the temporary file into place: " + reason);
  }
  return {};
}

}  // namespace epdd::daemon
