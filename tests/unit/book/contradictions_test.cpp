// Contradictions between game results and backsolved values, on a book whose games are written
// below with known results and whose leaf values are set by hand: which moves are listed, their
// numbers (the expected score from the test's own logistic curve), the order, and both renderings
// (the JSON read back by nlohmann).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "book/backsolve.hpp"
#include "book/contradictions.hpp"
#include "book/dag.hpp"
#include "book_support.hpp"

using epdd::book::Contradiction;
using epdd::book::ContradictionKind;
using epdd::book::Dag;
using epdd::book::LeafValues;
using epdd::test::after;
using epdd::test::games_of;
namespace core = epdd::core;

namespace {

// `count` games playing `moves`, each with `result`.
std::string games(const std::string& moves, const std::string& result, int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "[Result \"" + result + "\"]\n\n" + moves + " " + result + "\n\n";
  return text;
}

// White's moves and their games (White wins / draws / Black wins / no result):
//   1. e4 e5   8 / 2 / 2       1. e4 d5   0 / 3 / 0    (1. e4: 8 / 5 / 2, 15 games)
//   1. d4      1 / 2 / 7       1. c4      9 / 0 / 0    1. Nf3  11 / 0 / 9
//   1. g3     10 / 0 / 0       1. b3      6 / 0 / 4    1. h3    6 / 0 / 2 and 4 without a result
std::string book_text() {
  return games("1. e4 e5", "1-0", 8) + games("1. e4 e5", "1/2-1/2", 2) + games("1. e4 e5", "0-1", 2) +
         games("1. e4 d5", "1/2-1/2", 3) + games("1. d4", "1-0", 1) + games("1. d4", "1/2-1/2", 2) +
         games("1. d4", "0-1", 7) + games("1. c4", "1-0", 9) + games("1. Nf3", "1-0", 11) + games("1. Nf3", "0-1", 9) +
         games("1. g3", "1-0", 10) + games("1. b3", "1-0", 6) + games("1. b3", "0-1", 4) + games("1. h3", "1-0", 6) +
         games("1. h3", "0-1", 2) + games("1. h3", "*", 4);
}

// Leaf values (side to move): 1. e4 e5 (W) -80 and 1. e4 d5 (W) -100, so 1. e4 (B) is 100 (d5)
// and worth -100 to White; 1. d4 (B) -120: +120 for White; 1. c4 (B) 200: -200; 1. Nf3 (B) 50:
// -50; 1. b3 (B) 49: -49; 1. h3 (B) 100: -100; 1. g3 has no value.
struct Fixture {
  Dag dag;
  LeafValues values;
  Fixture() {
    for (const auto& g : games_of(book_text())) dag.add_game(g);
    const auto set = [&](std::initializer_list<const char*> line, int ce) {
      const auto n = dag.find(after(line));
      REQUIRE(n != Dag::kNoNode);
      values.emplace(n, core::Score::centipawns(ce));
    };
    set({"e4", "e5"}, -80);
    set({"e4", "d5"}, -100);
    set({"d4"}, -120);
    set({"c4"}, 200);
    set({"Nf3"}, 50);
    set({"b3"}, 49);
    set({"h3"}, 100);
  }
};

// The test's own expected score of a value for the mover.
double expected_score(int cp) { return 1.0 / (1.0 + std::exp(-0.00368208 * cp)); }

struct Want {
  const char* line;
  core::Color mover;
  unsigned scored;
  double score;
  int value;
  ContradictionKind kind;
};

void check(const Contradiction& got, const Want& want) {
  INFO(want.line);
  CHECK(got.line == want.line);
  CHECK(got.mover == want.mover);
  CHECK(got.scored_games == want.scored);
  CHECK(got.score == Approx(want.score));
  CHECK(got.value == want.value);
  CHECK(got.expected == Approx(expected_score(want.value)));
  CHECK(got.badness == Approx(std::abs(want.score - expected_score(want.value))));
  CHECK(got.kind == want.kind);
}

}  // namespace

