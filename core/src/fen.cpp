#include "core/fen.hpp"

#include <array>
#include <charconv>

#include "core/text.hpp"

namespace epdd::core {

namespace {

struct Field {
  std::string_view text;
  std::size_t column;  // 1-based
};

// One read in progress: the options, the notes sink, and the error helpers.
class FenReader {
 public:
  FenReader(const FenReadOptions& options, std::vector<FenNote>* notes)
      : options_(options), notes_(notes) {}

  Expected<Board, FenError> read(std::string_view text);

 private:
  unexpected<FenError> error(FenField f, std::size_t column, std::string message) const {
    return unexpected(FenError{f, column, std::string(field_name(f)) + ": " + message});
  }
  // In lenient mode records a note and returns true; in strict mode returns false so that the
  // caller reports the same message as an error.
  bool tolerate(FenField f, std::size_t column, const std::string& message) {
    if (!options_.lenient) return false;
    if (notes_) notes_->push_back({f, column, std::string(field_name(f)) + ": " + message});
    return true;
  }

  Expected<std::vector<Field>, FenError> split(std::string_view text);
  Expected<void, FenError> read_placement(const Field& f, Setup& s);
  Expected<void, FenError> read_side(const Field& f, Setup& s);
  Expected<void, FenError> read_castling(const Field& f, Setup& s, bool chess960);
  void try_xfen(const Field& castling, Setup& s);
  Expected<void, FenError> read_ep(const Field& f, Setup& s);
  Expected<int, FenError> read_number(const Field& f, FenField which, int min, int max);

