// The PGC reader: records a game at a time from a buffer or a stream; every item is checked
// against the bytes left, so a truncated or corrupt file is an error with its offset.
#include <algorithm>

#include "core/text.hpp"
#include "pgc_detail.hpp"
#include "pgn/tags.hpp"

namespace epdd::pgn {

const char* name(PgcMarker m) {
  switch (m) {
    case PgcMarker::Noop: return "noop";
    case PgcMarker::ReducedGame: return "reduced export format single game";
    case PgcMarker::TagPair: return "tag pair";
    case PgcMarker::ShortMoves: return "short move sequence";
    case PgcMarker::LongMoves: return "long move sequence";
    case PgcMarker::GameBegin: return "general game data begin";
    case PgcMarker::GameEnd: return "general game data end";
    case PgcMarker::SimpleNag: return "simple NAG";
    case PgcMarker::RavBegin: return "RAV begin";
    case PgcMarker::RavEnd: return "RAV end";
    case PgcMarker::EscapeString: return "escape string";
  }
  return "unknown";
}

std::string to_string(const PgcError& e) {
  if (e.offset == 0 && e.game != 0) return e.message;  // a writing error names its game
  std::string out;
  if (e.offset || e.game == 0) out = "byte " + std::to_string(e.offset);
  if (e.game) out += (out.empty() ? "game " : ", game ") + std::to_string(e.game);
  return out + ": " + e.message;
}

const core::Board& detail::standard_start() {
  static const core::Board start;
  return start;
}

namespace {

constexpr std::size_t kMaxRavDepth = 1000;

std::string hex(unsigned v) {
  const char digits[] = "0123456789abcdef";
  return std::string("0x") + digits[(v >> 4) & 15] + digits[v & 15];
}

// The start position from SetUp, FEN and Variant (as the PGN reader takes it, FEN read
// leniently where strict reading fails), or why there is none.
Expected<core::Board, std::string> start_position(const Game& game) {
  bool chess960 = false;
  if (const Tag* variant = game.find_tag("Variant")) {
    const Variant v = classify_variant(variant->value);
    if (v == Variant::Unsupported)
      return unexpected("Variant " + core::quoted_escaped(variant->value) + " is not standard chess or Chess960");
    chess960 = v == Variant::Chess960;
  }
  const Tag* fen = game.find_tag("FEN");
  if (!fen) {
    if (const Tag* setup = game.find_tag("SetUp"); setup && setup->value == "1")
      return unexpected(std::string("SetUp \"1\" without a FEN tag: the start position is unknown"));
    core::Board b;
    b.set_chess960(chess960);
    return b;
  }
  std::vector<core::FenNote> tolerated;  // PGC has no place for warnings: read as PGN reads it
  auto board = read_fen_tag(fen->value, chess960, tolerated);
  if (!board) return unexpected("FEN tag: " + board.error().message);
  if (chess960) board->set_chess960(true);
  return std::move(*board);
}

}  // namespace

// Decodes one game's records; errors carry the offset of the record or item at fault.
class PgcReader::Input {
 public:
  explicit Input(PgcReader& r) : r_(r) {}

  Expected<bool, PgcError> game(Game& game);

 private:
  struct Frame {
    Variation* line;
    core::Board board;  // the position after the line's last move
  };

  PgcError error(std::size_t offset, std::string message) const {
    return PgcError{offset, r_.games_, std::move(message)};
  }
  // The item at `at` needs n more bytes.
  Expected<void, PgcError> need(std::size_t n, std::size_t at, const char* what) {
    if (r_.fill(n)) return {};
    return unexpected(error(at, std::string("the data ends inside ") + what + " (" + std::to_string(n) +
                                    " bytes needed, " + std::to_string(r_.view_.size() - r_.pos_) + " left)"));
  }
  Expected<std::size_t, PgcError> length(std::size_t bytes, const char* what) {
    const std::size_t at = r_.offset();
    if (auto ok = need(bytes, at, what); !ok) return unexpected(ok.error());
    std::size_t v = 0;
    for (std::size_t i = 0; i < bytes; ++i) v |= static_cast<std::size_t>(static_cast<unsigned char>(r_.view_[r_.pos_ + i])) << (8 * i);
    r_.pos_ += bytes;
    return v;
  }
  Expected<void, PgcError> string(std::size_t header, std::string& out, const char* what) {
    // Where the whole string is in the buffer already (nearly always), no checks to report.
    if (const std::size_t left = r_.view_.size() - r_.pos_; left >= header) {
      std::size_t n = 0;
      for (std::size_t i = 0; i < header; ++i)
        n |= static_cast<std::size_t>(static_cast<unsigned char>(r_.view_[r_.pos_ + i])) << (8 * i);
      if (left - header >= n) {
        core::latin1_to_utf8(r_.view_.substr(r_.pos_ + header, n), out);
        r_.pos_ += header + n;
        return {};
      }
    }
    const std::size_t at = r_.offset();
    auto n = length(header, what);
    if (!n) return unexpected(n.error());
    if (auto ok = need(*n, at, what); !ok) return ok;
    core::latin1_to_utf8(r_.view_.substr(r_.pos_, *n), out);
    r_.pos_ += *n;
    return {};
  }

