#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "core/attacks.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "notation_detail.hpp"

namespace epdd::core {

namespace {

// The PGN standard's table of alternative piece letters (pawn knight bishop rook queen king).
constexpr PieceLetters kLocales[] = {
    {"Czech", {'P', 'J', 'S', 'V', 'D', 'K'}},     {"Danish", {'B', 'S', 'L', 'T', 'D', 'K'}},
    {"Dutch", {'O', 'P', 'L', 'T', 'D', 'K'}},     {"English", {'P', 'N', 'B', 'R', 'Q', 'K'}},
    {"Estonian", {'P', 'R', 'O', 'V', 'L', 'K'}},  {"Finnish", {'P', 'R', 'L', 'T', 'D', 'K'}},
    {"French", {'P', 'C', 'F', 'T', 'D', 'R'}},    {"German", {'B', 'S', 'L', 'T', 'D', 'K'}},
    {"Hungarian", {'G', 'H', 'F', 'B', 'V', 'K'}}, {"Icelandic", {'P', 'R', 'B', 'H', 'D', 'K'}},
    {"Italian", {'P', 'C', 'A', 'T', 'D', 'R'}},   {"Norwegian", {'B', 'S', 'L', 'T', 'D', 'K'}},
    {"Polish", {'P', 'S', 'G', 'W', 'H', 'K'}},    {"Portuguese", {'P', 'C', 'B', 'T', 'D', 'R'}},
    {"Romanian", {'P', 'C', 'N', 'T', 'D', 'R'}},  {"Spanish", {'P', 'C', 'A', 'T', 'D', 'R'}},
    {"Swedish", {'B', 'S', 'L', 'T', 'D', 'K'}},
};
constexpr std::size_t kEnglish = 3;

}  // namespace

const PieceLetters& english_letters() { return kLocales[kEnglish]; }

std::span<const PieceLetters> locale_letters() { return kLocales; }

const PieceLetters* find_locale(std::string_view language) {
  for (const PieceLetters& l : kLocales) {
    if (iequals(language, l.language)) return &l;
  }
  return nullptr;
}

namespace {

// A move's text, written into a buffer (SAN and LAN are at most 9 characters, marks included):
// SAN is written for every move of every game exported.
class MoveWriter {
 public:
  MoveWriter() = default;
  MoveWriter(const MoveWriter&) = delete;  // (it points into its own buffer)
  MoveWriter& operator=(const MoveWriter&) = delete;
  void put(char c) { *at_++ = c; }
  void square(Square s) {
    put(kFileChars[file_of(s)]);
    put(static_cast<char>('1' + rank_of(s)));
  }
  // Castling is "king takes own rook": the king-side rook stands on a higher file.
  void castling(Move move) {
    const std::string_view text = file_of(move.to()) > file_of(move.from()) ? "O-O" : "O-O-O";
    at_ = std::copy(text.begin(), text.end(), at_);
  }
  // "=Q" (in the given letters) for a promotion.
  void promotion(Move move, const PieceLetters& letters) {
    if (move.kind() != MoveKind::Promotion) return;
    put('=');
    put(letters.letter(move.promotion()));
  }
  // SAN's file, rank or square that tells the move apart from same-type moves to its square.
  void disambiguation(const Board& board, Move move);
  // "+" or "#" for a legal move that gives check.
  void check_mark(const Board& board, Move move) {
    if (board.gives_check(move)) put(board.is_mate_after(move) ? '#' : '+');
  }
  std::string str() const { return std::string(buffer_.data(), static_cast<std::size_t>(at_ - buffer_.data())); }

