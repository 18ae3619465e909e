// ChessLive! move files: files written here from the grammar (every idiom, results with
// reasons, SANtags), read and written back byte for byte, also through PGN text; the Score
// from White's view; PGN games through the format. Errors and bad input: chesslive_errors_test.
#include <string>
#include <vector>

#include "core/fen.hpp"
#include "pgn/chesslive.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;

using test::shared_file;

namespace {

pgn::Game read_ok(const std::string& text, pgn::ClmReadOptions o = {}) {
  auto g = pgn::read_chesslive(text, o);
  INFO(text << (g ? "" : "\n" + pgn::to_string(g.error())));
  REQUIRE(g);
  return *g;
}

std::string write_ok(const pgn::Game& g, pgn::ClmWriteOptions o = {}) {
  auto w = pgn::write_chesslive(g, o);
  INFO((w ? "" : pgn::to_string(w.error())));
  REQUIRE(w);
  return *w;
}

core::Board from_fen(const std::string& fen, bool chess960 = false) {
  core::FenReadOptions o;
  o.chess960 = chess960;
  auto b = core::parse_fen(fen, o);
  INFO(fen << (b ? "" : "\n" + core::to_string(b.error())));
  REQUIRE(b);
  b->set_chess960(chess960);
  return *b;
}

void round_trip(const std::string& text, pgn::ClmReadOptions r = {}, pgn::ClmWriteOptions w = {}) {
  const pgn::Game g = read_ok(text, r);
  CHECK(write_ok(g, w) == text);
}

std::string sans(const pgn::Game& g) { return test::san_line(g.start, g.main); }

}  // namespace

TEST_CASE("ChessLive: players, plain moves and a result with its reason", "[chesslive]") {
  const std::string text = "Kasparov;Deep Blue;e2:e4;e7:e5;g1:f3;b8:c6;=;3-fold repetition\n";
  const pgn::Game g = read_ok(text);
  CHECK(g.tag("White") == "Kasparov");
  CHECK(g.tag("Black") == "Deep Blue");
  CHECK(g.tag("Result") == "1/2-1/2");
  CHECK(g.result == "1/2-1/2");
  CHECK(sans(g) == "e4 e5 Nf3 Nc6");
  REQUIRE(g.main.moves.back().after.size() == 1);
  CHECK(g.main.moves.back().after[0].comment == "3-fold repetition");
  CHECK(write_ok(g) == text);
  round_trip("A;B;d2:d4;+;\n");
  round_trip("A;B;d2:d4;-;Black wins on time\n");
  round_trip("A;B;d2:d4;g8:f6\n");  // unfinished
  round_trip("A;B;\n");             // unfinished, no moves
  round_trip("A;B;=;agreed before a move\n");
  CHECK(read_ok("A;B;d2:d4").result == "*");
}

TEST_CASE("ChessLive: the idioms - castling, promotion, en passant", "[chesslive]") {
  // King-side and queen-side castling, each side.
  const std::string castles =
      "W;B;e2:e4;e7:e5;g1:f3;b8:c6;f1:c4;d7:d6;e1:g1:h1:f1;c8:e6;d2:d3;d8:d7;b1:c3;e8:c8:a8:d8\n";
  const pgn::Game g = read_ok(castles);
  CHECK(sans(g) == "e4 e5 Nf3 Nc6 Bc4 d6 O-O Be6 d3 Qd7 Nc3 O-O-O");
  CHECK(write_ok(g) == castles);
  // Promotion to queen and underpromotion to knight, with check.
  const std::string promo = "W;B;g7:g8:q:g8;a2:a1:n:a1\n";
  pgn::ClmReadOptions o;
  o.start = from_fen("8/6P1/7k/8/8/8/p7/4K3 w - - 0 1");
  const pgn::Game p = read_ok(promo, o);
  CHECK(sans(p) == "g8=Q a1=N");
  CHECK(write_ok(p, {.santags = true, .lossy = true}) == promo);
  // En passant exactly as the spec writes it: b5:c6:b5:c5.
  o.start = from_fen("4k3/8/8/1Pp5/8/8/8/4K3 w - c6 0 1");
  const pgn::Game e = read_ok("W;B;b5:c6:b5:c5\n", o);
  CHECK(sans(e) == "bxc6");
  CHECK(write_ok(e, {.santags = true, .lossy = true}) == "W;B;b5:c6:b5:c5\n");
  // "b5:c6" alone leaves the c5 pawn: no legal move.
  auto bad = pgn::read_chesslive("W;B;b5:c6\n", o);
  REQUIRE(!bad);
  CHECK(bad.error().message.find("b5:c6") != std::string::npos);
}

