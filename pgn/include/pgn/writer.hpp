// PGN export format, exactly as the standard says: the Seven Tag Roster first and in order ("?"
// for missing values), other tags in ASCII order, one per line, escaped; a blank line; movetext
// in lines of fewer than 80 characters broken between tokens; move numbers before every White
// move and before a Black move only at the start of a line of play or after a comment or a
// variation; NAGs as $n; the result last; LF line endings.
#pragma once

#include <string>
#include <vector>

#include "pgn/game.hpp"

namespace epdd::pgn {

struct ExportOptions {
  // Reduced export format: the Seven Tag Roster only; no comments, variations or NAGs. SetUp,
  // FEN and Variant are kept where present: without them a game from a set-up position (or a
  // Chess960 game) would be a different game.
  bool reduced = false;
};

// The tags in the order export writes them, STR defaults filled in.
std::vector<Tag> export_tags(const Game& game);

// What the reduced export format holds of a game: its tags as export_tags gives them, the Seven
// Tag Roster and SetUp, FEN and Variant only; the main line without NAGs, comments or variations;
// no escapes. Exporting it gives what the reduced option writes of `game`; other formats (PGC's
// reduced-export record) write it so.
Game reduced_game(const Game& game);

// The game in export format, ending with the blank line that closes its movetext.
std::string export_game(const Game& game, const ExportOptions& options = {});
void append_game(std::string& out, const Game& game, const ExportOptions& options = {});

// Only the movetext lines (no tags, no trailing blank line): the eighth collation key.
std::string export_movetext(const Game& game, const ExportOptions& options = {});

// The longest line export writes (the standard: fewer than 80 characters).
inline constexpr std::size_t kExportLineLimit = 79;

}  // namespace epdd::pgn
