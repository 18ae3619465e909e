#include <catch2/catch.hpp>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "annotate/eval_comment.hpp"
#include "test_support.hpp"

using epdd::annotate::format_eval;
using epdd::annotate::read_eval;
using epdd::annotate::replace_eval;
using epdd::core::Color;
using epdd::core::Score;

namespace {

// python-chess chess.pgn EVAL_REGEX (prefix/suffix white space left out), anchored.
const std::regex kPythonChessEval(
    R"(^\[%eval\s(?:#([+-]?\d+)|([+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)))(?:,(\d+))?\]$)");

// Every `{...}` comment of a PGN text (no nesting in PGN).
std::vector<std::string> comments_of(const std::string& pgn) {
  std::vector<std::string> out;
  for (std::size_t at = pgn.find('{'); at != std::string::npos; at = pgn.find('{', at + 1)) {
    const std::size_t close = pgn.find('}', at);
    if (close == std::string::npos) break;
    out.push_back(pgn.substr(at + 1, close - at - 1));
    at = close;
  }
  return out;
}

}  // namespace

TEST_CASE("eval comment: the exact forms, White's point of view", "[annotate][eval]") {
  CHECK(format_eval(Score::centipawns(35), Color::White, 20) == "[%eval 0.35,20]");
  CHECK(format_eval(Score::centipawns(35), Color::Black, 20) == "[%eval -0.35,20]");
  CHECK(format_eval(Score::centipawns(-5), Color::White) == "[%eval -0.05]");
  CHECK(format_eval(Score::centipawns(0), Color::Black) == "[%eval 0.00]");
  CHECK(format_eval(Score::centipawns(1234), Color::White, 7) == "[%eval 12.34,7]");
  CHECK(format_eval(Score::centipawns(-100), Color::Black) == "[%eval 1.00]");
  CHECK(format_eval(Score::from_uci_mate(3), Color::White) == "[%eval #3]");
  CHECK(format_eval(Score::from_uci_mate(3), Color::Black) == "[%eval #-3]");
  CHECK(format_eval(Score::from_uci_mate(-2), Color::White, 30) == "[%eval #-2,30]");
  CHECK(format_eval(Score::from_uci_mate(-2), Color::Black) == "[%eval #2]");
  CHECK(format_eval(Score::mate_in_plies(0), Color::White) == "[%eval #-0]");
  CHECK(format_eval(Score::mate_in_plies(0), Color::Black) == "[%eval #0]");
}

TEST_CASE("eval comment: every form matches python-chess's pattern and reads back", "[annotate][eval]") {
  const std::regex two_places(R"(^\[%eval -?\d+\.\d\d(,\d+)?\]$)");
  int checked = 0;
  for (Color stm : {Color::White, Color::Black}) {
    for (int c = -3000; c <= 3000; c += 3) {
      const std::string text = format_eval(Score::centipawns(c), stm, c % 2 ? 0 : 18);
      std::smatch m;
      INFO(text);
      REQUIRE(std::regex_match(text, m, kPythonChessEval));
      REQUIRE(std::regex_match(text, two_places));
      const int white_cp = stm == Color::White ? c : -c;
      CHECK(std::lround(std::stod(m[2].str()) * 100) == white_cp);  // python-chess: int(float(cp) * 100)
      const auto back = read_eval(" " + text + " ");
      REQUIRE(back.has_value());
      REQUIRE(back->has_value());
      CHECK((*back)->white == Score::centipawns(white_cp));
      CHECK((*back)->depth == (c % 2 ? 0 : 18));
      ++checked;
    }
    for (int n = -20; n <= 20; ++n) {
      if (n == 0) continue;
      const std::string text = format_eval(Score::from_uci_mate(n), stm, 25);
      std::smatch m;
      INFO(text);
      REQUIRE(std::regex_match(text, m, kPythonChessEval));
      CHECK(std::stoi(m[1].str()) == (stm == Color::White ? n : -n));
      const auto back = read_eval(text);
      REQUIRE((back && *back));
      CHECK((*back)->white.mate_moves() == (stm == Color::White ? n : -n));
      ++checked;
    }
    const std::string mated = format_eval(Score::mate_in_plies(0), stm);
    REQUIRE(std::regex_match(mated, kPythonChessEval));
    const auto back = read_eval(mated);
    REQUIRE((back && *back));
    CHECK((*back)->checkmated == stm);
  }
  CHECK(checked > 4000);
}