TEST_CASE("ChessLive: Chess960 castling, with the rook dropped when the king lands on it", "[chesslive]") {
  pgn::ClmReadOptions o;
  // King f1, rooks b1 and g1: O-O puts the king on g1 (over the rook) and the rook on f1.
  o.start = from_fen("1r3kr1/5pp1/8/8/8/8/5PP1/1R3KR1 w GBgb - 0 1", true);
  const std::string text = "W;B;f1:g1:r:f1/10/25/300/O-O;f8:c8:b8:d8/11/-5/299/O-O-O\n";
  const pgn::Game g = read_ok(text, o);
  CHECK(sans(g) == "O-O O-O-O");
  CHECK(g.main.moves[0].move.kind() == core::MoveKind::Castling);
  CHECK(g.main.moves[1].move.kind() == core::MoveKind::Castling);
  CHECK(write_ok(g, {.santags = true, .lossy = true}) == text);
  // The king on g1 does not move: written h1:f1 alone (read literally, "g1:g1" would clear
  // the king), which no other legal move leaves (the rook cannot pass the king): castling.
  // The reader also takes g1:g1:h1:f1 (a step onto its own square changes nothing).
  o.start = from_fen("4k3/8/8/8/8/8/8/6KR w H - 0 1", true);
  const pgn::Game r = read_ok("W;B;h1:f1\n", o);
  CHECK(r.main.moves[0].move.kind() == core::MoveKind::Castling);
  CHECK(sans(r) == "O-O");
  CHECK(write_ok(r, {.santags = true, .lossy = true}) == "W;B;h1:f1\n");
  const pgn::Game c = read_ok("W;B;g1:g1:h1:f1\n", o);
  CHECK(c.main.moves[0].move.kind() == core::MoveKind::Castling);
  CHECK(write_ok(c, {.santags = true, .lossy = true}) == "W;B;h1:f1\n");
  // The rook already on f1 does not move: e1:g1 alone, king-side castling; queen-side likewise.
  o.start = from_fen("3rk3/8/8/8/8/8/8/4KR2 w Fd - 0 1", true);
  const pgn::Game k = read_ok("W;B;e1:g1;e8:c8\n", o);
  CHECK(sans(k) == "O-O O-O-O");
  CHECK(write_ok(k, {.santags = true, .lossy = true}) == "W;B;e1:g1;e8:c8\n");
  CHECK(sans(read_ok("W;B;e1:g1:f1:f1;e8:c8:d8:d8\n", o)) == "O-O O-O-O");
}

TEST_CASE("ChessLive: Depth, Score and Time as [%eval] and [%clk], and back", "[chesslive]") {
  const std::string text = "W;B;e2:e4/20/35/179/;e7:e5/18/35/178/;g1:f3/0/99997/170/N;b8:c6/0/-4/2/N\n";
  const pgn::Game g = read_ok(text);
  // Score is White's, whoever moved: Black's 35 is [%eval 0.35]; 99997 is White mates in 3.
  CHECK(g.main.moves[0].after[0].comment == "[%eval 0.35,20] [%clk 0:02:59]");
  CHECK(g.main.moves[1].after[0].comment == "[%eval 0.35,18] [%clk 0:02:58]");
  CHECK(g.main.moves[2].after[0].comment == "[%eval #3] [%clk 0:02:50]");
  CHECK(g.main.moves[3].after[0].comment == "[%eval -0.04] [%clk 0:00:02]");
  CHECK(write_ok(g) == text);
  // Without SANtags (four fields), with santags off.
  round_trip("W;B;e2:e4/20/35/7199;e7:e5/18/-120/7198;+;resigns\n", {}, {.santags = false, .lossy = false});
  // Mixed: a Score without a clock, a clock without a Score (empty fields), reason after data.
  round_trip("W;B;e2:e4/3/35//;e7:e5/0//60/;d1:h5/1/-40/58/Q;-;White lost on time\n");
  const pgn::Game t = read_ok("W;B;e2:e4/0//3725/\n");
  CHECK(t.main.moves[0].after[0].comment == "[%clk 1:02:05]");
}

