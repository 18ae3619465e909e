// Analysis written back into EPD records: the analysis opcodes in SAN, everything else byte for
// byte as it was read.
#include <catch2/catch.hpp>

#include "suites/write_back.hpp"
#include "suites_test_support.hpp"

using namespace epdd;
using namespace epdd::suites;
using namespace epdd::suites::test;

namespace {

// White is checkmated (after Fool's mate).
const std::string kWhiteMated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq -";
// Black is stalemated.
const std::string kStalemate = "7k/5Q2/6K1/8/8/8/8/8 b - -";

std::string write(const std::string& line, const uci::Analysis& a, WriteBackOptions options = {}) {
  auto r = record(line);
  write_analysis(r, board_of(r), a, options);
  return r.preserved_text();
}

// The analysis opcodes of kTwoKnights's analysis below (Bb5 a6 Ba4, depth 20, 123456 nodes,
// 1999 ms, cp 35) as a record read back has them.
void check_two_knights_analysis(const epd::EpdRecord& back) {
  CHECK(back.single_operand("acd") == "20");
  CHECK(back.single_operand("acn") == "123456");
  CHECK(back.single_operand("acs") == "1");
  CHECK(back.single_operand("ce") == "35");
  CHECK(back.single_operand("pm") == "Bb5");
  CHECK(back.single_operand("bm") == "Bb5");
  REQUIRE(back.find("pv"));
  CHECK(back.find("pv")->operands.size() == 3);
}

}  // namespace

TEST_CASE("write_analysis: fields and other operations stay byte for byte", "[suites][write_back]") {
  // Odd spacing (two spaces, a tab), an unknown opcode, a string with ';' and doubled spaces.
  const std::string line = kTwoKnights + "  id \"x;  y\";\tzz_unknown  1 2;  c0 \"keep  this\";  bm Nc3;";
  auto a = analysis(core::Score::centipawns(35), {"f1b5", "a7a6", "b5a4"}, 20, 123456, 1999);
  const std::string out = write(line, a);
  // New opcodes go before the first greater opcode (acd..ce before "id", pm and pv before
  // "zz_unknown") with one space; bm is replaced where it stood.
  CHECK(out == kTwoKnights +
                   " acd 20; acn 123456; acs 1; ce 35;  id \"x;  y\"; pm Bb5; pv Bb5 a6 Ba4;\tzz_unknown  1 2;"
                   "  c0 \"keep  this\";  bm Bb5;");
  // The analysis opcodes read back as written.
  auto back = record(out);
  check_two_knights_analysis(back);
  CHECK(back.find("dm") == nullptr);
  CHECK(back.position() == kTwoKnights);
}

TEST_CASE("write_analysis: existing analysis opcodes are replaced in place, a stale dm removed", "[suites][write_back]") {
  const std::string line = kTwoKnights + " acd 5; acn 99; id \"a\"; ce -20; pv d2d4;  dm 3; zz 1; pm e4;";
  auto a = analysis(core::Score::centipawns(-12), {"d2d4", "e5d4"}, 18, 7000, 250);
  CHECK(write(line, a) == kTwoKnights +
                              " acd 18; acn 7000; acs 0; bm d4; id \"a\"; ce -12; pv d4 exd4; zz 1; pm d4;");
}

