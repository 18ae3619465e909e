#include "pgn/tags.hpp"

#include <algorithm>
#include <cctype>
#include <functional>

#include "core/text.hpp"

namespace epdd::pgn {

using core::quoted;

namespace {

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A positive integer of at most nine digits, or nullopt.
std::optional<long> positive(std::string_view s) {
  if (!all_digits(s) || s.size() > 9) return std::nullopt;
  const long v = std::stol(std::string(s));
  return v > 0 ? std::optional<long>(v) : std::nullopt;
}


}  // namespace

bool is_str_tag(std::string_view name) {
  return std::find(kSevenTagRoster.begin(), kSevenTagRoster.end(), name) != kSevenTagRoster.end();
}

std::string str_default(std::string_view name, const Game& game) {
  if (name == "Date") return "????.??.??";
  if (name == "Result") return game.result;
  return "?";
}

Expected<Date, std::string> parse_date(std::string_view v) {
  const std::string expected = "the Date format is YYYY.MM.DD with '?' for unknown digits";
  if (v.size() != 10 || v[4] != '.' || v[7] != '.') return unexpected(quoted(v) + ": " + expected);
  auto part = [&](std::string_view p, int min, int max) -> Expected<std::optional<int>, std::string> {
    if (std::all_of(p.begin(), p.end(), [](char c) { return c == '?'; })) return std::optional<int>{};
    if (!all_digits(p)) return unexpected(quoted(v) + ": " + expected);
    const int n = std::stoi(std::string(p));
    if (n < min || n > max) return unexpected(quoted(v) + ": " + std::string(p) + " is out of range");
    return std::optional<int>(n);
  };
  Date d;
  auto y = part(v.substr(0, 4), 0, 9999);
  auto m = part(v.substr(5, 2), 1, 12);
  auto day = part(v.substr(8, 2), 1, 31);
  if (!y) return unexpected(y.error());
  if (!m) return unexpected(m.error());
  if (!day) return unexpected(day.error());
  d.year = *y;
  d.month = *m;
  d.day = *day;
  if (d.year && d.month && d.day) {
    static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (*d.year % 4 == 0 && *d.year % 100 != 0) || *d.year % 400 == 0;
    const int days = *d.month == 2 && !leap ? 28 : kDays[*d.month - 1];
    if (*d.day > days) return unexpected(quoted(v) + ": there is no such day");
  }
  return d;
}

Expected<Round, std::string> parse_round(std::string_view v) {
  Round r;
  if (v == "?") return r;
  if (v == "-") {
    r.kind = Round::Kind::NotApplicable;
    return r;
  }
  r.kind = Round::Kind::Numbered;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = v.find('.', start);
    const std::string_view part = v.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!all_digits(part) || part.size() > 9)
      return unexpected(quoted(v) + ": a Round is '?', '-', or integers separated by periods (\"3.1\")");
    r.parts.push_back(std::stol(std::string(part)));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return r;
}

Expected<std::vector<TimeControlPeriod>, std::string> parse_time_control(std::string_view v) {
  std::vector<TimeControlPeriod> periods;
  std::size_t start = 0;
  for (;;) {
    const std::size_t colon = v.find(':', start);
    const bool last = colon == std::string_view::npos;
    const std::string_view f = v.substr(start, last ? std::string_view::npos : colon - start);
    TimeControlPeriod p;
    const auto bad = [&](const std::string& why) {
      return unexpected(std::string("TimeControl ") + quoted(v) + ": field " + quoted(f) + " " + why);
    };
    if (f == "?") {
      p.kind = TimeControlPeriod::Kind::Unknown;
    } else if (f == "-") {
      p.kind = TimeControlPeriod::Kind::None;
    } else if (const auto slash = f.find('/'); slash != std::string_view::npos) {
      const auto moves = positive(f.substr(0, slash));
      const auto secs = positive(f.substr(slash + 1));
      if (!moves || !secs) return bad("is not MOVES/SECONDS with two positive integers");
      p = {TimeControlPeriod::Kind::MovesInTime, *moves, *secs, 0};
    } else if (const auto plus = f.find('+'); plus != std::string_view::npos) {
      const auto base = positive(f.substr(0, plus));
      const auto inc = positive(f.substr(plus + 1));
      if (base && f.substr(plus + 1) == "0")
        return bad("has increment 0: the standard writes sudden death without one (" + std::string(f.substr(0, plus)) + ")");
      if (!base || !inc) return bad("is not SECONDS+INCREMENT with two positive integers");
      if (!last) return bad("is incremental, which may only be the last field");
      p = {TimeControlPeriod::Kind::Incremental, 0, *base, *inc};
    } else if (!f.empty() && f[0] == '*') {
      const auto secs = positive(f.substr(1));
      if (!secs) return bad("is not *SECONDS (a sandclock) with a positive integer");
      if (!last) return bad("is a sandclock, which may only be the last field");
      p = {TimeControlPeriod::Kind::Sandclock, 0, *secs, 0};
    } else if (const auto secs = positive(f)) {
      if (!last) return bad("is sudden death, which may only be the last field");
      p = {TimeControlPeriod::Kind::SuddenDeath, 0, *secs, 0};
    } else {
      return bad("is none of the six kinds (?, -, MOVES/SECONDS, SECONDS, SECONDS+INCREMENT, *SECONDS)");
    }
    periods.push_back(p);
    if (last) break;
    start = colon + 1;
  }
  return periods;
}

