// Move: 16 bits that say everything make_move needs, and a fixed-capacity move list.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/types.hpp"

namespace epdd::core {

enum class MoveKind : std::uint8_t { Normal = 0, Promotion = 1, EnPassant = 2, Castling = 3 };

// A move as from/to squares and a kind. Castling is encoded as "king takes own rook"
// (from = king square, to = castling rook's square), which is the same for standard chess and
// Chess960; the king's and rook's destinations follow from the side. The null move and "no
// move" are distinct values that no legal move can take (from == to).
class Move {
 public:
  // Trivial so that a MoveList costs nothing to create; Move{} is none().
  Move() = default;
  constexpr Move(Square from, Square to, MoveKind kind = MoveKind::Normal,
                 PieceType promotion = PieceType::Knight)
      : data_(static_cast<std::uint16_t>(
            index(from) | (index(to) << 6) |
            ((kind == MoveKind::Promotion ? index(promotion) - index(PieceType::Knight) : 0)
             << 12) |
            (static_cast<int>(kind) << 14))) {}

  static constexpr Move none() { return from_raw(0); }
  // The null move ("pass"): from == to == b1 so that it differs from none().
  static constexpr Move null() { return Move{Square::B1, Square::B1}; }

  constexpr Square from() const { return square_at(data_ & 63); }
  constexpr Square to() const { return square_at((data_ >> 6) & 63); }
  constexpr MoveKind kind() const { return static_cast<MoveKind>(data_ >> 14); }
  // The piece a pawn becomes; only meaningful for MoveKind::Promotion.
  constexpr PieceType promotion() const {
    return static_cast<PieceType>(((data_ >> 12) & 3) + index(PieceType::Knight));
  }
  constexpr bool is_none() const { return data_ == 0; }
  constexpr bool is_null() const { return *this == null(); }
  // True for every move that can come out of move generation.
  constexpr bool is_real() const { return from() != to(); }
  constexpr std::uint16_t raw() const { return data_; }
  static constexpr Move from_raw(std::uint16_t raw) {
    Move m{};
    m.data_ = raw;
    return m;
  }

  friend constexpr bool operator==(Move a, Move b) { return a.data_ == b.data_; }

 private:
  std::uint16_t data_;
};

// A list of moves on the stack. 256 exceeds the most legal moves any position has (218).
class MoveList {
 public:
  static constexpr std::size_t kCapacity = 256;

  void push_back(Move m) { moves_[size_++] = m; }
  void clear() { size_ = 0; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](std::size_t i) const { return moves_[i]; }
  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }

 private:
  std::array<Move, kCapacity> moves_;
  std::size_t size_ = 0;
};

}  // namespace epdd::core
