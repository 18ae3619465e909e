// PGN to EPD: every main-line position with id, sm, hmvc, fmvn, eco/v0/v1 and optional c0.
#include "pgn/to_epd.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;

TEST_CASE("PGN to EPD", "[pgn][epd]") {
  const auto r = test::read(
      "[ECO \"C20\"]\n[Opening \"King's pawn \\\"game\\\"\"]\n\n1. e4 {The most popular} e5 (1... c5) 2. Nf3 *\n");
  pgn::ToEpdOptions with_comments;
  with_comments.comments = true;
  const auto lines = pgn::game_to_epd(r.games[0], with_comments);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] ==
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"The most popular\"; eco \"C20\"; fmvn 1; hmvc 0; "
        "id \"game 1 ply 0\"; sm e4; v0 \"King's pawn 'game'\";");
  CHECK(lines[1] ==
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 eco \"C20\"; fmvn 1; hmvc 0; id \"game 1 ply 1\"; "
        "sm e5; v0 \"King's pawn 'game'\";");
  CHECK(lines[3] ==
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - eco \"C20\"; fmvn 2; hmvc 1; id \"game 1 ply 3\"; "
        "v0 \"King's pawn 'game'\";");
  const auto plain = pgn::game_to_epd(r.games[0]);
  CHECK(plain[0].find("c0") == std::string::npos);
}
