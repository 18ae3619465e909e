// Internals shared by the PGC ordinal code, reader and writer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pgn/pgc.hpp"

namespace epdd::pgn::detail {

// The ordinal of a legal move (nullopt: not legal, or past 255).
std::optional<std::uint8_t> ordinal_of(const core::Board& board, core::Move move);
// The move of an ordinal (nullopt: not that many moves; then `legal`, when given, gets their
// number).
std::optional<core::Move> move_of(const core::Board& board, std::uint8_t ordinal, std::size_t* legal);

// The standard start position, built once (building a Board sets up every table it keeps).
const core::Board& standard_start();

// True when every byte is ASCII: the same bytes in UTF-8 and Latin-1, the common case for
// both directions.
inline bool is_ascii(std::string_view s) {
  unsigned char any = 0;
  for (char c : s) any |= static_cast<unsigned char>(c);
  return any < 0x80;
}

}  // namespace epdd::pgn::detail
