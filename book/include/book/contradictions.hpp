// Contradictions (issue 17, "The model"; BOOKUP's selling point): the book moves whose score in
// the games that played them disagrees with their backsolved value, e.g. the mover scores 70% with
// a move the backsolve calls -1.00 for him: a move that wins in practice but not on the board (or
// the other way round), worth a look before either is trusted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "core/types.hpp"

namespace epdd::book {

// Which moves are listed. The score needs games with a result: games with "*" or no Result tag
// count in the statistics but not in the score nor in min_games.
struct ContradictionOptions {
  // Games with a result (white wins + draws + black wins) a move needs to be judged at all.
  std::uint32_t min_games = 10;
  // Listed: the mover scores >= high_score while the value for him is <= -value_cp ...
  double high_score = 0.55;
  // ... or the mover scores <= low_score while the value for him is >= +value_cp.
  double low_score = 0.45;
  int value_cp = 50;
};

// Which way a move contradicts its value.
enum class ContradictionKind {
  ScoresAboveValue,  // the mover scores well with a move the backsolve calls bad for him
  ScoresBelowValue,  // the mover scores badly with a move the backsolve calls good for him
};

// One listed move.
struct Contradiction {
  NodeId parent = 0;  // the position the move is played from
  EdgeId edge = 0;
  std::string move;   // SAN
  std::string line;   // the parent's first path (first_paths) and the move: "1. e4 c5 2. Nf3"
  GameStats stats;    // the games that played the move (White wins, draws, Black wins, all)
  core::Color mover = core::Color::White;
  std::uint32_t scored_games = 0;  // white_wins + draws + black_wins
  double score = 0;   // the mover's score in them: (wins + draws / 2) / scored_games
  int value = 0;      // the backsolved value for the mover: ce_through_move(the child's ce), EPD ce
  // The score the value predicts: (1 + annotate::winning_chances(value)) / 2, the logistic curve
  // annotate judges moves by (1 / (1 + exp(-0.00368208 * cp)); mates, a huge ce, give 0 or 1).
  double expected = 0;
  // How bad: |score - expected|, in points of score (0..1); the list is sorted by it, worst first.
  double badness = 0;
  ContradictionKind kind = ContradictionKind::ScoresAboveValue;
};

// Every contradicting move of the book: edges out of nodes the root reaches (first_paths), into a
// child with a backsolved value, with at least min_games games with a result, whose score and
// value are on opposite sides as ContradictionOptions says (the bounds included). Sorted by
// badness, worst first; ties by more scored games, then by line.
std::vector<Contradiction> find_contradictions(const Dag& dag, const Backsolved& values,
                                               const ContradictionOptions& options = {});

// The list as a table for a terminal: a header line, then one line per move with the badness, the
// mover's score in per cent, the games with a result, the mover's wins/draws/losses, the value for
// the mover (pawns, or #N mate in N moves), the expected score, and the line. "no contradictions"
// for an empty list.
std::string contradictions_text(const std::vector<Contradiction>& list);

// The list as a JSON array (dump(2): two-space indent, a newline at the end), one object per move:
// line, move, position (the parent's four EPD fields), mover ("white"/"black"), games,
// white_wins, draws, black_wins, scored_games, score, value (ce for the mover), expected,
// badness (the three fractions rounded to 4 decimals), kind ("scores_above_value" or
// "scores_below_value"). Strings escaped as JSON requires.
std::string contradictions_json(const Dag& dag, const std::vector<Contradiction>& list);

}  // namespace epdd::book
