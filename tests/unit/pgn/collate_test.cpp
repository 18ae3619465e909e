// The standard's collation order.
#include "pgn/collate.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;

TEST_CASE("Collation: Date, Event, Site, Round, White, Black, Result, movetext", "[pgn][collate]") {
  auto r = test::read(
      "[Date \"1993.??.??\"] [Event \"A\"] 1. e4 *\n"       // 0: 1993.00.00
      "[Date \"1992.08.31\"] [Event \"B\"] 1. e4 *\n"       // 1
      "[Date \"1992.08.31\"] [Event \"A\"] [Round \"10\"] 1. e4 *\n"  // 2
      "[Date \"1992.08.31\"] [Event \"A\"] [Round \"9\"] 1. e4 *\n"   // 3: 9 before 10 (numeric)
      "[Date \"1992.08.31\"] [Event \"A\"] [Round \"-\"] 1. e4 *\n"   // 4: '-' before numbers
      "[Date \"1992.08.31\"] [Event \"A\"] [Round \"?\"] 1. e4 *\n"   // 5: '?' before '-'
      "[Date \"1992.08.31\"] [Event \"A\"] [Round \"9\"] 1. d4 *\n"   // 6: movetext "1. d4" < "1. e4"
      "[Date \"1992.08.31\"] [Event \"A\"] [Round \"9.2\"] 1. a4 *\n"  // 7: 9.2 after 9
  );
  std::vector<pgn::Game>& games = r.games;
  for (std::size_t i = 0; i < games.size(); ++i) games[i].set_tag("Annotator", std::to_string(i));
  pgn::sort_games(games);
  std::string order;
  for (const auto& g : games) order += std::string(*g.tag("Annotator"));
  CHECK(order == "54637210");
}
