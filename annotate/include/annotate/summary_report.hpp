// The summary of an annotation run: per game and side, and per player over the file.
#pragma once

#include <string>

#include "annotate/render.hpp"

namespace epdd::annotate {

// The summary as JSON, keys in this order:
//   {"engine": ENGINE, "limits": LIMITS,
//    "games": [{"number": 1, "white": "...", "black": "...",
//               "white_side": SIDE, "black_side": SIDE}, ...],          readable games, input order
//    "players": [{"name": "...", "games": 2, ...SIDE's keys}, ...],    by tag text, first seen first
//    "kept": [{"line": 12, "why": "12:5: ..."}, ...],                  games written back unchanged
//    "notes": ["...", ...]}
// SIDE is {"inaccuracies": I, "mistakes": M, "blunders": B, "moves": N, "acpl": A}: N the moves
// judged (with both evaluations and past the filters), A their average centipawn loss as lila
// counts it (SideSummary), null when N is 0. A player's totals add up both colours; a game
// whose White and Black tags are the same text counts once for that player. Absent tags are "".
std::string summary_json(const AnnotatedFile& file, const std::string& engine, const std::string& limits);

// The same for a terminal: a line per game side, then the players' totals, then the notes. Ends
// with a newline. The games kept unchanged are not in it: the caller lists them with the input's
// name (FILE:LINE: lines an editor understands), once.
std::string summary_text(const AnnotatedFile& file);

}  // namespace epdd::annotate