  const FenReadOptions& options_;
  std::vector<FenNote>* notes_;
};

Expected<std::vector<Field>, FenError> FenReader::split(std::string_view text) {
  std::vector<Field> fields;
  std::size_t i = 0;
  bool irregular = false;
  while (i < text.size()) {
    const std::size_t start = i;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t gap = i - start;
    if (i == text.size()) {
      if (gap && !tolerate(FenField::Record, start + 1, "trailing white space"))
        return error(FenField::Record, start + 1, "trailing white space after the last field");
      break;
    }
    const bool leading = fields.empty() && gap > 0;
    if (leading || (!fields.empty() && (gap != 1 || text[start] != ' '))) irregular = true;
    if (irregular && !options_.lenient)
      return error(FenField::Record, start + 1,
                   leading ? "white space before the first field"
                           : "fields must be separated by exactly one space");
    const std::size_t field_start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    fields.push_back({text.substr(field_start, i - field_start), field_start + 1});
  }
  if (irregular) tolerate(FenField::Record, 1, "fields separated by irregular white space");
  if (fields.empty()) return error(FenField::Record, 1, "empty record");

  const std::size_t n = fields.size();
  const bool ok = (options_.fields == FenFields::Six && n == 6) ||
                  (options_.fields == FenFields::Four && n == 4) ||
                  (options_.fields == FenFields::FourOrSix && (n == 4 || n == 6));
  if (!ok) {
    const char* expected = options_.fields == FenFields::Six    ? "6 fields"
                           : options_.fields == FenFields::Four ? "4 fields"
                                                                : "4 or 6 fields";
    return error(FenField::Record, n > 0 ? fields.back().column : 1,
                 std::string("expected ") + expected + ", found " + std::to_string(n) +
                     " (placement, side to move, castling, en passant" +
                     (options_.fields == FenFields::Four ? "" : ", halfmove clock, fullmove number") +
                     ")");
  }
  return fields;
}

Expected<void, FenError> FenReader::read_placement(const Field& f, Setup& s) {
  int rank = 7;
  int file = 0;
  bool previous_digit = false;
  // Only for messages: built when one is needed, never per character.
  auto rank_name = [&] { return "rank " + std::to_string(rank + 1); };
  for (std::size_t i = 0; i < f.text.size(); ++i) {
    const char c = f.text[i];
    const std::size_t col = f.column + i;
    if (c == '/') {
      if (file != 8)
        return error(FenField::Placement, col,
                     rank_name() + " describes " + std::to_string(file) + " squares, not 8");
      if (rank == 0) return error(FenField::Placement, col, "more than 8 ranks");
      --rank;
      file = 0;
      previous_digit = false;
      continue;
    }
    if (c >= '0' && c <= '9') {
      if (c == '0' || c == '9')
        return error(FenField::Placement, col,
                     quoted_escaped({&c, 1}) + " in " + rank_name() + " is not a count of empty squares (1 to 8)");
      if (previous_digit && !tolerate(FenField::Placement, col, "two digits in a row in " + rank_name()))
        return error(FenField::Placement, col,
                     "two digits in a row in " + rank_name() + " (empty squares are one digit)");
      file += c - '0';
      previous_digit = true;
    } else if (const auto piece = piece_from_fen_char(c)) {
      if (file < 8) s.squares[index(make_square(file, rank))] = *piece;
      ++file;
      previous_digit = false;
    } else {
      return error(FenField::Placement, col,
                   quoted_escaped({&c, 1}) + " is neither a piece letter (PNBRQK, pnbrqk) nor a digit 1-8");
    }
    if (file > 8) return error(FenField::Placement, col, rank_name() + " describes more than 8 squares");
  }
  if (file != 8)
    return error(FenField::Placement, f.column + f.text.size(),
                 rank_name() + " describes " + std::to_string(file) + " squares, not 8");
  if (rank != 0)
    return error(FenField::Placement, f.column + f.text.size(),
                 "found " + std::to_string(8 - rank) + " ranks, need 8 separated by '/'");
  return {};
}

Expected<void, FenError> FenReader::read_side(const Field& f, Setup& s) {
  if (f.text == "w" || f.text == "b") {
    s.side_to_move = f.text == "w" ? Color::White : Color::Black;
    return {};
  }
  if ((f.text == "W" || f.text == "B") &&
      tolerate(FenField::SideToMove, f.column, "upper-case " + quoted_escaped(f.text))) {
    s.side_to_move = f.text == "W" ? Color::White : Color::Black;
    return {};
  }
  return error(FenField::SideToMove, f.column,
               "must be 'w' or 'b', found " + quoted_escaped(f.text));
}

// The outermost rook of colour c on its back rank on the given side of its king.
Square outermost_rook(const Setup& s, Color c, CastlingSide side, Square king) {
  const int back = c == Color::White ? 0 : 7;
  const Piece rook = make_piece(c, PieceType::Rook);
  if (side == CastlingSide::King) {
    for (int f = 7; f > file_of(king); --f)
      if (s.squares[index(make_square(f, back))] == rook) return make_square(f, back);
  } else {
    for (int f = 0; f < file_of(king); ++f)
      if (s.squares[index(make_square(f, back))] == rook) return make_square(f, back);
  }
  return Square::None;
}

Square king_of(const Setup& s, Color c) {
  for (int i = 0; i < 64; ++i)
    if (s.squares[i] == make_piece(c, PieceType::King)) return square_at(i);
  return Square::None;
}

Expected<void, FenError> FenReader::read_castling(const Field& f, Setup& s, bool chess960) {
  s.chess960 = chess960;
  if (f.text == "-") return {};
  int last_order = -1;
  for (std::size_t i = 0; i < f.text.size(); ++i) {
    const char c = f.text[i];
    const std::size_t col = f.column + i;
    const bool upper = c >= 'A' && c <= 'Z';
    const char lower = upper ? static_cast<char>(c - 'A' + 'a') : c;
    const Color color = upper ? Color::White : Color::Black;
    const Square king = king_of(s, color);
    const int back = color == Color::White ? 0 : 7;
    CastlingSide side;
    Square rook;
    if (lower == 'k' || lower == 'q') {
      side = lower == 'k' ? CastlingSide::King : CastlingSide::Queen;
      if (s.chess960) {
        rook = rank_of(king) == back ? outermost_rook(s, color, side, king) : Square::None;
        if (rook == Square::None) rook = make_square(side == CastlingSide::King ? 7 : 0, back);
      } else {
        rook = make_square(side == CastlingSide::King ? 7 : 0, back);
      }
    } else if (lower >= 'a' && lower <= 'h') {
      s.chess960 = true;  // a rook's file letter only exists in Chess960 notations
      rook = make_square(lower - 'a', back);
      side = rank_of(king) == back && lower - 'a' < file_of(king) ? CastlingSide::Queen
                                                                  : CastlingSide::King;
    } else {
      return error(FenField::Castling, col,
                   quoted_escaped({&c, 1}) + " is not a castling letter (KQkq, a rook's file A-H/a-h, or '-')");
    }
    Square& slot = s.castling_rook(color, side);
    if (slot != Square::None)
      return error(FenField::Castling, col,
                   std::string(color == Color::White ? "White" : "Black") + " " +
                       (side == CastlingSide::King ? "king" : "queen") + "-side castling given twice");
    slot = rook;
    const int order = index(color) * 2 + static_cast<int>(side);
    if (order < last_order &&
        !tolerate(FenField::Castling, col, "letters out of order (standard order: KQkq)"))
      return error(FenField::Castling, col,
                   "letters out of order: upper case before lower case, king side before queen side");
    last_order = order;
  }
  return {};
}

// KQkq read as standard castling where a king that has a right stands on its back rank off the
// e-file cannot be standard chess: lenient reading tries X-FEN (the outermost rooks), as a
// Chess960 position written without its variant, and takes it if every right is then valid.
void FenReader::try_xfen(const Field& castling, Setup& s) {
  if (!options_.lenient || s.chess960 || castling.text == "-") return;
  std::string kings;
  for (const char c : castling.text) {
    const Color color = c >= 'A' && c <= 'Z' ? Color::White : Color::Black;
    const Square king = king_of(s, color);
    if (king == Square::None || rank_of(king) != (color == Color::White ? 0 : 7) || file_of(king) == 4) continue;
    const std::string name = square_name(king);
    if (kings.find(name) == std::string::npos) kings += (kings.empty() ? "" : ", ") + name;
  }
  if (kings.empty()) return;
  Setup x = s;
  for (Color c : {Color::White, Color::Black})
    for (CastlingSide side : {CastlingSide::King, CastlingSide::Queen}) x.castling_rook(c, side) = Square::None;
  if (!read_castling(castling, x, true)) return;
  for (Color c : {Color::White, Color::Black})
    for (CastlingSide side : {CastlingSide::King, CastlingSide::Queen})
      if (Board::validate_castling_right(x, c, side).problem != SetupProblem::None) return;
  s = x;
  if (notes_)
    notes_->push_back({FenField::Castling, castling.column,
                       std::string(field_name(FenField::Castling)) + ": " + quoted_escaped(castling.text) +
                           " read as X-FEN (Chess960, the outermost rooks): the king is on " + kings +
                           ", where standard castling is impossible",
                       true});
}

Expected<void, FenError> FenReader::read_ep(const Field& f, Setup& s) {
  if (f.text == "-") return {};
  const auto sq = parse_square(f.text);
  if (!sq)
    return error(FenField::EnPassant, f.column,
                 quoted_escaped(f.text) + " is neither '-' nor a square such as e3 or d6");
  s.ep_square = *sq;
  return {};
}

Expected<int, FenError> FenReader::read_number(const Field& f, FenField which, int min, int max) {
  int value = 0;
  const char* first = f.text.data();
  const char* last = first + f.text.size();
  const auto [end, ec] = std::from_chars(first, last, value);
  if (f.text.empty() || f.text[0] == '+' || f.text[0] == '-' || ec == std::errc::invalid_argument ||
      end != last)
    return error(which, f.column, quoted_escaped(f.text) + " is not a whole number");
  if (ec == std::errc::result_out_of_range || value > max)
    return error(which, f.column, quoted_escaped(f.text) + " is too large (at most " +
                                      std::to_string(max) + ")");
  if (value < min) {
    if (which == FenField::FullmoveNumber &&
        tolerate(which, f.column, "0 read as 1 (move numbers start at 1)"))
      return 1;
    return error(which, f.column, "must be at least " + std::to_string(min) + ", found " +
                                      std::string(f.text));
  }
  return value;
}

FenField field_of(SetupProblem p) {
  switch (p) {
    case SetupProblem::OppositeKingInCheck: return FenField::SideToMove;
    case SetupProblem::CastlingRight: return FenField::Castling;
    case SetupProblem::EnPassantSquare: return FenField::EnPassant;
    default: return FenField::Placement;
  }
}

Expected<Board, FenError> FenReader::read(std::string_view text) {
  auto fields = split(text);
  if (!fields) return unexpected(fields.error());
  const std::vector<Field>& f = *fields;
  Setup s;
  if (auto r = read_placement(f[0], s); !r) return unexpected(r.error());
  if (auto r = read_side(f[1], s); !r) return unexpected(r.error());
  if (auto r = read_castling(f[2], s, options_.chess960); !r) return unexpected(r.error());
  if (auto r = read_ep(f[3], s); !r) return unexpected(r.error());
  if (f.size() == 6) {
    const auto halfmove = read_number(f[4], FenField::HalfmoveClock, 0, 0xFFFF);
    if (!halfmove) return unexpected(halfmove.error());
    const auto fullmove = read_number(f[5], FenField::FullmoveNumber, 1, 1'000'000);
    if (!fullmove) return unexpected(fullmove.error());
    s.halfmove_clock = *halfmove;
    s.fullmove_number = *fullmove;
  }

  if (const SetupError e = Board::validate_pieces(s); e.problem != SetupProblem::None)
    return error(field_of(e.problem), e.problem == SetupProblem::OppositeKingInCheck ? f[1].column : f[0].column,
                 e.message);
  try_xfen(f[2], s);
  for (Color c : {Color::White, Color::Black})
    for (CastlingSide side : {CastlingSide::King, CastlingSide::Queen}) {
      const SetupError e = Board::validate_castling_right(s, c, side);
      if (e.problem == SetupProblem::None) continue;
      if (!tolerate(FenField::Castling, f[2].column, e.message + " (right dropped)"))
        return error(FenField::Castling, f[2].column, e.message);
      s.castling_rook(c, side) = Square::None;
    }
  if (const SetupError e = Board::validate_ep_square(s); e.problem != SetupProblem::None) {
    if (!tolerate(FenField::EnPassant, f[3].column, e.message + " (square dropped)"))
      return error(FenField::EnPassant, f[3].column, e.message);
    s.ep_square = Square::None;
  }
  if (s.ep_square != Square::None && s.halfmove_clock != 0) {
    const std::string msg = "is " + std::to_string(s.halfmove_clock) + " but the en passant square " +
                            square_name(s.ep_square) +
                            " says a pawn just advanced, which resets the clock to 0";
    if (!tolerate(FenField::HalfmoveClock, f[4].column, msg))
      return error(FenField::HalfmoveClock, f[4].column, msg);
  }
  return Board::from_setup(s);
}

}  // namespace

const char* field_name(FenField f) {
  switch (f) {
    case FenField::Record: return "record";
    case FenField::Placement: return "piece placement";
    case FenField::SideToMove: return "active colour";
    case FenField::Castling: return "castling availability";
    case FenField::EnPassant: return "en passant target square";
    case FenField::HalfmoveClock: return "halfmove clock";
    case FenField::FullmoveNumber: return "fullmove number";
  }
  return "?";
}

Expected<Board, FenError> parse_fen(std::string_view text, const FenReadOptions& options,
                                    std::vector<FenNote>* notes) {
  return FenReader(options, notes).read(text);
}

std::string to_string(const FenError& e) {
  return "column " + std::to_string(e.column) + ": " + e.message;
}

namespace {

std::string castling_field(const Board& b, CastlingNotation notation) {
  std::string out;
  const Setup s = b.to_setup();
  for (Color c : {Color::White, Color::Black})
    for (CastlingSide side : {CastlingSide::King, CastlingSide::Queen}) {
      const Square rook = b.castling_rook(c, side);
      if (rook == Square::None) continue;
      char letter;
      const bool outermost = outermost_rook(s, c, side, b.king_square(c)) == rook;
      if (notation == CastlingNotation::Shredder || !outermost)
        letter = kFileChars[file_of(rook)];
      else
        letter = side == CastlingSide::King ? 'k' : 'q';
      out += c == Color::White ? static_cast<char>(letter - 'a' + 'A') : letter;
    }
  return out.empty() ? "-" : out;
}

}  // namespace

std::string to_epd_position(const Board& b, const FenWriteOptions& options) {
  std::string out;
  out.reserve(90);
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = b.piece_on(make_square(file, rank));
      if (p == Piece::None) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      out += piece_fen_char(p);
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (rank) out += '/';
  }
  out += b.side_to_move() == Color::White ? " w " : " b ";
  out += castling_field(b, options.castling);
  out += ' ';
  const bool write_ep = b.ep_square() != Square::None &&
                        (!options.ep_only_if_capturable || b.has_legal_ep_capture());
  out += write_ep ? square_name(b.ep_square()) : "-";
  return out;
}

std::string to_fen(const Board& b, const FenWriteOptions& options) {
  return to_epd_position(b, options) + ' ' + std::to_string(b.halfmove_clock()) + ' ' +
         std::to_string(b.fullmove_number());
}

}  // namespace epdd::core
