// Mutated real PGN through the readers and the writer: nothing crashes (the sanitizer build
// runs this too), and what is read exports to a fixed point.
#include <random>

#include "pgn_test_support.hpp"
#include "test_support.hpp"

using namespace epdd;

TEST_CASE("Mutated PGN never crashes the readers or the writer", "[pgn][robustness]") {
  const std::string source = test::read_file(test::shared_data("pgn/edge-cases/test-splitvariants.pgn")) +
                             test::read_file(test::shared_data("pgn/heavily-annotated.pgn")) +
                             test::read_file(test::shared_data("pgn/lichess-eval-clk.pgn")) +
                             test::read_file(test::shared_data("pgn/chess960-cutechess.pgn"));
  const std::string alphabet = std::string("[]{}()\"\\;%$.*<>!?-+=#/0123456789 \n\rabcdefghKQRBNPO ") + '\0' + "\xFF";
  std::mt19937 rng(11);
  for (int round = 0; round < 60; ++round) {
    std::string text = source;
    const int edits = 1 + static_cast<int>(rng() % 40);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        case 1: text.erase(at, 1 + rng() % 20); break;
        default: text[at] = c; break;
      }
    }
    const auto r = test::read(text);
    std::string once;
    for (const auto& g : r.games) pgn::append_game(once, g);
    const auto again = test::read(once);
    std::string twice;
    for (const auto& g : again.games) pgn::append_game(twice, g);
    INFO("round " << round);
    CHECK(once == twice);
    pgn::Diagnostics d;
    pgn::MainlineReader mainline(text, d);
    pgn::MainlineGame g;
    std::size_t n = 0;
    while (mainline.next(g)) ++n;
    CHECK(n == r.games.size());
  }
}
