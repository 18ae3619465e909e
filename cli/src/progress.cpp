#include "cli/progress.hpp"

#include <unistd.h>

#include <fmt/core.h>

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kRedraw = std::chrono::milliseconds(100);  // terminal bar
constexpr auto kLineEvery = std::chrono::seconds(10);     // plain lines: at most this often...
constexpr std::size_t kLinePercentStep = 10;               // ...or at every 10%

}  // namespace

Progress::Progress(std::FILE* stream, bool quiet)
    : stream_(stream), style_(quiet ? Style::Off : (isatty(fileno(stream)) ? Style::Bar : Style::Lines)) {}

void Progress::start(std::size_t total, std::size_t already, bool show_solved) {
  total_ = total;
  done_ = already;
  already_ = already;
  show_solved_ = show_solved;
  start_ = last_draw_ = Clock::now();
  if (style_ == Style::Lines && total_ > 0)
    fmt::print(stream_, "progress: {} positions, {} already done\n", total_, already_);
}

void Progress::groups(std::string_view name, std::size_t total, std::size_t already) {
  group_name_ = name;
  groups_total_ = total;
  groups_done_ = already;
  if (style_ == Style::Lines && total > 0) fmt::print(stream_, "progress: {} {}, {} already done\n", total, name, already);
}

void Progress::group_done() { ++groups_done_; }

void Progress::more_items(std::size_t total, const std::string& status) {
  total_ = total;
  if (style_ == Style::Off) return;
  if (!status.empty()) {
    clear();
    fmt::print(stream_, "{}\n", status);
  }
  draw(true);
}

std::string Progress::clock(double seconds) {
  const auto s = static_cast<long long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

void Progress::advance(bool solved, bool failed) {
  ++done_;
  solved_ += solved ? 1 : 0;
  failed_ += failed ? 1 : 0;
  draw(false);
}

void Progress::draw(bool force) {
  if (style_ == Style::Off || total_ == 0) return;
  const auto now = Clock::now();
  const std::size_t percent = done_ * 100 / total_;
  if (style_ == Style::Bar && !force && now - last_draw_ < kRedraw && done_ < total_) return;
  if (style_ == Style::Lines && !force && now - last_draw_ < kLineEvery &&
      percent < last_line_percent_ + kLinePercentStep && done_ < total_)
    return;
  last_draw_ = now;
  last_line_percent_ = percent;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const std::size_t fresh = done_ - already_;
  const double rate = elapsed > 0 ? static_cast<double>(fresh) / elapsed : 0;
  const std::string eta = rate > 0 ? clock(static_cast<double>(total_ - done_) / rate) : "-";
  std::string text = groups_total_ ? fmt::format("{} {}/{}  positions {}/{}", group_name_, groups_done_, groups_total_, done_, total_)
                                  : fmt::format("{}/{}", done_, total_);
  if (show_solved_) text += fmt::format("  solved {}", solved_);
  if (failed_) text += fmt::format("  failed {}", failed_);
  text += fmt::format("  {:.1f}/s  ETA {}", rate, eta);
  if (style_ == Style::Bar) {
    constexpr std::size_t kWidth = 30;
    const std::size_t filled = done_ * kWidth / total_;
    fmt::print(stream_, "\r[{}{}] {}\x1b[K", std::string(filled, '#'), std::string(kWidth - filled, '.'), text);
  } else {
    fmt::print(stream_, "progress: {} ({}%)\n", text, percent);
  }
  std::fflush(stream_);
}

void Progress::clear() {
  if (style_ != Style::Bar) return;
  fmt::print(stream_, "\r\x1b[K");
  std::fflush(stream_);
}

void Progress::finish(const std::string& last_words) {
  if (style_ == Style::Off) return;
  if (style_ == Style::Bar) fmt::print(stream_, "\r\x1b[K");
  if (!last_words.empty()) fmt::print(stream_, "{}\n", last_words);
  std::fflush(stream_);
}

}  // namespace epdd::cli
