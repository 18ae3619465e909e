// Internals shared by the PGC ordinal code, reader and writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pgn/pgc.hpp"

namespace epdd::pgn::detail {

// A legal move and its ordinal sort key (its SAN, without check marks, as big-endian bytes).
struct KeyedMove {
  std::uint64_t key;
  core::Move move;
};
// Fills out (room for MoveList::kCapacity) with the legal moves and their keys, in generation
// order; returns how many.
std::size_t pgc_keyed_moves(const core::Board& board, KeyedMove* out);
// The ordinal of move among n keyed moves, or nullopt when it is not one of them.
std::optional<std::uint8_t> ordinal_in(const KeyedMove* keyed, std::size_t n, core::Move move);
// The move with that ordinal (reorders keyed), or nullopt when there are not that many.
std::optional<core::Move> move_in(KeyedMove* keyed, std::size_t n, std::uint8_t ordinal);

// Latin-1 bytes as UTF-8.
void latin1_to_utf8(std::string_view in, std::string& out);

}  // namespace epdd::pgn::detail
