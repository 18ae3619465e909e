#include "annotate/summary.hpp"

#include <cmath>

namespace epdd::annotate {

void SideSummary::add(Judgement judgement, int loss) {
  inaccuracies += judgement == Judgement::Inaccuracy;
  mistakes += judgement == Judgement::Mistake;
  blunders += judgement == Judgement::Blunder;
  loss_sum += loss;
  ++moves;
}

void SideSummary::merge(const SideSummary& other) {
  inaccuracies += other.inaccuracies;
  mistakes += other.mistakes;
  blunders += other.blunders;
  loss_sum += other.loss_sum;
  moves += other.moves;
  accuracy_sum += other.accuracy_sum;
  accuracy_games += other.accuracy_games;
}

void SideSummary::add_game_accuracy(double accuracy) {
  accuracy_sum += accuracy;
  ++accuracy_games;
}

std::optional<double> SideSummary::accuracy() const {
  if (accuracy_games == 0) return std::nullopt;
  return accuracy_sum / accuracy_games;
}

std::optional<int> SideSummary::average_centipawn_loss() const {
  if (moves == 0) return std::nullopt;
  return static_cast<int>(std::floor(static_cast<double>(loss_sum) / moves + 0.5));
}

}  // namespace epdd::annotate
