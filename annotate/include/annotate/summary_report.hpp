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
