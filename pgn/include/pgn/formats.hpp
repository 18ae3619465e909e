// The three game formats of the standards, read the same way: PGN (pgn/reader.hpp), PGC binary
// games (pgn/pgc.hpp) and ChessLive! move files (pgn/chesslive.hpp). Which one a file is comes
// from its suffix (.pgn, .pgc, .clm) or, where the suffix says none of these, from its first
// bytes, so `epdd pgn check`, `convert` and `annotate` take any of them.
#pragma once

#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/board.hpp"
#include "core/expected.hpp"
#include "pgn/diagnostic.hpp"
#include "pgn/game.hpp"
#include "pgn/reader.hpp"

namespace epdd::pgn {

enum class GameFormat { Pgn, Pgc, ChessLive };
class PgcReader;

// "PGN", "PGC", "ChessLive!".
const char* to_string(GameFormat f);

// The format a name names ("pgn", "pgc", "clm"; case aside), or nullopt: what --from takes.
std::optional<GameFormat> game_format_named(std::string_view name);

// The format a file name's suffix names (.pgn, .pgc, .clm; case aside), or nullopt.
std::optional<GameFormat> game_format_of_suffix(std::string_view path);

// How many first bytes sniff_game_format wants to see (fewer at the end of a file).
inline constexpr std::size_t kSniffBytes = 4096;

// The format of data that begins with `head`:
// - PGC when the first byte is a PGC marker (0x00..0x0a) other than a tab or a line feed: no
//   PGN text begins with a control character. A line feed first is PGC's escape string marker
//   when bytes 0x00..0x08 (other markers, length headers) follow in `head`, which PGN text
//   never holds.
// - ChessLive! when the text (a UTF-8 byte-order mark and white space aside) is two fields
//   ended by ';' (the players) that hold no '[', '{' or '"', then what only a move file has
//   there: a move step ("e2:e4", "q:g8"), a Result ("+", "=" or "-") followed by ';' or the
//   end, or nothing at all.
// - PGN otherwise (its reader judges it; an empty file is PGN without games).
GameFormat sniff_game_format(std::string_view head);

// The format of a file: its suffix, else its content.
GameFormat game_format_of(std::string_view path, std::string_view head);

struct AnyReadOptions {
  ReadOptions pgn;                // for PGN input
  core::Board chesslive_start;    // a move file's moves start here (the file cannot say)
};

// Reads games of any format one at a time into the same Game. Problems reach `diags` as the
// PGN reader's do: PGN's as it reports them; a ChessLive! file's error as one MoveFile error
// (line and column; the file is one game, so it has none then); a damaged PGC input as one
// PgcData error whose message names the byte offset (line 0): the games before it have been
// read, reading stops there (a binary file cannot be resynchronised safely).
class AnyGameReader {
 public:
  // `format` nullopt: sniffed from the first bytes of `in` (which are read again, so `in` may
  // be a pipe).
  AnyGameReader(std::istream& in, std::optional<GameFormat> format, Diagnostics& diags, AnyReadOptions options = {});
  ~AnyGameReader();
  GameFormat format() const { return format_; }
  // The next game; false at the end of the input or after an error that ends the reading.
  bool next(Game& game);

 private:
  class Replay;  // the sniffed bytes, then the rest of `in`
  std::unique_ptr<Replay> replay_;
  std::unique_ptr<std::istream> stream_;
  GameFormat format_ = GameFormat::Pgn;
  Diagnostics& diags_;
  AnyReadOptions options_;
  std::unique_ptr<GameReader> pgn_;
  std::unique_ptr<PgcReader> pgc_;
  bool done_ = false;
};

// The games of PGC or ChessLive! data as PGN text (export format, a game at a time), for
// workflows whose input is PGN (annotate); PGN data is returned as it is. An error (a damaged
// PGC file, a move file that cannot be read) is "byte N, game G: ..." or "line L, column C:
// ...", with nothing of the games.
Expected<std::string, std::string> as_pgn_text(std::string_view data, GameFormat format,
                                               const AnyReadOptions& options = {});

}  // namespace epdd::pgn