  // A tag whose strings may have room already (one of an earlier game's).
  Tag spare_tag() {
    if (r_.spare_tags_.empty()) return Tag{};
    Tag t = std::move(r_.spare_tags_.back());
    r_.spare_tags_.pop_back();
    t.line = t.column = 0;  // PGC has no lines
    return t;
  }
  Expected<bool, PgcError> reduced(Game& game);
  Expected<bool, PgcError> general(Game& game, std::size_t begin);
  Expected<void, PgcError> general_record(Game& game, std::uint8_t marker, std::size_t at);
  Expected<void, PgcError> moves(std::size_t header, std::size_t at);
  Expected<void, PgcError> start_moves(Game& game, std::size_t at);
  void begin_game(Game& game);

  PgcReader& r_;
  std::vector<Frame> frames_;
};

void PgcReader::Input::begin_game(Game& game) {
  ++r_.games_;
  game.escapes = std::move(r_.pending_escapes_);
  r_.pending_escapes_.clear();
  // The last game's tags become spares whose strings the new tags reuse.
  for (Tag& t : game.tags) r_.spare_tags_.push_back(std::move(t));
  game.tags.clear();
  game.main.comments_before.clear();
  game.main.moves.clear();
  game.result = "*";
  game.result_written = true;
  game.start = detail::standard_start();
  game.number = r_.games_;
  game.line = 0;
  frames_.clear();
}

Expected<bool, PgcError> PgcReader::Input::game(Game& game) {
  for (;;) {
    const std::size_t at = r_.offset();
    if (!r_.fill(1)) {
      if (!r_.pending_escapes_.empty())
        return unexpected(error(at, "the data ends after an escape string that belongs to no game"));
      return false;
    }
    const auto marker = static_cast<std::uint8_t>(r_.view_[r_.pos_++]);
    switch (static_cast<PgcMarker>(marker)) {
      case PgcMarker::Noop: continue;
      case PgcMarker::EscapeString: {
        std::string e;
        if (auto ok = string(2, e, "an escape string"); !ok) return unexpected(ok.error());
        r_.pending_escapes_.push_back(std::move(e));
        continue;
      }
      case PgcMarker::ReducedGame: begin_game(game); return reduced(game);
      case PgcMarker::GameBegin: begin_game(game); return general(game, at);
      default: break;
    }
    const std::string what = marker <= 0x0a ? std::string(" (") + name(static_cast<PgcMarker>(marker)) + ")" : "";
    return unexpected(error(at, "marker " + hex(marker) + what + " outside a game"));
  }
}

Expected<bool, PgcError> PgcReader::Input::reduced(Game& game) {
  for (std::string_view name : kSevenTagRoster) {
    Tag t = spare_tag();
    t.name = name;
    if (auto ok = string(1, t.value, "a reduced game's tag value"); !ok) return unexpected(ok.error());
    game.tags.push_back(std::move(t));
  }
  game.result = std::string(game.tags.back().value == "1-0" || game.tags.back().value == "0-1" ||
                                    game.tags.back().value == "1/2-1/2"
                                ? game.tags.back().value
                                : "*");
  frames_.push_back({&game.main, game.start});
  const std::size_t at = r_.offset();
  if (auto ok = moves(2, at); !ok) return unexpected(ok.error());
  game.byte_end = r_.offset();
  return true;
}

Expected<bool, PgcError> PgcReader::Input::general(Game& game, std::size_t begin) {
  for (;;) {
    const std::size_t at = r_.offset();
    if (!r_.fill(1))
      return unexpected(error(at, "the data ends inside the game begun at byte " + std::to_string(begin)));
    const auto marker = static_cast<std::uint8_t>(r_.view_[r_.pos_++]);
    if (marker == static_cast<std::uint8_t>(PgcMarker::GameEnd)) {
      if (frames_.size() > 1)
        return unexpected(error(at, "the game ends with " + std::to_string(frames_.size() - 1) + " variation(s) open"));
      if (const Tag* result = game.find_tag("Result")) {
        const std::string& v = result->value;
        game.result = v == "1-0" || v == "0-1" || v == "1/2-1/2" ? v : "*";
      }
      if (frames_.empty()) {
        // No moves: the start position is still taken from the tags when it can be.
        if (auto start = start_position(game)) game.start = std::move(*start);
      }
      game.byte_end = r_.offset();
      return true;
    }
    if (auto ok = general_record(game, marker, at); !ok) return unexpected(ok.error());
  }
}

Expected<void, PgcError> PgcReader::Input::general_record(Game& game, std::uint8_t marker, std::size_t at) {
  switch (static_cast<PgcMarker>(marker)) {
    case PgcMarker::Noop: return {};
    case PgcMarker::TagPair: {
      if (!frames_.empty()) return unexpected(error(at, "a tag pair after the moves"));
      Tag t = spare_tag();
      if (auto ok = string(1, t.name, "a tag name"); !ok) return ok;
      if (auto ok = string(1, t.value, "a tag value"); !ok) return ok;
      game.tags.push_back(std::move(t));
      return {};
    }
    case PgcMarker::EscapeString: {
      std::string e;
      if (auto ok = string(2, e, "an escape string"); !ok) return ok;
      game.escapes.push_back(std::move(e));
      return {};
    }
    case PgcMarker::ShortMoves:
    case PgcMarker::LongMoves:
      if (auto ok = start_moves(game, at); !ok) return ok;
      return moves(marker == static_cast<std::uint8_t>(PgcMarker::ShortMoves) ? 1 : 2, at);
    case PgcMarker::SimpleNag: {
      if (auto ok = start_moves(game, at); !ok) return ok;
      if (frames_.back().line->moves.empty()) return unexpected(error(at, "a NAG before any move of its line"));
      auto nag = length(1, "a simple NAG");
      if (!nag) return unexpected(nag.error());
      Annotation a;
      a.nag = static_cast<std::uint8_t>(*nag);
      frames_.back().line->moves.back().after.push_back(std::move(a));
      return {};
    }
    case PgcMarker::RavBegin: {
      if (auto ok = start_moves(game, at); !ok) return ok;
      if (frames_.back().line->moves.empty()) return unexpected(error(at, "a variation before any move of its line"));
      if (frames_.size() > kMaxRavDepth)
        return unexpected(error(at, "variations nested more than " + std::to_string(kMaxRavDepth) + " deep"));
      Annotation a;
      a.kind = Annotation::Kind::Variation;
      a.variation.resize(1);
      auto& after = frames_.back().line->moves.back().after;
      after.push_back(std::move(a));
      core::Board board = frames_.back().board;
      board.unmake_move();  // the variation replaces the line's last move
      frames_.push_back({&after.back().variation.front(), std::move(board)});
      return {};
    }
    case PgcMarker::RavEnd:
      if (frames_.size() < 2) return unexpected(error(at, "a RAV end without its RAV begin"));
      frames_.pop_back();
      return {};
    default: break;
  }
  const std::string what = marker <= 0x0a ? std::string(" (") + name(static_cast<PgcMarker>(marker)) + ")" : "";
  return unexpected(error(at, "marker " + hex(marker) + what + " inside a general game"));
}

// Before the first move record: the start position from the tags, fixed from now on.
Expected<void, PgcError> PgcReader::Input::start_moves(Game& game, std::size_t at) {
  if (!frames_.empty()) return {};
  auto start = start_position(game);
  if (!start) return unexpected(error(at, start.error() + ": the moves cannot be played"));
  game.start = std::move(*start);
  frames_.push_back({&game.main, game.start});
  return {};
}

Expected<void, PgcError> PgcReader::Input::moves(std::size_t header, std::size_t at) {
  auto n = length(header, header == 1 ? "an mvseq-1 header" : "an mvseq-2 header");
  if (!n) return unexpected(n.error());
  const std::size_t first = r_.offset();
  if (auto ok = need(*n, at, "a move sequence"); !ok) return ok;
  Frame& f = frames_.back();
  f.line->moves.reserve(f.line->moves.size() + *n);
  f.board.reserve_history(f.board.ply() + *n);
  for (std::size_t i = 0; i < *n; ++i) {
    const auto ordinal = static_cast<std::uint8_t>(r_.view_[r_.pos_ + i]);
    std::size_t count = 0;
    const auto move = detail::move_of(f.board, ordinal, &count);
    if (!move)
      return unexpected(error(first + i, "move ordinal " + std::to_string(ordinal) + " where the position has " +
                                             std::to_string(count) + " legal moves"));
    f.line->moves.push_back(MoveNode{*move, {}});
    f.board.make_move(*move);
  }
  r_.pos_ += *n;
  return {};
}

PgcReader::PgcReader(std::string_view data) : view_(data) {}

PgcReader::PgcReader(std::istream& in) : in_(&in) {}

bool PgcReader::fill(std::size_t n) {
  if (view_.size() - pos_ >= n) return true;
  if (!in_) return false;
  buffer_.erase(0, pos_);
  base_ += pos_;
  pos_ = 0;
  while (buffer_.size() < n && *in_) {
    const std::size_t old = buffer_.size();
    const std::size_t chunk = std::max<std::size_t>(1u << 16, n - old);
    buffer_.resize(old + chunk);
    in_->read(buffer_.data() + old, static_cast<std::streamsize>(chunk));
    buffer_.resize(old + static_cast<std::size_t>(in_->gcount()));
  }
  view_ = buffer_;
  return buffer_.size() >= n;
}

Expected<bool, PgcError> PgcReader::next(Game& game) {
  if (failed_) return unexpected(*failed_);
  auto r = Input(*this).game(game);
  if (!r) failed_ = r.error();
  return r;
}

Expected<std::vector<Game>, PgcError> read_pgc(std::string_view data) {
  PgcReader reader(data);
  std::vector<Game> games;
  Game g;
  for (;;) {
    auto r = reader.next(g);
    if (!r) return unexpected(r.error());
    if (!*r) return games;
    games.push_back(std::move(g));
    g = Game();
  }
}

}  // namespace epdd::pgn
