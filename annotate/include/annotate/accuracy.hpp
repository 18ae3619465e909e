// Accuracy as lichess computes it (lila's AccuracyPercent, scalachess's WinPercent): a move's
// accuracy from the mover's winning percent before and after it, and a side's game accuracy as
// the mean of a volatility-weighted mean and a harmonic mean of its moves' accuracies.
#pragma once

#include <optional>
#include <vector>

#include "core/types.hpp"

namespace epdd::annotate {

// lila's Cp.initial: the value lichess gives the start position (White's +0.15) instead of an
// evaluation of it, in its judgement, its ACPL and its accuracy.
inline constexpr int kInitialCentipawns = 15;

// lila's WinPercent.fromCentiPawns: 50 + 50 x the winning chances of White's centipawns capped
// at +-1000 (a mate is given as the cap by the caller), in [0, 100]: White's winning percent.
double win_percent(int white_centipawns);

// lila's AccuracyPercent.fromWinPercents: 100 when the mover's winning percent does not drop,
// else 103.1668100711649 x exp(-0.04354415386753951 x drop) - 3.166924740191411 plus lila's
// "uncertainty bonus" of 1, clamped to [0, 100]. Both are the mover's winning percents.
double move_accuracy(double mover_before, double mover_after);

struct GameAccuracy {
  // moves[i]: the accuracy of ply i + 1 (the move from position i to position i + 1), nullopt
  // when either position has no value.
  std::vector<std::optional<double>> moves;
  // Each side's game accuracy; nullopt for a side with no move rated.
  std::optional<double> white, black;
};

// One game's accuracies from its main-line positions' values: `white_centipawns[i]` is White's
// centipawns after i plies (0: the start position; a mate as +-1000), nullopt where there is no
// value. `first_mover` moves from position 0.
//
// lila's gameAccuracy, to the constant: the winning percents of the positions in order form
// windows of clamp(moves / 10, 2, 8) values (the first windows repeated so that each move has
// one); each move's weight is its window's population standard deviation clamped to [0.5, 12];
// a side's accuracy is the mean of its moves' weighted mean and their harmonic mean (each
// accuracy counted as at least 1 there, as lila's Maths.harmonicMean does).
// Positions without a value are left out of the sequence as lila leaves out an analysis's empty
// evaluations; unlike lila, a move is rated only when both of its own positions have one (lila
// would pair the positions around the gap and give the pair to the wrong side).
// With `rated`, only the moves i with (*rated)[i] are rated (the others still shape the windows,
// as every position does): the moves the annotation's filters judge.
GameAccuracy game_accuracy(const std::vector<std::optional<int>>& white_centipawns, core::Color first_mover,
                           const std::vector<bool>* rated = nullptr);

}  // namespace epdd::annotate