Variant classify_variant(std::string_view value) {
  std::string v = core::ascii_lowercase(value);
  v.erase(std::remove_if(v.begin(), v.end(), [](char c) { return c == ' ' || c == '-' || c == '_'; }), v.end());
  // lichess's "From Position" (key fromPosition): standard chess from the FEN tag.
  if (v.empty() || v == "standard" || v == "chess" || v == "normal" || v == "fromposition") return Variant::Standard;
  if (v == "chess960" || v == "fischerandom" || v == "fischerrandom" || v == "960" || v == "frc")
    return Variant::Chess960;
  return Variant::Unsupported;
}

namespace {

void check_value(const Game& g, Diagnostics& d, std::string_view name,
                 const std::function<std::optional<std::string>(std::string_view)>& check) {
  if (const Tag* t = g.find_tag(name))
    if (auto why = check(t->value)) d.add(Problem::TagValue, g.number, t->line, t->column, t->value, std::string(name) + ": " + *why);
}

template <class F>
std::function<std::optional<std::string>(std::string_view)> error_of(F parse) {
  return [parse](std::string_view v) -> std::optional<std::string> {
    auto r = parse(v);
    if (r) return std::nullopt;
    return r.error();
  };
}

}  // namespace

void check_game_tags(const Game& g, Diagnostics& d) {
  // At the tag concerned when there is one, else where the game starts.
  auto add_at = [&](const Tag* at, Problem p, std::string token, std::string message) {
    d.add(p, g.number, at ? at->line : g.line, at ? at->column : 1, std::move(token), std::move(message));
  };
  auto add = [&](Problem p, std::string token, std::string message) { add_at(nullptr, p, std::move(token), std::move(message)); };
  for (std::string_view name : kSevenTagRoster)
    if (!g.tag(name) && !g.tags.empty())
      add(Problem::TagValue, "", "the Seven Tag Roster tag " + std::string(name) + " is missing (export writes " +
                                     quoted(str_default(name, g)) + ")");
  check_value(g, d, "Date", error_of(parse_date));
  check_value(g, d, "UTCDate", error_of(parse_date));
  check_value(g, d, "EventDate", error_of(parse_date));
  check_value(g, d, "Round", error_of(parse_round));
  check_value(g, d, "TimeControl", error_of(parse_time_control));
  check_value(g, d, "SetUp", [](std::string_view v) -> std::optional<std::string> {
    if (v == "0" || v == "1") return std::nullopt;
    return "SetUp is \"0\" or \"1\"";
  });
  if (const Tag* fen = g.find_tag("FEN"); fen && g.tag("SetUp") != std::optional<std::string_view>("1"))
    add_at(fen, Problem::TagValue, "FEN", "a FEN tag needs SetUp \"1\" beside it");
  if (const Tag* r = g.find_tag("Result")) {
    const std::string& v = r->value;
    if (v != "1-0" && v != "0-1" && v != "1/2-1/2" && v != "*")
      add_at(r, Problem::TagValue, v, "Result is one of 1-0, 0-1, 1/2-1/2 and *");
    else if (g.result_written && v != g.result)
      add_at(r, Problem::ResultMismatch, v, "the Result tag says " + v + " but the movetext ends with " + g.result);
  }
  if (const Tag* pc = g.find_tag("PlyCount")) {
    const std::size_t plies = g.main.moves.size();
    if (!all_digits(pc->value)) add_at(pc, Problem::TagValue, pc->value, "PlyCount is a whole number of plies");
    else if (plies > 0 && std::stoul(pc->value.substr(0, 9)) != plies)
      add_at(pc, Problem::PlyCount, pc->value,
             "PlyCount is " + pc->value + " but the main line has " + std::to_string(plies) + " plies");
  }
}

Expected<core::Board, core::FenError> read_fen_tag(std::string_view value, bool chess960,
                                                   std::vector<core::FenNote>& tolerated) {
  core::FenReadOptions options;
  options.fields = core::FenFields::FourOrSix;
  options.chess960 = chess960;
  auto board = core::parse_fen(value, options);
  if (board) return board;
  options.lenient = true;
  auto lenient = core::parse_fen(value, options, &tolerated);
  if (!lenient) return board;  // the strict reading's error says more
  return lenient;
}

}  // namespace epdd::pgn
