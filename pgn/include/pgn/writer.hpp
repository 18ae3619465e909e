// PGN export format, exactly as the standard says: the Seven Tag Roster first and in order ("?"
// for missing values), other tags in ASCII order, one per line, escaped; a blank line; movetext
// in lines of fewer than 80 characters broken between tokens; move numbers before every White
// move and before a Black move only at the start of a line of play or after a comment or a
// variation; NAGs as $n; the result last; LF line endings.
#pragma once

#include <memory>
#include <string>
#include <string_view>
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

// What export_game writes before the movetext: escape lines, the tags, the blank line.
void append_tag_section(std::string& out, const Game& game, const ExportOptions& options = {});

// Only the movetext lines (no tags, no trailing blank line): the eighth collation key.
std::string export_movetext(const Game& game, const ExportOptions& options = {});

// The longest line export writes (the standard: fewer than 80 characters).
inline constexpr std::size_t kExportLineLimit = 79;

// Export format's movetext written as it is made, for a tree too big to hold as a Game (an
// opening book's): the same calls in the order a Game's tree is written (each move, then its
// NAGs, comments and variations) give the bytes export_movetext gives. Appends to `out`, which
// the caller may hand on up to complete() and then drop_complete().
class MovetextStream {
 public:
  explicit MovetextStream(std::string& out);
  ~MovetextStream();
  MovetextStream(const MovetextStream&) = delete;
  MovetextStream& operator=(const MovetextStream&) = delete;
  // A move from `before`: its number where the standard wants one, then its SAN ("--" for a null
  // move).
  void move(const core::Board& before, core::Move move);
  void nag(int nag);
  // A comment (before a line's first move, or after a move).
  void comment(std::string_view text);
  // A variation after the last move (it replaces that move): begin, its moves, end.
  void begin_variation();
  void end_variation();
  // The termination marker, which ends the movetext's last line.
  void result(std::string_view result);
  // The length of the front of `out` that holds whole lines (the last line is still packed).
  std::size_t complete() const;
  // Erases those whole lines from `out` (after the caller handed them on).
  void drop_complete();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace epdd::pgn
