// The fake engine's two pipes, driven with raw system calls so that what the tests see is what
// a real engine would produce: unbuffered write(2) calls on fd 1 (their pattern is the point of
// --split-lines and --glue-lines), and poll(2) on fd 0 so that a "search" can notice stop.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace epdd::fake_engine {

using Clock = std::chrono::steady_clock;

// Writes all of bytes to fd with as many write(2) calls as the kernel needs. A closed reader
// (EPIPE; SIGPIPE is ignored) ends the process quietly with status 0, as an engine whose GUI
// went away would; any other write error ends it with status 1.
void write_all(int fd, std::string_view bytes);

// Opens path for appending (created if missing; O_APPEND, so processes may share it) and puts
// the descriptor in fd, closing the one fd held; or why not ("cannot open WHAT PATH: ...").
Expected<void, std::string> open_append(const std::string& path, const std::string& what, int& fd);

// Sleeps without reading or writing anything.
void sleep_ms(int ms);

// Every line the engine prints goes through one Output, so that splitting, gluing and garbage
// apply to all of it alike.
class Output {
 public:
  struct Mode {
    bool split = false;    // 1-3 bytes per write(2), ~1 ms apart
    bool glue = false;     // one write(2) per response (see flush)
    bool garbage = false;  // a garbage line before every line
  };

  explicit Output(Mode mode) : mode_(mode) {}

  // Writes one line (the newline is added here); in glue mode it is kept until flush().
  void line(std::string_view text);
  // Ends a response: in glue mode everything kept since the last flush goes out in one
  // write(2) (in 1-3 byte pieces when split is on too). Does nothing otherwise.
  void flush();
  // Garbage lines on or off from now on (a random garbage fault garbles one search).
  void set_garbage(bool on) { mode_.garbage = on; }
  bool garbage() const { return mode_.garbage; }
  // Bytes as they are, bypassing split, glue and garbage (for --endless-line).
  void raw(std::string_view bytes) { write_all(1, bytes); }

 private:
  // Writes in 1-3 byte pieces; with newline_alone a '\n' is always a piece of its own, so the
  // reader also sees a line whose end arrives separately.
  void write_split(std::string_view bytes, bool newline_alone);
  void emit(std::string_view bytes, bool newline_alone);
  void line_without_garbage(std::string_view text);

  Mode mode_;
  std::string pending_;
  unsigned piece_ = 0;  // cycles the piece size 1, 2, 3
};

// Lines from fd 0. Reading waits in poll(2), so callers can give a deadline and do something
// else (a flood, a movetime) while no command arrives.
class Input {
 public:
  enum class Status { Line, Timeout, Eof };

  Input() = default;
  Input(Input&& other) noexcept;
  Input& operator=(Input&&) = delete;
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input();

  // Appends every line received from now on to path (created if missing), one write(2) per
  // line so that a crash loses nothing that was read.
  Expected<void, std::string> open_log(const std::string& path);

  // The next line, without its '\n' and a trailing '\r'. Waits until deadline (nullopt: for
  // ever). A last line without '\n' before end of input still counts as a line.
  Status next(std::string& line, std::optional<Clock::time_point> deadline);

 private:
  // Moves one complete line (or, at end of input, the rest) from buffer_ into line.
  bool take_line(std::string& line);

  std::string buffer_;
  bool eof_ = false;
  int log_fd_ = -1;
  bool log_failed_ = false;
};

// The words of a command line, split at spaces and tabs.
std::vector<std::string_view> split_words(std::string_view text);

}  // namespace epdd::fake_engine
