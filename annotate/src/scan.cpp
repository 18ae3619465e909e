#include "annotate/input_game.hpp"

#include "pgn/reader.hpp"

namespace epdd::annotate {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::size_t skip_space(std::string_view bytes, std::size_t at) {
  while (at < bytes.size() && is_space(bytes[at])) ++at;
  return at;
}

// Line and column (as the PGN lexer counts them: bytes from the line's start, 1-based) of
// offsets that only grow.
class Places {
 public:
  explicit Places(std::string_view bytes) : bytes_(bytes) {
    if (bytes.substr(0, 3) == "\xEF\xBB\xBF") line_start_ = 3;  // the lexer skips a byte-order mark
  }
  std::pair<std::size_t, std::size_t> at(std::size_t offset) {
    for (; at_ < offset && at_ < bytes_.size(); ++at_)
      if (bytes_[at_] == '\n') {
        ++line_;
        line_start_ = at_ + 1;
      }
    return {line_, offset >= line_start_ ? offset - line_start_ + 1 : 1};
  }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0, line_ = 1, line_start_ = 0;
};

}  // namespace

std::vector<InputGame> scan_games(std::string_view bytes) {
  pgn::Diagnostics diags;
  diags.keep_per_kind(0);  // the errors are taken as they arrive, the game's own batch at a time
  std::vector<pgn::Diagnostic> errors;
  diags.on_add([&](const pgn::Diagnostic& d) {
    if (d.severity == pgn::Severity::Error && d.game != 0) errors.push_back(d);
  });
  pgn::GameReader reader(bytes, diags);
  Places places(bytes);
  std::vector<InputGame> games;
  std::size_t previous_end = 0;
  for (pgn::Game g; reader.next(g); errors.clear()) {
    InputGame in;
    in.number = g.number;
    in.line = g.line;
    in.begin = games.empty() ? 0 : skip_space(bytes, previous_end);  // a byte-order mark goes with game 1
    in.end = std::max(g.byte_end, in.begin);
    previous_end = in.end;
    // Errors the reader reports past the game's end (a comment after its result, which it
    // keeps for the next game; a variation left open when the next game starts, which it
    // closes) lose nothing: they do not make the game unreadable.
    const auto end = places.at(in.end);
    for (const pgn::Diagnostic& d : errors)
      if (std::pair(d.line, d.column) < end) {
        in.readable = false;
        in.problem = std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
        break;
      }
    in.white = std::string(g.tag("White").value_or(""));
    in.black = std::string(g.tag("Black").value_or(""));
    if (in.readable) {
      in.moves = g.mainline();
      in.start = std::move(g.start);
    }
    games.push_back(std::move(in));
  }
  return games;
}

std::size_t tail_begin(std::string_view bytes, const std::vector<InputGame>& games) {
  const std::size_t from = games.empty() ? 0 : games.back().end;
  return skip_space(bytes, from);
}

}  // namespace epdd::annotate
