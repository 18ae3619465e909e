#include <string>
#include <vector>

#include "core_test_support.hpp"

using namespace epdd;
using core::FenField;

namespace {

struct ErrorCase {
  const char* fen;
  FenField field;
  const char* says;  // a phrase the message must contain
};

void check_errors(const std::vector<ErrorCase>& cases, core::FenReadOptions options = {}) {
  for (const auto& c : cases) {
    auto b = core::parse_fen(c.fen, options);
    INFO("FEN: '" << c.fen << "'");
    REQUIRE_FALSE(b.has_value());
    INFO("message: " << b.error().message);
    CHECK(b.error().field == c.field);
    CHECK_THAT(b.error().message, Catch::Contains(c.says));
    CHECK_THAT(b.error().message, Catch::StartsWith(core::field_name(c.field)));
  }
}

}  // namespace

TEST_CASE("FEN record errors: field count and separators", "[core][fen]") {
  check_errors({
      {"", FenField::Record, "empty record"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", FenField::Record, "expected 6 fields, found 5"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", FenField::Record, "found 7"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", FenField::Record, "found 3"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1", FenField::Record, "exactly one space"},
      {" rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Record, "before the first field"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ", FenField::Record, "trailing white space"},
  });
  core::FenReadOptions four;
  four.fields = core::FenFields::Four;
  check_errors({{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Record, "expected 4 fields"}},
               four);
}

