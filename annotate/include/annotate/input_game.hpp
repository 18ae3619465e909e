// The games of an annotation run's input, as scanned before any engine work: where each one's
// bytes are, whether the reader can read it whole, and what the engine must see (start
// position and main line). Nothing but this summary is kept per game, so memory does not grow
// with the size of a game's tree.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/move.hpp"

namespace epdd::annotate {

// One game of the input, as scanned (main line only; no trees kept).
struct InputGame {
  std::size_t number = 0;          // 1-based in the file (the PGN reader's numbering)
  std::size_t line = 0;            // its first line
  std::size_t begin = 0, end = 0;  // its bytes in the input: what is written back verbatim
  // false: the reader met an ERROR (illegal move, broken token, unusable FEN ...) in its bytes,
  // in the main line or in a variation. Such a game is written back verbatim, never annotated.
  bool readable = true;
  std::string problem;             // then "LINE:COLUMN: message" of its first error
  core::Board start;               // (readable) start position: FEN/SetUp/Variant honoured
  std::vector<core::Move> moves;   // (readable) the main line
  std::string white, black;        // the White and Black tags ("" when absent)
};

// The games of `bytes`, in order. The ranges: a game's [begin, end) runs from the first byte
// that is not white space after the previous game's end (the file's first byte for game 1, a
// byte-order mark included) to one past its last token (its termination marker, or the last
// token before the next game). So every byte that is not white space belongs to exactly one
// game: a comment after a result (which the reader gives to the next game's tree) or a '%'
// escape line before a game lies in the next game's range. The only bytes outside every range
// are white space between games, and whatever follows the last game's end: render_file writes
// that tail back verbatim when it is not white space (the reader has no game to give it to)
// and says so in its notes. Reads the full tree of each game (one at a time), so that an error
// inside a variation counts too. An error makes a game unreadable when the reader reports it
// inside the game's bytes; the two it reports past a game's end lose nothing (a comment after
// the result, which goes to the next game; a variation still open at the next game, which the
// reader closes) and do not.
std::vector<InputGame> scan_games(std::string_view bytes);

// Where the text after the last game starts: the first byte after the last game's end (from
// the input's start when there is no game) that is not white space; bytes.size() when none.
std::size_t tail_begin(std::string_view bytes, const std::vector<InputGame>& games);

}  // namespace epdd::annotate
