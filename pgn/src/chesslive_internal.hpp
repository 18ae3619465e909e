// Shared by the ChessLive! reader and writer: the comment commands a move's Depth/Score/Time
// become, both ways (see chesslive.hpp for the conventions).
#pragma once

#include <optional>
#include <string>
#include <string_view>


namespace epdd::pgn::clm {

// A move's engine data; absent parts are nullopt (depth 0: none).
struct MoveData {
  int depth = 0;
  std::optional<long> score;    // centipawns, White's point of view
  std::optional<long> seconds;  // left on the mover's clock
  // Read from a comment: false when it held more than these (text, other commands, a second
  // [%eval] or [%clk], a fraction of a second), which a move file cannot keep.
  bool whole = true;
};

inline constexpr long kMateScore = 100000;
inline constexpr long kMateLimit = 99000;

// "[%eval 0.35,20] [%clk 0:01:02]" for a move's data.
std::string data_comment(const MoveData& d);
// The data a comment's [%eval]/[%clk] commands hold, or nullopt when it has neither (or
// their arguments are not in the form data_comment writes and lichess reads).
std::optional<MoveData> parse_data_comment(std::string_view comment);

}  // namespace epdd::pgn::clm
