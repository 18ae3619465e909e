// Internal: the Polyglot random numbers, indexed as the Polyglot book format specifies.
#pragma once

#include <cstdint>

namespace epdd::core::detail {

extern const std::uint64_t kPolyglotRandom[781];

constexpr int kPolyglotCastleOffset = 768;
constexpr int kPolyglotEnPassantOffset = 772;
constexpr int kPolyglotTurnOffset = 780;

}  // namespace epdd::core::detail
