// ChessLive! move files that are not right: each error names the game, the move and its steps
// with line, column and byte; structured malformations, every prefix and random byte flips
// give an error or a game, never a crash (run under ASan/UBSan too).
#include <random>
#include <string>
#include <vector>

#include "pgn/chesslive.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;

using test::shared_file;

TEST_CASE("ChessLive: errors name the game, the move and the steps, with their place", "[chesslive]") {
  struct Case {
    std::string text;
    std::string says;
    std::size_t offset;
  };
  const std::vector<Case> cases = {
      {"W;B;e2:e4;e7:e4\n", "move 1 (Black): steps 'e7:e4' are no legal move", 10},
      {"W;B;e2:e4;\ne7:e5;p:e4\n", "chess has no drops", 17},
      {"W;B;e2:e9\n", "'e9' is not a square", 4},
      {"W;B;e2:e4:e7\n", "odd number", 4},
      {"W;B;e2:e4/x/1/2\n", "Depth 'x'", 10},
      {"W;B;e2:e4/1/2\n", "a MoveSpec is", 4},
      {"W;B;e2:e4/1/2/3/O-O\n", "SANtag 'O-O'", 4},
      {"W;B;e2:e4;e7:e5;g1:f3;b8:c6;f1:c4;g8:f6;e1:g1:h1:f1/1/2/3/O-O-O\n", "no queen-side castling", 40},
      {"W;B;e2:e4;+\n", "no ';' Text", 10},
      {"W;B;e2:e4;+;x;y\n", "more fields follow", 10},
      {"W;B\n", "WhitePlayer;BlackPlayer;MoveList", 3},
      {"W;B;z:e4\n", "no piece", 4},
  };
  for (const Case& c : cases) {
    auto r = pgn::read_chesslive(c.text);
    INFO(c.text);
    REQUIRE(!r);
    INFO(pgn::to_string(r.error()));
    CHECK(r.error().message.find(c.says) != std::string::npos);
    CHECK((r.error().message.find("game W - B") != std::string::npos || c.offset == 3));
    CHECK(r.error().offset == c.offset);
  }
  auto r = pgn::read_chesslive("W;B;e2:e4;\ne7:e5;p:e4\n");
  REQUIRE(!r);
  CHECK(pgn::to_string(r.error()).starts_with("line 2, column 7 (byte 17): game W - B, move 2 (White)"));
}

TEST_CASE("ChessLive: malformed move files give a short error with its place", "[chesslive][robustness]") {
  std::string steps200;
  for (int i = 0; i < 100; ++i) steps200 += i == 0 ? "e2:e4:e4:e2" : ":e2:e4:e4:e2";  // 200 steps
  std::string shuffles = "W;B;";  // knights out and back: ~1 MB of legal moves on one line
  while (shuffles.size() < (1u << 20)) shuffles += "g1:f3;g8:f6;f3:g1;f6:g8;";
  shuffles += "g1:f3\n";
  std::string long_move = "W;B;";
  while (long_move.size() < (1u << 20)) long_move += "e2:e4:e4:e2:";
  long_move += "e2:e4\n";
  struct Case {
    std::string name;
    std::string text;
    std::string says;  // empty: the file reads
    std::size_t line;
  };
  const std::vector<Case> cases = {
      {"missing ';' after the players", "W;B e2:e4;e7:e5\n", "game W - B e2:e4, move 1 (White): steps 'e7:e5'", 1},
      {"missing ';' between players", "W B e2:e4\n", "WhitePlayer;BlackPlayer;MoveList (0 ';' found)", 1},
      {"missing ';' between moves", "W;B;e2:e4\ne7:e5\n", "odd number of parts", 1},
      {"a '/' field missing", "W;B;e2:e4/20/35\n", "a MoveSpec is Move, Move/Depth/Score/Time", 1},
      {"one '/' field", "W;B;e2:e4/20\n", "a MoveSpec is Move, Move/Depth/Score/Time", 1},
      {"a sixth '/' field", "W;B;e2:e4/20/35/6/N/x\n", "a MoveSpec is Move, Move/Depth/Score/Time", 1},
      {"two games in one file", "A;B;e2:e4;+;x\nC;D;e2:e4;-;y\n", "more fields follow: a file holds one game",
       1},
      {"an empty '/' field", "W;B;e2:e4//35/6\n", "Depth ''", 1},
      {"Depth not a number", "W;B;\ne2:e4/2O/35/6\n", "Depth '2O'", 2},
      {"a letter for a square", "W;B;e2:e4;e7:e\n", "'e' is not a square", 1},
      {"a square for a letter", "W;B;e2:e4;ee:e5\n", "'ee' is neither a square", 1},
      {"200 steps in one move", "W;B;" + steps200 + "\n", "are no legal move here", 1},
      {"an empty file", "", "(0 ';' found)", 1},
      {"a file of NULs", std::string(4096, '\0'), "(0 ';' found)", 1},
      {"NULs between ';'", std::string("\0;\0;\0\n", 6), "game \\0 - \\0, move 1 (White): steps '\\0'", 1},
      {"1 MB of one letter", std::string(1u << 20, 'e'), "(0 ';' found)", 1},
      {"1 MB of legal moves on one line", shuffles, "", 0},
      {"1 MB of steps in one move, a legal one", long_move, "", 0},  // leaves e2-e4
      {"1 MB of steps ending in ':'", long_move.substr(0, long_move.size() - 6), "odd number of parts", 1},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    auto r = pgn::read_chesslive(c.text);
    if (c.says.empty()) {
      INFO((r ? "" : pgn::to_string(r.error())));
      CHECK(r);
      continue;
    }
    CHECK(!r);
    if (r) continue;
    const std::string shown = pgn::to_string(r.error());
    INFO(shown);
    CHECK(r.error().message.find(c.says) != std::string::npos);
    CHECK(r.error().line == c.line);
    CHECK(r.error().offset <= c.text.size());
    CHECK(shown.size() < 400);  // the steps are cut short in the message, not copied whole
  }
}

