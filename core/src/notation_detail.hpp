// Internal helpers shared by the notation readers and writers.
#pragma once

#include <string>

#include "core/board.hpp"
#include "core/notation.hpp"

namespace epdd::core::detail {

// Squares of the side to move's pieces of type pt that could move to `to` by the piece's
// movement rules (pawns: pushes onto an empty square, captures, en passant), king safety
// not yet considered.
Bitboard origins(const Board& board, PieceType pt, Square to);
// The same, keeping only origins whose move leaves the king safe.
Bitboard legal_origins(const Board& board, PieceType pt, Square to);
// The move from `from` to `to` with its kind (en passant, promotion to `promotion`) filled in.
Move make_move_to(const Board& board, Square from, Square to, PieceType promotion);
// SAN's file, rank or square that tells the move apart from same-type moves to its square.
std::string disambiguation(const Board& board, Move move);

}  // namespace epdd::core::detail
