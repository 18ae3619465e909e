// The PGC writer: a game as one reduced-export record (0x01) where it fits, else as a general
// game (0x05 ... 0x06). What PGC cannot hold is counted; without lossy any of it is an error.
#include <ostream>

#include "core/notation.hpp"
#include "pgc_detail.hpp"
#include "pgn/tags.hpp"

namespace epdd::pgn {

namespace {

using core::Move;

void put_marker(std::string& out, PgcMarker m) { out += static_cast<char>(m); }

void put_u16(std::string& out, std::size_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}

// Length of a valid UTF-8 sequence starting at s[i] with its code point, or 0 when s[i] does
// not start one.
std::size_t utf8_sequence(std::string_view s, std::size_t i, char32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto cont = [&](std::size_t k) { return i + k < s.size() && (b(k) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if (c >= 0xC2 && c <= 0xDF && cont(1)) {
    cp = static_cast<char32_t>(((c & 0x1F) << 6) | (b(1) & 0x3F));
    return 1 + 1;
  }
  if (c >= 0xE0 && c <= 0xEF && cont(1) && cont(2)) {
    cp = static_cast<char32_t>(((c & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F));
    const bool overlong = cp < 0x800, surrogate = cp >= 0xD800 && cp <= 0xDFFF;
    return overlong || surrogate ? 0 : 3;
  }
  if (c >= 0xF0 && c <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    cp = static_cast<char32_t>(((c & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) |
                               (b(3) & 0x3F));
    return cp < 0x10000 || cp > 0x10FFFF ? 0 : 4;
  }
  return 0;
}

// UTF-8 as Latin-1: code points up to U+00FF as their byte, others as '?', bytes that are not
// UTF-8 as themselves. Returns how many characters were not mapped exactly.
std::size_t to_latin1(std::string_view in, std::string& out) {
  if (detail::is_ascii(in)) {  // the same bytes
    out.append(in);
    return 0;
  }
  std::size_t replaced = 0;
  for (std::size_t i = 0; i < in.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_sequence(in, i, cp);
    if (n == 0) {
      out += in[i];
      ++replaced;
      ++i;
      continue;
    }
    if (cp > 0xFF) {
      out += '?';
      ++replaced;
    } else {
      out += static_cast<char>(cp);
    }
    i += n;
  }
  return replaced;
}

std::string describe_game(const Game& g) {
  std::string out = "game " + std::to_string(g.number);
  const auto white = g.tag("White");
  const auto black = g.tag("Black");
  if (white || black)
    out += " (" + std::string(white.value_or("?")) + " - " + std::string(black.value_or("?")) + ")";
  return out;
}

// The termination a reader takes from a Result tag value.
std::string_view termination_of(std::string_view value) {
  return value == "1-0" || value == "0-1" || value == "1/2-1/2" ? value : "*";
}

bool has_annotations(const Game& g) {
  if (!g.main.comments_before.empty()) return true;
  for (const MoveNode& node : g.main.moves)
    if (!node.after.empty()) return true;
  return false;
}

class GameEncoder {
 public:
  GameEncoder(std::string& out, const Game& game) : out_(out), game_(game) {}

  // Encodes the game; an error message for what cannot be held whatever the options.
  std::optional<std::string> encode() {
    for (const std::string& e : game_.escapes) {
      std::string latin;
      report_.characters += to_latin1(e, latin);
      if (latin.size() > 0xFFFF) return "an escape string of " + std::to_string(latin.size()) + " bytes (at most 65535)";
      put_marker(out_, PgcMarker::EscapeString);
      put_u16(out_, latin.size());
      out_ += latin;
    }
    if (fits_reduced()) return reduced();
    return general();
  }
  const PgcWriteReport& report() const { return report_; }

 private:
  bool fits_reduced() const {
    if (game_.tags.size() != kSevenTagRoster.size() || has_annotations(game_)) return false;
    if (game_.main.moves.size() > 0xFFFF) return false;
    for (std::string_view name : kSevenTagRoster) {
      const Tag* t = game_.find_tag(name);
      if (!t) return false;
    }
    for (std::size_t i = 0; i < game_.tags.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (game_.tags[i].name == game_.tags[j].name) return false;
    return game_.find_tag("Result")->value == game_.result && game_.start == detail::standard_start();
  }

  std::optional<std::string> reduced() {
    report_.reduced = true;
    put_marker(out_, PgcMarker::ReducedGame);
    for (std::string_view name : kSevenTagRoster)
      if (auto e = string1(game_.find_tag(name)->value, name)) return e;
    core::Board board = game_.start;
    board.reserve_history(game_.main.moves.size());
    std::string ordinals;
    ordinals.reserve(game_.main.moves.size());
    for (std::size_t ply = 0; ply < game_.main.moves.size(); ++ply) {
      const Move m = game_.main.moves[ply].move;
      if (auto e = ordinal(board, m, ordinals, ply)) return e;
      board.make_move(m);
    }
    put_u16(out_, ordinals.size());
    out_ += ordinals;
    return std::nullopt;
  }

  std::optional<std::string> general() {
    put_marker(out_, PgcMarker::GameBegin);
    const Tag* result = nullptr;
    for (const Tag& t : game_.tags) {
      if (auto e = tag(t.name, t.value)) return e;
      if (t.name == "Result" && !result) result = &t;
    }
    if (!result && game_.result != "*") {
      if (auto e = tag("Result", game_.result)) return e;
    } else if (result && termination_of(result->value) != game_.result) {
      ++report_.result_marks;
    }
    if (!game_.find_tag("FEN") && !(game_.start == detail::standard_start()))
      return std::string("the game starts from a set-up position but has no FEN tag");
    core::Board board = game_.start;
    board.reserve_history(game_.main.moves.size());
    if (auto e = line(game_.main, board, 0)) return e;
    put_marker(out_, PgcMarker::GameEnd);
    return std::nullopt;
  }

  std::optional<std::string> tag(std::string_view name, std::string_view value) {
    put_marker(out_, PgcMarker::TagPair);
    if (auto e = string1(name, "a tag name")) return e;
    return string1(value, name);
  }

  // The length byte, then the Latin-1 text written in place after it.
  std::optional<std::string> string1(std::string_view utf8, std::string_view what) {
    const std::size_t at = out_.size();
    out_ += '\0';
    report_.characters += to_latin1(utf8, out_);
    const std::size_t size = out_.size() - at - 1;
    if (size > 0xFF) return std::string(what) + " has " + std::to_string(size) + " bytes (a PGC string-1 holds at most 255)";
    out_[at] = static_cast<char>(size);
    return std::nullopt;
  }

  std::optional<std::string> ordinal(const core::Board& board, Move m, std::string& into, std::size_t ply) {
    const auto where = [&] { return " at ply " + std::to_string(ply + 1) + " of its line"; };
    if (m.is_null()) return "a null move" + where() + " (PGC codes only legal moves)";
    const auto ord = detail::ordinal_of(board, m);
    if (!ord) return "move " + core::to_uci(m) + where() + " is not legal or has no ordinal";
    into += static_cast<char>(*ord);
    return std::nullopt;
  }

  void flush_run() {
    for (std::size_t start = 0; start < run_.size(); start += 0xFFFF) {
      const std::size_t n = std::min<std::size_t>(0xFFFF, run_.size() - start);
      if (n <= 0xFF) {
        put_marker(out_, PgcMarker::ShortMoves);
        out_ += static_cast<char>(n);
      } else {
        put_marker(out_, PgcMarker::LongMoves);
        put_u16(out_, n);
      }
      out_.append(run_, start, n);
    }
    run_.clear();
  }

  // One line of play from `board`: left as it was found, but for the main line's (depth 0),
  // which nothing plays on afterwards.
  std::optional<std::string> line(const Variation& v, core::Board& board, int depth) {
    report_.comments += v.comments_before.size();
    std::size_t made = 0;
    std::optional<std::string> error;
    for (const MoveNode& node : v.moves) {
      if ((error = ordinal(board, node.move, run_, made))) break;
      if (!node.after.empty()) {
        flush_run();
        if ((error = annotations(node, board, depth))) break;
      }
      board.make_move(node.move);
      ++made;
    }
    flush_run();
    if (depth > 0)
      for (std::size_t i = 0; i < made; ++i) board.unmake_move();
    return error;
  }

  std::optional<std::string> annotations(const MoveNode& node, core::Board& board, int depth) {
    for (const Annotation& a : node.after) {
      switch (a.kind) {
        case Annotation::Kind::Nag:
          put_marker(out_, PgcMarker::SimpleNag);
          out_ += static_cast<char>(a.nag);
          break;
        case Annotation::Kind::Comment: ++report_.comments; break;
        case Annotation::Kind::Variation:
          put_marker(out_, PgcMarker::RavBegin);
          if (auto e = line(a.variation.front(), board, depth + 1)) return e;
          put_marker(out_, PgcMarker::RavEnd);
          break;
      }
    }
    return std::nullopt;
  }

  std::string& out_;
  const Game& game_;
  PgcWriteReport report_;
  std::string run_;  // move ordinals not yet written
};

std::string lossy_message(const PgcWriteReport& r) {
  std::string out;
  const auto add = [&](std::size_t n, const char* what) {
    if (!n) return;
    if (!out.empty()) out += ", ";
    out += std::to_string(n) + " " + what;
  };
  add(r.comments, r.comments == 1 ? "comment (PGC has no comment record)" : "comments (PGC has no comment record)");
  add(r.characters, r.characters == 1 ? "character that is not Latin-1 (or not UTF-8)"
                                      : "characters that are not Latin-1 (or not UTF-8)");
  add(r.result_marks, "termination marker that differs from the Result tag (PGC keeps the tag)");
  return out + " cannot be held in PGC; write with the lossy option to leave them out";
}

}  // namespace

PgcWriteReport& PgcWriteReport::operator+=(const PgcWriteReport& o) {
  comments += o.comments;
  characters += o.characters;
  result_marks += o.result_marks;
  return *this;
}

Expected<PgcWriteReport, PgcError> append_pgc(std::string& out, const Game& game, const PgcWriteOptions& options) {
  const std::size_t before = out.size();
  GameEncoder encoder(out, game);
  const auto error = encoder.encode();
  const PgcWriteReport& report = encoder.report();
  if (error || (!options.lossy && !report.lossless())) {
    out.resize(before);
    return unexpected(PgcError{0, game.number, describe_game(game) + ": " + (error ? *error : lossy_message(report))});
  }
  return report;
}

Expected<PgcWriteReport, PgcError> PgcWriter::write(const Game& game) {
  auto r = append_pgc(buffer_, game, options_);
  if (r) totals_ += *r;
  if (buffer_.size() >= (1u << 16)) flush();
  return r;
}

void PgcWriter::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

}  // namespace epdd::pgn
