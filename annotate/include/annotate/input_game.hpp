// The games of an annotation run's input, as scanned before any engine work: where each one's
// bytes are and whether the reader can read it whole. A few numbers per game are kept, nothing
// of its moves or tags, so a run's memory does not grow with the number of games: what a game
// holds is read again from the input when its part is planned or rendered (MainLines,
// render_file). The input itself is read a part at a time (InputBytes), never held whole.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"
#include "core/move.hpp"
#include "pgn/game.hpp"

namespace epdd::annotate {

// The input's bytes, read a part at a time (from the store, from a file): `read(offset, length)`
// gives [offset, offset + length) cut at `size`. A file of thousands of games is never held
// whole by annotate.
struct InputBytes {
  std::size_t size = 0;
  std::function<std::string(std::size_t offset, std::size_t length)> read;
};

// Bytes held by the caller (tests, small inputs); `bytes` must outlive every use.
InputBytes bytes_in_memory(std::string_view bytes);

// One game of the input, as scanned.
struct InputGame {
  std::size_t number = 0;          // 1-based in the file (the PGN reader's numbering)
  std::size_t line = 0;            // its first line
  std::size_t begin = 0, end = 0;  // its bytes in the input: what is written back verbatim
  // false: the reader met an ERROR (illegal move, broken token, unusable FEN ...) in its bytes,
  // in the main line or in a variation. Such a game is written back verbatim, never annotated.
  bool readable = true;
  std::string problem;             // then "LINE:COLUMN: message" of its first error
  std::size_t plies = 0;           // (readable) the main line's length
  // A tag, comment or escape line of it is not valid UTF-8: its text is Latin-1, the PGN
  // standard's character set (4.1). The output of a file with such a game stays in Latin-1.
  bool latin1 = false;
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
std::vector<InputGame> scan_games(const InputBytes& bytes);
std::vector<InputGame> scan_games(std::string_view bytes);

// The input of an annotation run as PGN text, what scan_games reads: PGN as it is; PGC and
// ChessLive! move files (by the path's suffix .pgc/.clm, else by their first bytes: pgn/formats.hpp)
// converted to PGN export format, so they are annotated like any PGN and the output is PGN. Such
// an input is held whole while it is converted (PGC is a third of its PGN). An input that cannot
// be read (a damaged PGC file, a move file against its grammar) is an error naming the file and
// the byte or the line, and nothing of it is annotated.
Expected<std::string, std::string> input_as_pgn(const std::string& path, std::string bytes);

// Whether the file at `path` is PGN (by its suffix, else by its first bytes), which
// input_as_pgn takes as it is: it can be read a part at a time. False when it cannot be opened.
bool is_pgn_file(const std::string& path);

// Whether the input is all UTF-8 (then no game of it is Latin-1), read a chunk at a time (a
// character cut by a chunk's end is read whole with the next one).
bool all_utf8(const InputBytes& bytes);

// The games of an input read again in order, a game at a time, with their full tree, exactly
// as scan_games read them (one reader over the whole input, so a game reads as it does there).
// What a game holds is read when it is needed (its part planned, its output rendered) instead
// of being kept for every game.
class GameCursor {
 public:
  // `bytes` must outlive the cursor.
  explicit GameCursor(const InputBytes& bytes);
  ~GameCursor();
  GameCursor(const GameCursor&) = delete;
  GameCursor& operator=(const GameCursor&) = delete;
  // Game `index` (0-based: the index into scan_games' list). Cheap for the next index; an
  // earlier one reads the input again from its start. Throws std::out_of_range past the last.
  const pgn::Game& at(std::size_t index);

 private:
  struct Reader;
  const InputBytes& bytes_;
  std::unique_ptr<Reader> reader_;
  std::size_t next_ = 0;  // the index the reader reads next
  pgn::Game game_;        // game next_ - 1
};

}  // namespace epdd::annotate
