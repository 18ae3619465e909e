// Progress of a long run on stderr: on a terminal a bar redrawn in place (done/total, solved so
// far, rate, ETA); otherwise a plain line now and then, so that logs of unattended runs show
// progress without a wall of carriage returns.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>

namespace epdd::daemon {

class Progress {
 public:
  enum class Style { Bar, Lines, Off };
  // `total` items, `already` of them done before this run (resumed: not counted in the rate).
  // Style Bar when `stream` is a terminal, Lines otherwise, Off when quiet.
  Progress(std::FILE* stream, std::size_t total, std::size_t already, bool quiet, bool show_solved);
  // One more item done (solved: for suite runs).
  void advance(bool solved = false, bool failed = false);
  // Takes the bar off the terminal line so that a message can be printed; the next advance
  // draws it again.
  void clear();
  // Clears the bar (terminal) and prints the final line.
  void finish(const std::string& last_words);
  Style style() const { return style_; }
  // "1:02:03" / "2:03": for tests.
  static std::string clock(double seconds);

 private:
  void draw(bool force);

  std::FILE* stream_;
  Style style_;
  std::size_t total_, done_, already_, solved_ = 0, failed_ = 0;
  bool show_solved_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::size_t last_line_percent_ = 0;
};

}  // namespace epdd::daemon