TEST_CASE("FEN piece placement errors", "[core][fen]") {
  check_errors({
      {"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, "found 7 ranks"},
      {"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, "more than 8 ranks"},
      {"rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, "rank 7 describes more than 8"},
      {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, "rank 7 describes 7 squares"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", FenField::Placement, "rank 1 describes 7 squares"},
      {"rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, "'X' is neither a piece letter"},
      {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, "'9' in rank 6"},
      {"rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, "'0' in rank 6"},
      {"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement, "two digits in a row in rank 6"},
      {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", FenField::Placement, "Black has 0 kings"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", FenField::Placement, "White has 2 kings"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w Qkq - 0 1", FenField::Placement, "white pawn on h1"},
      {"4k2P/8/8/8/8/8/8/4K3 w - - 0 1", FenField::Placement, "white pawn on h8"},
      {"4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", FenField::Placement, "9 pawns"},
      {"4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1", FenField::Placement, "promoted pieces"},
      {"4k3/8/8/8/8/NNN5/PPPPPPPP/RNBQKBNR w - - 0 1", FenField::Placement, "19 pieces"},
      {"4k3/8/3N4/1B5Q/8/8/8/4R2K b - - 0 1", FenField::Placement, "4 pieces give check"},
      {"4k3/3P1P2/8/8/8/8/8/4K3 b - - 0 1", FenField::Placement, "two checks by the same kind of leaper"},
  });
}

TEST_CASE("FEN active colour errors", "[core][fen]") {
  check_errors({
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", FenField::SideToMove, "must be 'w' or 'b', found 'x'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", FenField::SideToMove, "found 'W'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", FenField::SideToMove, "found 'white'"},
      // Black's king attacked with White to move: the side to move is wrong, or the position.
      {"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", FenField::SideToMove, "its king on e8 is in check"},
  });
}

TEST_CASE("FEN castling availability errors", "[core][fen]") {
  check_errors({
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", FenField::Castling, "'x' is not a castling letter"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKq - 0 1", FenField::Castling, "given twice"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1", FenField::Castling, "out of order"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", FenField::Castling, "no white rook on h1"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", FenField::Placement, "White has 0 kings"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w K - 0 1", FenField::Castling, "needs the king on e1"},
      {"rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w Q - 0 1", FenField::Castling, "not on its first rank"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - - 0 1", FenField::Record, "found 7"},
  });
}

TEST_CASE("FEN en passant errors", "[core][fen]") {
  check_errors({
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", FenField::EnPassant, "'e9' is neither '-' nor a square"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq E3 0 1", FenField::EnPassant, "'E3'"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", FenField::EnPassant, "must be on rank 3 when Black"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1", FenField::EnPassant, "no white pawn on d4"},
      {"rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", FenField::EnPassant, "occupied"},
  });
}

TEST_CASE("FEN clock errors", "[core][fen]") {
  check_errors({
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", FenField::HalfmoveClock, "not a whole number"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", FenField::HalfmoveClock, "not a whole number"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1", FenField::HalfmoveClock, "too large"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 3 1", FenField::HalfmoveClock, "resets the clock to 0"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", FenField::FullmoveNumber, "at least 1"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 +1", FenField::FullmoveNumber, "not a whole number"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", FenField::FullmoveNumber, "not a whole number"},
  });
}

TEST_CASE("FEN error columns point at the problem", "[core][fen]") {
  auto b = core::parse_fen("rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  REQUIRE_FALSE(b);
  CHECK(b.error().column == 24);  // the 'X'
  b = core::parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 z");
  REQUIRE_FALSE(b);
  CHECK(b.error().column == 56);
  CHECK(core::to_string(b.error()) == "column 56: fullmove number: 'z' is not a whole number");
}

TEST_CASE("Lenient FEN reading notes what it tolerated", "[core][fen]") {
  core::FenReadOptions lenient;
  lenient.lenient = true;
  struct Case {
    const char* fen;
    const char* expect_fen;  // as written back
    FenField field;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq -  0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       FenField::Record, "irregular white space"},
      {"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       FenField::Placement, "two digits in a row"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       FenField::SideToMove, "upper-case 'W'"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w kqKQ - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       FenField::Castling, "out of order"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w Qkq - 0 1",
       FenField::Castling, "right dropped"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
       FenField::EnPassant, "square dropped"},
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 4 1", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 4 1",
       FenField::HalfmoveClock, "resets the clock"},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
       FenField::FullmoveNumber, "read as 1"},
  };
  for (const auto& c : cases) {
    std::vector<core::FenNote> notes;
    auto b = core::parse_fen(c.fen, lenient, &notes);
    INFO(c.fen);
    REQUIRE(b.has_value());
    CHECK(core::to_fen(*b) == c.expect_fen);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].field == c.field);
    CHECK_THAT(notes[0].message, Catch::Contains(c.says));
    // Strict reading rejects every one of them.
    CHECK_FALSE(core::parse_fen(c.fen).has_value());
  }
}

TEST_CASE("FEN round trip of real positions", "[core][fen]") {
  for (const char* fen : {
           "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
           "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
           "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
           "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
           "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - 17 123",
       }) {
    CHECK(core::to_fen(test::board_from(fen)) == fen);
  }
}

TEST_CASE("FEN examples of the standard after 1. e4 c5 2. Nf3", "[core][fen]") {
  core::Board b;
  CHECK(core::to_fen(b) == core::kStartFen);
  test::play(b, "e4");
  CHECK(core::to_fen(b) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  test::play(b, "c5");
  CHECK(core::to_fen(b) == "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2");
  test::play(b, "Nf3");
  CHECK(core::to_fen(b) == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
}

TEST_CASE("FEN en passant written per the standard or only when capturable", "[core][fen]") {
  core::Board b;
  test::play(b, "e4");
  core::FenWriteOptions only;
  only.ep_only_if_capturable = true;
  CHECK(core::to_fen(b, only) == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  // A capturable pawn pinned against its king: en passant is not legal, so not written.
  auto pinned = test::board_from("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
  CHECK_FALSE(pinned.has_legal_ep_capture());
  CHECK(core::to_fen(pinned, only) == "8/8/8/KPp4r/8/8/8/7k w - - 0 1");
  CHECK(core::to_fen(pinned) == "8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
}

TEST_CASE("Chess960 castling in X-FEN and Shredder-FEN", "[core][fen][chess960]") {
  core::FenWriteOptions shredder;
  shredder.castling = core::CastlingNotation::Shredder;
  SECTION("Shredder letters are read as rook files and imply Chess960") {
    auto b = test::board_from("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    CHECK(b.chess960());
    CHECK(b.castling_rook(core::Color::White, core::CastlingSide::King) == core::Square::H1);
    CHECK(b.castling_rook(core::Color::White, core::CastlingSide::Queen) == core::Square::F1);
    CHECK(core::to_fen(b, shredder) == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    // X-FEN: h1 is the outermost king-side rook (K); f1 is queen-side of the king on g1 and the
    // outermost rook there, so it is Q too.
    CHECK(core::to_fen(b) == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
  }
  SECTION("KQkq with the Chess960 option means the outermost rooks") {
    auto b = test::board_from("nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w KQkq - 0 1", true);
    CHECK(b.castling_rook(core::Color::White, core::CastlingSide::King) == core::Square::F1);
    CHECK(b.castling_rook(core::Color::Black, core::CastlingSide::Queen) == core::Square::B8);
    CHECK(core::to_fen(b, shredder) == "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w FBfb - 0 1");
  }
  SECTION("an inner rook is named by its file in X-FEN") {
    // Rooks on a1 and c1 with the king on e1: castling with the c1 rook.
    auto b = test::board_from("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
    CHECK(b.castling_rook(core::Color::White, core::CastlingSide::Queen) == core::Square::C1);
    CHECK(core::to_fen(b) == "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
  }
  SECTION("standard chess refuses Chess960 rights") {
    auto b = core::parse_fen("nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w KQkq - 0 1");
    REQUIRE_FALSE(b);
    CHECK_THAT(b.error().message, Catch::Contains("needs the king on e1"));
  }
}

TEST_CASE("EPD position fields: four fields read and written", "[core][fen]") {
  core::FenReadOptions four;
  four.fields = core::FenFields::Four;
  auto b = core::parse_fen("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -", four);
  REQUIRE(b);
  CHECK(b->halfmove_clock() == 0);
  CHECK(b->fullmove_number() == 1);
  CHECK(core::to_epd_position(*b) == "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -");
}
