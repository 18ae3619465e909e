#include "annotate/input_game.hpp"

#include <fstream>
#include <stdexcept>

#include "input_stream.hpp"
#include "core/text.hpp"
#include "pgn/formats.hpp"
#include "pgn/reader.hpp"

namespace epdd::annotate {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::size_t skip_space(detail::ForwardBytes& bytes, std::size_t at) {
  while (at < bytes.size() && is_space(bytes.at(at))) ++at;
  return at;
}

}  // namespace

namespace detail {

// Line and column (as the PGN lexer counts them: bytes from the line's start, 1-based) of
// offsets that only grow.
class Places {
 public:
  explicit Places(const InputBytes& bytes) : bytes_(bytes) {
    if (bytes.read(0, 3) == "\xEF\xBB\xBF") line_start_ = 3;  // the lexer skips a byte-order mark
  }
  std::pair<std::size_t, std::size_t> at(std::size_t offset) {
    for (; at_ < offset && at_ < bytes_.size(); ++at_)
      if (bytes_.at(at_) == '\n') {
        ++line_;
        line_start_ = at_ + 1;
      }
    return {line_, offset >= line_start_ ? offset - line_start_ + 1 : 1};
  }

 private:
  ForwardBytes bytes_;
  std::size_t at_ = 0, line_ = 1, line_start_ = 0;
};

}  // namespace detail

InputBytes bytes_in_memory(std::string_view bytes) {
  return {bytes.size(), [bytes](std::size_t offset, std::size_t length) {
            return offset < bytes.size() ? std::string(bytes.substr(offset, length)) : std::string();
          }};
}

namespace {

bool text_is_utf8(const pgn::Variation& v) {
  for (const std::string& c : v.comments_before)
    if (!core::is_utf8(c)) return false;
  for (const pgn::MoveNode& m : v.moves)
    for (const pgn::Annotation& a : m.after) {
      if (a.kind == pgn::Annotation::Kind::Comment && !core::is_utf8(a.comment)) return false;
      if (a.kind == pgn::Annotation::Kind::Variation && !text_is_utf8(a.variation.front())) return false;
    }
  return true;
}

// Whether every text of the game (tags, escape lines, comments) is valid UTF-8.
bool text_is_utf8(const pgn::Game& g) {
  for (const pgn::Tag& t : g.tags)
    if (!core::is_utf8(t.name) || !core::is_utf8(t.value)) return false;
  for (const std::string& e : g.escapes)
    if (!core::is_utf8(e)) return false;
  return text_is_utf8(g.main);
}

}  // namespace

namespace detail {

GameScanner::GameScanner(const InputBytes& bytes, pgn::Diagnostics& diags, bool known_utf8)
    : places_(std::make_unique<Places>(bytes)), forward_(bytes), known_utf8_(known_utf8) {
  diags.keep_per_kind(0);  // the errors are taken as they arrive, the game's own batch at a time
  diags.on_add([this](const pgn::Diagnostic& d) {
    if (d.severity == pgn::Severity::Error && d.game != 0) errors_.push_back(d);
  });
}

GameScanner::~GameScanner() = default;

InputGame GameScanner::take(const pgn::Game& g) {
  InputGame in;
  in.number = g.number;
  in.line = g.line;
  in.begin = first_ ? 0 : skip_space(forward_, previous_end_);  // a byte-order mark goes with game 1
  in.end = std::max(g.byte_end, in.begin);
  first_ = false;
  previous_end_ = in.end;
  // Errors the reader reports past the game's end (a comment after its result, which it
  // keeps for the next game; a variation left open when the next game starts, which it
  // closes) lose nothing: they do not make the game unreadable. (Lines are counted only when
  // there is an error to place.)
  if (!errors_.empty()) {
    const auto end = places_->at(in.end);
    for (const pgn::Diagnostic& d : errors_)
      if (std::pair(d.line, d.column) < end) {
        in.readable = false;
        in.problem = std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
        break;
      }
    errors_.clear();
  }
  if (in.readable) in.plies = g.main.moves.size();
  in.latin1 = !known_utf8_ && !text_is_utf8(g);
  return in;
}

std::size_t GameScanner::tail_begin() { return skip_space(forward_, previous_end_); }

}  // namespace detail

std::vector<InputGame> scan_games(const InputBytes& bytes) {
  pgn::Diagnostics diags;
  detail::GameScanner scanner(bytes, diags);
  detail::PartStream stream(bytes);
  pgn::GameReader reader(stream, diags);
  std::vector<InputGame> games;
  for (pgn::Game g; reader.next(g);) games.push_back(scanner.take(g));
  return games;
}

bool all_utf8(const InputBytes& bytes) {
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  std::string part;
  for (std::size_t at = 0; at < bytes.size;) {
    part += bytes.read(at, kChunk);  // after the bytes of a character the last chunk cut
    if (part.empty()) break;
    at += kChunk;
    // A character cut at the chunk's end waits for the next chunk: back to its first byte.
    std::size_t whole = part.size();
    if (at < bytes.size)
      for (std::size_t back = 1; back <= 3 && back <= part.size(); ++back)
        if ((static_cast<unsigned char>(part[part.size() - back]) & 0xC0) != 0x80) {
          if (static_cast<unsigned char>(part[part.size() - back]) >= 0xC0) whole = part.size() - back;
          break;
        }
    if (!core::is_utf8(std::string_view(part).substr(0, whole))) return false;
    part.erase(0, whole);
  }
  return part.empty() || core::is_utf8(part);
}

std::vector<InputGame> scan_games(std::string_view bytes) { return scan_games(bytes_in_memory(bytes)); }

bool is_pgn_file(const std::string& path) {
  if (auto format = pgn::game_format_of_suffix(path)) return *format == pgn::GameFormat::Pgn;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string head(pgn::kSniffBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return pgn::sniff_game_format(head) == pgn::GameFormat::Pgn;
}

Expected<std::string, std::string> input_as_pgn(const std::string& path, std::string bytes) {
  const auto format = pgn::game_format_of(path, std::string_view(bytes).substr(0, pgn::kSniffBytes));
  if (format == pgn::GameFormat::Pgn) return bytes;
  auto text = pgn::as_pgn_text(bytes, format);
  if (!text) return unexpected(core::escaped(path) + " (" + pgn::to_string(format) + "): " + text.error());
  return text;
}

struct GameCursor::Reader {
  explicit Reader(const InputBytes& bytes) : stream(bytes), reader(stream, diags) {}
  pgn::Diagnostics diags;
  detail::PartStream stream;
  pgn::GameReader reader;
};

GameCursor::GameCursor(const InputBytes& bytes) : bytes_(bytes) {}
GameCursor::~GameCursor() = default;

const pgn::Game& GameCursor::at(std::size_t index) {
  if (reader_ && index + 1 == next_) return game_;
  if (!reader_ || index < next_) {
    reader_.reset();  // the old stream goes before the new one reads
    reader_ = std::make_unique<Reader>(bytes_);
    reader_->diags.keep_per_kind(0);  // scan_games judged them already
    next_ = 0;
  }
  for (; next_ <= index; ++next_)
    if (!reader_->reader.next(game_)) {
      reader_.reset();
      throw std::out_of_range("GameCursor: no game " + std::to_string(index + 1) + " in the input");
    }
  return game_;
}

}  // namespace epdd::annotate
