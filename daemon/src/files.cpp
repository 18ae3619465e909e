#include "daemon/files.hpp"

#include "epd/document.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <ostream>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
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

// How an I/O error names a path: "-" says which stream it stands for.
std::string shown(const std::string& path, bool writing = false) {
  if (!is_stdio(path)) return core::escaped(path);
  return writing ? "- (standard output)" : "- (standard input)";
}

std::string fmt_stdio_twice(const char* what, const char* why) {
  return std::string("'-' is given as more than one ") + what + ": " + why;
}

// Whether descriptor `fd` is open for reading (0) or writing (1); else the reason.
Expected<void, std::string> standard_stream_open(int fd) {
  const int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return unexpected(shown("-", fd == 1) + ": " + std::strerror(errno));
  const int mode = flags & O_ACCMODE;
  if (fd == 0 ? mode == O_WRONLY : mode == O_RDONLY)
    return unexpected(shown("-", fd == 1) + (fd == 0 ? ": not open for reading" : ": not open for writing"));
  return {};
}

// Reads `fd` to its end into `bytes`; false with errno set on a read error.
bool read_to_end(int fd, std::string& bytes) {
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

// Standard input read whole. Once: a second read would see nothing, and an empty input is no
// error of its own, so it is refused in words (not kept for it: a big input held twice).
Expected<std::string, std::string> read_standard_input() {
  static std::atomic<bool> read_before{false};
  if (read_before.exchange(true)) return unexpected(shown("-") + ": read already (standard input can be read once)");
  if (auto open = standard_stream_open(0); !open) return unexpected(open.error());
  std::string bytes;
  if (!read_to_end(0, bytes)) return unexpected(shown("-") + ": read error: " + std::strerror(errno));
  return bytes;
}

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

Expected<void, std::string> check_stdio_once(const std::vector<std::string>& inputs,
                                             const std::vector<std::optional<std::string>>& outputs) {
  std::size_t in = 0, out = 0;
  for (const auto& path : inputs) in += is_stdio(path);
  for (const auto& path : outputs) out += path && is_stdio(*path);
  if (in > 1) return unexpected(fmt_stdio_twice("input", "standard input can be read once"));
  if (out > 1)
    return unexpected(fmt_stdio_twice("output", "two outputs on standard output would be one stream (without -o, the main output goes there); give files for the others"));
  return {};
}

std::unique_ptr<std::istream> open_input_stream(const std::string& path) {
  if (is_stdio(path)) return std::make_unique<std::istream>(std::cin.rdbuf());
  return std::make_unique<std::ifstream>(path, std::ios::binary);
}

namespace {

// std::cout's buffer once route_standard_output has run: write(2) on fd 1, and the first
// failure's errno kept, so that the message can say why (by the time the stream is checked,
// errno has long been overwritten).
class StandardOutputBuffer : public std::streambuf {
 public:
  StandardOutputBuffer() { setp(buffer_, buffer_ + sizeof buffer_); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* p = pbase();
    while (!error_ && p < pptr()) {
      const ssize_t n = ::write(STDOUT_FILENO, p, static_cast<std::size_t>(pptr() - p));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) error_ = errno;
      else p += n;
    }
    setp(buffer_, buffer_ + sizeof buffer_);  // after an error, what comes is dropped
    return !error_;
  }
  char buffer_[1 << 16];
  int error_ = 0;
};

StandardOutputBuffer* routed = nullptr;

}  // namespace

void route_standard_output() {
  if (routed) return;
  // Never destroyed: std::cout is flushed at exit, after the statics of this file are gone.
  routed = new StandardOutputBuffer;
  std::cout.flush();
  std::cout.rdbuf(routed);
  // A person watching: each write is shown as it is made (check-engine's PASS lines, a check's
  // diagnostics), as a terminal's line-buffered stdout would; a pipe or a file gets full buffers.
  if (::isatty(STDOUT_FILENO)) std::cout << std::unitbuf;
}

bool standard_output_ok(std::string& message) {
  std::cout.flush();
  const int error = routed ? routed->error() : 0;
  if (std::cout && !error) return true;
  message = shown("-", true) + ": write error" + (error ? std::string(": ") + std::strerror(error) : "");
  return false;
}

Expected<std::string, std::string> read_whole_file(const std::string& path) {
  if (is_stdio(path)) return read_standard_input();
  std::string message;
  struct stat st {};
  const int fd = open_for_reading(path, message, st);
  if (fd < 0) return unexpected(message);
  std::string bytes;
  if (S_ISREG(st.st_mode)) bytes.reserve(static_cast<std::size_t>(st.st_size));
  const bool read_all = read_to_end(fd, bytes);
  if (!read_all) message = core::escaped(path) + ": read error: " + std::strerror(errno);
  close(fd);
  if (!read_all) return unexpected(message);
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
  if (is_stdio(path)) return standard_stream_open(0);
  std::string message;
  struct stat st {};
  const int fd = open_for_reading(path, message, st);
  if (fd < 0) return unexpected(message);
  close(fd);
  return {};
}

Expected<void, std::string> check_writable_output(const std::string& path) {
  if (is_stdio(path)) return standard_stream_open(1);
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
  if (is_stdio(path_)) {
    // Standard output, in place: what the process wrote there before through stdio goes first.
    std::cout.flush();
    std::fflush(stdout);
    in_place_ = true;
    fd_ = ::dup(STDOUT_FILENO);
    if (fd_ < 0) error_ = shown(path_, true) + ": cannot write: " + std::strerror(errno);
    return;
  }
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
  if (!error_) error_ = shown(path_, true) + ": " + what + ": " + std::strerror(errno);
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

OutputStream::OutputStream(const std::optional<std::string>& path, std::ostream& out) : out_(out) {
  if (path) file_.emplace(*path);
}

void OutputStream::write(std::string_view part) {
  if (file_) file_->write(part);
  else out_ << part;
}

Expected<void, std::string> OutputStream::commit() {
  if (file_) return file_->commit();
  out_ << std::flush;
  return {};
}

}  // namespace epdd::daemon