TEST_CASE("ChessLive: mate scores from White's view for either side to move", "[chesslive]") {
  // [%eval #n]: White mates in n moves, Score 100000-n; [%eval #-n]: Black mates, -(100000-n).
  struct Case {
    std::string moves;  // the MoveSpecs, the last one carrying the score
    std::string eval;   // its comment
  };
  const std::vector<Case> cases = {
      {"e2:e4/5/99997/60", "[%eval #3,5] [%clk 0:01:00]"},                 // White moved, White mates
      {"e2:e4/5/-99996/60", "[%eval #-4,5] [%clk 0:01:00]"},               // White moved, Black mates
      {"e2:e4;e7:e5/5/99998/60", "[%eval #2,5] [%clk 0:01:00]"},           // Black moved, White mates
      {"e2:e4;e7:e5/5/-99999/60", "[%eval #-1,5] [%clk 0:01:00]"},         // Black moved, Black mates
      {"e2:e4;e7:e5/5/-35/60", "[%eval -0.35,5] [%clk 0:01:00]"},          // Black moved, Black better
      {"e2:e4;e7:e5/5/1234/60", "[%eval 12.34,5] [%clk 0:01:00]"},         // Black moved, White better
  };
  for (const Case& c : cases) {
    const std::string text = "W;B;" + c.moves + "\n";
    INFO(text);
    const pgn::Game g = read_ok(text);
    CHECK(g.main.moves.back().after.at(0).comment == c.eval);
    CHECK(write_ok(g, {.santags = false, .lossy = false}) == text);
  }
}

TEST_CASE("ChessLive: signed Scores, unsigned Depth and Time", "[chesslive]") {
  // Score ::= <signed number>: "+35" and "35" are the same; "-0" is 0. Written without '+'.
  CHECK(read_ok("W;B;e2:e4/1/+35/2\n").main.moves[0].after.at(0).comment == "[%eval 0.35,1] [%clk 0:00:02]");
  CHECK(read_ok("W;B;e2:e4/1/-0/2\n").main.moves[0].after.at(0).comment == "[%eval 0.00,1] [%clk 0:00:02]");
  CHECK(write_ok(read_ok("W;B;e2:e4/1/+35/2\n"), {.santags = false, .lossy = false}) == "W;B;e2:e4/1/35/2\n");
  // Fields that give nothing (Depth 0, no Score, no Time) are not written back.
  CHECK(read_ok("W;B;e2:e4/0//\n").main.moves[0].after.empty());
  CHECK(write_ok(read_ok("W;B;e2:e4/0///\n")) == "W;B;e2:e4\n");
  struct Case {
    std::string spec;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"e2:e4/1/+-5/2", "Score '+-5'"}, {"e2:e4/1/-+5/2", "Score '-+5'"}, {"e2:e4/1/+/2", "Score '+'"},
      {"e2:e4/1/--5/2", "Score '--5'"}, {"e2:e4/1/3.5/2", "Score '3.5'"}, {"e2:e4/1/ 5/2", "Score ' 5'"},
      {"e2:e4/-0/5/2", "Depth '-0'"},   {"e2:e4/+3/5/2", "Depth '+3'"},   {"e2:e4/-1/5/2", "Depth '-1'"},
      {"e2:e4/1/5/-0", "Time '-0'"},    {"e2:e4/1/5/+2", "Time '+2'"},    {"e2:e4/1/5/1.5", "Time '1.5'"},
      {"e2:e4/1/100001/2", "Score '100001'"},
      {"e2:e4/1/5/99999999999999999999999", "Time '99999999999999999999999'"},
  };
  for (const Case& c : cases) {
    const std::string text = "W;B;" + c.spec + "\n";
    auto r = pgn::read_chesslive(text);
    INFO(text);
    CHECK(!r);
    if (r) continue;
    INFO(pgn::to_string(r.error()));
    CHECK(r.error().message.find(c.says) != std::string::npos);
    CHECK(r.error().message.find("game W - B, move 1 (White)") != std::string::npos);
  }
}

