// `epdd convert IN -o OUT`: games from one format into another, a game at a time (issue 19):
// PGN (.pgn), PGC (.pgc, the PGN standard's binary coding) and ChessLive! move files (.clm) in;
// PGN, PGC, move files or EPD (.epd, every position) out. The input's format is its suffix's,
// or, for another suffix, what its first bytes say (pgn/formats.hpp). The output's is its
// suffix's, or --to's. A move file holds one game: several games go to OUT-1.clm, OUT-2.clm ...
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

namespace epdd::cli {

struct ConvertOptions {
  std::string input;
  std::optional<std::string> output;  // written atomically; stdout without it
  std::optional<std::string> to;      // pgn, pgc, epd: the output's format, over its suffix
  bool lossy = false;                 // PGC: leave out what it cannot hold (comments...), counted
  bool reduced = false;               // the reduced export format (PGN; PGC's 0x01 records; move files)
  std::optional<std::string> start;   // ChessLive! input: the FEN its moves start from (the file cannot say)
  std::optional<std::string> from;    // pgn, pgc, clm: the input's format, over its suffix and content
  bool no_santags = false;            // move files: no SANtag field (Move/Depth/Score/Time only)
};

// Exit status: 0 every game converted as it was; 1 games with errors (PGN: kept up to the
// error), or games PGC or a move file cannot hold without --lossy (then nothing is written);
// 2 bad options, an unreadable input, an unwritable output, or a PGC input that is damaged or a
// move file that breaks its grammar (what came before is not written either).
int run_convert(const ConvertOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
