// PGC move ordinals: each legal move gets a 64-bit key holding its SAN (check marks left out)
// as big-endian bytes padded with zeros, so comparing keys compares the strings in ASCII order
// (a shorter string that is a prefix sorts first, as '\0' does). No strings are built.
#include <algorithm>

#include "pgc_detail.hpp"

namespace epdd::pgn {

namespace {

using core::Move;
using core::MoveKind;
using core::PieceType;

constexpr char kLetters[] = "PNBRQK";

class KeyBuilder {
 public:
  void put(char c) {
    key_ |= static_cast<std::uint64_t>(static_cast<unsigned char>(c)) << shift_;
    shift_ -= 8;
  }
  void square(core::Square s) {
    put(static_cast<char>('a' + core::file_of(s)));
    put(static_cast<char>('1' + core::rank_of(s)));
  }
  std::uint64_t key() const { return key_; }

 private:
  std::uint64_t key_ = 0;
  int shift_ = 56;
};

}  // namespace

namespace detail {

std::size_t pgc_keyed_moves(const core::Board& board, KeyedMove* out) {
  core::MoveList list;
  board.generate_legal(list);
  const std::size_t n = list.size();
  // Piece type of each move, for disambiguation among same-type moves to the same square.
  std::array<std::uint8_t, core::MoveList::kCapacity> type{};
  for (std::size_t i = 0; i < n; ++i) type[i] = static_cast<std::uint8_t>(core::type_of(board.moving_piece(list[i])));
  for (std::size_t i = 0; i < n; ++i) {
    const Move m = list[i];
    KeyBuilder k;
    if (m.kind() == MoveKind::Castling) {
      k.put('O');
      k.put('-');
      k.put('O');
      if (core::file_of(m.to()) < core::file_of(m.from())) {
        k.put('-');
        k.put('O');
      }
      out[i] = {k.key(), m};
      continue;
    }
    const auto pt = static_cast<PieceType>(type[i]);
    const bool capture = board.piece_on(m.to()) != core::Piece::None || m.kind() == MoveKind::EnPassant;
    if (pt == PieceType::Pawn) {
      if (capture) {
        k.put(static_cast<char>('a' + core::file_of(m.from())));
        k.put('x');
      }
      k.square(m.to());
      if (m.kind() == MoveKind::Promotion) {
        k.put('=');
        k.put(kLetters[core::index(m.promotion())]);
      }
    } else {
      k.put(kLetters[core::index(pt)]);
      if (pt != PieceType::King) {
        bool other = false, same_file = false, same_rank = false;
        for (std::size_t j = 0; j < n; ++j) {
          if (j == i || type[j] != type[i] || list[j].to() != m.to()) continue;
          other = true;
          same_file |= core::file_of(list[j].from()) == core::file_of(m.from());
          same_rank |= core::rank_of(list[j].from()) == core::rank_of(m.from());
        }
        if (other && !same_file) {
          k.put(static_cast<char>('a' + core::file_of(m.from())));
        } else if (other && !same_rank) {
          k.put(static_cast<char>('1' + core::rank_of(m.from())));
        } else if (other) {
          k.square(m.from());
        }
      }
      if (capture) k.put('x');
      k.square(m.to());
    }
    out[i] = {k.key(), m};
  }
  return n;
}

}  // namespace detail

core::MoveList pgc_ordered_moves(const core::Board& board) {
  std::array<detail::KeyedMove, core::MoveList::kCapacity> keyed;
  const std::size_t n = detail::pgc_keyed_moves(board, keyed.data());
  std::sort(keyed.begin(), keyed.begin() + static_cast<std::ptrdiff_t>(n),
            [](const detail::KeyedMove& a, const detail::KeyedMove& b) { return a.key < b.key; });
  core::MoveList out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(keyed[i].move);
  return out;
}

std::optional<std::uint8_t> detail::ordinal_in(const KeyedMove* keyed, std::size_t n, core::Move move) {
  std::uint64_t key = 0;
  bool found = false;
  for (std::size_t i = 0; i < n; ++i)
    if (keyed[i].move == move) {
      key = keyed[i].key;
      found = true;
    }
  if (!found) return std::nullopt;
  std::size_t below = 0;
  for (std::size_t i = 0; i < n; ++i) below += keyed[i].key < key;
  if (below > 255) return std::nullopt;
  return static_cast<std::uint8_t>(below);
}

std::optional<core::Move> detail::move_in(KeyedMove* keyed, std::size_t n, std::uint8_t ordinal) {
  if (ordinal >= n) return std::nullopt;
  std::nth_element(keyed, keyed + ordinal, keyed + n,
                   [](const KeyedMove& a, const KeyedMove& b) { return a.key < b.key; });
  return keyed[ordinal].move;
}

std::optional<std::uint8_t> pgc_ordinal(const core::Board& board, core::Move move) {
  std::array<detail::KeyedMove, core::MoveList::kCapacity> keyed;
  const std::size_t n = detail::pgc_keyed_moves(board, keyed.data());
  return detail::ordinal_in(keyed.data(), n, move);
}

std::optional<core::Move> pgc_move(const core::Board& board, std::uint8_t ordinal) {
  std::array<detail::KeyedMove, core::MoveList::kCapacity> keyed;
  const std::size_t n = detail::pgc_keyed_moves(board, keyed.data());
  return detail::move_in(keyed.data(), n, ordinal);
}

}  // namespace epdd::pgn
