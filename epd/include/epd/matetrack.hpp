// The matetrack convention (vondele/matetrack, the mate-finding benchmark of engine developers):
// a record `bm #N;` means "the side to move mates in N full moves" and `bm #-N;` "the side to
// move gets mated in N". The key is not a move: the checker notes it instead of calling it an
// illegal move, and the suites workflow scores it by mate length. One reading for both.
#pragma once

#include <optional>
#include <string_view>

#include "epd/record.hpp"

namespace epdd::epd {

// An operand `#N` or `#-N` (N a positive integer of digits, at most 500 moves, the range of dm)
// as +N or -N; nullopt for anything else ("#0", "#+3", "#007" is read as 7, "Qh7#" is a move).
std::optional<int> parse_mate_key(std::string_view operand);

// The record's matetrack key: its first bm operation has exactly one operand and that operand is
// a mate key. +N: the side to move mates in N; -N: it is mated in N. nullopt otherwise.
std::optional<int> matetrack_mate(const EpdRecord& record);

}  // namespace epdd::epd
