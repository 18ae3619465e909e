// The standard's collation order of games within a file: Date, Event, Site, Round, White,
// Black, Result, then the movetext itself.
#pragma once

#include <vector>

#include "pgn/game.hpp"

namespace epdd::pgn {

// True when a sorts before b. Unknown date digits count as zero; rounds sort numerically, part
// by part, with '?' before '-' before any number; the movetext is compared as export writes it.
bool collates_before(const Game& a, const Game& b);

// Sorts games into the standard's order (stable: equal games keep their order).
void sort_games(std::vector<Game>& games);

}  // namespace epdd::pgn
