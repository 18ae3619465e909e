// The per-side summary of an annotated game: judgements counted and average centipawn loss as
// lichess computes it (lila AccuracyCP).
#pragma once

#include <optional>

#include "annotate/judgement.hpp"
#include "core/score.hpp"

namespace epdd::annotate {

// One move's centipawn loss as lichess counts it (lila AccuracyCP.diffsList): both scores
// capped at +-1000, a mate counting as +-1000 (lila's forceAsCp, then ceiled), the drop from
// the mover's point of view, never below 0. Scores as judge() takes them: `before` from the
// mover to move, `after` from the opponent to move.
int centipawn_loss(core::Score before, core::Score after);

// One side of one game (or of a player over many games: add() more moves).
struct SideSummary {
  int inaccuracies = 0;
  int mistakes = 0;
  int blunders = 0;
  long long loss_sum = 0;
  int moves = 0;  // moves with a centipawn loss counted
  // Game accuracies (accuracy.hpp): one for a game's side, a player's games' summed by merge().
  double accuracy_sum = 0;
  int accuracy_games = 0;

  // Counts one judged move and its centipawn loss.
  void add(Judgement judgement, int loss);
  // Another summary's moves added to this one (a player's totals over a file).
  void merge(const SideSummary& other);
  // The mean loss rounded half up as lila's Math.round; nullopt with no move counted.
  std::optional<int> average_centipawn_loss() const;
  // A game's accuracy of this side.
  void add_game_accuracy(double accuracy);
  // The side's game accuracy; for a player's totals the mean of their games' accuracies (each
  // game counts once, as on lichess's insights); nullopt with none.
  std::optional<double> accuracy() const;
};

}  // namespace epdd::annotate
