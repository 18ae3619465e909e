#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "annotate/judgement.hpp"

using epdd::annotate::Judgement;
using epdd::annotate::JudgeRule;
using epdd::core::Score;

namespace {

Score cp(int v) { return Score::centipawns(v); }
Score mate(int moves) { return Score::from_uci_mate(moves); }  // UCI "score mate N"
const JudgeRule kLichess{};

struct Case {
  const char* what;
  Score before;  // engine score, the mover to move
  Score after;   // engine score, the opponent to move
  Judgement expected;
};

}  // namespace

TEST_CASE("judgement: NAGs and lichess words", "[annotate][judgement]") {
  using epdd::annotate::nag;
  using epdd::annotate::word;
  CHECK(nag(Judgement::None) == 0);
  CHECK(nag(Judgement::Inaccuracy) == 6);
  CHECK(nag(Judgement::Mistake) == 2);
  CHECK(nag(Judgement::Blunder) == 4);
  CHECK(word(Judgement::None).empty());
  CHECK(word(Judgement::Inaccuracy) == "Inaccuracy");
  CHECK(word(Judgement::Mistake) == "Mistake");
  CHECK(word(Judgement::Blunder) == "Blunder");
}

TEST_CASE("judgement: lichess rule, every case and boundary", "[annotate][judgement]") {
  // Boundaries computed by hand from wc(cp) = 2/(1+exp(-0.00368208 cp)) - 1: from 0 the mover
  // reaches a drop of 0.1 at -55 (0.1009; -54 gives 0.0991), 0.2 at -111, 0.3 at -169.
  // The after score is the opponent's, so the mover's -55 is the engine's +55.
  const std::vector<Case> cases = {
      {"no change", cp(30), cp(-30), Judgement::None},
      {"a gain", cp(0), cp(-200), Judgement::None},
      {"drop 0.0991", cp(0), cp(54), Judgement::None},
      {"drop 0.1009", cp(0), cp(55), Judgement::Inaccuracy},
      {"drop 0.1998", cp(0), cp(110), Judgement::Inaccuracy},
      {"drop 0.2016", cp(0), cp(111), Judgement::Mistake},
      {"drop 0.2998", cp(0), cp(168), Judgement::Mistake},
      {"drop 0.3015", cp(0), cp(169), Judgement::Blunder},
      {"+5.00 to +3.99: 0.1003", cp(500), cp(-399), Judgement::Inaccuracy},
      {"+5.00 to +4.00: 0.0992", cp(500), cp(-400), Judgement::None},
      {"-3.00 to -6.01: 0.3006", cp(-300), cp(601), Judgement::Blunder},
      {"-3.00 to -6.00: 0.2999", cp(-300), cp(600), Judgement::Mistake},
      {"no cap at 1000: +25.00 to +7.00", cp(2500), cp(-700), Judgement::Inaccuracy},
      // cp -> mate against (MateCreated).
      {"cp 0 -> mated", cp(0), mate(3), Judgement::Blunder},
      {"cp -700 -> mated", cp(-700), mate(1), Judgement::Blunder},
      {"cp -701 -> mated", cp(-701), mate(1), Judgement::Mistake},
      {"cp -999 -> mated", cp(-999), mate(5), Judgement::Mistake},
      {"cp -1000 -> mated", cp(-1000), mate(5), Judgement::Inaccuracy},
      {"cp +800 -> mated", cp(800), mate(2), Judgement::Blunder},
      // mate for -> cp (MateLost).
      {"mate for -> cp 0", mate(2), cp(0), Judgement::Blunder},
      {"mate for -> cp +700", mate(2), cp(-700), Judgement::Blunder},
      {"mate for -> cp +701", mate(2), cp(-701), Judgement::Mistake},
      {"mate for -> cp +999", mate(2), cp(-999), Judgement::Mistake},
      {"mate for -> cp +1000", mate(2), cp(-1000), Judgement::Inaccuracy},
      {"mate for -> cp -300", mate(4), cp(300), Judgement::Blunder},
      // mate for -> mate against: Blunder.
      {"mate for -> mated", mate(3), mate(2), Judgement::Blunder},
      // not judged.
      {"mate in 3 -> mate in 5 (same side)", mate(3), mate(-5), Judgement::None},
      {"mate in 2 -> mate in 1", mate(2), mate(-1), Judgement::None},
      {"mate for -> gives mate", mate(1), Score::mate_in_plies(0), Judgement::None},
      {"cp -> mate for", cp(-50), mate(-4), Judgement::None},
      {"mated -> cp", mate(-3), cp(0), Judgement::None},
      {"mated -> mated sooner", mate(-5), mate(1), Judgement::None},
      {"cp -> gives mate", cp(900), Score::mate_in_plies(0), Judgement::None},
  };
  for (const Case& c : cases) {
    INFO(c.what << ": before " << c.before.to_uci_string() << ", after " << c.after.to_uci_string());
    CHECK(epdd::annotate::judge(kLichess, c.before, c.after) == c.expected);
  }
}

