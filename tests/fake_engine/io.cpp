#include "io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <utility>

namespace epdd::fake_engine {

namespace {

// Non-UCI text with a control byte, a byte that is never valid UTF-8, and a token long enough to
// overflow a reader that assumes short lines. Never starts like a UCI reply, so a session that
// mistakes it for one has a real bug.
std::string make_garbage_line() {
  std::string text = "\x01\xFF garbage from fake_engine: ";
  for (int i = 0; i < 600; ++i) text += static_cast<char>('a' + i % 26);
  text += " \xFF\x01 bestmove-ish? no.";
  return text;
}

}  // namespace

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n >= 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (errno == EINTR || errno == EAGAIN) continue;
    std::exit(errno == EPIPE ? 0 : 1);
  }
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

void Output::line(std::string_view text) {
  if (mode_.garbage) {
    static const std::string garbage = make_garbage_line();
    line_without_garbage(garbage);
  }
  line_without_garbage(text);
}

void Output::line_without_garbage(std::string_view text) {
  if (mode_.glue) {
    pending_.append(text);
    pending_ += '\n';
    return;
  }
  std::string bytes(text);
  bytes += '\n';
  emit(bytes, true);
}

void Output::flush() {
  if (pending_.empty()) return;
  // Split and glue together: the response is one stream cut into pieces that ignore line
  // boundaries, so a piece can hold the end of one line and the start of the next.
  emit(pending_, false);
  pending_.clear();
}

void Output::emit(std::string_view bytes, bool newline_alone) {
  if (mode_.split)
    write_split(bytes, newline_alone);
  else
    write_all(1, bytes);
}

void Output::write_split(std::string_view bytes, bool newline_alone) {
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    std::size_t n = std::min<std::size_t>(1 + piece_++ % 3, bytes.size() - pos);
    if (newline_alone) {
      const std::size_t nl = bytes.substr(pos, n).find('\n');
      if (nl == 0) n = 1;
      else if (nl != std::string_view::npos) n = nl;
    }
    write_all(1, bytes.substr(pos, n));
    pos += n;
    if (pos < bytes.size()) sleep_ms(1);
  }
}

Input::Input(Input&& other) noexcept
    : buffer_(std::move(other.buffer_)),
      eof_(other.eof_),
      log_fd_(std::exchange(other.log_fd_, -1)),
      log_failed_(other.log_failed_) {}

Input::~Input() {
  if (log_fd_ >= 0) ::close(log_fd_);
}

Expected<void, std::string> open_append(const std::string& path, const std::string& what, int& fd) {
  const int opened = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (opened < 0) return unexpected("cannot open " + what + " " + path + ": " + std::strerror(errno));
  if (fd >= 0) ::close(fd);
  fd = opened;
  return {};
}

Expected<void, std::string> Input::open_log(const std::string& path) { return open_append(path, "log", log_fd_); }

bool Input::take_line(std::string& line) {
  const std::size_t nl = buffer_.find('\n');
  if (nl == std::string::npos && (!eof_ || buffer_.empty())) return false;
  const std::size_t end = nl == std::string::npos ? buffer_.size() : nl;
  line.assign(buffer_, 0, end);
  buffer_.erase(0, nl == std::string::npos ? end : end + 1);
  if (log_fd_ >= 0) {
    // Logged as received (a '\r' included), before anything acts on it.
    std::string record = line;
    record += '\n';
    // A test that asked for a log cannot trust a partial one: say so (once) and go on.
    if (::write(log_fd_, record.data(), record.size()) < 0 && !log_failed_) {
      log_failed_ = true;
      std::fprintf(stderr, "fake_engine: writing the log failed: %s\n", std::strerror(errno));
    }
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

Input::Status Input::next(std::string& line, std::optional<Clock::time_point> deadline) {
  for (;;) {
    if (take_line(line)) return Status::Line;
    if (eof_) return Status::Eof;
    int timeout = -1;
    if (deadline) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Clock::now());
      if (left.count() <= 0) return Status::Timeout;
      timeout = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
    }
    pollfd p{0, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeout);
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline check above decides
    char chunk[4096];
    const ssize_t n = ready < 0 ? -1 : ::read(0, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
      continue;
    } else {
      eof_ = true;  // end of input, or an fd 0 that cannot be read at all
    }
  }
}

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) words.push_back(text.substr(start, i - start));
  }
  return words;
}

}  // namespace epdd::fake_engine