TEST_CASE("ChessLive: empty Texts, white space and CRLF", "[chesslive]") {
  // Empty players and an empty reason are Texts too.
  const pgn::Game e = read_ok(";;e2:e4;=;\n");
  CHECK(e.tag("White") == "");
  CHECK(e.tag("Black") == "");
  CHECK(e.result == "1/2-1/2");
  CHECK(e.main.moves.back().after.empty());
  CHECK(write_ok(e) == ";;e2:e4;=;\n");
  // The white space around the players is layout (a file broken into lines); the reason is a
  // comment as the PGN reader keeps one (white space runs one space, trimmed).
  const pgn::Game s = read_ok(" A ; B ;e2:e4;-; on  time \n");
  CHECK(s.tag("White") == "A");
  CHECK(s.tag("Black") == "B");
  CHECK(s.main.moves.back().after.at(0).comment == "on time");
  // White space and line ends (LF or CRLF) around MoveSpecs and results are ignored.
  const pgn::Game c = read_ok("W;B;\r\n e2:e4/1/2/3 ;\r\n\te7:e5\r\n;\r\n+;done\r\n");
  CHECK(sans(c) == "e4 e5");
  CHECK(c.result == "1-0");
  CHECK(c.main.moves.back().after.at(0).comment == "done");
  CHECK(read_ok("W;B;e2:e4\r\n").main.moves.size() == 1);
  // A UTF-8 byte order mark (Windows editors write one) is not part of White's name; error
  // places still count it.
  CHECK(read_ok("\xEF\xBB\xBFW;B;e2:e4\n").tag("White") == "W");
  auto bom = pgn::read_chesslive("\xEF\xBB\xBFW;B;e2:e5\n");
  REQUIRE(!bom);
  CHECK(bom.error().offset == 7);
  // A result without its ';' Text is not a ResultSpec; white space inside a field is an error.
  CHECK(!pgn::read_chesslive("W;B;e2:e4;+\r\n"));
  CHECK(!pgn::read_chesslive("W;B;e2 :e4\n"));
  CHECK(!pgn::read_chesslive("W;B;e2:e4/1/2/3;;e7:e5\n"));  // an empty MoveSpec
  CHECK(!pgn::read_chesslive("W;B;e2:e4;\n"));              // a ';' with no MoveList after it
}

TEST_CASE("ChessLive: squares off the board and drops are errors with their place", "[chesslive]") {
  struct Case {
    std::string text;
    std::string says;
    std::string where;
  };
  const std::vector<Case> cases = {
      {"W;B;a2:a10\n", "'a10' is not a square a1..h8", "line 1, column 5 (byte 4)"},
      {"W;B;i1:h1\n", "'i1' is neither a square a1..h8 nor a piece", "line 1, column 5 (byte 4)"},
      {"W;B;e2:i1\n", "'i1' is not a square a1..h8", "line 1, column 5 (byte 4)"},
      {"W;B;E2:E4\n", "'E2' is neither a square", "line 1, column 5 (byte 4)"},
      {"W;B;e0:e4\n", "'e0' is neither a square", "line 1, column 5 (byte 4)"},
      {"W;B;e2:ex\n", "'ex' is not a square", "line 1, column 5 (byte 4)"},
      {"W;B;e2:e4;\n e7:e5;\n  n:f3\n", "move 2 (White): steps 'n:f3' drop a piece (n on f3): chess has no drops",
       "line 3, column 3 (byte 21)"},
      {"W;B;e2:e4:q:d5\n", "move 1 (White): steps 'e2:e4:q:d5' drop a piece (q on d5): chess has no drops",
       "line 1, column 5 (byte 4)"},
  };
  for (const Case& c : cases) {
    auto r = pgn::read_chesslive(c.text);
    INFO(c.text);
    CHECK(!r);
    if (r) continue;
    INFO(pgn::to_string(r.error()));
    CHECK(r.error().message.starts_with("game W - B, move "));
    CHECK(r.error().message.find(c.says) != std::string::npos);
    CHECK(pgn::to_string(r.error()).starts_with(c.where));
  }
}

