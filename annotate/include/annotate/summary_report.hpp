// The summary of an annotation run: per game and side, and per player over the file.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "annotate/render.hpp"

namespace epdd::annotate {

// The "format" of the summary JSON: `epdd report` chooses the annotation page by it.
inline constexpr std::string_view kAnnotationFormat = "epdd annotation 1";

// The summary as JSON, keys in this order:
//   {"format": "epdd annotation 1", "engine": ENGINE, "limits": LIMITS,
//    "games": [{"number": 1, "white": "...", "black": "...",
//               "white_side": SIDE, "black_side": SIDE,
//               "event": "...", "date": "...", "result": "...",               the tags, "" when absent
//               "first_ply": 1, "plies": [PLY, ...]}, ...],                   readable games, input order
//    "players": [{"name": "...", "games": 2, ...SIDE's keys}, ...],    by tag text, first seen first
//    "kept": [{"line": 12, "why": "12:5: ..."}, ...],                  games written back unchanged
//    "notes": ["...", ...]}
// SIDE is {"inaccuracies": I, "mistakes": M, "blunders": B, "moves": N, "acpl": A, "accuracy": P}:
// N the moves judged (with both evaluations and past the filters), A their average centipawn
// loss as lila counts it (SideSummary), null when N is 0; P lila's game accuracy of those moves
// (accuracy.hpp) to one decimal, for a player the mean of their games', null with none. A player's totals add up both colours; a game
// whose White and Black tags are the same text counts once for that player. Absent tags are "";
// a side whose tag is "?" (the standard's unknown) or empty is in its game but in no player's totals.
// PLY is one main-line move, ply first_ply + its index (ply 1 is White's first move from the
// usual start), on one line: {"san": "Nf3", "eval": E, "wc": W}, "accuracy": the move's accuracy
// as lila rates it (to one decimal) for a judged move whose two positions have a value, and, for a judged move,
// "judgement": "inaccuracy"|"mistake"|"blunder" and, when the engine preferred another move,
// "better": its SAN (a move not judged has neither key). E is the evaluation after the move as
// its [%eval] has it, White's view: centipawns as a number (35 is [%eval 0.35]), a mate as the
// [%eval] text ("#3" White mates in 3, "#-3", "#0" Black is checkmated, "#-0" White is), null
// where the position has none. W is White's winning chances in [-1, 1], lichess's formula the
// judgement uses (winning_chances(), judgement.hpp) on E rounded to 3 decimals, +-1 for a mate,
// null with no E. Every key of the first version (before format, tags and plies) is still
// there with its meaning: a reader of those reads this one.
std::string summary_json(const AnnotatedFile& file, const std::string& engine, const std::string& limits);

// The same for a terminal: a line per game side, then the players' totals, then the notes. Ends
// with a newline. The games kept unchanged are not in it: the caller lists them with the input's
// name (FILE:LINE: lines an editor understands), once.
std::string summary_text(const AnnotatedFile& file);

// Both texts written as the games are rendered (render_file's on_game), a game at a time, to
// `json` and `text` (either may be empty: that text is not made): the same bytes as
// summary_json and summary_text. A player's totals are kept until finish(): the memory grows
// with the number of players, not of games.
class SummaryWriter {
 public:
  using Sink = std::function<void(std::string_view)>;
  SummaryWriter(const std::string& engine, const std::string& limits, Sink json, Sink text);
  // One readable game, in input order.
  void game(const GameSummary& g);
  // The end of both: the players' totals, the games kept unchanged (JSON only), the notes.
  void finish(const std::vector<std::pair<std::size_t, std::string>>& kept, const std::vector<std::string>& notes);

 private:
  struct Player {
    std::string name;
    int games = 0;
    SideSummary total;
  };
  void add_player(const std::string& name, const SideSummary& side, bool new_game);

  Sink json_, text_;
  std::size_t games_ = 0;
  std::vector<Player> players_;                    // in the order first seen
  std::map<std::string, std::size_t> player_index_;  // by tag text
};

}  // namespace epdd::annotate
