// Reading a ChessLive! move file: fields split at ';', each MoveSpec's steps played on a copy of
// the placement and matched to the one legal move that leaves the same placement.
#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <vector>

#include "chesslive_internal.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "pgn/chesslive.hpp"
#include "pgn/reader.hpp"

namespace epdd::pgn {

std::string to_string(const ClmError& e) {
  if (e.line == 0) return e.message;
  return "line " + std::to_string(e.line) + ", column " + std::to_string(e.column) + " (byte " +
         std::to_string(e.offset) + "): " + e.message;
}

namespace {

using Placement = std::array<core::Piece, 64>;

struct Field {
  std::string_view text;
  std::size_t offset;
};

// One step: from a square, or a drop of a piece type; onto a square.
struct Step {
  std::optional<core::Square> from;
  core::PieceType drop = core::PieceType::None;
  core::Square to = core::Square::A1;
};

std::string_view trim(std::string_view s, std::size_t* offset = nullptr) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n')) {
    s.remove_prefix(1);
    if (offset) ++*offset;
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

// <number>: digits only.
std::optional<long> number(std::string_view s) {
  long v = 0;
  if (s.empty() || s.front() < '0' || s.front() > '9') return std::nullopt;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// <signed number>: digits after an optional '+' or '-'.
std::optional<long> signed_number(std::string_view s) {
  const bool negative = s.starts_with('-');
  if (negative || s.starts_with('+')) s.remove_prefix(1);
  auto v = number(s);
  if (!v) return std::nullopt;
  return negative ? -*v : *v;
}

// Input as messages show it: control bytes escaped, cut after 48 bytes (a 1 MB field stays
// out of the message); shown() also quotes it.
std::string cut(std::string_view s) {
  constexpr std::size_t kShown = 48;
  if (s.size() <= kShown) return core::escaped(s);
  return core::escaped(s.substr(0, kShown)) + "... (" + std::to_string(s.size()) + " bytes)";
}
std::string shown(std::string_view s) { return "'" + cut(s) + "'"; }

Placement placement_of(const core::Board& b) {
  Placement p;
  for (int i = 0; i < 64; ++i) p[static_cast<std::size_t>(i)] = b.piece_on(core::square_at(i));
  return p;
}

class Reader {
 public:
  Reader(std::string_view text, const ClmReadOptions& o) : text_(text), board_(o.start) {}
  Expected<Game, ClmError> run();

 private:
  ClmError error(std::size_t offset, std::string message) const;
  std::string who() const { return "game " + cut(white_) + " - " + cut(black_); }
  std::string move_name() const {
    return "move " + std::to_string(board_.fullmove_number()) +
           (board_.side_to_move() == core::Color::White ? " (White)" : " (Black)");
  }
  Expected<std::vector<Step>, ClmError> parse_steps(Field f) const;
  std::vector<core::Move> leaving(const Placement& want);
  Expected<core::Move, ClmError> match(Field f, const std::vector<Step>& steps, std::string_view santag);
  Expected<void, ClmError> move_spec(Field f, Game& game);

  std::string_view text_;
  core::Board board_;
  std::string white_, black_;
};

ClmError Reader::error(std::size_t offset, std::string message) const {
  ClmError e;
  e.offset = offset;
  e.line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset && i < text_.size(); ++i)
    if (text_[i] == '\n') {
      ++e.line;
      line_start = i + 1;
    }
  e.column = offset - line_start + 1;
  e.message = std::move(message);
  return e;
}

Expected<std::vector<Step>, ClmError> Reader::parse_steps(Field f) const {
  std::vector<std::string_view> parts;
  for (std::size_t pos = 0;;) {
    const std::size_t colon = f.text.find(':', pos);
    parts.push_back(f.text.substr(pos, colon == std::string_view::npos ? colon : colon - pos));
    if (colon == std::string_view::npos) break;
    pos = colon + 1;
  }
  const auto bad = [&](std::string why) {
    return unexpected(error(f.offset, who() + ", " + move_name() + ": steps " + shown(f.text) + ": " + why));
  };
  if (parts.size() % 2 != 0) return bad("a MoveStep is a FromSpec and a Square joined by ':' (odd number of parts)");
  std::vector<Step> steps;
  for (std::size_t i = 0; i < parts.size(); i += 2) {
    Step s;
    if (parts[i].size() == 1 && parts[i][0] >= 'a' && parts[i][0] <= 'z') {
      const std::string_view ids = "pnbrqk";
      const std::size_t id = ids.find(parts[i][0]);
      if (id == std::string_view::npos) return bad(shown(parts[i]) + " is no piece (p n b r q k)");
      s.drop = static_cast<core::PieceType>(id);
    } else {
      s.from = core::parse_square(parts[i]);
      if (!s.from) return bad(shown(parts[i]) + " is neither a square a1..h8 nor a piece letter");
    }
    auto to = core::parse_square(parts[i + 1]);
    if (!to) return bad(shown(parts[i + 1]) + " is not a square a1..h8");
    s.to = *to;
    steps.push_back(s);
  }
  return steps;
}

// The placement the steps leave; a step onto its own square changes nothing unless literal.
Placement after_steps(Placement p, const std::vector<Step>& steps, core::Color us, bool literal) {
  for (const Step& s : steps) {
    const auto to = static_cast<std::size_t>(core::index(s.to));
    if (!s.from) {
      p[to] = core::make_piece(us, s.drop);
      continue;
    }
    if (*s.from == s.to && !literal) continue;
    const auto from = static_cast<std::size_t>(core::index(*s.from));
    p[to] = p[from];  // copied, then the from-square cleared: literally, "e4:e4" clears e4
    p[from] = core::Piece::None;
  }
  return p;
}

std::vector<core::Move> Reader::leaving(const Placement& want) {
  std::vector<core::Move> found;
  for (core::Move m : board_.legal_moves()) {
    board_.make_move(m);
    const bool same = placement_of(board_) == want;
    board_.unmake_move();
    if (same) found.push_back(m);
  }
  return found;
}

Expected<core::Move, ClmError> Reader::match(Field f, const std::vector<Step>& steps, std::string_view santag) {
  const Placement now = placement_of(board_);
  const core::Color us = board_.side_to_move();
  std::vector<core::Move> found = leaving(after_steps(now, steps, us, false));
  const bool own_square = std::any_of(steps.begin(), steps.end(), [](const Step& s) { return s.from == s.to; });
  if (found.empty() && own_square) found = leaving(after_steps(now, steps, us, true));
  if (found.size() > 1 && steps.front().from) {
    std::erase_if(found, [&](core::Move m) { return m.from() != *steps.front().from; });
  }
  const std::string at = who() + ", " + move_name() + ": steps " + shown(f.text) + " ";
  if (found.empty()) {
    for (const Step& s : steps)
      if (!s.from)
        return unexpected(error(f.offset, at + "drop a piece (" + "pnbrqk"[core::index(s.drop)] + " on " +
                                              core::square_name(s.to) +
                                              "): chess has no drops, and this drop completes no promotion "
                                              "('g7:g8:q:g8') or Chess960 castling ('f1:g1:r:f1')"));
    return unexpected(error(f.offset, at + "are no legal move here"));
  }
  if (found.size() > 1) return unexpected(error(f.offset, at + "match " + std::to_string(found.size()) + " legal moves"));
  const core::Move m = found.front();
  const bool castle = m.kind() == core::MoveKind::Castling;
  const bool king_side = core::file_of(m.to()) > core::file_of(m.from());
  if ((santag == "O-O" && !(castle && king_side)) || (santag == "O-O-O" && !(castle && !king_side)))
    return unexpected(error(f.offset, at + "carry the SANtag " + shown(santag) + " but are no " +
                                          (santag == "O-O" ? "king-side" : "queen-side") + " castling"));
  return found.front();
}

Expected<void, ClmError> Reader::move_spec(Field f, Game& game) {
  std::vector<Field> parts;
  for (std::size_t pos = 0;;) {
    const std::size_t slash = f.text.find('/', pos);
    parts.push_back({f.text.substr(pos, slash == std::string_view::npos ? slash : slash - pos), f.offset + pos});
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  const auto bad = [&](const Field& at, std::string why) {
    return unexpected(error(at.offset, who() + ", " + move_name() + ", " + shown(f.text) + ": " + why));
  };
  if (parts.size() != 1 && parts.size() != 4 && parts.size() != 5)
    return bad(f, "a MoveSpec is Move, Move/Depth/Score/Time or Move/Depth/Score/Time/SANtag");
  if (parts[0].text.empty()) return bad(f, "no move");
  auto steps = parse_steps(parts[0]);
  if (!steps) return unexpected(steps.error());
  auto move = match(parts[0], *steps, parts.size() == 5 ? parts[4].text : std::string_view{});
  if (!move) return unexpected(move.error());
  MoveNode node{*move, {}};
  if (parts.size() > 1) {
    clm::MoveData d;
    auto depth = number(parts[1].text);
    if (!depth || *depth > 100000)
      return bad(parts[1], "Depth " + shown(parts[1].text) + " is not a number of plies");
    d.depth = static_cast<int>(*depth);
    if (!parts[2].text.empty()) {
      d.score = signed_number(parts[2].text);
      if (!d.score || *d.score > clm::kMateScore || *d.score < -clm::kMateScore)
        return bad(parts[2], "Score " + shown(parts[2].text) + " is not centipawns (|score| <= 100000)");
    } else if (d.depth > 0) {
      return bad(parts[2], "a Depth without a Score");
    }
    if (!parts[3].text.empty()) {
      d.seconds = number(parts[3].text);
      if (!d.seconds || *d.seconds > 3600L * 1000000)
        return bad(parts[3], "Time " + shown(parts[3].text) + " is not a number of seconds");
    }
    const std::string c = clm::data_comment(d);
    if (!c.empty()) node.after.push_back({Annotation::Kind::Comment, 0, c, {}});
  }
  board_.make_move(*move);
  game.main.moves.push_back(std::move(node));
  return {};
}

Expected<Game, ClmError> Reader::run() {
  std::string_view body = text_;
  if (body.ends_with("\r\n")) body.remove_suffix(2);
  else if (body.ends_with('\n')) body.remove_suffix(1);
  std::vector<Field> fields;
  const bool bom = body.starts_with("\xEF\xBB\xBF");  // a UTF-8 byte order mark is no part of a name
  for (std::size_t pos = bom ? 3 : 0;;) {
    const std::size_t semi = body.find(';', pos);
    fields.push_back({body.substr(pos, semi == std::string_view::npos ? semi : semi - pos), pos});
    if (semi == std::string_view::npos) break;
    pos = semi + 1;
  }
  if (fields.size() < 3)
    return unexpected(error(fields.back().offset + fields.back().text.size(),
                            "a move file starts WhitePlayer;BlackPlayer;MoveList (" +
                                std::to_string(fields.size() - 1) + " ';' found)"));
  Game game;
  game.start = board_;
  game.number = 1;
  game.line = 1;
  // The players without the white space around them (a file broken into lines, "A;\nB;\n...");
  // a name broken across lines cannot be a PGN tag, whose string holds one line.
  for (std::size_t i : {0, 1}) {
    Field f = fields[i];
    f.text = trim(f.text, &f.offset);
    if (const auto nl = f.text.find_first_of("\r\n"); nl != std::string_view::npos)
      return unexpected(error(f.offset + nl, std::string(i == 0 ? "WhitePlayer" : "BlackPlayer") +
                                                 " is broken across lines: a player's name is one line"));
    (i == 0 ? white_ : black_) = std::string(f.text);
  }
  game.set_tag("White", white_);
  game.set_tag("Black", black_);
  // The start the options gave, as PGN says it: without these tags an export loses it.
  if (board_.chess960()) game.set_tag("Variant", "Chess960");
  if (board_.chess960() || core::to_fen(board_) != core::kStartFen) {
    game.set_tag("SetUp", "1");
    game.set_tag("FEN", core::to_fen(board_));
  }
  std::string result = "*";
  for (std::size_t i = 2; i < fields.size(); ++i) {
    Field f = fields[i];
    f.text = trim(f.text, &f.offset);
    if (f.text == "+" || f.text == "=" || f.text == "-") {
      if (i + 2 != fields.size()) {
        const char* why = i + 1 == fields.size() ? " (no ';' Text)" : " (more fields follow: a file holds one game)";
        return unexpected(
            error(f.offset, who() + ": a result is followed by ';' and its Text, and ends the game" + why));
      }
      result = f.text == "+" ? "1-0" : f.text == "=" ? "1/2-1/2" : "0-1";
      // A comment as the PGN reader keeps one (its white space runs one space): a line break in
      // it would end a rest-of-line comment, which export writes for text holding '}'.
      const std::string text = normalize_comment(fields[i + 1].text);
      if (!text.empty()) {
        if (game.main.moves.empty()) game.main.comments_before.push_back(text);
        else game.main.moves.back().after.push_back({Annotation::Kind::Comment, 0, text, {}});
      }
      break;
    }
    if (f.text.empty() && i + 1 == fields.size() && i == 2) break;  // "A;B;": no moves, unfinished
    if (auto r = move_spec(f, game); !r) return unexpected(r.error());
  }
  game.set_tag("Result", result);
  game.result = result;
  game.byte_end = body.size();
  return game;
}

}  // namespace

Expected<Game, ClmError> read_chesslive(std::string_view text, const ClmReadOptions& options) {
  return Reader(text, options).run();
}

}  // namespace epdd::pgn
