// Attack tables: leapers by lookup, sliders by magic bitboards, plus the line and between
// tables that pin and check detection use. Built once, before main, from a fixed seed.
#pragma once

#include <array>

#include "core/types.hpp"

namespace epdd::core::attacks {

namespace detail {
struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* table;
  unsigned shift;
  unsigned index(Bitboard occupied) const {
    return static_cast<unsigned>(((occupied & mask) * magic) >> shift);
  }
};
extern Magic rook_magics[64];
extern Magic bishop_magics[64];
extern Bitboard knight[64];
extern Bitboard king[64];
extern Bitboard pawn[2][64];
extern Bitboard line[64][64];
extern Bitboard between[64][64];
// Searches a magic multiplier for every square (seconds of work; the results are constants in
// attacks.cpp, printed by tools/find_magics).
std::array<Bitboard, 64> find_magics(bool rook);
}  // namespace detail

inline Bitboard knight_attacks(Square s) { return detail::knight[index(s)]; }
inline Bitboard king_attacks(Square s) { return detail::king[index(s)]; }
// Squares a pawn of colour c on s attacks (not the squares it can push to).
inline Bitboard pawn_attacks(Color c, Square s) { return detail::pawn[index(c)][index(s)]; }
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::rook_magics[index(s)];
  return m.table[m.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::bishop_magics[index(s)];
  return m.table[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
// Attacks of a piece type other than a pawn from s with the given occupancy.
Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied);

// The whole line (rank, file or diagonal) through a and b, both included; empty if the two
// squares are not aligned.
inline Bitboard line(Square a, Square b) { return detail::line[index(a)][index(b)]; }
// Squares strictly between a and b when aligned, plus b itself; {b} when they are not aligned.
// That is exactly the set that stops a check from a slider on b (block or capture).
inline Bitboard between(Square a, Square b) { return detail::between[index(a)][index(b)]; }
inline bool aligned(Square a, Square b, Square c) { return (line(a, b) & bb(c)) != 0; }

// Shifts a set one step towards north (+8) or south (-8) without wrapping.
template <int Delta>
constexpr Bitboard shift(Bitboard b) {
  constexpr Bitboard not_a = ~kFileA;
  constexpr Bitboard not_h = ~(kFileA << 7);
  if constexpr (Delta == 8) return b << 8;
  else if constexpr (Delta == -8) return b >> 8;
  else if constexpr (Delta == 9) return (b & not_h) << 9;
  else if constexpr (Delta == 7) return (b & not_a) << 7;
  else if constexpr (Delta == -7) return (b & not_h) >> 7;
  else if constexpr (Delta == -9) return (b & not_a) >> 9;
  else static_assert(Delta == 8, "unsupported shift");
}

}  // namespace epdd::core::attacks
