// Squares, colours, pieces and bitboards: the vocabulary every other core header speaks.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace epdd::core {

using Bitboard = std::uint64_t;

enum class Color : std::uint8_t { White = 0, Black = 1 };

constexpr Color operator~(Color c) { return c == Color::White ? Color::Black : Color::White; }
constexpr int index(Color c) { return static_cast<int>(c); }

// Piece types in ascending value; None marks an empty square.
enum class PieceType : std::uint8_t { Pawn = 0, Knight, Bishop, Rook, Queen, King, None };

constexpr int index(PieceType pt) { return static_cast<int>(pt); }

// A coloured piece: colour in bit 3, type in bits 0-2, so colour_of and type_of are a shift
// and a mask. None is an empty square.
enum class Piece : std::uint8_t {
  WhitePawn = 0, WhiteKnight, WhiteBishop, WhiteRook, WhiteQueen, WhiteKing,
  BlackPawn = 8, BlackKnight, BlackBishop, BlackRook, BlackQueen, BlackKing,
  None = 15
};

constexpr Piece make_piece(Color c, PieceType pt) {
  return static_cast<Piece>((index(c) << 3) | index(pt));
}
constexpr Color color_of(Piece p) { return static_cast<Color>(static_cast<int>(p) >> 3); }
constexpr PieceType type_of(Piece p) {
  return p == Piece::None ? PieceType::None : static_cast<PieceType>(static_cast<int>(p) & 7);
}
constexpr int index(Piece p) { return static_cast<int>(p); }

// Squares a1 = 0 … h8 = 63, file-major within a rank (the usual little-endian rank-file map).
enum class Square : std::uint8_t {
  // clang-format off
  A1, B1, C1, D1, E1, F1, G1, H1,
  A2, B2, C2, D2, E2, F2, G2, H2,
  A3, B3, C3, D3, E3, F3, G3, H3,
  A4, B4, C4, D4, E4, F4, G4, H4,
  A5, B5, C5, D5, E5, F5, G5, H5,
  A6, B6, C6, D6, E6, F6, G6, H6,
  A7, B7, C7, D7, E7, F7, G7, H7,
  A8, B8, C8, D8, E8, F8, G8, H8,
  // clang-format on
  None = 64
};

constexpr int index(Square s) { return static_cast<int>(s); }
constexpr Square square_at(int i) { return static_cast<Square>(i); }
constexpr Square make_square(int file, int rank) { return square_at(rank * 8 + file); }
// 0 = a-file … 7 = h-file
constexpr int file_of(Square s) { return index(s) & 7; }
// 0 = first rank … 7 = eighth rank
constexpr int rank_of(Square s) { return index(s) >> 3; }
constexpr Bitboard bb(Square s) { return Bitboard{1} << index(s); }
// The same square seen from Black's side (a1 <-> a8).
constexpr Square flip_rank(Square s) { return square_at(index(s) ^ 56); }
// Rank counted from c's own side: 0 is c's back rank.
constexpr int relative_rank(Color c, Square s) {
  return c == Color::White ? rank_of(s) : 7 - rank_of(s);
}

constexpr int popcount(Bitboard b) { return std::popcount(b); }
// Least significant square of a non-empty set.
constexpr Square lsb(Bitboard b) { return square_at(std::countr_zero(b)); }
constexpr Square msb(Bitboard b) { return square_at(63 - std::countl_zero(b)); }
// Removes and returns the least significant square of a non-empty set.
constexpr Square pop_lsb(Bitboard& b) {
  const Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard file_bb(int file) { return kFileA << file; }
constexpr Bitboard rank_bb(int rank) { return kRank1 << (8 * rank); }
constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAULL;
constexpr Bitboard kDarkSquares = ~kLightSquares;

// "e4" for E4; "-" for Square::None.
std::string square_name(Square s);
// Parses exactly two characters "a1".."h8"; anything else is nullopt.
std::optional<Square> parse_square(std::string_view text);

constexpr char kFileChars[] = "abcdefgh";

// Upper-case English letter of a piece type ('P' for pawns); ' ' for None.
char piece_type_letter(PieceType pt);
// FEN letter of a piece: upper case for White, lower case for Black.
char piece_fen_char(Piece p);
// The piece a FEN letter names, or nullopt.
std::optional<Piece> piece_from_fen_char(char c);

}  // namespace epdd::core