TEST_CASE("ChessLive: a legal move's steps in another order, and the idioms for Black", "[chesslive]") {
  // Castling rook first, both sides, both colours.
  const pgn::Game k = read_ok("W;B;e2:e4;e7:e5;g1:f3;g8:f6;f1:c4;f8:c5;h1:f1:e1:g1;h8:f8:e8:g8\n");
  CHECK(sans(k) == "e4 e5 Nf3 Nf6 Bc4 Bc5 O-O O-O");
  CHECK(write_ok(k) == "W;B;e2:e4;e7:e5;g1:f3;g8:f6;f1:c4;f8:c5;e1:g1:h1:f1;e8:g8:h8:f8\n");
  pgn::ClmReadOptions o;
  o.start = from_fen("r3k2r/3p4/8/8/8/8/3P4/R3K2R w KQkq - 0 1");
  const pgn::Game q = read_ok("W;B;a1:d1:e1:c1;a8:d8:e8:c8\n", o);
  CHECK(sans(q) == "O-O-O O-O-O");
  CHECK(write_ok(q, {.santags = true, .lossy = true}) == "W;B;e1:c1:a1:d1;e8:c8:a8:d8\n");
  // En passant: the captured pawn cleared first, by capturing onto it and going on.
  o.start = from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
  const pgn::Game ep = read_ok("W;B;d4:e4:e4:e3\n", o);
  CHECK(sans(ep) == "dxe3");
  CHECK(write_ok(ep, {.santags = true, .lossy = true}) == "W;B;d4:e3:d4:e4\n");
  CHECK(sans(read_ok("W;B;d4:e3:d4:e4\n", o)) == "dxe3");  // the idiom for Black
  // "e4:e4" read literally clears e4 (copied onto itself, then cleared): when no move matches
  // with it changing nothing, the literal reading is tried.
  CHECK(sans(read_ok("W;B;d4:e3:e4:e4\n", o)) == "dxe3");
  // Promotion for Black, with a capture, to a queen and to a knight.
  o.start = from_fen("1n2k3/8/8/8/8/8/1p6/R3K3 b - - 0 1");
  CHECK(sans(read_ok("W;B;b2:a1:q:a1\n", o)) == "bxa1=Q+");
  CHECK(sans(read_ok("W;B;b2:b1:n:b1\n", o)) == "b1=N");
  CHECK(!pgn::read_chesslive("W;B;b2:b1\n", o));  // a pawn on the last rank is no legal move
}

