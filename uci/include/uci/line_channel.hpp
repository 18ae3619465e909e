// Lines from an engine's stdout, and its stderr on the side, read under absolute deadlines.
// Never drops a byte: a partial line waits for the rest across reads, several lines from one
// read are all kept, and lines after the one the caller waits for stay queued for the next
// call (engine session contract, point 3).
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "uci/process.hpp"

namespace epdd::uci {

// The last lines that went to and came from an engine, for error messages.
class Transcript {
 public:
  explicit Transcript(std::size_t keep = 40) : ring_(keep == 0 ? 1 : keep) {}
  void sent(std::string_view line) { add("> ", line); }
  void received(std::string_view line) { add("< ", line); }
  void stderr_line(std::string_view line) { add("! ", line); }
  void note(std::string_view text) { add("# ", text); }
  // The last `n` entries, one per line, oldest first; long lines are shortened.
  std::string tail(std::size_t n = 12) const;

 private:
  void add(std::string_view prefix, std::string_view line);
  // A ring whose strings keep their capacity: recording a line costs no allocation once warm
  // (a search prints thousands of info lines).
  std::vector<std::string> ring_;
  std::size_t next_ = 0, count_ = 0;
};

enum class ChannelStatus { Line, Timeout, Eof, LineTooLong, ReadFailed };

class LineChannel {
 public:
  // Reads stdout from `out_fd` and stderr from `err_fd` (-1: none); both non-blocking. Each
  // stderr line goes to `on_stderr`. A stdout line longer than `max_line` bytes is an error.
  LineChannel(int out_fd, int err_fd, std::size_t max_line, std::function<void(std::string_view)> on_stderr);

  // The next stdout line (without "\n" or "\r\n") into `line`, waiting until the deadline.
  // Eof: stdout closed and every complete line delivered (a final partial line is delivered
  // first as a line of its own).
  ChannelStatus read_line(std::string& line, Deadline deadline);
  // Takes in whatever the engine has written so far without waiting.
  void pump();
  // Complete stdout lines already received and not yet read.
  std::size_t queued() const { return lines_.size(); }
  // Bytes of a stdout line begun but not finished.
  std::size_t partial_size() const { return partial_.size(); }

 private:
  // Reads what is there on the ready descriptors; false when poll failed.
  bool fill(int timeout_ms);
  void take(std::string& partial, const char* data, std::size_t n, bool is_stdout);

  int out_fd_, err_fd_;
  std::size_t max_line_;
  std::function<void(std::string_view)> on_stderr_;
  std::deque<std::string> lines_;
  std::string partial_, err_partial_;
  bool out_eof_ = false, err_eof_ = false, too_long_ = false;
};

}  // namespace epdd::uci
