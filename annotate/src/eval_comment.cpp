#include "annotate/eval_comment.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>

namespace epdd::annotate {

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Where the first `[%eval<space>...]` command is: [begin, end) including both brackets.
// `unclosed` is where an `[%eval ` starts that no `]` closes before the next `[` or the end.
struct Span {
  std::size_t begin = std::string_view::npos;
  std::size_t end = std::string_view::npos;
  std::size_t unclosed = std::string_view::npos;
};

Span find_eval(std::string_view comment) {
  constexpr std::string_view kOpen = "[%eval";
  // (Most comments that have one begin with it, as lichess and epdd write them: no search then.)
  for (std::size_t at = comment.starts_with(kOpen) ? 0 : comment.find(kOpen); at != std::string_view::npos;
       at = comment.find(kOpen, at + 1)) {
    const std::size_t after = at + kOpen.size();
    if (after >= comment.size() || !is_space(comment[after])) continue;
    std::size_t close = after;  // the next '[' or ']' (a loop: find_first_of calls a search per byte)
    while (close < comment.size() && comment[close] != '[' && comment[close] != ']') ++close;
    if (close == comment.size()) close = std::string_view::npos;
    if (close == std::string_view::npos || comment[close] == '[') {
      Span none;
      none.unclosed = at;
      return none;
    }
    return {at, close + 1, std::string_view::npos};
  }
  return {};
}

// Digits only, at most max_digits of them (python-chess's \d{1,10}); -1 when not.
long long read_digits(std::string_view s, std::size_t max_digits) {
  if (s.size() > max_digits) return -1;
  long long v = 0;
  for (char c : s) {
    if (!is_digit(c)) return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

// `[+-]?(\d{0,10}\.\d{1,2}|\d{1,10}\.?)` in centipawns.
std::optional<int> read_pawns(std::string_view s) {
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  const std::size_t dot = s.find('.');
  const std::string_view whole = s.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  if (frac.size() > 2 || (whole.empty() && frac.empty())) return std::nullopt;
  const long long w = whole.empty() ? 0 : read_digits(whole, 10);
  const long long f = frac.empty() ? 0 : read_digits(frac, 2);
  if (w < 0 || f < 0 || w > core::Score::kMaxCentipawns / 100) return std::nullopt;
  const long long cp = w * 100 + (frac.size() == 1 ? f * 10 : f);
  return static_cast<int>(negative ? -cp : cp);
}

}  // namespace

namespace {

// `v` in decimal at `out`; the end of what was written.
char* put_number(char* out, int v) { return std::to_chars(out, out + 12, v).ptr; }

}  // namespace

std::string format_eval(core::Score score, core::Color side_to_move, int depth) {
  // (Written into a buffer: this runs for every position of every game.)
  char buffer[48] = "[%eval ";
  char* at = buffer + 7;
  const bool white = side_to_move == core::Color::White;
  if (score.is_mate() && score.mate_plies() == 0) {
    at = std::copy_n(white ? "#-0" : "#0", white ? 3 : 2, at);
  } else if (score.is_mate()) {
    // In moves, then turned: negating the plies first would miscount (mate in 5 plies is 3
    // moves for the side that mates, but -5 plies reads as mated in 2).
    const int moves = score.mate_moves();
    *at++ = '#';
    at = put_number(at, white ? moves : -moves);
  } else {
    // Pawns with two decimals; lichess and python-chess write no plus sign.
    const int cp = white ? score.cp() : -score.cp();
    const int a = std::abs(cp);
    if (cp < 0) *at++ = '-';
    at = put_number(at, a / 100);
    *at++ = '.';
    *at++ = static_cast<char>('0' + a % 100 / 10);
    *at++ = static_cast<char>('0' + a % 10);
  }
  if (depth > 0) {
    *at++ = ',';
    at = put_number(at, depth);
  }
  *at++ = ']';
  return std::string(buffer, at);
}

void replace_eval_in(std::string& comment, std::string_view eval_command) {
  const Span span = find_eval(comment);
  if (span.begin != std::string_view::npos) {
    // (A rerun over its own output finds the same command: nothing to change.)
    if (std::string_view(comment).substr(span.begin, span.end - span.begin) != eval_command)
      comment.replace(span.begin, span.end - span.begin, eval_command);
    return;
  }
  const bool space = !comment.empty() && !is_space(comment[0]);
  comment.insert(0, space ? std::string(eval_command) + ' ' : std::string(eval_command));
}

std::string replace_eval(std::string_view comment, std::string_view eval_command) {
  std::string out(comment);
  replace_eval_in(out, eval_command);
  return out;
}

Expected<std::optional<EvalReading>, std::string> read_eval(std::string_view comment) {
  const Span span = find_eval(comment);
  if (span.unclosed != std::string_view::npos)
    return unexpected("'" + std::string(comment.substr(span.unclosed, 20)) + "': an [%eval] command with no closing ']'");
  if (span.begin == std::string_view::npos) return std::optional<EvalReading>();
  const std::string_view command = comment.substr(span.begin, span.end - span.begin);
  const auto bad = [&](std::string_view why) {
    return unexpected("'" + std::string(command) + "': " + std::string(why) +
                            " (expected [%eval 0.35], [%eval -1.20,18], [%eval #3] or [%eval #-3])");
  };
  // "[%eval" and one white-space character, then the argument up to the closing bracket.
  std::string_view arg = command.substr(7, command.size() - 8);
  EvalReading reading;
  const std::size_t comma = arg.find(',');
  if (comma != std::string_view::npos) {
    const long long depth = read_digits(arg.substr(comma + 1), 9);
    if (comma + 1 == arg.size() || depth < 0) return bad("the depth is not a whole number");
    reading.depth = static_cast<int>(depth);
    arg = arg.substr(0, comma);
  }
  if (!arg.empty() && arg[0] == '#') {
    std::string_view m = arg.substr(1);
    const bool negative = !m.empty() && m[0] == '-';
    if (!m.empty() && (m[0] == '-' || m[0] == '+')) m.remove_prefix(1);
    const long long moves = m.empty() ? -1 : read_digits(m, 5);
    if (moves < 0 || moves > core::Score::kMaxMatePlies / 2) return bad("the mate is not a whole number of moves");
    if (moves == 0) {
      reading.checkmated = negative ? core::Color::White : core::Color::Black;
      reading.white = core::Score::mate_in_plies(0);
    } else {
      reading.white = core::Score::from_uci_mate(static_cast<int>(negative ? -moves : moves));
    }
    return reading;
  }
  const std::optional<int> cp = read_pawns(arg);
  if (!cp) return bad("the evaluation is not pawns with at most two decimals");
  reading.white = core::Score::centipawns(*cp);
  return reading;
}

}  // namespace epdd::annotate
