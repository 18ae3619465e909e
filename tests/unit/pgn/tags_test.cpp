// Tag semantics: Date, Round, TimeControl (six kinds), Variant, and the checks of a game.
#include "pgn/tags.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;

TEST_CASE("Date values", "[pgn][tags]") {
  auto d = pgn::parse_date("1992.08.31");
  REQUIRE(d);
  CHECK((d->year == 1992 && d->month == 8 && d->day == 31));
  d = pgn::parse_date("1993.??.??");
  REQUIRE(d);
  CHECK((d->year == 1993 && !d->month && !d->day));
  CHECK(pgn::parse_date("????.??.??"));
  CHECK(pgn::parse_date("2024.02.29"));
  for (const char* bad : {"1992", "1992-08-31", "1992.8.31", "1992.13.01", "1992.00.10", "2023.02.29", "1992.08.3?",
                          "?", ""}) {
    INFO(bad);
    CHECK_FALSE(pgn::parse_date(bad));
  }
}

TEST_CASE("Round values", "[pgn][tags]") {
  CHECK(pgn::parse_round("?")->kind == pgn::Round::Kind::Unknown);
  CHECK(pgn::parse_round("-")->kind == pgn::Round::Kind::NotApplicable);
  CHECK(pgn::parse_round("4.1.2")->parts == std::vector<long>{4, 1, 2});
  for (const char* bad : {"", "1.", ".1", "a", "1-2", "1..2"}) CHECK_FALSE(pgn::parse_round(bad));
}

TEST_CASE("TimeControl: all six kinds and their rules", "[pgn][tags]") {
  using K = pgn::TimeControlPeriod::Kind;
  auto tc = pgn::parse_time_control("40/9000:3600:*180");
  CHECK_FALSE(tc);  // sudden death may only be the last field
  tc = pgn::parse_time_control("40/9000:20/3600:1800");
  REQUIRE(tc);
  REQUIRE(tc->size() == 3);
  CHECK(((*tc)[0].kind == K::MovesInTime && (*tc)[0].moves == 40 && (*tc)[0].seconds == 9000));
  CHECK(((*tc)[2].kind == K::SuddenDeath && (*tc)[2].seconds == 1800));
  CHECK(pgn::parse_time_control("?")->front().kind == K::Unknown);
  CHECK(pgn::parse_time_control("-")->front().kind == K::None);
  const auto inc = pgn::parse_time_control("4500+60");
  CHECK(((*inc)[0].kind == K::Incremental && (*inc)[0].seconds == 4500 && (*inc)[0].increment == 60));
  CHECK(pgn::parse_time_control("*180")->front().kind == K::Sandclock);
  CHECK(pgn::parse_time_control("300")->front().kind == K::SuddenDeath);
  for (const char* bad : {"", "40/", "/60", "300+", "10+0.05", "180+0", "*", "*0", "1800:40/9000", "4500+60:300",
                          "correspondence", "0"}) {
    INFO(bad);
    CHECK_FALSE(pgn::parse_time_control(bad));
  }
  CHECK_THAT(pgn::parse_time_control("180+0").error(), Catch::Contains("increment 0"));
}

TEST_CASE("Variant names", "[pgn][tags]") {
  // lichess writes "From Position" on every game, study chapter and thematic game that starts
  // from a FEN (its key: fromPosition): standard chess from that FEN.
  for (const char* v : {"", "Standard", "chess", "normal", "From Position", "fromPosition", "from position"})
    CHECK(pgn::classify_variant(v) == pgn::Variant::Standard);
  for (const char* v : {"Chess960", "chess 960", "fischerandom", "Fischer Random", "FRC"})
    CHECK(pgn::classify_variant(v) == pgn::Variant::Chess960);
  CHECK(pgn::classify_variant("crazyhouse") == pgn::Variant::Unsupported);
}

TEST_CASE("Tag checks of a game, each at its tag's line and column", "[pgn][tags]") {
  const auto r = test::read(
      "[Event \"E\"]\n[Site \"S\"]\n[Date \"1992\"]\n[Round \"x\"]\n[White \"W\"]\n[Black \"B\"]\n"
      "[Result \"1-0\"]\n[TimeControl \"40/9000:3600\"]\n[PlyCount \"3\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n"
      "1. Kd2 Kd7 0-1\n");
  INFO(test::messages(r.diags));
  std::map<std::string, std::size_t> lines;
  for (const auto& d : r.diags.items()) lines[pgn::name(d.problem) + std::string("@") + std::to_string(d.line)]++;
  CHECK(lines == std::map<std::string, std::size_t>{
                     {"tag-value@3", 1}, {"tag-value@4", 1}, {"result-mismatch@7", 1}, {"ply-count@9", 1},
                     {"tag-value@10", 1}});
}
