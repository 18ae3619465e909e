// PGN to EPD: every main-line position with id, sm, hmvc, fmvn, eco/v0/v1 and optional c0.
#include "pgn/to_epd.hpp"
#include "pgn_test_support.hpp"
#include "test_support.hpp"

#include "core/fen.hpp"

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

TEST_CASE("PGN to EPD: a game whose start position is refused yields no position at all", "[pgn][epd]") {
  // Not the initial position with "game 1 ply 0": the game does not start there.
  const auto r = test::read("[Variant \"crazyhouse\"]\n\n1. e4 *\n[SetUp \"1\"]\n\n1. e4 *\n"
                            "[Variant \"From Position\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *\n");
  REQUIRE(r.games.size() == 3);
  CHECK(pgn::game_to_epd(r.games[0]).empty());
  CHECK(pgn::game_to_epd(r.games[1]).empty());
  const auto lines = pgn::game_to_epd(r.games[2]);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("4k3/8/8/8/8/8/4P3/4K3 w - - ", 0) == 0);
  CHECK(lines[1].find("id \"game 3 ply 1\";") != std::string::npos);
}

TEST_CASE("PGN to EPD: Chess960 games keep their castling rights (Shredder-FEN)", "[pgn][epd][chess960]") {
  // cutechess writes Chess960 starts as X-FEN `KQkq` with the king on e1 and rooks on d1/g1:
  // read back as standard chess, KQkq would mean rooks on a1/h1 and the rights would be lost.
  const auto r = test::read(test::read_file(test::shared_data("pgn/chess960-cutechess.pgn")));
  REQUIRE(r.games.size() >= 2);
  std::size_t records = 0, with_rights = 0;
  for (const pgn::Game& game : r.games) {
    REQUIRE(game.start.chess960());
    const auto lines = pgn::game_to_epd(game);
    core::Board board = game.start;
    for (std::size_t ply = 0; ply < lines.size(); ++ply) {
      INFO(lines[ply]);
      // Read back as a plain EPD reader would: no --chess960, strict.
      core::FenReadOptions o;
      o.fields = core::FenFields::Four;
      const std::string four = lines[ply].substr(0, lines[ply].find(' ', lines[ply].find(' ', lines[ply].find(' ', lines[ply].find(' ') + 1) + 1) + 1));
      auto back = core::parse_fen(four, o);
      REQUIRE(back);
      for (core::Color c : {core::Color::White, core::Color::Black})
        for (core::CastlingSide side : {core::CastlingSide::King, core::CastlingSide::Queen}) {
          CHECK(back->castling_rook(c, side) == board.castling_rook(c, side));
          with_rights += board.castling_rook(c, side) != core::Square::None;
        }
      ++records;
      if (ply < game.main.moves.size()) board.make_move(game.main.moves[ply].move);
    }
  }
  CHECK(records > 100);
  CHECK(with_rights > 100);
}
