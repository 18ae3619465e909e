// Diagnostics of many games: counted per kind and severity, only the first few of each kind
// kept when asked (memory does not grow with their number), passed on in file order.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "pgn_test_support.hpp"

using namespace epdd;
using pgn::Problem;
using pgn::Severity;

namespace {

// An opening book whose games have only a Result tag (six roster tags missing in each), every
// `illegal_every`-th game with an illegal move. The expected counts follow from how it is made.
struct TaglessBook {
  std::size_t games = 0;
  std::size_t illegal_every = 0;
  std::string text;
  std::size_t illegal() const { return games / illegal_every; }
};

TaglessBook tagless_book(std::size_t games, std::size_t illegal_every) {
  TaglessBook b{games, illegal_every, {}};
  for (std::size_t g = 1; g <= games; ++g)
    b.text += g % illegal_every == 0 ? "[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n"
                                     : "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n";
  return b;
}

bool in_file_order(const std::vector<pgn::Diagnostic>& items) {
  return std::is_sorted(items.begin(), items.end(), pgn::Diagnostics::before);
}

}  // namespace

TEST_CASE("A book of tagless games: every diagnostic counted per kind, only the first five of each kept",
          "[pgn][diagnostics]") {
  const TaglessBook book = tagless_book(30000, 1000);
  pgn::Diagnostics d;
  d.keep_per_kind(5);
  pgn::MainlineReader reader(book.text, d);
  std::size_t games = 0;
  for (pgn::MainlineGame g; reader.next(g);) ++games;
  REQUIRE(games == book.games);
  CHECK(d.count(Problem::TagValue) == 6 * book.games);
  CHECK(d.count(Problem::IllegalMove) == book.illegal());
  CHECK(d.count(Severity::Warning) == 6 * book.games);
  CHECK(d.count(Severity::Error) == book.illegal());
  CHECK(d.count(Severity::Note) == 0);
  CHECK(d.size() == 6 * book.games + book.illegal());
  using KindCount = std::pair<Problem, std::size_t>;
  CHECK(d.kinds() == std::vector<KindCount>{{Problem::TagValue, 6 * book.games}, {Problem::IllegalMove, book.illegal()}});
  // Held: five of each kind, whatever the number of games.
  REQUIRE(d.items().size() == 10);
  CHECK(in_file_order(d.items()));
  std::vector<std::size_t> illegal_games, tag_games;
  for (const auto& item : d.items())
    (item.problem == Problem::IllegalMove ? illegal_games : tag_games).push_back(item.game);
  CHECK(tag_games == std::vector<std::size_t>{1, 1, 1, 1, 1});
  CHECK(illegal_games == std::vector<std::size_t>{1000, 2000, 3000, 4000, 5000});
  CHECK_THAT(d.items()[0].message, Catch::Contains("tag Event is missing"));
}

TEST_CASE("A listener sees every diagnostic as it comes, in file order, with none kept", "[pgn][diagnostics]") {
  const TaglessBook book = tagless_book(2000, 100);
  pgn::Diagnostics d;
  d.keep_per_kind(0);
  std::vector<pgn::Diagnostic> seen;
  std::size_t counted_when_seen = 0;
  d.on_add([&](const pgn::Diagnostic& item) {
    seen.push_back(item);
    counted_when_seen += d.count(item.problem) > 0;
  });
  pgn::GameReader reader(book.text, d);
  for (pgn::Game g; reader.next(g);) {
  }
  CHECK(d.items().empty());
  CHECK(seen.size() == d.size());
  CHECK(counted_when_seen == seen.size());
  CHECK(seen.size() == 6 * book.games + book.illegal());
  CHECK(in_file_order(seen));
}

TEST_CASE("A game's diagnostics are passed on in file order: its tags before its moves", "[pgn][diagnostics]") {
  // The tags are checked when the game ends, after its moves were read.
  const auto r = test::read(
      "[Event \"x\"]\n[Site \"?\"]\n[Date \"2000.13.01\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n"
      "[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n"
      "[Event \"y\"]\n[Site \"?\"]\n[Date \"2000.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n"
      "[Result \"1-0\"]\n\n1. e4 1-0\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.diags.items().size() == 2);
  CHECK(r.diags.items()[0].problem == Problem::TagValue);
  CHECK(r.diags.items()[0].line == 3);
  CHECK(r.diags.items()[1].problem == Problem::IllegalMove);
  CHECK(r.diags.items()[1].line == 9);
}
