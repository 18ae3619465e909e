// The UCI codec. Every parser works on string_view tokens that point into the caller's line,
// so that multi-word values (option names, string defaults, `info string`) can be cut from the
// line as written instead of being re-joined with single spaces.
#include "uci/protocol.hpp"

#include <array>
#include <charconv>
#include <system_error>

#include <fmt/format.h>

namespace epdd::uci {

namespace {

constexpr int kMaxMateMoves = 10000;


bool is_blank(char c) { return c == ' ' || c == '\t'; }

// The tokens of a line, each a view into it; `span` gives back the original text with its inner
// spacing.
class Tokens {
 public:
  explicit Tokens(std::string_view line) {
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && is_blank(line[i])) ++i;
      const std::size_t start = i;
      while (i < line.size() && !is_blank(line[i])) ++i;
      if (i > start) tokens_.push_back(line.substr(start, i - start));
    }
  }

  std::size_t size() const { return tokens_.size(); }
  std::string_view operator[](std::size_t i) const { return tokens_[i]; }
  bool at(std::size_t i, std::string_view word) const { return i < size() && tokens_[i] == word; }

  // Tokens [first, last) as written, inner spacing kept; empty when first >= last.
  std::string span(std::size_t first, std::size_t last) const {
    if (first >= last || first >= size()) return {};
    const char* begin = tokens_[first].data();
    const char* end = tokens_[last - 1].data() + tokens_[last - 1].size();
    return std::string(begin, static_cast<std::size_t>(end - begin));
  }

 private:
  std::vector<std::string_view> tokens_;
};

template <class T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc{} || ptr != end || text.empty()) return std::nullopt;
  return value;
}

// ---- option ----------------------------------------------------------------------------------

std::optional<OptionType> option_type_from(std::string_view word) {
  static constexpr std::array<std::pair<std::string_view, OptionType>, 5> kTypes{{
      {"check", OptionType::Check},
      {"spin", OptionType::Spin},
      {"combo", OptionType::Combo},
      {"button", OptionType::Button},
      {"string", OptionType::String},
  }};
  for (const auto& [name, type] : kTypes)
    if (name == word) return type;
  return std::nullopt;
}

bool is_option_value_end(std::string_view word) {
  return word == "default" || word == "min" || word == "max" || word == "var";
}

// Index of the first token at or after `i` for which `stop` holds, or the end.
template <class Stop>
std::size_t run_until(const Tokens& t, std::size_t i, Stop stop) {
  while (i < t.size() && !stop(t[i])) ++i;
  return i;
}

std::optional<OptionLine> parse_option(const Tokens& t) {
  if (!t.at(1, "name")) return std::nullopt;
  const std::size_t type_at = run_until(t, 2, [](std::string_view w) { return w == "type"; });
  if (type_at == 2 || type_at + 1 >= t.size()) return std::nullopt;
  const auto type = option_type_from(t[type_at + 1]);
  if (!type) return std::nullopt;

  OptionLine option;
  option.name = t.span(2, type_at);
  option.type = *type;
  std::size_t i = type_at + 2;
  while (i < t.size()) {
    const std::string_view word = t[i++];
    if (word == "default") {
      // A string default is free text (a path may hold the word "min"): it runs to the end.
      const std::size_t end = option.type == OptionType::String
                                  ? t.size()
                                  : run_until(t, i, [](std::string_view w) {
                                      return w == "min" || w == "max" || w == "var";
                                    });
      option.default_value = t.span(i, end);
      i = end;
    } else if (word == "var") {
      const std::size_t end = run_until(t, i, is_option_value_end);
      option.vars.push_back(t.span(i, end));
      i = end;
    } else if (word == "min" || word == "max") {
      // A bound that is not a number is left absent rather than guessed.
      auto& bound = word == "min" ? option.min : option.max;
      if (i < t.size() && !is_option_value_end(t[i])) bound = parse_number<long long>(t[i++]);
    }
    // Anything else between keywords is noise the grammar has no place for: skipped.
  }
  return option;
}

// ---- bestmove --------------------------------------------------------------------------------

bool is_no_move(std::string_view move) { return move == "(none)" || move == "0000" || move == "a1a1"; }

std::optional<BestMove> parse_bestmove(const Tokens& t) {
  if (t.size() < 2) return std::nullopt;
  BestMove best;
  best.written = std::string(t[1]);
  if (is_no_move(t[1])) return best;  // a ponder move after "no move" (Toga) means nothing
  best.move = best.written;
  if (t.at(2, "ponder") && t.size() > 3 && !is_no_move(t[3])) best.ponder = std::string(t[3]);
  return best;
}

// ---- info ------------------------------------------------------------------------------------

// Every word that starts an info field. "sbhits" (Shredder bases, in the UCI text) has no field
// but still ends a move list; it and its value land in `unknown`.
bool is_info_keyword(std::string_view word) {
  static constexpr std::array<std::string_view, 20> kKeywords{
      "depth",    "seldepth", "multipv",    "score",      "wdl",        "nodes",    "nps",
      "time",     "hashfull", "tbhits",     "currmove",   "currmovenumber",       "cpuload",
      "pv",       "refutation", "currline", "string",     "lowerbound", "upperbound", "sbhits"};
  for (const auto keyword : kKeywords)
    if (keyword == word) return true;
  return false;
}