TEST_CASE("ChessLive: the SANtag is display text, but O-O and O-O-O must be those castlings", "[chesslive]") {
  // Any other SANtag is read and not kept: the writer derives its own from the move.
  const pgn::Game g = read_ok("W;B;e2:e4/1/2/3/Nx;e7:e5/1/2/3/whatever\n");
  CHECK(sans(g) == "e4 e5");
  CHECK(write_ok(g) == "W;B;e2:e4/1/2/3/;e7:e5/1/2/3/\n");
  CHECK(read_ok("W;B;e2:e4/1/2/3/\n").main.moves.size() == 1);  // an empty SANtag
  const std::string opening = "W;B;e2:e4;e7:e5;g1:f3;g8:f6;f1:c4;f8:c5;";
  CHECK(sans(read_ok(opening + "e1:g1:h1:f1/1/2/3/O-O;e8:g8:h8:f8/1/2/3/O-O\n")) ==
        "e4 e5 Nf3 Nf6 Bc4 Bc5 O-O O-O");
  auto w = pgn::read_chesslive(opening + "e1:g1:h1:f1/1/2/3/O-O;e8:g8:h8:f8/1/2/3/O-O-O\n");
  REQUIRE(!w);
  CHECK(w.error().message.find("move 4 (Black): steps 'e8:g8:h8:f8' carry the SANtag 'O-O-O' but are no "
                               "queen-side castling") != std::string::npos);
  // A castling with another SANtag reads (display text), and is written back with O-O.
  const pgn::Game kg = read_ok(opening + "e1:g1:h1:f1/1/2/3/K\n");
  CHECK(sans(kg) == "e4 e5 Nf3 Nf6 Bc4 Bc5 O-O");
  CHECK(write_ok(kg).ends_with(";e1:g1:h1:f1/1/2/3/O-O\n"));
  auto k = pgn::read_chesslive(opening + "e1:f1/1/2/3/O-O\n");
  REQUIRE(!k);
  CHECK(k.error().message.find("carry the SANtag 'O-O' but are no king-side castling") != std::string::npos);
}

TEST_CASE("ChessLive: files written by hand from the grammar go through PGN and back byte for byte", "[chesslive]") {
  // Each file is written here from the grammar and the idioms, not by the writer; its moves
  // in SAN are the independent answer to what it means.
  struct File {
    std::string name;
    std::string text;
    std::string sans;
    std::string fen = "";  // the start, when set up (the file cannot say it)
    bool chess960 = false;
    bool santags = false;  // the file's MoveSpecs with data carry a SANtag
  };
  const std::vector<File> files = {
      {"castling O-O White and O-O-O Black, en passant both colours, four fields, a loss with its reason",
       "Anna Adams;Bob \"The Rock\" Brown;e2:e4/18/31/179;g8:f6/17/-25/178;e4:e5;d7:d5;e5:d6:e5:d5/20/40/160;c7:d6;"
       "g1:f3/0/35/150;b7:b5/0//149;f1:e2/12/-3/;b5:b4;c2:c4;b4:c3:b4:c4/9/-10/120;e1:g1:h1:f1/15/0/110;c8:b7;"
       "d2:c3/14/-99990/100;d8:d7;c1:e3;b8:c6;b1:d2/1/2/3;e8:c8:a8:d8/22/99995/90;-;White resigned\n",
       "e4 Nf6 e5 d5 exd6 cxd6 Nf3 b5 Be2 b4 c4 bxc3 O-O Bb7 dxc3 Qd7 Be3 Nc6 Nbd2 O-O-O"},
      {"castling O-O-O White and O-O Black, SANtags, a draw with its reason",
       "W;B;d2:d4/10/20/600/;g8:f6/10/-15/600/N;c1:f4/11/22/590/B;g7:g6/11/10/590/;b1:c3/12/30/580/N;"
       "f8:g7/12/25/580/B;d1:d2/13/28/570/Q;e8:g8:h8:f8/13/20/570/O-O;e1:c1:a1:d1/14/35/560/O-O-O;"
       "d7:d5/14/30/555/;=;draw agreed\n",
       "d4 Nf6 Bf4 g6 Nc3 Bg7 Qd2 O-O O-O-O d5", "", false, true},
      {"promotions both colours (queen, knight, with a capture), from a set-up start, a win with its reason",
       "W;B;h7:h8:q:h8/5/900/60/;e8:d7;b7:b8:n:b8/6/1200/59/;d7:c7;e1:e2/7/1100/58/K;b2:a1:q:a1/7/400/57/bx;"
       "h8:e5/8/500/56/Q;c7:b7;b8:d7/9/450/55/N;g2:g1:n:g1/9/-20/54/;e2:e3/10/0/53/K;+;Black lost on time\n",
       "h8=Q+ Kd7 b8=N+ Kc7 Ke2 bxa1=Q Qe5+ Kb7 Nd7 g1=N+ Ke3", "4k3/1P5P/8/8/8/8/1p4p1/N3K3 w - - 0 1", false,
       true},
      {"Chess960 castling: the king lands on its rook, the rook dropped; queen-side",
       "W;B;f1:g1:r:f1/10/25/300/O-O;f8:c8:b8:d8/11/-5/299/O-O-O;=;\n", "O-O O-O-O",
       "1r3kr1/5pp1/8/8/8/8/5PP1/1R3KR1 w GBgb - 0 1", true, true},
      {"empty players, an empty reason", ";;e2:e4;e7:e5;=;\n", "e4 e5"},
      {"unfinished", "White;Black;e2:e4/5/20/60;c7:c5\n", "e4 c5"},
      {"a result before any move", "A;B;+;forfeit\n", ""},
      {"unfinished, no moves", "A;B;\n", ""},
  };
  for (const File& f : files) {
    INFO(f.name << "\n" << f.text);
    pgn::ClmReadOptions r;
    if (!f.fen.empty()) r.start = from_fen(f.fen, f.chess960);
    const pgn::Game g = read_ok(f.text, r);
    CHECK(sans(g) == f.sans);
    std::string pgn_text;
    pgn::append_game(pgn_text, g);
    INFO(pgn_text);
    const auto back = test::read(pgn_text);
    INFO(test::messages(back.diags));
    REQUIRE(back.games.size() == 1);
    CHECK(back.diags.items().empty());
    CHECK(sans(back.games[0]) == f.sans);
    pgn::ClmWriteReport report;
    // A set-up start is the one thing the file cannot hold: lossy says it may be left out.
    auto w = pgn::write_chesslive(back.games[0], {.santags = f.santags, .lossy = !f.fen.empty()}, &report);
    INFO((w ? "" : pgn::to_string(w.error())));
    REQUIRE(w);
    CHECK(*w == f.text);
    CHECK(report.start == !f.fen.empty());
    CHECK(report.comments + report.nags + report.variations + report.characters == 0);
  }
}

