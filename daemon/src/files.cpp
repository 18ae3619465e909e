#include "daemon/files.hpp"

#include "epd/document.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

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

namespace {

// Opens a file for reading; -1 with the message set when it cannot be read as a file.
int open_for_reading(const std::string& path, std::string& message, struct stat& st) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    message = core::escaped(path) + ": cannot open for reading: " + std::strerror(errno);
    return -1;
  }
  if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    message = core::escaped(path) + ": cannot read: " + (S_ISDIR(st.st_mode) ? "is a directory" : std::strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

Expected<std::string, std::string> read_whole_file(const std::string& path) {
  std::string message;
  struct stat st {};
  const int fd = open_for_reading(path, message, st);
  if (fd < 0) return unexpected(message);
  std::string bytes;
  if (S_ISREG(st.st_mode)) bytes.reserve(static_cast<std::size_t>(st.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      message = core::escaped(path) + ": read error: " + std::strerror(errno);
      close(fd);
      return unexpected(message);
    }
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
  close(fd);
  return bytes;
}

Expected<std::string, std::string> read_epd_file(const std::string& path) {
  auto bytes = read_whole_file(path);
  if (bytes && epd::looks_like_pgn(*bytes))
    return unexpected(core::escaped(path) + ": this is a PGN file (it starts with a tag pair), not EPD: 'epdd pgn to-epd " +
                      core::escaped(path) + " -o positions.epd' writes its positions as EPD; 'epdd pgn check' checks it");
  return bytes;
}

Expected<void, std::string> check_readable_file(const std::string& path) {
  std::string message;
  struct stat st {};
  const int fd = open_for_reading(path, message, st);
  if (fd < 0) return unexpected(message);
  close(fd);
  return {};
}

Expected<void, std::string> check_writable_output(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return unexpected(core::escaped(path) + ": cannot write the output: is a directory");
    if (access(path.c_str(), W_OK) != 0)
      return unexpected(core::escaped(path) + ": cannot write the output: " + std::strerror(errno));
    // A device or FIFO is written in place (AtomicFileWriter): its folder (/dev) need not take files.
    if (!S_ISREG(st.st_mode)) return {};
  }
  // Written as a temporary file beside it, then renamed: the folder must take new files.
  const std::filesystem::path target(path);
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return unexpected(core::escaped(path) + ": cannot write the output: the folder " + dir + " does not exist");
  if (access(dir.c_str(), W_OK | X_OK) != 0)
    return unexpected(core::escaped(path) + ": cannot write the output in " + core::escaped(dir) + ": " + std::strerror(errno));
  return {};
}

AtomicFileWriter::AtomicFileWriter(std::string path) : path_(std::move(path)) {
  std::filesystem::path target(path_);
  // A symbolic link is followed: the file it names gets the content, and the link stays a link.
  std::error_code ec;
  if (std::filesystem::is_symlink(target, ec))
    if (auto real = std::filesystem::canonical(target, ec); !ec) target = real;
  target_ = target.string();
  struct stat st {};
  if (stat(target_.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    // A device, FIFO or socket (-o /dev/null, a named pipe): written in place. There is nothing
    // to replace atomically, and a rename would put a regular file where the device was.
    in_place_ = true;
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) error_ = core::escaped(path_) + ": cannot open for writing: " + std::strerror(errno);
    return;
  }
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  temporary_ = (dir / ("." + target.filename().string() + ".tmp-XXXXXX")).string();
  fd_ = mkstemp(temporary_.data());
  if (fd_ < 0) {
    error_ = core::escaped(path_) + ": cannot create a temporary file in " + core::escaped(dir.string()) + ": " +
             std::strerror(errno);
    return;
  }
  // mkstemp creates 0600; give the file the permissions a plain create would (umask applies).
  if (fchmod(fd_, 0666 & ~current_umask()) != 0) (void)fail("cannot set permissions");
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ < 0) return;
  close(fd_);
  if (!in_place_) unlink(temporary_.c_str());
}

Expected<void, std::string> AtomicFileWriter::fail(const char* what) {
  if (!error_) error_ = core::escaped(path_) + ": " + what + ": " + std::strerror(errno);
  if (fd_ >= 0) {
    close(fd_);
    if (!in_place_) unlink(temporary_.c_str());
    fd_ = -1;
  }
  return unexpected(*error_);
}

void AtomicFileWriter::write(std::string_view part) {
  std::size_t written = 0;
  while (fd_ >= 0 && written < part.size()) {
    const ssize_t n = ::write(fd_, part.data() + written, part.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      (void)fail("write failed");
      return;
    }
    written += static_cast<std::size_t>(n);
  }
}

Expected<void, std::string> AtomicFileWriter::commit() {
  if (error_) return unexpected(*error_);
  if (in_place_) {
    if (close(std::exchange(fd_, -1)) != 0) return unexpected(core::escaped(path_) + ": close failed: " + std::strerror(errno));
    return {};
  }
  if (fsync(fd_) != 0) return fail("fsync failed");
  const int fd = std::exchange(fd_, -1);
  if (close(fd) != 0) {
    error_ = core::escaped(path_) + ": close failed: " + std::strerror(errno);
    unlink(temporary_.c_str());
    return unexpected(*error_);
  }
  if (std::rename(temporary_.c_str(), target_.c_str()) != 0) {
    error_ = core::escaped(path_) + ": cannot rename the temporary file into place: " + std::strerror(errno);
    unlink(temporary_.c_str());
    return unexpected(*error_);
  }
  return {};
}

Expected<void, std::string> write_file_atomically(const std::string& path, const std::string& content) {
  AtomicFileWriter file(path);
  file.write(content);
  return file.commit();
}

}  // namespace epdd::daemon