TEST_CASE("write_analysis: acs is whole seconds, rounded down", "[suites][write_back]") {
  const auto [ms, acs] = GENERATE(table<std::uint64_t, std::string>({
      {0, "0"}, {999, "0"}, {1000, "1"}, {1999, "1"}, {2000, "2"}, {61'500, "61"}}));
  auto r = record(kTwoKnights);
  write_analysis(r, board_of(r), analysis(core::Score::centipawns(0), {"d2d4"}, 10, 10, ms), {});
  CHECK(r.single_operand("acs") == acs);
}

TEST_CASE("write_analysis: ce and dm of mates for and against the side to move", "[suites][write_back]") {
  struct Case {
    std::string position;
    core::Score score;
    std::vector<std::string> pv;
    bool ce_for_white;
    std::string ce, dm, pv_san;  // dm empty: no dm
  };
  const std::vector<Case> cases = {
      // White mates in 2 (3 plies): 32767 - 3. Check marks in the SAN.
      {mate_in_2(), core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6g5"}, false, "32764", "2", "Qf6 h5 Qg5#"},
      {mate_in_2(), core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6g5"}, true, "32764", "2", "Qf6 h5 Qg5#"},
      // Black to move mates in 1: the side to move's view, and White's (sign flipped).
      {kFoolsMate, core::Score::from_uci_mate(1), {"d8h4"}, false, "32766", "1", "Qh4#"},
      {kFoolsMate, core::Score::from_uci_mate(1), {"d8h4"}, true, "-32766", "1", "Qh4#"},
      // Being mated in 2 (4 plies): -32767 + 4, and no dm (dm is the side to move's mate).
      {kTwoKnights, core::Score::from_uci_mate(-2), {"d2d4"}, false, "-32763", "", "d4"},
      // Centipawns with Black to move, for White.
      {kFoolsMate, core::Score::centipawns(50), {"g8f6"}, false, "50", "", "Nf6"},
      {kFoolsMate, core::Score::centipawns(50), {"g8f6"}, true, "-50", "", "Nf6"},
      // Beyond the mate threshold, centipawns are clamped so they never read as mates.
      {kTwoKnights, core::Score::centipawns(40'000), {"d2d4"}, false, "32000", "", "d4"},
  };
  for (const auto& c : cases) {
    INFO(c.position << " score " << c.score.to_uci_string() << " for white " << c.ce_for_white);
    auto r = record(c.position + " dm 9; id \"m\";");
    WriteBackOptions options;
    options.ce_for_white = c.ce_for_white;
    write_analysis(r, board_of(r), analysis(c.score, c.pv), options);
    CHECK(r.single_operand("ce") == c.ce);
    if (c.dm.empty()) CHECK(r.find("dm") == nullptr);
    else CHECK(r.single_operand("dm") == c.dm);
    REQUIRE(r.find("pv"));
    std::string pv;
    for (const auto& o : r.find("pv")->operands) pv += (pv.empty() ? "" : " ") + o.text;
    CHECK(pv == c.pv_san);
    CHECK(r.single_operand("bm") == r.single_operand("pm"));
  }
}

TEST_CASE("write_analysis: no legal move gives the verdict without moves and acd 0", "[suites][write_back]") {
  const auto [position, status, ce] = GENERATE(table<std::string, core::GameStatus, std::string>({
      {kWhiteMated, core::GameStatus::Checkmate, "-32767"},
      {kStalemate, core::GameStatus::Stalemate, "0"},
  }));
  INFO(position);
  uci::Analysis a;
  a.status = status;
  a.depth = 7;  // whatever the analysis says: no search was run
  a.nodes = 1000;
  a.time_ms = 5000;
  auto r = record(position + " acd 20; bm Qxh4; ce 100; dm 4; pm Qxh4; pv Qxh4 Kd8; id \"t\";");
  write_analysis(r, board_of(r), a, {});
  CHECK(r.preserved_text() == position + " acd 0; acn 0; acs 0; ce " + ce + "; id \"t\";");
}

TEST_CASE("write_analysis: solution_opcodes off leaves bm and dm as they were", "[suites][write_back]") {
  const std::string line = mate_in_2() + " bm Qd8-f6; dm 2;  id \"mate\";";
  auto a = analysis(core::Score::from_uci_mate(3), {"f8f7"}, 9, 900, 90);
  WriteBackOptions options;
  options.solution_opcodes = false;
  const std::string out = write(line, a, options);
  CHECK(out == mate_in_2() + " acd 9; acn 900; acs 0; bm Qd8-f6; ce 32762; dm 2;  id \"mate\"; pm Rf7; pv Rf7;");

  // With them, the same analysis replaces the key.
  CHECK(write(line, a) == mate_in_2() + " acd 9; acn 900; acs 0; bm Rf7; ce 32762; dm 3;  id \"mate\"; pm Rf7; pv Rf7;");
}

TEST_CASE("write_analysis: a bestmove off line 1 leaves pm, pv, bm and ce to line 1", "[suites][write_back]") {
  // The engine changed its mind in an iteration it did not finish: its bestmove b1c3 heads no
  // line it completed, and the score is d2d4's. One rule with the book's leaves and annotate:
  // the record is line 1, pm and bm its first move (the standard: pm is pv's first move).
  auto a = analysis(core::Score::centipawns(20), {"d2d4", "e5d4"});
  a.bestmove = "b1c3";
  auto r = record(kTwoKnights);
  write_analysis(r, board_of(r), a, {});
  CHECK(r.single_operand("pm") == "d4");
  CHECK(r.single_operand("bm") == "d4");
  CHECK(r.single_operand("ce") == "20");
  REQUIRE(r.find("pv"));
  REQUIRE(r.find("pv")->operands.size() == 2);
  CHECK(r.find("pv")->operands[0].text == "d4");
  CHECK(r.find("pv")->operands[1].text == "exd4");

  // An engine that printed no line: the bestmove alone, and no score.
  a.lines.clear();
  auto bare = record(kTwoKnights);
  write_analysis(bare, board_of(bare), a, {});
  CHECK(bare.single_operand("pm") == "Nc3");
  CHECK(bare.single_operand("pv") == "Nc3");
  CHECK_FALSE(bare.find("ce"));
}

TEST_CASE("write_analysis: Chess960 castling in the PV is written O-O and O-O-O", "[suites][write_back]") {
  // Chess960: king b1, rook a1 (queen side) and king side rook h1 -- the king-takes-rook form
  // b1a1 is O-O-O (king to c1, rook to d1); b1c1 would be a plain king move.
  const std::string position = "4k3/8/8/8/8/8/8/RK5R w KQ -";
  const core::Board board = board_of_fen(position, true);
  REQUIRE(board.chess960());
  auto r = record(position + " id \"960\";");
  auto a = analysis(core::Score::centipawns(900), {"b1a1", "e8e7", "d1d7", "e7e6", "c1c2"});
  write_analysis(r, board, a, {});
  CHECK(r.preserved_text() ==
        position + " acd 12; acn 54321; acs 1; bm O-O-O; ce 900; id \"960\"; pm O-O-O; pv O-O-O Ke7 Rd7+ Ke6 Kc2;");

  // b1c1 is the plain king step in a Chess960 analysis, though it could read as castling.
  auto step = record(position);
  write_analysis(step, board, analysis(core::Score::centipawns(800), {"b1c1", "e8e7", "a1a7"}), {});
  CHECK(step.single_operand("pm") == "Kc1");
  REQUIRE(step.find("pv"));
  CHECK(step.find("pv")->operands.size() == 3);
  CHECK(step.find("pv")->operands[2].text == "Ra7+");

  // King side: king b1 to g1, rook h1 to f1.
  auto k = record(position);
  write_analysis(k, board, analysis(core::Score::centipawns(900), {"b1h1", "e8d8", "f1f8"}), {});
  CHECK(k.single_operand("pm") == "O-O");
  REQUIRE(k.find("pv"));
  REQUIRE(k.find("pv")->operands.size() == 3);
  CHECK(k.find("pv")->operands[2].text == "Rf8+");
}

TEST_CASE("san_line: the legal prefix of a UCI line", "[suites][write_back]") {
  const core::Board board = board_of_fen(kTwoKnights);
  CHECK(san_line(board, {"f1b5", "a7a6", "b5c6", "d7c6", "e1g1"}) ==
        std::vector<std::string>{"Bb5", "a6", "Bxc6", "dxc6", "O-O"});
  CHECK(san_line(board, {"f1b5", "a7a6", "b5b5", "d7c6"}) == std::vector<std::string>{"Bb5", "a6"});
  CHECK(san_line(board, {}).empty());
}

TEST_CASE("has_analysis: any of acd acn acs ce pm pv", "[suites][write_back]") {
  const auto [ops, has] = GENERATE(table<std::string, bool>({
      {"", false},
      {"bm e4; id \"x\"; dm 2;", false},
      {"acd 3;", true},
      {"id \"x\"; acn 3;", true},
      {"acs 3;", true},
      {"ce 3;", true},
      {"pm Bb5;", true},
      {"pv Bb5;", true},
  }));
  INFO(ops);
  CHECK(has_analysis(record(kTwoKnights + " " + ops)) == has);
}

TEST_CASE("mate_contradiction: a mate score its PV does not bear out", "[suites][write_back]") {
  struct Case {
    core::Score score;
    std::vector<std::string> pv;
    std::string why;
  };
  const std::vector<Case> cases = {
      {core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6g5"}, ""},
      // Only the plies up to the mate are played.
      {core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6g5", "f4e4"}, ""},
      {core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6e6"}, "the PV does not end in mate after 3 plies"},
      {core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6e6", "f4g4"}, "the PV does not end in mate after 3 plies"},
      {core::Score::from_uci_mate(2), {"d8d4", "h6h5", "f6g5"}, "PV move 1 'd8d4' is illegal"},
      // Too short to tell, or no mate for the side to move: nothing to contradict.
      {core::Score::from_uci_mate(2), {"d8f6", "h6h5"}, ""},
      {core::Score::from_uci_mate(-2), {"d8f6", "h6h5", "f6e6", "f4g4"}, ""},
      {core::Score::centipawns(300), {"d8f6", "h6h5", "f6e6"}, ""},
  };
  const core::Board board = board_of_fen(mate_in_2());
  for (const auto& c : cases) {
    uci::PvLine line;
    line.score = c.score;
    line.pv = c.pv;
    INFO(c.score.to_uci_string() << " pv of " << c.pv.size());
    CHECK(mate_contradiction(board, line) == c.why);
  }
}

TEST_CASE("write_analysis: no dm for a mate its PV contradicts", "[suites][write_back]") {
  auto r = record(mate_in_2() + " dm 2;");
  write_analysis(r, board_of(r), analysis(core::Score::from_uci_mate(2), {"d8f6", "h6h5", "f6e6"}), {});
  CHECK(r.single_operand("ce") == "32764");
  CHECK(r.find("dm") == nullptr);
}

TEST_CASE("write_analysis: what it removes or changes of the record's own operations is returned",
          "[suites][write_back]") {
  // A mate suite's record: the engine does not confirm the mate and plays one of the two keys.
  const std::string line = kTwoKnights + " bm Ng5 d4; dm 3; id \"m\";";
  auto r = record(line);
  const auto a = analysis(core::Score::centipawns(40), {"d2d4", "e5d4"}, 12, 5000, 10);
  const WriteBackChanges changes = write_analysis(r, board_of(r), a, {});
  CHECK(changes.removed == std::vector<std::string>{"dm"});
  CHECK(changes.changed == std::vector<std::string>{"bm"});
  // Keys kept: nothing of the record's own is removed or changed.
  auto kept = record(line);
  WriteBackOptions keep;
  keep.solution_opcodes = false;
  const WriteBackChanges none = write_analysis(kept, board_of(kept), a, keep);
  CHECK(none.removed.empty());
  CHECK(none.changed.empty());
  CHECK(kept.preserved_text() ==
        kTwoKnights + " acd 12; acn 5000; acs 0; bm Ng5 d4; ce 40; dm 3; id \"m\"; pm d4; pv d4 exd4;");
  // A duplicate that set() folds into one is a removal too.
  auto dup = record(kTwoKnights + " ce 10; ce 20; id \"d\";");
  CHECK(write_analysis(dup, board_of(dup), a, keep).removed == std::vector<std::string>{"ce"});
}

TEST_CASE("ChangeCounts: the summary's words", "[suites][write_back]") {
  ChangeCounts counts;
  CHECK(counts.describe().empty());
  counts.add({{"dm"}, {"bm"}});
  counts.add({{"dm", "ce"}, {}});
  CHECK(counts.describe() == "2 dm removed, 1 ce removed, 1 bm changed");
}

TEST_CASE("write_analysis: every operation written reads back after any tail a record had", "[suites][write_back]") {
  // Real suites: an unterminated last operation, text that is not an operation, a glued key,
  // an unterminated string, a placeholder.
  const auto tail = GENERATE(as<std::string>{}, " id \"x\"; 1 e4!", " 0 4; v=-385", " id \"x\"", " c0 \"open",
                             " bm Nc3 dm 2", " - id \"y\";", " PV: f1c4; 00:00; ep;");
  const std::string line = kTwoKnights + tail;
  INFO(line);
  auto r = record(line);
  const auto a = analysis(core::Score::centipawns(35), {"f1b5", "a7a6", "b5a4"}, 20, 123456, 1999);
  write_analysis(r, board_of(r), a, {});
  const std::string out = r.preserved_text();
  INFO(out);
  check_two_knights_analysis(record(out));
  // Nothing the record had is lost: each of its fragments is still there as written.
  const auto original = record(line);
  for (const epd::Operation& op : original.operations())
    if (op.opcode.empty()) CHECK_THAT(out, Catch::Contains(line.substr(op.source_offset, op.source_length)));
}
