// Tag semantics of the standard: the Seven Tag Roster, Date, Round, TimeControl, SetUp/FEN,
// Result, PlyCount, Variant; each check reported as a diagnostic.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "core/fen.hpp"
#include "pgn/diagnostic.hpp"
#include "pgn/game.hpp"

namespace epdd::pgn {

// Event, Site, Date, Round, White, Black, Result: the order export writes them in.
inline constexpr std::array<std::string_view, 7> kSevenTagRoster = {"Event", "Site", "Date", "Round",
                                                                    "White", "Black", "Result"};
bool is_str_tag(std::string_view name);
// The value export writes for a missing STR tag ("?", "????.??.??", or the game's result).
std::string str_default(std::string_view name, const Game& game);

// A Date ("1992.08.31", "1993.??.??"); unknown parts are nullopt.
struct Date {
  std::optional<int> year, month, day;
};
Expected<Date, std::string> parse_date(std::string_view value);

// A Round: "?" (unknown), "-" (not applicable), or integers separated by periods ("4.1.2").
struct Round {
  enum class Kind : std::uint8_t { Unknown, NotApplicable, Numbered } kind = Kind::Unknown;
  std::vector<long> parts;
};
Expected<Round, std::string> parse_round(std::string_view value);

// One TimeControl field of the standard's six kinds.
struct TimeControlPeriod {
  enum class Kind : std::uint8_t { Unknown, None, MovesInTime, SuddenDeath, Incremental, Sandclock };
  Kind kind = Kind::Unknown;
  long moves = 0;      // MovesInTime
  long seconds = 0;    // MovesInTime, SuddenDeath, Incremental (base), Sandclock
  long increment = 0;  // Incremental
};
Expected<std::vector<TimeControlPeriod>, std::string> parse_time_control(std::string_view value);

enum class Variant : std::uint8_t { Standard, Chess960, Unsupported };
// "chess960", "Fischerandom", "fischer random", "Chess 960" are Chess960; "Standard", "chess",
// "normal" and "" are standard chess; anything else is not supported.
Variant classify_variant(std::string_view value);

// The position of a FEN tag: read strictly, and where that fails leniently (as other readers
// do), what was tolerated then added to `tolerated`; the strict reading's error when neither
// reads it. With chess960, KQkq are X-FEN letters.
Expected<core::Board, core::FenError> read_fen_tag(std::string_view value, bool chess960,
                                                   std::vector<core::FenNote>& tolerated);

// Checks every tag of a read game: the STR tags present, Date, Round, TimeControl, SetUp with
// FEN, Result against the termination marker, PlyCount against the main line.
void check_game_tags(const Game& game, Diagnostics& diags);

}  // namespace epdd::pgn