TEST_CASE("book contradictions: the moves whose game score contradicts the value, worst first", "[book][contradictions]") {
  Fixture f;
  const auto solved = epdd::book::backsolve(f.dag, f.values);
  const auto list = epdd::book::find_contradictions(f.dag, solved);
  // 1. d4: White scores 2/10 = 20% with +1.20 (expected 60.9%): 0.409.
  // 1. e4 e5: Black scores 3/12 = 25% with +0.80 for Black (57.3%): 0.323.
  // 1. e4: White scores 10.5/15 = 70% with -1.00 (40.9%): 0.291.
  // 1. Nf3: White scores 11/20 = 55% with -0.50 (45.4%), both bounds: 0.096.
  // Not listed: 1. c4 (9 games), 1. e4 d5 (3 games), 1. g3 (no value), 1. b3 (-0.49), 1. h3 (8
  // games with a result).
  REQUIRE(list.size() == 4);
  check(list[0], {"1. d4", core::Color::White, 10, 0.2, 120, ContradictionKind::ScoresBelowValue});
  check(list[1], {"1. e4 e5", core::Color::Black, 12, 0.25, 80, ContradictionKind::ScoresBelowValue});
  check(list[2], {"1. e4", core::Color::White, 15, 0.7, -100, ContradictionKind::ScoresAboveValue});
  check(list[3], {"1. Nf3", core::Color::White, 20, 0.55, -50, ContradictionKind::ScoresAboveValue});
  CHECK(list[1].move == "e5");
  CHECK(list[1].parent == f.dag.find(after({"e4"})));
  CHECK(f.dag.edge(list[1].edge).child == f.dag.find(after({"e4", "e5"})));
  CHECK(list[1].stats.white_wins == 8);
  CHECK(list[1].stats.draws == 2);
  CHECK(list[1].stats.black_wins == 2);
  CHECK(list[1].stats.games == 12);
}

TEST_CASE("book contradictions: the options move the bars", "[book][contradictions]") {
  Fixture f;
  const auto solved = epdd::book::backsolve(f.dag, f.values);
  epdd::book::ContradictionOptions o;
  o.min_games = 8;  // lets 1. c4 (9 games, 100% with -2.00) and 1. h3 (8 with a result) in
  auto list = epdd::book::find_contradictions(f.dag, solved, o);
  REQUIRE(list.size() == 6);
  check(list[0], {"1. c4", core::Color::White, 9, 1.0, -200, ContradictionKind::ScoresAboveValue});
  CHECK(list[1].line == "1. d4");
  check(list[2], {"1. h3", core::Color::White, 8, 0.75, -100, ContradictionKind::ScoresAboveValue});
  o = {};
  o.value_cp = 49;  // 1. b3: 60% with -0.49
  o.high_score = 0.71;  // 1. e4 (70%) and 1. Nf3 (55%) drop out
  list = epdd::book::find_contradictions(f.dag, solved, o);
  REQUIRE(list.size() == 2);
  CHECK(list[0].line == "1. d4");
  CHECK(list[1].line == "1. e4 e5");
  o.high_score = 0.6;
  list = epdd::book::find_contradictions(f.dag, solved, o);
  REQUIRE(list.size() == 4);
  check(list[3], {"1. b3", core::Color::White, 10, 0.6, -49, ContradictionKind::ScoresAboveValue});
}

TEST_CASE("book contradictions: the table and the JSON", "[book][contradictions]") {
  Fixture f;
  const auto list = epdd::book::find_contradictions(f.dag, epdd::book::backsolve(f.dag, f.values));
  const std::string text = epdd::book::contradictions_text(list);
  INFO(text);
  // A header and one line per move, worst first, each naming its line at the end.
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    REQUIRE(end != std::string::npos);
    lines.push_back(text.substr(at, end - at));
  }
  REQUIRE(lines.size() == 5);
  CHECK(lines[1].ends_with("  1. d4"));
  CHECK(lines[1].find("20.0%") != std::string::npos);
  CHECK(lines[1].find("+1.20") != std::string::npos);
  CHECK(lines[1].find("+1 =2 -7") != std::string::npos);  // the mover's wins, draws, losses
  CHECK(lines[2].ends_with("  1. e4 e5"));
  CHECK(lines[2].find("+2 =2 -8") != std::string::npos);  // Black's
  CHECK(lines[3].ends_with("  1. e4"));
  CHECK(lines[4].ends_with("  1. Nf3"));
  CHECK(epdd::book::contradictions_text({}) == "no contradictions\n");

  const auto json = nlohmann::json::parse(epdd::book::contradictions_json(f.dag, list));
  REQUIRE(json.is_array());
  REQUIRE(json.size() == 4);
  const auto& e5 = json[1];
  CHECK(e5["line"] == "1. e4 e5");
  CHECK(e5["move"] == "e5");
  CHECK(e5["position"] == f.dag.epd(f.dag.find(after({"e4"}))));
  CHECK(e5["mover"] == "black");
  CHECK(e5["games"] == 12);
  CHECK(e5["white_wins"] == 8);
  CHECK(e5["draws"] == 2);
  CHECK(e5["black_wins"] == 2);
  CHECK(e5["scored_games"] == 12);
  CHECK(e5["score"] == 0.25);
  CHECK(e5["value"] == 80);
  CHECK(e5["expected"].get<double>() == Approx(expected_score(80)).margin(0.00005));
  CHECK(e5["badness"].get<double>() == Approx(expected_score(80) - 0.25).margin(0.00005));
  CHECK(e5["kind"] == "scores_below_value");
  CHECK(json[2]["kind"] == "scores_above_value");
  CHECK(nlohmann::json::parse(epdd::book::contradictions_json(f.dag, {})) == nlohmann::json::array());
}
