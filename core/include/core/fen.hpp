// FEN: strict reading that names the field and the reason for every error, an explicitly
// lenient mode that notes what it tolerated, and writing in standard, X-FEN or Shredder-FEN
// castling notation.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"

namespace epdd::core {

enum class FenField : std::uint8_t {
  Record,  // the record as a whole (field count, separators)
  Placement,
  SideToMove,
  Castling,
  EnPassant,
  HalfmoveClock,
  FullmoveNumber,
};

// "piece placement", "active colour", ... as the standard names the fields.
const char* field_name(FenField f);

struct FenError {
  FenField field = FenField::Record;
  std::size_t column = 1;  // 1-based column of the problem within the text given
  std::string message;     // names the field and the reason
};

// Something lenient reading accepted that strict reading would have rejected.
struct FenNote {
  FenField field = FenField::Record;
  std::size_t column = 1;
  std::string message;
  // KQkq read as X-FEN (a Chess960 position written without its variant): nothing was dropped
  // or guessed, unlike the other notes.
  bool xfen = false;
};

enum class FenFields : std::uint8_t {
  Six,        // FEN: placement, side, castling, en passant, halfmove clock, fullmove number
  Four,       // EPD's position: the first four; clocks default to 0 and 1
  FourOrSix,  // either (for command lines that take both)
};

struct FenReadOptions {
  FenFields fields = FenFields::Six;
  // Castling letters KQkq are X-FEN (the outermost rook); without this they must mean the
  // standard a- and h-file rooks with the king on e1/e8. File letters (Shredder-FEN, or X-FEN
  // inner rooks) always mean Chess960.
  bool chess960 = false;
  // Accept, and report as notes: runs of spaces, castling letters out of order, 'W'/'B' for
  // the side to move, digits in a row in a rank, a castling right or en passant square that
  // cannot apply (dropped), an en passant square with a non-zero halfmove clock, fullmove 0;
  // KQkq with a king off the e-file read as X-FEN (Chess960) when that makes every right valid.
  bool lenient = false;
};

// Reads a FEN (or EPD position) record. With notes non-null, lenient reading reports there
// what it tolerated.
Expected<Board, FenError> parse_fen(std::string_view text, const FenReadOptions& options = {},
                                    std::vector<FenNote>* notes = nullptr);

// "2:5: castling availability: ..." style one-line description of an error.
std::string to_string(const FenError& e);

enum class CastlingNotation : std::uint8_t {
  Auto,      // KQkq for standard-chess rooks, X-FEN (file letters only for inner rooks) otherwise
  Shredder,  // always the rooks' file letters (HAha)
};

struct FenWriteOptions {
  CastlingNotation castling = CastlingNotation::Auto;
  // The standard writes the en passant square after every double advance. With this, it is
  // written only when an en passant capture is legal (as Stockfish and many GUIs write it).
  bool ep_only_if_capturable = false;
};

// The six-field FEN of the position.
std::string to_fen(const Board& board, const FenWriteOptions& options = {});
// The four position fields of EPD.
std::string to_epd_position(const Board& board, const FenWriteOptions& options = {});

inline constexpr std::string_view kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace epdd::core