TEST_CASE("eval comment: reading what python-chess accepts, rejecting the rest", "[annotate][eval]") {
  CHECK(read_eval("no command here")->has_value() == false);
  CHECK(read_eval("[%evaluation 1]")->has_value() == false);
  CHECK(read_eval("[%clk 0:03:00]")->has_value() == false);
  const std::vector<std::pair<std::string, int>> good = {
      {"[%eval .5]", 50}, {"[%eval +1]", 100}, {"[%eval 1.]", 100}, {"[%eval -0.3]", -30},
      {"[%eval 12.34,9]", 1234}, {"x [%eval -7.05] y", -705}};
  for (const auto& [text, centipawns] : good) {
    INFO(text);
    const auto r = read_eval(text);
    REQUIRE((r && *r));
    CHECK((*r)->white == Score::centipawns(centipawns));
  }
  CHECK((*read_eval("[%eval #+4]"))->white == Score::from_uci_mate(4));
  for (const std::string text : {"[%eval 0.355]", "[%eval abc]", "[%eval #x]", "[%eval 1.0,]", "[%eval ]",
                                 "[%eval .]", "[%eval 1,2x]", "[%eval #]"}) {
    INFO(text);
    const auto r = read_eval("{" + text + "}");
    REQUIRE_FALSE(r.has_value());
    CHECK_THAT(r.error(), Catch::Contains("'" + text + "'") && Catch::Contains("[%eval #-3]"));
  }
}

TEST_CASE("eval comment: replacing keeps every other byte", "[annotate][eval]") {
  const std::string e = "[%eval -1.20,18]";
  CHECK(replace_eval(" [%eval 0.17] [%clk 0:03:00] ", e) == " [%eval -1.20,18] [%clk 0:03:00] ");
  CHECK(replace_eval("[%clk 0:00:05][%eval #-3]", e) == "[%clk 0:00:05][%eval -1.20,18]");
  CHECK(replace_eval("[%csl Ga4,Rb5]  [%eval 1.00,12]\n free text ", e) ==
        "[%csl Ga4,Rb5]  [%eval -1.20,18]\n free text ");
  CHECK(replace_eval("[%eval 0.1] [%eval 0.2]", e) == "[%eval -1.20,18] [%eval 0.2]");
  CHECK(replace_eval("", e) == e);
  CHECK(replace_eval(" [%clk 0:03:00] ", e) == e + " [%clk 0:03:00] ");
  CHECK(replace_eval("Good move", e) == e + " Good move");
  CHECK(replace_eval("[%evalx 1] [%eval", e) == e + " [%evalx 1] [%eval");  // not commands
  CHECK(replace_eval("[%eval bad]", e) == e);  // a malformed one is still the eval command
  CHECK(replace_eval("[%eval 0.3 [%clk 0:01:00]", e) == e + " [%eval 0.3 [%clk 0:01:00]");  // unclosed
}

TEST_CASE("eval comment: an unclosed command is an error, not silence", "[annotate][eval]") {
  for (const std::string text : {"[%eval 0.35", "x [%eval #3 [%clk 0:01:00]"}) {
    INFO(text);
    const auto r = read_eval(text);
    REQUIRE_FALSE(r.has_value());
    CHECK_THAT(r.error(), Catch::Contains("no closing ']'") && Catch::Contains("'[%eval "));
  }
}

TEST_CASE("eval comment: real comments of the shared PGN files", "[annotate][eval]") {
  const std::string e1 = format_eval(Score::centipawns(-42), Color::White, 20);
  const std::string e2 = format_eval(Score::from_uci_mate(2), Color::Black, 31);
  std::size_t comments = 0;
  for (const char* file : {"pgn/heavily-annotated.pgn", "pgn/tcec-engine-comments.pgn", "pgn/lichess-eval-clk.pgn",
                           "pgn/kasparov-deep-blue-1997.pgn"}) {
    const std::string pgn = epdd::test::read_file(epdd::test::shared_data(file));
    for (const std::string& c : comments_of(pgn)) {
      INFO(file << ": {" << c << "}");
      REQUIRE_FALSE(read_eval(c)->has_value());  // none of these files holds an [%eval]
      const std::string once = replace_eval(c, e1);
      const bool spaced = c.empty() || std::isspace(static_cast<unsigned char>(c[0]));
      CHECK(once == e1 + (spaced ? "" : " ") + c);
      const auto read = read_eval(once);
      REQUIRE((read && *read));
      CHECK((*read)->white == Score::centipawns(-42));
      const std::string twice = replace_eval(once, e2);
      CHECK(twice == e2 + (spaced ? "" : " ") + c);
      CHECK((*read_eval(twice))->white == Score::from_uci_mate(-2));
      ++comments;
    }
  }
  CHECK(comments > 100);
}