TEST_CASE("ChessLive: every prefix and random byte flips give an error or a game", "[chesslive][robustness]") {
  const std::string text =
      "W;B;e2:e4/20/35/179/;e7:e5/18/-12/178/;g1:f3/0/99997/170/N;b8:c6/0/-4/2/N;f1:c4;g8:f6;e1:g1:h1:f1;f8:c5;"
      "b1:c3;d7:d6;d2:d3;c8:g4;c1:g5;d8:d7;=;agreed\n";
  REQUIRE(pgn::read_chesslive(text));
  std::size_t errors = 0, games = 0;
  for (std::size_t n = 0; n <= text.size(); ++n) {
    auto r = pgn::read_chesslive(std::string_view(text).substr(0, n));
    (r ? games : errors) += 1;
    if (!r) CHECK(r.error().offset <= n);
  }
  CHECK(errors > 0);
  CHECK(games > 0);
  std::mt19937 rng(19);
  for (int i = 0; i < 3000; ++i) {
    std::string t = text;
    for (int k = 0; k < 3; ++k) t[rng() % t.size()] = static_cast<char>(rng() % 256);
    auto r = pgn::read_chesslive(t);
    if (!r) CHECK(!r.error().message.empty());
  }
}

TEST_CASE("ChessLive: every prefix of a written twic0920 game gives an error or a game", "[chesslive][robustness]") {
  const auto games = test::read(shared_file("twic0920.pgn")).games;
  REQUIRE(games.size() > 3);
  const auto written = pgn::write_chesslive(games[3], {.santags = true, .lossy = true});
  REQUIRE(written);
  const std::string& text = *written;
  std::size_t errors = 0;
  for (std::size_t n = 0; n < text.size(); ++n) {
    auto r = pgn::read_chesslive(std::string_view(text).substr(0, n));
    if (!r) {
      ++errors;
      CHECK(r.error().line == 1);
      CHECK(r.error().offset <= n);
    }
  }
  CHECK(errors > 0);
  // Random byte flips (one to four per try) in the same file.
  std::mt19937 rng(920);
  std::size_t flipped_errors = 0;
  for (int i = 0; i < 2000; ++i) {
    std::string t = text;
    for (unsigned k = 0; k <= rng() % 4; ++k) t[rng() % t.size()] = static_cast<char>(rng() % 256);
    auto r = pgn::read_chesslive(t);
    if (!r) {
      ++flipped_errors;
      CHECK(r.error().offset <= t.size());
      CHECK(!pgn::to_string(r.error()).empty());
    }
  }
  CHECK(flipped_errors > 0);
}