TEST_CASE("ChessLive: PGN games through the move file give their moves back", "[chesslive][files]") {
  const auto pgn_games = test::read(shared_file("twic0920.pgn")).games;
  REQUIRE(pgn_games.size() >= 50);
  std::size_t tags = 0;
  for (std::size_t i = 0; i < 50; ++i) {
    const pgn::Game& g = pgn_games[i];
    pgn::ClmWriteReport report;
    auto clm = pgn::write_chesslive(g, {.santags = true, .lossy = true}, &report);
    INFO("game " << i + 1 << (clm ? "" : pgn::to_string(clm.error())));
    REQUIRE(clm);
    tags += report.tags;
    auto back = pgn::read_chesslive(*clm);
    INFO(*clm << (back ? "" : pgn::to_string(back.error())));
    REQUIRE(back);
    // The reduced export's moves and result come back (tags beyond the players are not in the file).
    pgn::Game expected = g;
    expected.tags.clear();
    expected.set_tag("White", std::string(g.tag("White").value_or("?")));
    expected.set_tag("Black", std::string(g.tag("Black").value_or("?")));
    expected.set_tag("Result", g.result);
    CHECK(pgn::export_movetext(*back, {.reduced = true}) == pgn::export_movetext(expected, {.reduced = true}));
    CHECK(write_ok(*back, {.santags = true, .lossy = true}) == *clm);
  }
  CHECK(tags > 0);
  // Depth/score/clock kept: lichess-style comments written from PGN, through the file and back.
  const std::string text =
      "[White \"a\"]\n[Black \"b\"]\n[Result \"0-1\"]\n\n1. e4 { [%eval 0.30,22] [%clk 0:03:00] } e5 "
      "{ [%eval -0.25,21] [%clk 0:02:59] } 2. Qh5 { [%eval #-4] [%clk 0:02:50] } 0-1\n";
  const auto pg = test::read(text).games;
  REQUIRE(pg.size() == 1);
  const std::string clm = write_ok(pg[0]);
  CHECK(clm == "a;b;e2:e4/22/30/180/;e7:e5/21/-25/179/;d1:h5/0/-99996/170/Q;-;\n");
  const pgn::Game back = read_ok(clm);
  for (std::size_t i = 0; i < 3; ++i) CHECK(back.main.moves[i].after == pg[0].main.moves[i].after);
  CHECK(back.main == pg[0].main);
}