TEST_CASE("judgement: cp rule, thresholds and mates", "[annotate][judgement]") {
  const auto rule = epdd::annotate::parse_judge_rule("cp:50,100,300");
  REQUIRE(rule.has_value());
  CHECK(rule->kind == JudgeRule::Kind::CentipawnLoss);
  const std::vector<Case> cases = {
      {"loss 49", cp(20), cp(29), Judgement::None},
      {"loss 50", cp(20), cp(30), Judgement::Inaccuracy},
      {"loss 99", cp(0), cp(99), Judgement::Inaccuracy},
      {"loss 100", cp(0), cp(100), Judgement::Mistake},
      {"loss 299", cp(0), cp(299), Judgement::Mistake},
      {"loss 300", cp(0), cp(300), Judgement::Blunder},
      {"gain", cp(0), cp(-300), Judgement::None},
      {"capped at 1000: +30.00 to +9.80 loses 20", cp(3000), cp(-980), Judgement::None},
      {"mate for (1000) -> cp +600: 400", mate(2), cp(-600), Judgement::Blunder},
      {"mate for (1000) -> cp +950: 50", mate(2), cp(-950), Judgement::Inaccuracy},
      {"cp -900 -> mated (-1000): 100", cp(-900), mate(2), Judgement::Mistake},
      {"mate for -> mated: 2000", mate(1), mate(1), Judgement::Blunder},
      {"mate for -> gives mate", mate(1), Score::mate_in_plies(0), Judgement::None},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(epdd::annotate::judge(*rule, c.before, c.after) == c.expected);
  }
}

TEST_CASE("judgement: rule texts and their errors", "[annotate][judgement]") {
  using epdd::annotate::parse_judge_rule;
  CHECK(parse_judge_rule("lichess")->kind == JudgeRule::Kind::Lichess);
  const auto r = parse_judge_rule("cp:40,90,250");
  REQUIRE(r.has_value());
  CHECK((r->inaccuracy == 40 && r->mistake == 90 && r->blunder == 250));
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"lichesss", "unknown rule"},
      {"cp:", "'' is not a positive whole number"},
      {"cp:50,100", "needs 3 thresholds, has 2"},
      {"cp:50,100,300,400", "needs 3 thresholds, has 4"},
      {"cp:50,x,300", "'x' is not a positive whole number"},
      {"cp:50,,300", "'' is not a positive whole number"},
      {"cp:50,100,300,", "'' is not a positive whole number"},
      {"cp:0,100,300", "'0' is not a positive whole number"},
      {"cp:-5,100,300", "'-5' is not a positive whole number"},
      {"cp:50,100,30", "thresholds must increase"},
      {"cp:50,50,300", "thresholds must increase"},
      {"cp:5 0,100,300", "'5 0' is not a positive whole number"},
  };
  for (const auto& [text, why] : bad) {
    INFO(text);
    const auto parsed = parse_judge_rule(text);
    REQUIRE_FALSE(parsed.has_value());
    CHECK_THAT(parsed.error(), Catch::Contains("judgement rule '" + text + "'") && Catch::Contains(why) &&
                                   Catch::Contains("cp:50,100,300"));
  }
}

