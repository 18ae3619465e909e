#include "uci/line_channel.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace epdd::uci {

namespace {
constexpr std::size_t kShownLine = 300;
}

void Transcript::add(std::string_view prefix, std::string_view line) {
  std::string& entry = ring_[next_];
  entry.assign(prefix);
  if (line.size() > kShownLine) {
    entry.append(line.substr(0, kShownLine));
    entry.append("... (" + std::to_string(line.size()) + " bytes)");
  } else {
    entry.append(line);
  }
  next_ = (next_ + 1) % ring_.size();
  count_ = std::min(count_ + 1, ring_.size());
}

std::string Transcript::tail(std::size_t n) const {
  std::string out;
  const std::size_t shown = std::min(n, count_);
  for (std::size_t k = shown; k > 0; --k) {
    out += ring_[(next_ + ring_.size() - k) % ring_.size()];
    out += '\n';
  }
  return out;
}

LineChannel::LineChannel(int out_fd, int err_fd, std::size_t max_line,
                         std::function<void(std::string_view)> on_stderr)
    : out_fd_(out_fd), err_fd_(err_fd), max_line_(max_line), on_stderr_(std::move(on_stderr)) {
  if (err_fd_ < 0) err_eof_ = true;
}

void LineChannel::take(std::string& partial, const char* data, std::size_t n, bool is_stdout) {
  const char* end = data + n;
  while (data < end) {
    const char* nl = static_cast<const char*>(std::memchr(data, '\n', static_cast<std::size_t>(end - data)));
    if (nl == nullptr) {
      partial.append(data, end);
      break;
    }
    partial.append(data, nl);
    if (!partial.empty() && partial.back() == '\r') partial.pop_back();
    if (is_stdout) {
      lines_.push_back(std::move(partial));
    } else if (on_stderr_) {
      on_stderr_(partial);
    }
    partial.clear();
    data = nl + 1;
  }
  // An endless stderr line is shortened rather than fatal: stderr is only logged.
  if (!is_stdout && partial.size() > max_line_) {
    if (on_stderr_) on_stderr_(partial);
    partial.clear();
  }
}

bool LineChannel::fill(int timeout_ms) {
  pollfd fds[2];
  nfds_t n = 0;
  if (!out_eof_) fds[n++] = {out_fd_, POLLIN, 0};
  if (!err_eof_) fds[n++] = {err_fd_, POLLIN, 0};
  if (n == 0) return true;
  int r = ::poll(fds, n, timeout_ms);
  if (r < 0) return errno == EINTR;
  char buffer[65536];
  for (nfds_t i = 0; i < n; ++i) {
    if (fds[i].revents == 0) continue;
    const bool is_stdout = fds[i].fd == out_fd_;
    // Drain what is there now: several lines from one read all land in the queue.
    for (;;) {
      const ssize_t got = ::read(fds[i].fd, buffer, sizeof buffer);
      if (got > 0) {
        take(is_stdout ? partial_ : err_partial_, buffer, static_cast<std::size_t>(got), is_stdout);
        if (is_stdout && partial_.size() > max_line_) {
          too_long_ = true;
          return true;
        }
        // One read per descriptor and call: an engine that writes without pause must not
        // keep us here past the caller's deadline.
        break;
      }
      if (got < 0 && errno == EINTR) continue;
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      // EOF (or a read error, treated as the end of the stream).
      if (is_stdout) {
        out_eof_ = true;
        if (!partial_.empty()) lines_.push_back(std::exchange(partial_, std::string()));
      } else {
        err_eof_ = true;
        if (!err_partial_.empty() && on_stderr_) on_stderr_(err_partial_);
        err_partial_.clear();
      }
      break;
    }
  }
  return true;
}

void LineChannel::pump() {
  if (!too_long_) fill(0);
}

ChannelStatus LineChannel::read_line(std::string& line, Deadline deadline) {
  for (;;) {
    if (!lines_.empty()) {
      line = std::move(lines_.front());
      lines_.pop_front();
      return ChannelStatus::Line;
    }
    if (too_long_) return ChannelStatus::LineTooLong;
    if (out_eof_) return ChannelStatus::Eof;
    const int timeout = poll_timeout_ms(deadline);
    if (!fill(timeout)) return ChannelStatus::ReadFailed;
    if (lines_.empty() && !too_long_ && !out_eof_ && Clock::now() >= deadline) return ChannelStatus::Timeout;
  }
}

}  // namespace epdd::uci