 private:
  std::array<char, 16> buffer_;
  char* at_ = buffer_.data();
};

}  // namespace

namespace detail {

Bitboard origins(const Board& board, PieceType pt, Square to) {
  const Color us = board.side_to_move();
  if (board.pieces(us) & bb(to)) return 0;  // nothing moves onto its own side's piece
  const Bitboard ours = board.pieces(us, pt);
  if (pt != PieceType::Pawn) return attacks::piece_attacks(pt, to, board.occupied()) & ours;
  const int up = us == Color::White ? 8 : -8;
  Bitboard result = 0;
  const Piece target = board.piece_on(to);
  if (target == Piece::None) {
    const int behind = index(to) - up;
    if (behind >= 0 && behind < 64) {
      if (ours & bb(square_at(behind))) {
        result |= bb(square_at(behind));
      } else if (board.piece_on(square_at(behind)) == Piece::None && relative_rank(us, to) == 3) {
        const Square two = square_at(behind - up);
        if (ours & bb(two)) result |= bb(two);
      }
    }
  }
  if ((target != Piece::None && color_of(target) != us) || to == board.ep_square())
    result |= attacks::pawn_attacks(~us, to) & ours;
  return result;
}

Move make_move_to(const Board& board, Square from, Square to, PieceType promotion) {
  const Piece p = board.piece_on(from);
  if (type_of(p) == PieceType::Pawn) {
    if (to == board.ep_square() && file_of(from) != file_of(to) && board.piece_on(to) == Piece::None)
      return Move(from, to, MoveKind::EnPassant);
    if (relative_rank(color_of(p), to) == 7) return Move(from, to, MoveKind::Promotion, promotion);
  }
  return Move(from, to);
}

Bitboard legal_origins(const Board& board, PieceType pt, Square to) {
  Bitboard result = 0;
  for (Bitboard b = origins(board, pt, to); b;) {
    const Square from = pop_lsb(b);
    if (board.keeps_king_safe(make_move_to(board, from, to, PieceType::Queen))) result |= bb(from);
  }
  return result;
}

std::string disambiguation(const Board& board, Move move) {
  MoveWriter out;
  out.disambiguation(board, move);
  return out.str();
}

}  // namespace detail

namespace {

void MoveWriter::disambiguation(const Board& board, Move move) {
  const PieceType pt = type_of(board.moving_piece(move));
  if (pt == PieceType::Pawn || pt == PieceType::King) return;
  const Square from = move.from();
  const Bitboard others = detail::legal_origins(board, pt, move.to()) & ~bb(from);
  if (!others) return;
  if (!(others & file_bb(file_of(from)))) return put(kFileChars[file_of(from)]);
  if (!(others & rank_bb(rank_of(from)))) return put(static_cast<char>('1' + rank_of(from)));
  square(from);
}

}  // namespace

std::string to_san(const Board& board, Move move, const PieceLetters& letters) {
  if (move.is_null()) return "--";
  MoveWriter out;
  if (move.kind() == MoveKind::Castling) {
    out.castling(move);
  } else {
    const PieceType pt = type_of(board.moving_piece(move));
    const bool capture = board.is_capture(move);
    if (pt == PieceType::Pawn) {
      if (capture) {
        out.put(kFileChars[file_of(move.from())]);
        out.put('x');
      }
      out.square(move.to());
      out.promotion(move, letters);
    } else {
      out.put(letters.letter(pt));
      out.disambiguation(board, move);
      if (capture) out.put('x');
      out.square(move.to());
    }
  }
  out.check_mark(board, move);
  return out.str();
}

std::string to_lan(const Board& board, Move move, const PieceLetters& letters) {
  if (move.is_null()) return "--";
  MoveWriter out;
  if (move.kind() == MoveKind::Castling) {
    out.castling(move);
  } else {
    const PieceType pt = type_of(board.moving_piece(move));
    if (pt != PieceType::Pawn) out.put(letters.letter(pt));
    out.square(move.from());
    out.put(board.is_capture(move) ? 'x' : '-');
    out.square(move.to());
    out.promotion(move, letters);
  }
  out.check_mark(board, move);
  return out.str();
}

std::string to_uci(Move move, UciCastling castling) {
  if (move.is_null() || move.is_none()) return "0000";
  Square to = move.to();
  if (move.kind() == MoveKind::Castling && castling == UciCastling::Standard)
    to = make_square(file_of(move.to()) > file_of(move.from()) ? 6 : 2, rank_of(move.from()));
  std::string out = square_name(move.from()) + square_name(to);
  if (move.kind() == MoveKind::Promotion)
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(piece_type_letter(move.promotion()))));
  return out;
}

std::string describe(Leniency set) {
  static constexpr std::pair<Leniency, const char*> kWords[] = {
      {Leniency::ZeroCastling, "castling written with zeros (0-0)"},
      {Leniency::MissingCapture, "capture without 'x'"},
      {Leniency::SuperfluousCapture, "'x' on a move that captures nothing"},
      {Leniency::MissingCheck, "check or mate not marked"},
      {Leniency::SuperfluousCheck, "'+' or '#' on a move that gives no check"},
      {Leniency::WrongCheckKind, "'+' on a mate or '#' on a check that is not mate"},
      {Leniency::PromotionForm, "promotion without '=' (e8Q, e8(Q) or e8/Q)"},
      {Leniency::LowercasePromotion, "lower-case promotion piece"},
      {Leniency::LongAlgebraic, "long algebraic notation (from square given)"},
      {Leniency::Uci, "UCI notation"},
      {Leniency::PawnLetter, "pawn letter written"},
      {Leniency::NonstandardDisambiguation, "disambiguation other than the standard's"},
      {Leniency::EnPassantSuffix, "'e.p.' suffix"},
      {Leniency::PawnCaptureWithoutFile, "pawn capture without the pawn's file"},
      {Leniency::NullMove, "null move"},
      {Leniency::DoubleCheckMark, "'++' as a check mark"},
  };
  std::string out;
  for (auto [flag, words] : kWords) {
    if (!has(set, flag)) continue;
    if (!out.empty()) out += ", ";
    out += words;
  }
  return out;
}

}  // namespace epdd::core
