#include "pgn/formats.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <streambuf>

#include "core/text.hpp"
#include "pgn/chesslive.hpp"
#include "pgn/pgc.hpp"
#include "pgn/writer.hpp"

namespace epdd::pgn {

const char* to_string(GameFormat f) {
  switch (f) {
    case GameFormat::Pgn: return "PGN";
    case GameFormat::Pgc: return "PGC";
    case GameFormat::ChessLive: return "ChessLive!";
  }
  return "?";
}

std::optional<GameFormat> game_format_named(std::string_view name) {
  const std::string lower = core::ascii_lowercase(name);
  if (lower == "pgn") return GameFormat::Pgn;
  if (lower == "pgc") return GameFormat::Pgc;
  if (lower == "clm") return GameFormat::ChessLive;
  return std::nullopt;
}

std::optional<GameFormat> game_format_of_suffix(std::string_view path) {
  const auto dot = path.rfind('.');
  if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos) return std::nullopt;
  return game_format_named(path.substr(dot + 1));
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trimmed_front(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

// What follows the players of a move file: a move step, a Result and ';' (or the end), or
// nothing.
bool starts_like_move_list(std::string_view rest) {
  rest = trimmed_front(rest);
  if (rest.empty()) return true;
  if (rest[0] == '+' || rest[0] == '=' || rest[0] == '-') {
    rest = trimmed_front(rest.substr(1));
    return rest.empty() || rest[0] == ';';
  }
  // FromSpec ":" Square: a square ("e2", "a10") or a PieceID ("q"), then ':' and a letter.
  if (rest.size() < 3 || !is_lower(rest[0])) return false;
  std::size_t i = 1;
  while (i < rest.size() && is_digit(rest[i])) ++i;
  return i + 1 < rest.size() && rest[i] == ':' && is_lower(rest[i + 1]);
}

}  // namespace

GameFormat sniff_game_format(std::string_view head) {
  if (!head.empty()) {
    const auto first = static_cast<unsigned char>(head[0]);
    if (first <= 0x0a && first != '\t' && first != '\n') return GameFormat::Pgc;
    // An escape string record first (0x0a, a line feed to PGN): PGC when record markers or
    // length bytes (0x00..0x08) follow, which PGN text never holds.
    if (first == '\n' && std::any_of(head.begin(), head.end(), [](char c) { return static_cast<unsigned char>(c) <= 0x08; }))
      return GameFormat::Pgc;
  }
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  head = trimmed_front(head);
  std::size_t semicolons = 0, at = 0;
  for (; at < head.size() && semicolons < 2; ++at) {
    const char c = head[at];
    if (c == '[' || c == '{' || c == '"') return GameFormat::Pgn;
    if (c == ';') ++semicolons;
  }
  if (semicolons == 2 && starts_like_move_list(head.substr(at))) return GameFormat::ChessLive;
  return GameFormat::Pgn;
}

GameFormat game_format_of(std::string_view path, std::string_view head) {
  if (auto f = game_format_of_suffix(path)) return *f;
  return sniff_game_format(head);
}

// The first bytes read to sniff the format, then the rest of the stream: a pipe is read once.
class AnyGameReader::Replay final : public std::streambuf {
 public:
  Replay(std::istream& in, std::string head) : in_(in), head_(std::move(head)) {
    setg(head_.data(), head_.data(), head_.data() + head_.size());
  }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    chunk_.resize(kChunk);
    in_.read(chunk_.data(), static_cast<std::streamsize>(chunk_.size()));
    const auto got = static_cast<std::size_t>(in_.gcount());
    if (got == 0) return traits_type::eof();
    setg(chunk_.data(), chunk_.data(), chunk_.data() + got);
    return traits_type::to_int_type(*gptr());
  }

 private:
  static constexpr std::size_t kChunk = std::size_t{1} << 16;
  std::istream& in_;
  std::string head_;
  std::string chunk_;
};

AnyGameReader::AnyGameReader(std::istream& in, std::optional<GameFormat> format, Diagnostics& diags,
                             AnyReadOptions options)
    : diags_(diags), options_(std::move(options)) {
  std::string head(kSniffBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  format_ = format ? *format : sniff_game_format(head);
  replay_ = std::make_unique<Replay>(in, std::move(head));
  stream_ = std::make_unique<std::istream>(replay_.get());
  if (format_ == GameFormat::Pgn) pgn_ = std::make_unique<GameReader>(*stream_, diags_, options_.pgn);
  if (format_ == GameFormat::Pgc) pgc_ = std::make_unique<PgcReader>(*stream_);
}

AnyGameReader::~AnyGameReader() = default;

bool AnyGameReader::next(Game& game) {
  if (done_) return false;
  if (pgn_) return pgn_->next(game);
  if (pgc_) {
    auto more = pgc_->next(game);
    if (more && *more) return true;
    done_ = true;
    if (!more) diags_.add(Problem::PgcData, more.error().game, 0, 0, {}, to_string(more.error()));
    return false;
  }
  done_ = true;  // a move file holds one game
  const std::string text{std::istreambuf_iterator<char>(*stream_), std::istreambuf_iterator<char>()};
  auto read = read_chesslive(text, ClmReadOptions{options_.chesslive_start});
  if (!read) {
    const ClmError& e = read.error();
    diags_.add(Problem::MoveFile, 1, e.line, e.column, {}, e.message);
    return false;
  }
  game = std::move(*read);
  game.number = 1;
  if (game.line == 0) game.line = 1;
  game.byte_end = text.size();
  return true;
}

Expected<std::string, std::string> as_pgn_text(std::string_view data, GameFormat format, const AnyReadOptions& options) {
  if (format == GameFormat::Pgn) return std::string(data);
  if (format == GameFormat::ChessLive) {
    auto game = read_chesslive(data, ClmReadOptions{options.chesslive_start});
    if (!game) return unexpected(to_string(game.error()));
    std::string text;
    append_game(text, *game);
    return text;
  }
  PgcReader reader(data);
  std::string text;
  for (Game g;;) {
    auto more = reader.next(g);
    if (!more) return unexpected(to_string(more.error()));
    if (!*more) return text;
    append_game(text, g);
  }
}

}  // namespace epdd::pgn
