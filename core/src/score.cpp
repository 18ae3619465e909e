#include "core/score.hpp"

#include <algorithm>
#include <cstdlib>

namespace epdd::core {

Expected<Score, std::string> Score::from_ce(long long ce) {
  if (ce > kCeMax || ce < -kCeMate)
    return unexpected("ce " + std::to_string(ce) + " is outside the standard's range -32767..32766");
  if (ce > kCeMateThreshold) return mate_in_plies(static_cast<int>(kCeMate - ce));
  if (ce < -kCeMateThreshold) return mate_in_plies(static_cast<int>(-(kCeMate + ce)));
  return centipawns(static_cast<int>(ce));
}

int Score::to_ce() const {
  if (kind_ == Kind::Centipawns) return std::clamp(value_, -kMaxCentipawns, kMaxCentipawns);
  const int plies = std::min(std::abs(value_), kMaxMatePlies);
  // Checkmated now (0 plies) is -32767.
  return value_ > 0 ? kCeMate - plies : -kCeMate + plies;
}

std::string Score::to_pawns_string() const {
  if (kind_ == Kind::Mate) return value_ == 0 ? "#-0" : "#" + std::to_string(mate_moves());
  const int a = std::abs(value_);
  std::string frac = std::to_string(a % 100);
  if (frac.size() < 2) frac.insert(0, 1, '0');
  return std::string(value_ > 0 ? "+" : value_ < 0 ? "-" : "") + std::to_string(a / 100) + "." + frac;
}

std::string Score::to_white_pawns_string(Color side_to_move) const {
  if (side_to_move == Color::White) return to_pawns_string();
  // Moves counted before the view is turned (see negated()); Black checkmated is White's "#0".
  if (kind_ == Kind::Mate) return value_ == 0 ? "#0" : "#" + std::to_string(-mate_moves());
  return centipawns(-value_).to_pawns_string();
}

std::string Score::to_uci_string() const {
  return kind_ == Kind::Mate ? "mate " + std::to_string(mate_moves()) : "cp " + std::to_string(value_);
}

long long Score::rank() const {
  if (kind_ == Kind::Centipawns) return value_;
  // Mates lie beyond every centipawn value; fewer plies to mate is better, more plies to be
  // mated is better.
  constexpr long long kBeyond = 1'000'000'000LL;
  return value_ > 0 ? kBeyond - value_ : -kBeyond - value_;
}

}  // namespace epdd::core
