#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "annotate/summary.hpp"

using epdd::annotate::centipawn_loss;
using epdd::annotate::Judgement;
using epdd::annotate::SideSummary;
using epdd::core::Score;

namespace {

// A White-point-of-view evaluation as lichess stores it: centipawns, or a mate in moves.
struct WhiteEval {
  bool is_mate;
  int v;
};

// The engine's score of position i (White to move at even i), from White's view.
Score engine_score(WhiteEval e, int ply) {
  const bool white_to_move = ply % 2 == 0;
  if (e.is_mate) return Score::from_uci_mate(white_to_move ? e.v : -e.v);
  return Score::centipawns(white_to_move ? e.v : -e.v);
}

// Oracle from lila AccuracyCP.diffsList, written here: White-view evals, mates forced to
// huge centipawns then ceiled to +-1000, loss = (e2 - e1) * (White ? -1 : 1) at least 0,
// mean rounded half up.
double oracle_cp(WhiteEval e) {
  if (e.is_mate) return e.v < 0 ? -1000 : 1000;
  return std::max(-1000, std::min(1000, e.v));
}
std::vector<double> oracle_losses(const std::vector<WhiteEval>& evals, bool white) {
  std::vector<double> out;
  for (std::size_t i = white ? 0 : 1; i + 1 < evals.size(); i += 2) {
    const double d = (oracle_cp(evals[i + 1]) - oracle_cp(evals[i])) * (white ? -1 : 1);
    out.push_back(std::max(0.0, d));
  }
  return out;
}

SideSummary summarise(const std::vector<WhiteEval>& evals, bool white) {
  SideSummary s;
  for (std::size_t i = white ? 0 : 1; i + 1 < evals.size(); i += 2) {
    const int ply = static_cast<int>(i);
    s.add(Judgement::None, centipawn_loss(engine_score(evals[i], ply), engine_score(evals[i + 1], ply + 1)));
  }
  return s;
}

}  // namespace

TEST_CASE("summary: average centipawn loss of a game worked by hand", "[annotate][summary]") {
  // White 0.20 -> -0.80 (loses 100), Black -0.80 -> -0.60 (loses 20), White -0.60 -> +15.00
  // (ceiled 1000: gains), Black 1000 -> White mates (1000: loses 0).
  const std::vector<WhiteEval> game = {{false, 20}, {false, -80}, {false, -60}, {false, 1500}, {true, 3}};
  const SideSummary white = summarise(game, true);
  const SideSummary black = summarise(game, false);
  CHECK(white.loss_sum == 100);
  CHECK(white.average_centipawn_loss() == 50);
  CHECK(black.loss_sum == 20);
  CHECK(black.average_centipawn_loss() == 10);
  CHECK(SideSummary().average_centipawn_loss() == std::nullopt);
}

TEST_CASE("summary: mates and the ceiling", "[annotate][summary]") {
  CHECK(centipawn_loss(Score::from_uci_mate(2), Score::centipawns(0)) == 1000);    // mate for -> 0.00
  CHECK(centipawn_loss(Score::from_uci_mate(2), Score::from_uci_mate(1)) == 2000);  // mate for -> mated
  CHECK(centipawn_loss(Score::centipawns(-2000), Score::from_uci_mate(4)) == 0);   // -10.00 -> mated
  CHECK(centipawn_loss(Score::centipawns(3000), Score::centipawns(-1200)) == 0);   // both ceiled
  CHECK(centipawn_loss(Score::centipawns(500), Score::mate_in_plies(0)) == 0);     // gives mate
  CHECK(centipawn_loss(Score::centipawns(50), Score::centipawns(25)) == 75);
}

TEST_CASE("summary: counts, merging and rounding", "[annotate][summary]") {
  SideSummary a;
  a.add(Judgement::Blunder, 400);
  a.add(Judgement::Inaccuracy, 61);
  SideSummary b;
  b.add(Judgement::Mistake, 0);
  b.add(Judgement::Mistake, 0);
  a.merge(b);
  CHECK((a.inaccuracies == 1 && a.mistakes == 2 && a.blunders == 1 && a.moves == 4));
  CHECK(a.average_centipawn_loss() == 115);  // 461 / 4 = 115.25
  SideSummary half;
  half.add(Judgement::None, 1);
  half.add(Judgement::None, 0);
  CHECK(half.average_centipawn_loss() == 1);  // 0.5 rounds up, as Math.round
}

TEST_CASE("summary: agrees with an oracle of lila's arithmetic on random games", "[annotate][summary]") {
  std::mt19937 rng(16);
  std::uniform_int_distribution<int> cp(-2500, 2500), mate(-12, 12), kind(0, 9), length(2, 120);
  for (int game = 0; game < 500; ++game) {
    std::vector<WhiteEval> evals;
    const int n = length(rng);
    for (int i = 0; i < n; ++i) {
      int m = mate(rng);
      evals.push_back(kind(rng) == 0 && m != 0 ? WhiteEval{true, m} : WhiteEval{false, cp(rng)});
    }
    for (bool white : {true, false}) {
      const std::vector<double> losses = oracle_losses(evals, white);
      const SideSummary s = summarise(evals, white);
      double sum = 0;
      for (double l : losses) sum += l;
      INFO("game " << game << (white ? " White" : " Black"));
      REQUIRE(s.moves == static_cast<int>(losses.size()));
      CHECK(s.loss_sum == static_cast<long long>(sum));
      if (!losses.empty()) CHECK(s.average_centipawn_loss() == static_cast<int>(std::floor(sum / losses.size() + 0.5)));
    }
  }
}
