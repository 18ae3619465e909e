#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "annotate/accuracy.hpp"
#include "lichess_games.hpp"

using epdd::annotate::game_accuracy;
using epdd::annotate::move_accuracy;
using epdd::annotate::win_percent;
using epdd::core::Color;

namespace {

// The oracle: lila's AccuracyPercent.gameAccuracy and scalachess's WinPercent written here from
// their source (lila modules/analyse AccuracyPercent.scala, lila.common.Maths, scalachess
// eval.scala), list by list as lila builds them, not from epdd's code.
double oracle_win_percent(int cp) {
  const int ceiled = cp > 1000 ? 1000 : cp < -1000 ? -1000 : cp;
  double chances = 2 / (1 + std::exp(-0.00368208 * ceiled)) - 1;
  chances = std::max(-1.0, std::min(1.0, chances));
  return 50 + 50 * chances;
}

double oracle_from_win_percents(double before, double after) {
  if (after >= before) return 100;
  const double win_diff = before - after;
  const double raw = 103.1668100711649 * std::exp(-0.04354415386753951 * win_diff) + -3.166924740191411;
  return std::max(0.0, std::min(100.0, raw + 1));
}

double oracle_sd(const std::vector<double>& xs) {
  const double mean = std::accumulate(xs.begin(), xs.end(), 0.0) / static_cast<double>(xs.size());
  double sum = 0;
  for (double x : xs) sum += std::pow(x - mean, 2);
  return std::sqrt(sum / static_cast<double>(xs.size()));
}

struct OracleResult {
  std::optional<double> white, black;
  std::vector<double> moves;  // every move's accuracy, in order
};

// cps: White's centipawns after each ply (the infos; mates already forced to huge values);
// lila prepends Cp.initial (15) for the start position.
OracleResult oracle_game_accuracy(bool start_white, const std::vector<int>& cps) {
  std::vector<double> all;
  all.push_back(oracle_win_percent(15));
  for (int cp : cps) all.push_back(oracle_win_percent(cp));
  const int window_size = std::max(2, std::min(8, static_cast<int>(cps.size()) / 10));
  // List.fill(windowSize.atMost(size) - 2)(take(windowSize)) ::: sliding(windowSize)
  std::vector<std::vector<double>> windows;
  const int fill = std::min(window_size, static_cast<int>(all.size())) - 2;
  for (int i = 0; i < fill; ++i)
    windows.emplace_back(all.begin(), all.begin() + std::min<std::size_t>(window_size, all.size()));
  if (static_cast<int>(all.size()) <= window_size) windows.push_back(all);
  else
    for (std::size_t s = 0; s + window_size <= all.size(); ++s)
      windows.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(s), all.begin() + static_cast<std::ptrdiff_t>(s + window_size));
  std::vector<double> weights;
  for (const auto& w : windows) weights.push_back(std::max(0.5, std::min(12.0, oracle_sd(w))));
  OracleResult r;
  std::vector<std::pair<double, double>> white, black;
  for (std::size_t i = 0; i + 1 < all.size() && i < weights.size(); ++i) {
    const bool white_moves = (i % 2 == 0) == start_white;
    const double acc = white_moves ? oracle_from_win_percents(all[i], all[i + 1])
                                   : oracle_from_win_percents(all[i + 1], all[i]);
    r.moves.push_back(acc);
    (white_moves ? white : black).emplace_back(acc, weights[i]);
  }
  const auto color_accuracy = [](const std::vector<std::pair<double, double>>& xs) -> std::optional<double> {
    if (xs.empty()) return std::nullopt;
    double v = 0, w = 0, h = 0;
    for (auto [a, weight] : xs) {
      v += a * weight;
      w += weight;
      h += 1 / std::max(1.0, a);
    }
    if (w == 0) return std::nullopt;
    return (v / w + static_cast<double>(xs.size()) / h) / 2;
  };
  r.white = color_accuracy(white);
  r.black = color_accuracy(black);
  return r;
}

// epdd's input: the start position as lila's 15, then the same values capped as a caller
// gives them (a mate as +-1000).
std::vector<std::optional<int>> as_positions(const std::vector<int>& cps) {
  std::vector<std::optional<int>> out{15};
  for (int cp : cps) out.emplace_back(std::clamp(cp, -1000, 1000));
  return out;
}

void check_against_oracle(const std::vector<int>& cps, bool start_white) {
  const auto expected = oracle_game_accuracy(start_white, cps);
  const auto got = game_accuracy(as_positions(cps), start_white ? Color::White : Color::Black);
  INFO("plies " << cps.size());
  REQUIRE(got.moves.size() == cps.size());
  for (std::size_t i = 0; i < cps.size(); ++i) {
    REQUIRE(got.moves[i].has_value());
    CHECK(*got.moves[i] == Approx(expected.moves[i]).epsilon(1e-12));
  }
  REQUIRE(got.white.has_value() == expected.white.has_value());
  REQUIRE(got.black.has_value() == expected.black.has_value());
  if (expected.white) CHECK(*got.white == Approx(*expected.white).epsilon(1e-12));
  if (expected.black) CHECK(*got.black == Approx(*expected.black).epsilon(1e-12));
}

}  // namespace