// An oracle written from issue 16's text alone, sharing nothing with the judge: the mover's
// view is built from UCI's numbers (mate N > 0: the side to move mates).
namespace oracle {

struct Eval {
  bool is_mate;
  int cp;     // mover's centipawns
  bool ours;  // mate: the mover mates
};

// Before: the mover is to move. After: the opponent is to move, so every sign turns.
Eval before_of(bool is_mate, int v) { return is_mate ? Eval{true, 0, v > 0} : Eval{false, v, false}; }
Eval after_of(bool is_mate, int v) { return is_mate ? Eval{true, 0, !(v > 0)} : Eval{false, -v, false}; }

double wc(double cp) { return 2 / (1 + std::exp(-0.00368208 * cp)) - 1; }

Judgement judge(Eval b, Eval a) {
  if (!b.is_mate && !a.is_mate) {
    const double drop = wc(b.cp) - wc(a.cp);
    return drop >= 0.3 ? Judgement::Blunder
         : drop >= 0.2 ? Judgement::Mistake
         : drop >= 0.1 ? Judgement::Inaccuracy
                       : Judgement::None;
  }
  // "a move that lets a forced mate in (cp before, mate against after) is a blunder, a mistake
  // if the mover's cp before was below -700, an inaccuracy below -999"
  if (!b.is_mate && a.is_mate && !a.ours)
    return b.cp < -999 ? Judgement::Inaccuracy : b.cp < -700 ? Judgement::Mistake : Judgement::Blunder;
  // "a move that loses a forced mate of one's own (mate for before, cp after) is a blunder,
  // a mistake if the cp after is above 700, an inaccuracy above 999"
  if (b.is_mate && b.ours && !a.is_mate)
    return a.cp > 999 ? Judgement::Inaccuracy : a.cp > 700 ? Judgement::Mistake : Judgement::Blunder;
  // "mate for to mate against is a blunder"; "mate to mate for the same side is not judged".
  if (b.is_mate && b.ours && a.is_mate && !a.ours) return Judgement::Blunder;
  return Judgement::None;
}

}  // namespace oracle

TEST_CASE("judgement: lichess rule agrees with an independent oracle over a grid", "[annotate][judgement]") {
  struct Value {
    bool is_mate;
    int v;
  };
  std::vector<Value> values;
  for (int c = -1500; c <= 1500; c += 7) values.push_back({false, c});
  for (int c : {-1000, -999, -701, -700, 0, 700, 701, 999, 1000}) values.push_back({false, c});
  for (int m = 1; m <= 10; ++m) {
    values.push_back({true, m});
    values.push_back({true, -m});
  }
  int compared = 0, judged = 0, mates = 0;
  for (const Value& b : values) {
    for (const Value& a : values) {
      const Score before = b.is_mate ? Score::from_uci_mate(b.v) : Score::centipawns(b.v);
      const Score after = a.is_mate ? Score::from_uci_mate(a.v) : Score::centipawns(a.v);
      const Judgement want = oracle::judge(oracle::before_of(b.is_mate, b.v), oracle::after_of(a.is_mate, a.v));
      const Judgement got = epdd::annotate::judge(kLichess, before, after);
      if (got != want) {
        INFO("before " << before.to_uci_string() << ", after " << after.to_uci_string());
        CHECK(static_cast<int>(got) == static_cast<int>(want));
      }
      ++compared;
      judged += want != Judgement::None;
      mates += (b.is_mate || a.is_mate) && want != Judgement::None;
    }
  }
  CHECK(compared > 100000);
  CHECK(judged > compared / 10);  // the grid really exercises judgements
  CHECK(mates > 1000);            // and the mate rules
}
