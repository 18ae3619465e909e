// PGN to EPD: every position of a game's main line as an EPD record. Written here with core
// alone (pgn and epd are siblings that may not use each other); the records are canonical EPD.
#pragma once

#include <string>
#include <vector>

#include "pgn/game.hpp"

namespace epdd::pgn {

struct ToEpdOptions {
  bool comments = false;  // the comments after each move as c0 of the record where it was played
};

// One line per position (without line ending): before every main-line move, with `sm` the move
// played, and the final position. Operations in ASCII order: c0 eco fmvn hmvc id sm v0 v1, where
// eco comes from the ECO tag, v0 from Opening and v1 from Variation, and id is
// "game N ply P". EPD strings cannot hold '"' (it becomes ') or 256 bytes or more (cut).
// Chess960 games are written with Shredder-FEN castling (HAha), which marks the variant.
std::vector<std::string> game_to_epd(const Game& game, const ToEpdOptions& options = {});

}  // namespace epdd::pgn