TEST_CASE("win percent and a move's accuracy are lila's, constants and bounds", "[annotate][accuracy]") {
  CHECK(win_percent(0) == 50);
  CHECK(win_percent(1000) == Approx(oracle_win_percent(1000)));
  CHECK(win_percent(5000) == win_percent(1000));  // capped at +-1000
  CHECK(win_percent(-5000) == win_percent(-1000));
  CHECK(win_percent(15) == Approx(51.38).margin(0.01));  // 50 + 50 (2 / (1 + e^-0.0552) - 1)
  CHECK(move_accuracy(60, 60) == 100);
  CHECK(move_accuracy(40, 60) == 100);  // gaining is perfect
  // A drop of 10 points: 103.1668 e^-0.4354 - 3.1669 + 1 = 64.61...
  CHECK(move_accuracy(60, 50) == Approx(103.1668100711649 * std::exp(-0.4354415386753951) - 3.166924740191411 + 1));
  CHECK(move_accuracy(100, 0) == 0);     // clamped at 0
  CHECK(move_accuracy(50, 49.999) == 100);  // the bonus: clamped at 100, not 100.99
}

TEST_CASE("game accuracy equals lila's on random games of every length", "[annotate][accuracy]") {
  std::mt19937 rng(20261207);
  std::uniform_int_distribution<int> step(-250, 250);
  std::uniform_int_distribution<int> jump(0, 19);
  for (int plies : {1, 2, 3, 9, 10, 19, 20, 21, 39, 40, 59, 80, 81, 120, 200}) {
    for (const bool start_white : {true, false}) {
      std::vector<int> cps;
      int cp = 20;
      for (int i = 0; i < plies; ++i) {
        cp += step(rng);
        if (jump(rng) == 0) cp = -cp * 3;  // a blunder now and then, past the cap too
        cps.push_back(cp);
      }
      check_against_oracle(cps, start_white);
    }
  }
}

TEST_CASE("game accuracy at the edges: one move, a side with none, the cap, mates both ways", "[annotate][accuracy]") {
  SECTION("a game of one move: White has an accuracy, Black none") {
    const auto r = game_accuracy({15, 40}, Color::White);
    REQUIRE(r.white);
    CHECK_FALSE(r.black);
    CHECK(*r.white == 100);
    check_against_oracle({40}, true);
  }
  SECTION("values at and past the cap count as the cap") {
    check_against_oracle({1000, 1000, 3000, -1000, -7000, 999, -999}, true);
    const auto capped = game_accuracy({15, 1000, -1000, 1000}, Color::White);
    const auto past = game_accuracy({15, 4000, -9999, 1200}, Color::White);
    CHECK(*capped.white == *past.white);
    CHECK(*capped.black == *past.black);
  }
  SECTION("mates both ways, given as the cap") {
    // White mates in 3 (+1000 for the oracle's forced value Int.MaxValue - 3, ceiled), then
    // a blunder into Black's mate.
    check_against_oracle({50, 80, 1000, 1000, -1000, -1000}, true);
    check_against_oracle({-30, -1000, -1000, 1000}, false);
  }
  SECTION("a side with no move rated: nothing, not 100") {
    const auto r = game_accuracy({15, std::nullopt, 40}, Color::White);
    CHECK_FALSE(r.white);
    CHECK_FALSE(r.black);
    CHECK_FALSE(r.moves[0]);
    CHECK_FALSE(r.moves[1]);
  }
  SECTION("a position without a value rates neither move beside it, the others as lila would") {
    // Positions 0..5 with 3 missing: moves 3 (2->3) and 4 (3->4) are unrated; the sequence
    // lila would build skips the gap, and moves 1, 2, 5 keep their accuracies from it.
    const auto r = game_accuracy({15, 40, -200, std::nullopt, -180, -600}, Color::White);
    REQUIRE(r.moves.size() == 5);
    CHECK(r.moves[0]);
    CHECK(r.moves[1]);
    CHECK_FALSE(r.moves[2]);
    CHECK_FALSE(r.moves[3]);
    REQUIRE(r.moves[4]);
    CHECK(*r.moves[4] == Approx(oracle_from_win_percents(oracle_win_percent(-180), oracle_win_percent(-600))));
  }
}

TEST_CASE("lichess's own accuracy on three of its games, from its own evaluations", "[annotate][accuracy]") {
  for (const auto& g : epdd::test::lichess::games()) {
    INFO(g.id);
    std::vector<std::optional<int>> values{epdd::annotate::kInitialCentipawns};  // lila's Cp.initial
    for (const std::string e : g.evals) {
      if (e.empty()) values.emplace_back();  // the mating move: no evaluation after it
      else if (e[0] == '#') values.emplace_back(e[1] == '-' ? -1000 : 1000);
      else values.emplace_back(std::stoi(e));
    }
    const auto r = game_accuracy(values, Color::White);
    REQUIRE(r.white);
    REQUIRE(r.black);
    CHECK(std::lround(*r.white) == g.white.accuracy);
    CHECK(std::lround(*r.black) == g.black.accuracy);
  }
}
