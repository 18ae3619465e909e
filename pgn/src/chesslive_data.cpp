// A ChessLive! move's Depth/Score/Time as PGN comment commands, and back.
#include <charconv>
#include <cstdlib>

#include "chesslive_internal.hpp"
#include "pgn/game.hpp"

namespace epdd::pgn::clm {
namespace {

std::string two_digits(long v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::string eval_text(long white) {
  const long size = std::labs(white);
  if (size >= kMateLimit) return std::string(white > 0 ? "#" : "#-") + std::to_string(kMateScore - size);
  return std::string(white < 0 ? "-" : "") + std::to_string(size / 100) + "." + two_digits(size % 100);
}

std::optional<long> number(std::string_view s) {
  long v = 0;
  if (s.empty()) return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

// "0.35", "-1.2", "3" as White centipawns; "#3" / "#-3" as mate scores.
std::optional<long> white_score(std::string_view s) {
  if (s.starts_with('#')) {
    const bool black = s.size() > 1 && s[1] == '-';
    auto n = number(s.substr(black ? 2 : 1));
    if (!n || *n > kMateScore - kMateLimit) return std::nullopt;
    return black ? -(kMateScore - *n) : kMateScore - *n;
  }
  const bool negative = s.starts_with('-');
  if (negative) s.remove_prefix(1);
  const std::size_t dot = s.find('.');
  auto whole = number(s.substr(0, dot));
  if (!whole || *whole >= kMateLimit / 100) return std::nullopt;
  long cents = 0;
  if (dot != std::string_view::npos) {
    std::string_view frac = s.substr(dot + 1);
    auto f = number(frac);
    if (!f || frac.size() > 2) return std::nullopt;
    cents = frac.size() == 1 ? *f * 10 : *f;
  }
  const long v = *whole * 100 + cents;
  return negative ? -v : v;
}

// "h:mm:ss" (a fraction of a second is cut off, and `whole` set false) as seconds.
std::optional<long> clock_seconds(std::string_view s, bool& whole) {
  if (const std::size_t dot = s.find('.'); dot != std::string_view::npos) {
    whole = whole && s.find_first_not_of('0', dot + 1) == std::string_view::npos;
    s = s.substr(0, dot);
  }
  const std::size_t a = s.find(':');
  const std::size_t b = a == std::string_view::npos ? a : s.find(':', a + 1);
  if (b == std::string_view::npos) return std::nullopt;
  auto h = number(s.substr(0, a));
  auto m = number(s.substr(a + 1, b - a - 1));
  auto sec = number(s.substr(b + 1));
  if (!h || !m || !sec || *m > 59 || *sec > 59 || *h > 1000000) return std::nullopt;
  return *h * 3600 + *m * 60 + *sec;
}

// True when the comment is nothing but commands.
bool only_commands(std::string_view comment) {
  std::size_t pos = 0;
  while (pos < comment.size()) {
    if (comment[pos] == ' ') {
      ++pos;
      continue;
    }
    if (!comment.substr(pos).starts_with("[%")) return false;
    const std::size_t close = comment.find(']', pos);
    if (close == std::string_view::npos) return false;
    pos = close + 1;
  }
  return true;
}

}  // namespace

std::string data_comment(const MoveData& d) {
  std::string out;
  if (d.score) {
    out = "[%eval " + eval_text(*d.score);
    if (d.depth > 0) out += "," + std::to_string(d.depth);
    out += "]";
  }
  if (d.seconds) {
    if (!out.empty()) out += ' ';
    const long s = *d.seconds;
    out += "[%clk " + std::to_string(s / 3600) + ":" + two_digits(s / 60 % 60) + ":" + two_digits(s % 60) + "]";
  }
  return out;
}

std::optional<MoveData> parse_data_comment(std::string_view comment) {
  MoveData d;
  bool any = false;
  for (const Command& c : commands_in(comment)) {
    if ((c.name != "eval" && c.name != "clk") || (c.name == "eval" && d.score) || (c.name == "clk" && d.seconds)) {
      d.whole = false;  // another command, or a second eval or clk
    } else if (c.name == "eval") {
      std::string_view v = c.value;
      const std::size_t comma = v.find(',');
      if (comma != std::string_view::npos) {
        auto depth = number(v.substr(comma + 1));
        if (!depth || *depth > 100000) return std::nullopt;
        d.depth = static_cast<int>(*depth);
        v = v.substr(0, comma);
      }
      d.score = white_score(v);
      if (!d.score) return std::nullopt;
      any = true;
    } else {
      d.seconds = clock_seconds(c.value, d.whole);
      if (!d.seconds) return std::nullopt;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  if (!only_commands(comment)) d.whole = false;
  return d;
}

}  // namespace epdd::pgn::clm