class InfoParser {
 public:
  explicit InfoParser(const Tokens& t) : t_(t) {}

  Info run() {
    while (i_ < t_.size()) {
      const std::string_view word = t_[i_++];
      if (!field(word)) info_.unknown.emplace_back(word);
    }
    return std::move(info_);
  }

 private:
  // Parses the field that `word` starts; false if `word` starts none.
  bool field(std::string_view word) {
    if (word == "depth") return number(info_.depth);
    if (word == "seldepth") return number(info_.seldepth);
    if (word == "multipv") return number(info_.multipv);
    if (word == "nodes") return number(info_.nodes);
    if (word == "nps") return number(info_.nps);
    if (word == "time") return number(info_.time_ms);
    if (word == "hashfull") return number(info_.hashfull);
    if (word == "tbhits") return number(info_.tbhits);
    if (word == "currmovenumber") return number(info_.currmovenumber);
    if (word == "cpuload") return number(info_.cpuload);
    if (word == "score") return score();
    if (word == "wdl") return wdl();
    if (word == "lowerbound" || word == "upperbound") return bound(word);
    if (word == "currmove") return currmove();
    if (word == "pv") return moves(info_.pv);
    if (word == "refutation") return moves(info_.refutation);
    if (word == "currline") return moves(info_.currline);
    if (word == "string") return rest();
    return false;
  }

  // The next token as a T, consumed only when it is one: a bad value stays for the main loop
  // (a keyword to parse, or an unknown token to keep).
  template <class T>
  std::optional<T> take_number() {
    if (i_ >= t_.size()) return std::nullopt;
    auto value = parse_number<T>(t_[i_]);
    if (value) ++i_;
    return value;
  }

  template <class T>
  bool number(std::optional<T>& out) {
    if (auto value = take_number<T>()) {
      out = *value;
    } else {
      info_.malformed = true;
    }
    return true;
  }

  bool score() {
    InfoScore score;
    if (t_.at(i_, "cp")) {
      score.kind = InfoScore::Kind::Centipawns;
    } else if (t_.at(i_, "mate")) {
      score.kind = InfoScore::Kind::Mate;
    } else {
      info_.malformed = true;
      return true;
    }
    ++i_;
    const auto value = take_number<int>();
    if (!value) {
      info_.malformed = true;
      return true;
    }
    // No engine searches a mate thousands of moves deep; a larger number is garbage, and would
    // overflow when turned into plies.
    if (score.kind == InfoScore::Kind::Mate && (*value > kMaxMateMoves || *value < -kMaxMateMoves)) {
      info_.malformed = true;
      return true;
    }
    score.value = *value;
    info_.score = score;
    return true;
  }

  // "lowerbound"/"upperbound" qualify the score; without one they are noise.
  bool bound(std::string_view word) {
    if (!info_.score) return false;
    info_.score->bound = word == "lowerbound" ? Bound::Lower : Bound::Upper;
    return true;
  }

  bool wdl() {
    const auto win = take_number<int>();
    const auto draw = win ? take_number<int>() : std::nullopt;
    const auto loss = draw ? take_number<int>() : std::nullopt;
    if (loss) {
      info_.wdl = Wdl{*win, *draw, *loss};
    } else {
      info_.malformed = true;
    }
    return true;
  }

  bool currmove() {
    if (i_ < t_.size() && !is_info_keyword(t_[i_])) {
      info_.currmove = std::string(t_[i_++]);
    } else {
      info_.malformed = true;
    }
    return true;
  }

  bool moves(std::vector<std::string>& out) {
    out.clear();
    while (i_ < t_.size() && !is_info_keyword(t_[i_])) out.emplace_back(t_[i_++]);
    return true;
  }

  bool rest() {
    info_.string = t_.span(i_, t_.size());
    i_ = t_.size();
    return true;
  }

  const Tokens& t_;
  std::size_t i_ = 1;
  Info info_;
};

}  // namespace

EngineMessage parse_engine_line(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const Tokens t(line);
  OtherLine other{std::string(line)};
  if (t.size() == 0) return other;

  const std::string_view head = t[0];
  if (head == "info") return InfoParser(t).run();
  if (head == "bestmove") {
    if (auto best = parse_bestmove(t)) return *std::move(best);
    return other;
  }
  if (head == "option") {
    if (auto option = parse_option(t)) return *std::move(option);
    return other;
  }
  if (head == "id") {
    if (t.size() < 2) return other;
    return IdLine{std::string(t[1]), t.span(2, t.size())};
  }
  if (head == "uciok") return UciOk{};
  if (head == "readyok") return ReadyOk{};
  return other;
}

