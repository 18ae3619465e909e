#include "annotate/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "annotate/judgement.hpp"

namespace epdd::annotate {

namespace {

// lila's Maths.standardDeviation: the population standard deviation.
double standard_deviation(const double* values, std::size_t n) {
  double mean = 0;
  for (std::size_t i = 0; i < n; ++i) mean += values[i];
  mean /= static_cast<double>(n);
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += (values[i] - mean) * (values[i] - mean);
  return std::sqrt(sum / static_cast<double>(n));
}

// A side's rated moves: sums for lila's weighted mean and harmonic mean.
struct SideSums {
  double weighted = 0, weights = 0, reciprocals = 0;
  int moves = 0;

  void add(double accuracy, double weight) {
    weighted += accuracy * weight;
    weights += weight;
    reciprocals += 1 / std::max(1.0, accuracy);
    ++moves;
  }
  // lila: weightedMean is None when the weights sum to 0 (they never do: each is >= 0.5).
  std::optional<double> accuracy() const {
    if (moves == 0 || weights == 0) return std::nullopt;
    return (weighted / weights + moves / reciprocals) / 2;
  }
};

}  // namespace

double win_percent(int white_centipawns) {
  return 50 + 50 * winning_chances(std::clamp(white_centipawns, -1000, 1000));
}

double move_accuracy(double mover_before, double mover_after) {
  if (mover_after >= mover_before) return 100;
  const double drop = mover_before - mover_after;
  const double raw = 103.1668100711649 * std::exp(-0.04354415386753951 * drop) + -3.166924740191411;
  return std::clamp(raw + 1, 0.0, 100.0);
}

GameAccuracy game_accuracy(const std::vector<std::optional<int>>& white_centipawns, core::Color first_mover,
                           const std::vector<bool>* rated) {
  GameAccuracy out;
  out.moves.assign(white_centipawns.empty() ? 0 : white_centipawns.size() - 1, std::nullopt);
  // The sequence lila builds: the positions that have a value, in order.
  std::vector<std::size_t> at;  // ply of each value
  std::vector<double> percents;
  for (std::size_t i = 0; i < white_centipawns.size(); ++i)
    if (white_centipawns[i]) {
      at.push_back(i);
      percents.push_back(win_percent(*white_centipawns[i]));
    }
  if (percents.size() < 2) return out;
  // lila: windowSize = clamp(cps.size / 10, 2, 8), cps the values after the start.
  const std::size_t window = std::clamp<std::size_t>((percents.size() - 1) / 10, 2, 8);
  const std::size_t first_windows = std::min(window, percents.size()) - 2;
  SideSums white, black;
  for (std::size_t k = 0; k + 1 < percents.size(); ++k) {
    // Pair k's window: the first `window` values for the first (window - 2) pairs, then the
    // windows sliding by one (one window of every value when there are fewer than `window`).
    const std::size_t from = k < first_windows ? 0 : k - first_windows;
    const std::size_t size = std::min(window, percents.size() - from);
    const double weight = std::clamp(standard_deviation(&percents[from], size), 0.5, 12.0);
    if (at[k + 1] != at[k] + 1) continue;  // a gap: not this move's own two positions
    const std::size_t ply = at[k];         // the move from position `ply`
    if (rated && !(ply < rated->size() && (*rated)[ply])) continue;
    const bool white_moves = (ply % 2 == 0) == (first_mover == core::Color::White);
    // lila: White's percents for White; for Black the two swapped (the same drop, Black's view).
    const double accuracy = white_moves ? move_accuracy(percents[k], percents[k + 1])
                                        : move_accuracy(percents[k + 1], percents[k]);
    out.moves[ply] = accuracy;
    (white_moves ? white : black).add(accuracy, weight);
  }
  out.white = white.accuracy();
  out.black = black.accuracy();
  return out;
}

}  // namespace epdd::annotate
