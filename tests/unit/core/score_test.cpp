#include "core/score.hpp"

#include <catch2/catch.hpp>

using epdd::core::Score;

TEST_CASE("EPD ce encodes mates as 32767 minus plies", "[core][score]") {
  // The standard's own examples: mate in one 32766, mate in five 32758, losing mate in one
  // -32765, losing mate in five -32757.
  CHECK(Score::from_uci_mate(1).to_ce() == 32766);
  CHECK(Score::from_uci_mate(5).to_ce() == 32758);
  CHECK(Score::from_uci_mate(-1).to_ce() == -32765);
  CHECK(Score::from_uci_mate(-5).to_ce() == -32757);
  CHECK(Score::mate_in_plies(1).to_ce() == 32766);
  CHECK(Score::mate_in_plies(5).to_ce() == 32762);
  CHECK(Score::mate_in_plies(0).to_ce() == -32767);  // checkmated on the board
  CHECK(Score::mate_in_plies(-2).to_ce() == -32765);
  CHECK(Score::centipawns(25).to_ce() == 25);
  CHECK(Score::centipawns(-310).to_ce() == -310);
  CHECK(Score::centipawns(0).to_ce() == 0);
  // Huge centipawn values stay out of the mate band.
  CHECK(Score::centipawns(40000).to_ce() == Score::kMaxCentipawns);
  CHECK(Score::centipawns(-40000).to_ce() == -Score::kMaxCentipawns);
}

TEST_CASE("EPD ce is read back to the same score", "[core][score]") {
  for (int ce : {0, 1, -1, 25, -310, 3000, -12000, Score::kMaxCentipawns, -Score::kMaxCentipawns, 32766,
                 32762, 32767 - Score::kMaxMatePlies, -32767, -32765, -32767 + Score::kMaxMatePlies}) {
    auto s = Score::from_ce(ce);
    INFO(ce);
    REQUIRE(s);
    CHECK(s->to_ce() == ce);
  }
  CHECK(Score::from_ce(32766)->mate_plies() == 1);
  CHECK(Score::from_ce(-32765)->mate_plies() == -2);
  CHECK_FALSE(Score::from_ce(32767));
  // The standard: above 32000 (below -32000) is a mate.
  CHECK(Score::from_ce(32000)->kind() == Score::Kind::Centipawns);
  CHECK(Score::from_ce(32001)->mate_plies() == 766);
  CHECK(Score::from_ce(-32000)->kind() == Score::Kind::Centipawns);
  CHECK(Score::from_ce(-32001)->mate_plies() == -766);
  CHECK_FALSE(Score::from_ce(32768));
  CHECK_FALSE(Score::from_ce(-40000));
}

TEST_CASE("UCI mate scores in moves and plies", "[core][score]") {
  CHECK(Score::from_uci_mate(1).mate_plies() == 1);
  CHECK(Score::from_uci_mate(3).mate_plies() == 5);
  CHECK(Score::from_uci_mate(-2).mate_plies() == -4);
  CHECK(Score::from_uci_mate(0).mate_plies() == 0);
  CHECK(Score::from_uci_mate(3).mate_moves() == 3);
  CHECK(Score::from_uci_mate(-2).mate_moves() == -2);
  CHECK(Score::from_uci_mate(3).to_uci_string() == "mate 3");
  CHECK(Score::centipawns(-12).to_uci_string() == "cp -12");
}

TEST_CASE("Scores order from the side to move's view", "[core][score]") {
  CHECK(Score::mate_in_plies(1) > Score::mate_in_plies(3));
  CHECK(Score::mate_in_plies(99) > Score::centipawns(30000));
  CHECK(Score::centipawns(30) > Score::centipawns(-30));
  CHECK(Score::centipawns(-30000) > Score::mate_in_plies(-40));
  CHECK(Score::mate_in_plies(-40) > Score::mate_in_plies(-2));
  CHECK(Score::mate_in_plies(-2) > Score::mate_in_plies(0));
  CHECK(Score::centipawns(25).negated() == Score::centipawns(-25));
  CHECK(Score::mate_in_plies(3).negated() == Score::mate_in_plies(-3));
}

TEST_CASE("Scores in pawns as PGN [%eval] writes them", "[core][score]") {
  CHECK(Score::centipawns(25).to_pawns_string() == "+0.25");
  CHECK(Score::centipawns(-150).to_pawns_string() == "-1.50");
  CHECK(Score::centipawns(5).to_pawns_string() == "+0.05");
  CHECK(Score::centipawns(0).to_pawns_string() == "0.00");
  CHECK(Score::from_uci_mate(3).to_pawns_string() == "#3");
  CHECK(Score::from_uci_mate(-2).to_pawns_string() == "#-2");
  CHECK(Score::mate_in_plies(0).to_pawns_string() == "#-0");  // the side to move is checkmated
}

TEST_CASE("Scores in pawns as White sees them: lichess's marks", "[core][score]") {
  using core::Color;
  CHECK(Score::centipawns(25).to_white_pawns_string(Color::White) == "+0.25");
  CHECK(Score::centipawns(25).to_white_pawns_string(Color::Black) == "-0.25");
  CHECK(Score::centipawns(-150).to_white_pawns_string(Color::Black) == "+1.50");
  CHECK(Score::centipawns(0).to_white_pawns_string(Color::Black) == "0.00");
  // Black to move mates in 3 (5 plies): Black mates, "#-3" (not the 2 moves -5 plies would read).
  CHECK(Score::mate_in_plies(5).to_white_pawns_string(Color::Black) == "#-3");
  CHECK(Score::mate_in_plies(5).to_white_pawns_string(Color::White) == "#3");
  // Black to move is mated in 2 (4 plies): White mates in 2.
  CHECK(Score::mate_in_plies(-4).to_white_pawns_string(Color::Black) == "#2");
  CHECK(Score::mate_in_plies(-4).to_white_pawns_string(Color::White) == "#-2");
  CHECK(Score::mate_in_plies(0).to_white_pawns_string(Color::White) == "#-0");
  CHECK(Score::mate_in_plies(0).to_white_pawns_string(Color::Black) == "#0");
}