TEST_CASE("ChessLive: what a move file cannot hold is refused unless lossy, and counted", "[chesslive]") {
  const auto pg = test::read("[White \"a\"]\n[Black \"b\"]\n[Event \"e\"]\n\n1. e4 $1 {good; very} (1. d4) e5 *\n").games;
  REQUIRE(pg.size() == 1);
  auto w = pgn::write_chesslive(pg[0]);
  REQUIRE(!w);
  CHECK(w.error().message.find("1 comment(s), 1 NAG(s), 1 variation(s)") != std::string::npos);
  pgn::ClmWriteReport report;
  auto l = pgn::write_chesslive(pg[0], {.santags = true, .lossy = true}, &report);
  REQUIRE(l);
  CHECK(*l == "a;b;e2:e4;e7:e5\n");
  CHECK(report.tags == 1);
  CHECK(report.comments == 1);
}

TEST_CASE("ChessLive: a data comment that holds more than Depth, Score and Time is counted", "[chesslive]") {
  struct Case {
    std::string comment;
    std::string spec;    // what the move file holds
    std::size_t lost;    // comments not kept whole
  };
  const std::vector<Case> cases = {
      {"[%eval 0.20,5] [%clk 0:01:00]", "e2:e4/5/20/60", 0},
      {"[%eval 0.2]", "e2:e4/0/20/", 0},                              // the same value, written 0.20
      {"[%eval 0.20] [%csl Gd4]", "e2:e4/0/20/", 1},                  // another command
      {"[%eval 0.20] [%eval 0.50]", "e2:e4/0/20/", 1},                // a second eval
      {"[%clk 0:02:59.5]", "e2:e4/0//179", 1},                        // a fraction of a second
      {"[%eval 0.20] good", "e2:e4/0/20/", 1},                        // text
  };
  for (const Case& c : cases) {
    const auto pg = test::read("[White \"a\"]\n[Black \"b\"]\n\n1. e4 {" + c.comment + "} *\n").games;
    INFO(c.comment);
    REQUIRE(pg.size() == 1);
    pgn::ClmWriteReport report;
    auto w = pgn::write_chesslive(pg[0], {.santags = false, .lossy = true}, &report);
    REQUIRE(w);
    CHECK(*w == "a;b;" + c.spec + "\n");
    CHECK(report.comments == c.lost);
    CHECK(bool(pgn::write_chesslive(pg[0], {.santags = false, .lossy = false})) == (c.lost == 0));
  }
}

TEST_CASE("ChessLive: Chess960 games from cutechess through the move file", "[chesslive][files]") {
  const auto games = test::read(shared_file("chess960-cutechess.pgn")).games;
  REQUIRE(!games.empty());
  std::size_t castlings = 0;
  for (const pgn::Game& g : games) {
    INFO("game " << g.number);
    // The file cannot say the start position: refused unless lossy, then given back to the reader.
    auto refused = pgn::write_chesslive(g);
    REQUIRE(!refused);
    CHECK(refused.error().message.find("set-up start position") != std::string::npos);
    const std::string clm = write_ok(g, {.santags = true, .lossy = true});
    auto back = pgn::read_chesslive(clm, {.start = g.start});
    INFO(clm << (back ? "" : pgn::to_string(back.error())));
    REQUIRE(back);
    CHECK(back->mainline() == g.mainline());
    CHECK(back->result == g.result);
    for (core::Move m : g.mainline()) castlings += m.kind() == core::MoveKind::Castling;
  }
  CHECK(castlings > 0);
}