namespace {

// ---- writing ---------------------------------------------------------------------------------

// " word value" appended; a value that is empty gives the word alone.
void append_field(std::string& out, std::string_view word, std::string_view value) {
  out += ' ';
  out += word;
  if (!value.empty()) {
    out += ' ';
    out += value;
  }
}

template <class T>
void append_number(std::string& out, std::string_view word, const std::optional<T>& value) {
  if (value) out += fmt::format(" {} {}", word, *value);
}

void append_moves(std::string& out, std::string_view word, const std::vector<std::string>& moves) {
  if (!moves.empty()) out += fmt::format(" {} {}", word, fmt::join(moves, " "));
}

std::string info_line(const Info& info) {
  std::string out = "info";
  for (const auto& token : info.unknown) (out += ' ') += token;
  append_number(out, "depth", info.depth);
  append_number(out, "seldepth", info.seldepth);
  append_number(out, "multipv", info.multipv);
  if (info.score) {
    out += fmt::format(" score {} {}", info.score->kind == InfoScore::Kind::Mate ? "mate" : "cp", info.score->value);
    if (info.score->bound != Bound::Exact) (out += ' ') += to_string(info.score->bound);
  }
  if (info.wdl) out += fmt::format(" wdl {} {} {}", info.wdl->win, info.wdl->draw, info.wdl->loss);
  append_number(out, "nodes", info.nodes);
  append_number(out, "nps", info.nps);
  append_number(out, "time", info.time_ms);
  append_number(out, "hashfull", info.hashfull);
  append_number(out, "tbhits", info.tbhits);
  if (info.currmove) append_field(out, "currmove", *info.currmove);
  append_number(out, "currmovenumber", info.currmovenumber);
  append_number(out, "cpuload", info.cpuload);
  append_moves(out, "pv", info.pv);
  append_moves(out, "refutation", info.refutation);
  append_moves(out, "currline", info.currline);
  if (info.string) append_field(out, "string", *info.string);
  return out;
}

std::string option_line(const OptionLine& option) {
  std::string out = fmt::format("option name {} type {}", option.name, to_string(option.type));
  // A string's default runs to the end of the line: last. Any other default ends at min, max
  // or var, so it may come first.
  const bool default_last = option.type == OptionType::String;
  if (option.default_value && !default_last) append_field(out, "default", *option.default_value);
  append_number(out, "min", option.min);
  append_number(out, "max", option.max);
  for (const auto& var : option.vars) append_field(out, "var", var);
  if (option.default_value && default_last) append_field(out, "default", *option.default_value);
  return out;
}

struct LineWriter {
  std::string operator()(const IdLine& id) const {
    std::string out = "id " + id.key;
    if (!id.value.empty()) (out += ' ') += id.value;
    return out;
  }
  std::string operator()(const OptionLine& option) const { return option_line(option); }
  std::string operator()(const UciOk&) const { return "uciok"; }
  std::string operator()(const ReadyOk&) const { return "readyok"; }
  std::string operator()(const BestMove& best) const {
    std::string out = "bestmove " + best.written;
    if (!best.ponder.empty()) (out += " ponder ") += best.ponder;
    return out;
  }
  std::string operator()(const Info& info) const { return info_line(info); }
  std::string operator()(const OtherLine& other) const { return other.text; }
};

}  // namespace

std::string engine_line(const EngineMessage& message) {
  std::string out = std::visit(LineWriter{}, message);
  if (!out.empty() && out.back() == '\r') out += '\r';
  return out;
}

const char* to_string(OptionType type) {
  switch (type) {
    case OptionType::Check: return "check";
    case OptionType::Spin: return "spin";
    case OptionType::Combo: return "combo";
    case OptionType::Button: return "button";
    case OptionType::String: return "string";
  }
  return "?";
}

const char* to_string(Bound bound) {
  switch (bound) {
    case Bound::Exact: return "exact";
    case Bound::Lower: return "lowerbound";
    case Bound::Upper: return "upperbound";
  }
  return "?";
}

std::string position_command(std::string_view fen, const std::vector<std::string>& moves) {
  std::string out = fen.empty() ? std::string("position startpos") : fmt::format("position fen {}", fen);
  if (!moves.empty()) out += fmt::format(" moves {}", fmt::join(moves, " "));
  return out;
}

std::string go_command(const GoLimits& limits) {
  std::string out = "go";
  if (limits.infinite) {
    out += " infinite";
  } else {
    if (limits.depth) out += fmt::format(" depth {}", *limits.depth);
    if (limits.nodes) out += fmt::format(" nodes {}", *limits.nodes);
    if (limits.movetime_ms) out += fmt::format(" movetime {}", *limits.movetime_ms);
    if (limits.mate) out += fmt::format(" mate {}", *limits.mate);
    if (out == "go") out += " infinite";
  }
  // Last, so that the move list cannot swallow a limit in an engine that reads it greedily.
  if (!limits.searchmoves.empty()) out += fmt::format(" searchmoves {}", fmt::join(limits.searchmoves, " "));
  return out;
}

std::string setoption_command(std::string_view name, std::optional<std::string_view> value) {
  if (!value) return fmt::format("setoption name {}", name);
  // An empty value still ends in "value " (some engines look for that word and a space).
  return fmt::format("setoption name {} value {}", name, *value);
}

}  // namespace epdd::uci
