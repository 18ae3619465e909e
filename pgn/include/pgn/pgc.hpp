// PGC, the PGN standard's binary game coding ("PGC" section of the standard): games as records
// of a marker byte and items (little-endian integers, Latin-1 strings with 1/2/4-byte length
// headers, move ordinals), read into and written from the same Game as PGN.
//
// Text: Game strings are UTF-8, PGC strings Latin-1 (the standard allows no other code set).
// The writer maps each code point U+0000..U+00FF to its byte; a code point above U+00FF, or a
// byte that is not part of valid UTF-8, cannot be written faithfully: an error, or with `lossy`
// the code point becomes '?' and the stray byte is taken as the Latin-1 character of that value
// (each counted). The reader maps every byte to the code point of the same value (bytes of
// 0x80 and above become two UTF-8 bytes), so UTF-8 -> PGC -> UTF-8 is exact for Latin-1 text.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"
#include "pgn/game.hpp"

namespace epdd::pgn {

// ---- move ordinals ----

// The legal moves of a position in the standard's ordinal order: sorted by their SAN strings in
// ascending ASCII order (from the start position Na3 is 0, Nc3 1, a3 4, h4 19). Check marks are
// left out of the sort key: no SAN of a legal move is a prefix of another's except O-O of O-O-O,
// and '+' and '#' sort before '-', so the order is the same with or without them.
core::MoveList pgc_ordered_moves(const core::Board& board);

// The ordinal of a legal move, or nullopt for a move that is not legal here or whose ordinal
// would not fit a byte (a position with more than 256 legal moves has none; kept for safety).
std::optional<std::uint8_t> pgc_ordinal(const core::Board& board, core::Move move);

// The legal move with that ordinal, or nullopt when the position has no more moves than that.
std::optional<core::Move> pgc_move(const core::Board& board, std::uint8_t ordinal);

// ---- records ----

enum class PgcMarker : std::uint8_t {
  Noop = 0x00,
  ReducedGame = 0x01,
  TagPair = 0x02,
  ShortMoves = 0x03,
  LongMoves = 0x04,
  GameBegin = 0x05,
  GameEnd = 0x06,
  SimpleNag = 0x07,
  RavBegin = 0x08,
  RavEnd = 0x09,
  EscapeString = 0x0a,
};
// The standard's name of a marker ("tag pair"), or "unknown".
const char* name(PgcMarker m);

// Why a PGC file could not be read, or a game not written.
struct PgcError {
  std::size_t offset = 0;  // reading: the byte offset where the record or item at fault starts
  std::size_t game = 0;    // 1-based number of the game in its file (0: between games)
  std::string message;
};
// "byte 1234, game 5: ..." for reading; for writing (offset 0, game set) the message alone,
// which names the game by number and players.
std::string to_string(const PgcError& e);

// Reads PGC a game at a time, from a buffer or a stream (memory does not grow with the file).
// Tags, escape strings, moves, NAGs and variations become the Game's; the game termination is
// the Result tag's value when that is one ("1-0", "0-1", "1/2-1/2", "*"), else "*". The start
// position comes from SetUp/FEN/Variant as in PGN. A truncated or corrupt file is an error
// with the byte offset; after an error, next() repeats it.
class PgcReader {
 public:
  explicit PgcReader(std::string_view data);
  explicit PgcReader(std::istream& in);
  // The next game: true, false at the end of the data, or the error.
  Expected<bool, PgcError> next(Game& game);
  // Bytes consumed so far.
  std::size_t offset() const { return base_ + pos_; }

 private:
  class Input;  // decodes one game's records
  bool fill(std::size_t n);  // at least n bytes from pos_ in view_; false at the end of the data
  std::istream* in_ = nullptr;
  std::string buffer_;
  std::string_view view_;
  std::size_t pos_ = 0;   // within view_
  std::size_t base_ = 0;  // offset of view_[0] in the data
  std::size_t games_ = 0;
  std::optional<PgcError> failed_;
  std::vector<std::string> pending_escapes_;  // escape strings before the next game
  std::vector<Tag> spare_tags_;               // tags of the game last read into, for reuse
};

// Every game of a buffer, or the first error.
Expected<std::vector<Game>, PgcError> read_pgc(std::string_view data);

struct PgcWriteOptions {
  // Write games that hold what PGC cannot (comments, text beyond Latin-1, a termination marker
  // that differs from the Result tag), leaving it out and counting it, instead of failing.
  bool lossy = false;
};

// What writing one game left out (only with lossy; zero otherwise).
struct PgcWriteReport {
  std::size_t comments = 0;       // comments left out (the standard defines no comment record)
  std::size_t characters = 0;     // characters replaced in strings (beyond Latin-1, not UTF-8)
  std::size_t result_marks = 0;   // termination markers replaced by the Result tag's value
  bool reduced = false;           // written as one reduced-export record (0x01)
  PgcWriteReport& operator+=(const PgcWriteReport& o);
  bool lossless() const { return comments == 0 && characters == 0 && result_marks == 0; }
};

// Appends one game: escape strings first (0x0a), then a reduced-export record (0x01) when the
// game has exactly the Seven Tag Roster, no annotations, a standard start and a termination
// marker equal to its Result tag; otherwise 0x05, its tags (0x02) in order, the movetext as
// move sequences (0x03 up to 255 moves, else 0x04), NAGs (0x07) and variations (0x08..0x09),
// and 0x06. A game without a Result tag gets one holding its termination marker when that is
// not "*". Fails, appending nothing, for what PGC cannot hold: a null move, an illegal move, a
// string over the length header's limit, and (unless lossy) comments, text beyond Latin-1 and
// a termination marker that differs from the Result tag; the message names the game (its
// number, players) and the count.
Expected<PgcWriteReport, PgcError> append_pgc(std::string& out, const Game& game,
                                              const PgcWriteOptions& options = {});

// Writes games to a stream; totals() says what lossy writing left out, over all games.
class PgcWriter {
 public:
  explicit PgcWriter(std::ostream& out, PgcWriteOptions options = {}) : out_(out), options_(options) {}
  ~PgcWriter() { flush(); }
  PgcWriter(const PgcWriter&) = delete;
  PgcWriter& operator=(const PgcWriter&) = delete;
  Expected<PgcWriteReport, PgcError> write(const Game& game);
  void flush();
  const PgcWriteReport& totals() const { return totals_; }

 private:
  std::ostream& out_;
  PgcWriteOptions options_;
  std::string buffer_;
  PgcWriteReport totals_;
};

}  // namespace epdd::pgn
