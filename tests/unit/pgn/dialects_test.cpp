// Dialects of real files (issue 14): games that are a tag section only (broadcasts list the
// pairings before the moves exist), and FEN tags with an en passant square beside a non-zero
// halfmove clock.
#include <string>
#include <vector>

#include "core/fen.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;

namespace {

const char* const kResults[] = {"*", "1-0", "0-1", "1/2-1/2"};

// A broadcast file: `games` tag sections, each ended by a blank line, no movetext at all.
std::string tags_only(std::size_t games) {
  std::string text;
  for (std::size_t i = 0; i < games; ++i)
    text += "[Event \"Open\"]\n[Site \"Online\"]\n[Round \"" + std::to_string(i / 50 + 1) + "." +
            std::to_string(i % 50 + 1) + "\"]\n[White \"Player " + std::to_string(2 * i) + "\"]\n[Black \"Player " +
            std::to_string(2 * i + 1) + "\"]\n[Result \"" + kResults[i % 4] + "\"]\n\n";
  return text;
}

std::string export_all(const std::vector<pgn::Game>& games) {
  std::string out;
  for (const pgn::Game& g : games) pgn::append_game(out, g, {});
  return out;
}

}  // namespace

TEST_CASE("A tag section after a blank line that ends a tag section starts a new game", "[pgn][dialects]") {
  const std::size_t n = 605;
  const auto r = test::read(tags_only(n));
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == n);
  for (std::size_t i = 0; i < n; ++i) {
    const pgn::Game& g = r.games[i];
    CHECK(g.tags.size() == 6);
    CHECK(g.tag("White") == "Player " + std::to_string(2 * i));
    CHECK(g.main.moves.empty());
    CHECK(g.result == kResults[i % 4]);  // the Result tag's: there is no movetext to say otherwise
  }
  CHECK(r.diags.count(pgn::Problem::DuplicateTag) == 0);
  CHECK(r.diags.count(pgn::Severity::Error) == 0);
}

TEST_CASE("Tag sections without a blank line between them stay one game, movetext after a blank line too",
          "[pgn][dialects]") {
  const auto r = test::read(
      "[Event \"a\"]\n[White \"x\"]\n[Event \"a again\"]\n\n1. e4 *\n\n"
      "[Event \"b\"]\n\n\n1. d4 *\n\n"
      "[Event \"c\"]\n\n%an escape line\n[Event \"d\"]\n\n1. c4 *\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 4);
  CHECK(r.games[0].tags.size() == 3);
  CHECK(r.diags.count(pgn::Problem::DuplicateTag) == 1);
  CHECK(r.games[0].main.moves.size() == 1);
  CHECK(r.games[1].main.moves.size() == 1);
  CHECK(r.games[2].tag("Event") == "c");
  CHECK(r.games[2].main.moves.empty());
  CHECK(r.games[3].tag("Event") == "d");
  CHECK(r.games[3].escapes == std::vector<std::string>{"an escape line"});  // before its game
  CHECK(r.games[3].main.moves.size() == 1);
}

TEST_CASE("A game with no movetext is exported with its result as movetext and re-read identically",
          "[pgn][dialects]") {
  const auto r = test::read(tags_only(8));
  REQUIRE(r.games.size() == 8);
  const std::string exported = export_all(r.games);
  CHECK_THAT(exported, Catch::Contains("[Result \"1-0\"]\n\n1-0\n\n[Event"));
  CHECK_THAT(exported, Catch::Contains("[Result \"*\"]\n\n*\n\n[Event"));
  const auto again = test::read(exported);
  INFO(test::messages(again.diags));
  REQUIRE(again.games.size() == r.games.size());
  for (std::size_t i = 0; i < r.games.size(); ++i) {
    CHECK(again.games[i].same_tree(r.games[i]));
    CHECK(again.games[i].result_written);
  }
  CHECK(again.diags.count(pgn::Severity::Error) + again.diags.count(pgn::Severity::Warning) == 0);
  CHECK(export_all(again.games) == exported);
}

TEST_CASE("A FEN tag with an en passant square and a halfmove clock of 1 is read with a warning",
          "[pgn][dialects]") {
  // After 1. e4 c5 2. e5 f5 the en passant square is f6 and the clock 0; this file says 1.
  const std::string fen = "rnbqkbnr/pp1pp1pp/8/2p1Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 1 3";
  const auto r = test::read("[Event \"ep\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n[Result \"*\"]\n\n3. exf6 Nxf6 *\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 1);
  const pgn::Game& g = r.games[0];
  CHECK(test::san_line(g.start, g.main) == "exf6 Nxf6");  // the en passant capture stands
  CHECK(g.start.halfmove_clock() == 1);                  // the clock as written
  CHECK(core::to_fen(g.start) == fen);
  CHECK(r.diags.count(pgn::Severity::Error) == 0);
  REQUIRE(r.diags.count(pgn::Problem::SetUpTolerated) == 1);
  const pgn::Diagnostic* d = nullptr;
  for (const auto& item : r.diags.items())
    if (item.problem == pgn::Problem::SetUpTolerated) d = &item;
  REQUIRE(d != nullptr);
  CHECK(d->severity == pgn::Severity::Warning);
  CHECK(d->line == 3);  // at the FEN tag
  CHECK_THAT(d->message, Catch::Contains("halfmove clock"));
  // Exported with the FEN as written, and read again the same way.
  const std::string exported = pgn::export_game(g, {});
  CHECK_THAT(exported, Catch::Contains("[FEN \"" + fen + "\"]"));
  CHECK_THAT(exported, Catch::Contains("3. exf6 Nxf6 *"));
  const auto again = test::read(exported);
  REQUIRE(again.games.size() == 1);
  CHECK(again.games[0].same_tree(g));
}

TEST_CASE("A FEN tag that no leniency can use is still an error, and the next game is read", "[pgn][dialects]") {
  const auto r = test::read(
      "[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0\"]\n\n1. e4 *\n\n"
      "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - e3 1 2\"]\n\n1. Kd2 *\n\n"
      "1. d4 *\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 3);
  CHECK(r.games[0].main.moves.empty());
  CHECK(r.diags.count(pgn::Problem::SetUp) == 1);
  // e3 cannot be an en passant square here (no pawn went by): dropped with a warning.
  CHECK(r.games[1].main.moves.size() == 1);
  CHECK(r.games[1].start.ep_square() == core::Square::None);
  CHECK(r.diags.count(pgn::Problem::SetUpTolerated) == 1);
  CHECK(r.games[2].main.moves.size() == 1);
}

TEST_CASE("A game without a termination marker takes its Result tag's result, with a warning", "[pgn][dialects]") {
  const auto r = test::read("[Result \"0-1\"]\n\n1. e4 e5\n\n[Result \"draw\"]\n\n1. d4\n\n[Event \"3\"]\n\n1. c4\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 3);
  CHECK(r.games[0].result == "0-1");
  CHECK(r.games[1].result == "*");  // not a result: the standard's unknown
  CHECK(r.games[2].result == "*");
  CHECK(r.diags.count(pgn::Problem::MissingResult) == 3);
  // Exported with the result it was read with, and read again without a mismatch.
  const std::string exported = export_all(r.games);
  CHECK_THAT(exported, Catch::Contains("1. e4 e5 0-1\n"));
  const auto again = test::read(exported);
  CHECK(again.diags.count(pgn::Problem::ResultMismatch) == 0);
  CHECK(again.diags.count(pgn::Problem::MissingResult) == 0);
}
