// Reading PGN in import format, laxly: games with or without tags, tags glued to movetext,
// missing or wrong move numbers, missing results, null moves, setup positions, Chess960. An
// illegal move or a broken token is a diagnostic; the game keeps its longest legal prefix (a
// variation its legal start) and the next game is read as if nothing happened.
#pragma once

#include <functional>
#include <istream>
#include <memory>
#include <string_view>
#include <vector>

#include "pgn/diagnostic.hpp"
#include "pgn/game.hpp"
#include "pgn/lexer.hpp"

namespace epdd::pgn {

struct ReadOptions {
  // Check '+'/'#' marks against the position (reported as notes). Costs a mate test per
  // checking move; bulk readers may turn it off.
  bool verify_check_marks = true;
};

class Parser;

// Reads whole games (the full tree) one at a time. Diagnostics reach `diags` a game at a time,
// in file order: with a limit per kind or a listener set on it, memory does not grow with their
// number.
class GameReader {
 public:
  GameReader(std::string_view text, Diagnostics& diags, ReadOptions options = {});
  GameReader(std::istream& in, Diagnostics& diags, ReadOptions options = {});
  ~GameReader();
  // The next game; false at the end of the input.
  bool next(Game& game);

 private:
  std::unique_ptr<Lexer> lexer_;
  std::unique_ptr<Parser> parser_;
};

// Calls `each` with every game `reader` reads, in order, on this thread, while the reader reads
// the games ahead on a thread of its own (256 games ahead at most, by default): on two cores, a
// consumer as slow as the reader goes twice as fast. The reader's diagnostics reach their
// listener on the reading thread, while `each` runs: what the listener and `each` touch must be
// apart. An exception from the reader reaches the caller after every game read before it was
// used; one from `each` stops the reader and is rethrown.
struct ReadAhead {
  std::size_t batch_games = 64;  // games handed over at a time
  std::size_t batches = 4;       // batches in flight: the reader is at most batch_games * batches ahead
};
void read_ahead(GameReader& reader, const std::function<void(Game&)>& each, ReadAhead ahead = {});

// Every game of a buffer.
std::vector<Game> read_games(std::string_view text, Diagnostics& diags, ReadOptions options = {});

// A game's tags, start position and main line, for consumers that need nothing else.
struct MainlineGame {
  std::vector<Tag> tags;
  core::Board start;
  std::vector<core::Move> moves;
  std::string result;
  std::size_t number = 0;
  std::size_t line = 0;
  std::size_t byte_end = 0;  // as Game::byte_end
};

// Reads main lines only: comments and variations are skipped without being built, check marks
// are not verified. Memory does not grow with the input.
class MainlineReader {
 public:
  MainlineReader(std::string_view text, Diagnostics& diags);
  MainlineReader(std::istream& in, Diagnostics& diags);
  ~MainlineReader();
  bool next(MainlineGame& game);

 private:
  std::unique_ptr<Lexer> lexer_;
  std::unique_ptr<Parser> parser_;
  Game scratch_;
};

// Comment text as the reader keeps it: every run of white space (newlines included) made one
// space, trimmed; the form export writes back, so that comments survive a round trip unchanged.
std::string normalize_comment(std::string_view text);

// The NAG a suffix annotation stands for ("!" 1, "?" 2, "!!" 3, "??" 4, "!?" 5, "?!" 6), or 0.
int suffix_nag(std::string_view suffix);

}  // namespace epdd::pgn
