// Progress of a long run on stderr: on a terminal a bar redrawn in place (done/total, solved so
// far, rate, ETA); otherwise a plain line now and then, so that logs of unattended runs show
// progress without a wall of carriage returns.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>

#include "daemon/analysis_run.hpp"

namespace epdd::cli {

class Progress final : public daemon::RunProgress {
 public:
  enum class Style { Bar, Lines, Off };
  // Style Bar when `stream` is a terminal, Lines otherwise, Off when quiet.
  Progress(std::FILE* stream, bool quiet);
  // `total` items, `already` of them done before this run (resumed: not counted in the rate).
  void start(std::size_t total, std::size_t already, bool show_solved) override;
  // One more item done (solved: for suite runs).
  void advance(bool solved, bool failed) override;
  // "games 12/100" before the positions.
  void groups(std::string_view name, std::size_t total, std::size_t already) override;
  void group_done() override;
  // The items grew (book grow's next round): the new total, and a line on how the growth stands.
  void more_items(std::size_t total, const std::string& status) override;
  // Takes the bar off the terminal line so that a message can be printed; the next advance
  // draws it again.
  void clear() override;
  // Clears the bar (terminal) and prints the final line.
  void finish(const std::string& last_words) override;
  Style style() const { return style_; }
  // "1:02:03" / "2:03": for tests.
  static std::string clock(double seconds);

 private:
  void draw(bool force);

  std::FILE* stream_;
  Style style_;
  std::size_t total_ = 0, done_ = 0, already_ = 0, solved_ = 0, failed_ = 0;
  bool show_solved_ = false;
  std::string group_name_;
  std::size_t groups_total_ = 0, groups_done_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
  std::size_t last_line_percent_ = 0;
};

}  // namespace epdd::cli
