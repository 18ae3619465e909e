// Lenient SAN reading: every form real files use is accepted and reported; illegal and
// ambiguous moves are errors that say why and list the candidates.
#include "core_test_support.hpp"

using namespace epdd;
using core::Leniency;

namespace {

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* kCastle = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
constexpr const char* kPromote = "8/4P3/8/8/8/8/k7/4K3 w - - 0 1";
constexpr const char* kEnPassant = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3";
constexpr const char* kFoolsMate = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2";
constexpr const char* kCapture = "rnbqkb1r/pppppppp/5n2/4N3/8/8/PPPPPPPP/RNBQKB1R w KQkq - 0 1";
constexpr const char* kTwoKnights = "4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1";

struct LenientCase {
  const char* fen;
  const char* text;
  const char* san;         // the move it names, canonical
  Leniency leniency;       // exactly what is reported
  const char* annotation;  // split-off suffix annotation
};

}  // namespace

TEST_CASE("Lenient SAN forms are accepted and reported", "[core][san]") {
  const LenientCase cases[] = {
      {kStart, "Nf3", "Nf3", Leniency::None, ""},
      {kCastle, "0-0", "O-O", Leniency::ZeroCastling, ""},
      {kCastle, "0-0-0", "O-O-O", Leniency::ZeroCastling, ""},
      {kStart, "Nf3+", "Nf3", Leniency::SuperfluousCheck, ""},
      {kStart, "Nf3#", "Nf3", Leniency::SuperfluousCheck, ""},
      {kFoolsMate, "Qh4", "Qh4#", Leniency::MissingCheck, ""},
      {kFoolsMate, "Qh4+", "Qh4#", Leniency::WrongCheckKind, ""},
      {kFoolsMate, "Qh4++", "Qh4#", Leniency::DoubleCheckMark, ""},
      {"6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "Ra8+", "Ra8#", Leniency::WrongCheckKind, ""},
      {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "Ra8#", "Ra8+", Leniency::WrongCheckKind, ""},
      {kStart, "Nxf3", "Nf3", Leniency::SuperfluousCapture, ""},
      {kCapture, "Nf7", "Nxf7", Leniency::MissingCapture, ""},
      {kEnPassant, "ed6", "exd6", Leniency::MissingCapture, ""},
      {kEnPassant, "exd6e.p.", "exd6", Leniency::EnPassantSuffix, ""},
      {kEnPassant, "exd6ep", "exd6", Leniency::EnPassantSuffix, ""},
      {"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "xd5", "exd5", Leniency::PawnCaptureWithoutFile, ""},
      {kPromote, "e8Q", "e8=Q", Leniency::PromotionForm, ""},
      {kPromote, "e8=q", "e8=Q", Leniency::LowercasePromotion, ""},
      {kPromote, "e8q", "e8=Q", Leniency::PromotionForm | Leniency::LowercasePromotion, ""},
      {kPromote, "e8(Q)", "e8=Q", Leniency::PromotionForm, ""},
      {kPromote, "e8/N", "e8=N", Leniency::PromotionForm, ""},
      {kStart, "Ng1-f3", "Nf3", Leniency::LongAlgebraic, ""},
      {kStart, "Ng1f3", "Nf3", Leniency::LongAlgebraic, ""},
      {kStart, "e2-e4", "e4", Leniency::LongAlgebraic, ""},
      {kStart, "e2xe4", "e4", Leniency::LongAlgebraic | Leniency::SuperfluousCapture, ""},
      {kCapture, "Ne5xf7", "Nxf7", Leniency::LongAlgebraic, ""},
      // Found by tests/fuzz/san_fuzz: with knights on c2, c4, g2 and g4, the standard itself
      // names the square (Ng2e3): that is SAN, not long algebraic; Ng2-e3 is.
      {"7k/8/8/8/2N3N1/8/2N3N1/K7 w - - 0 1", "Ng2e3", "Ng2e3", Leniency::None, ""},
      {"7k/8/8/8/2N3N1/8/2N3N1/K7 w - - 0 1", "Ng2-e3", "Ng2e3", Leniency::LongAlgebraic, ""},
      {kPromote, "e7-e8=Q", "e8=Q", Leniency::LongAlgebraic, ""},
      {kPromote, "e7e8Q", "e8=Q", Leniency::LongAlgebraic | Leniency::PromotionForm, ""},
      {kStart, "e2e4", "e4", Leniency::Uci, ""},
      {kStart, "g1f3", "Nf3", Leniency::Uci, ""},
      {kCapture, "e5f7", "Nxf7", Leniency::Uci, ""},
      {kPromote, "e7e8q", "e8=Q", Leniency::Uci, ""},
      {kCastle, "e1g1", "O-O", Leniency::Uci, ""},
      {kCastle, "e1c1", "O-O-O", Leniency::Uci, ""},
      {kCastle, "e1h1", "O-O", Leniency::Uci, ""},
      {kStart, "Pe4", "e4", Leniency::PawnLetter, ""},
      {kTwoKnights, "Nbd2", "Nd2", Leniency::NonstandardDisambiguation, ""},
      {"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "N1d2", "Nbd2", Leniency::NonstandardDisambiguation, ""},
      {"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "Nb1d2", "Nbd2", Leniency::LongAlgebraic, ""},
      {kStart, "e4!", "e4", Leniency::None, "!"},
      {kStart, "e4?", "e4", Leniency::None, "?"},
      {kStart, "e4!!", "e4", Leniency::None, "!!"},
      {kStart, "e4!?", "e4", Leniency::None, "!?"},
      {kStart, "e4?!", "e4", Leniency::None, "?!"},
      {kStart, "e4??", "e4", Leniency::None, "??"},
      {kFoolsMate, "Qh4#!", "Qh4#", Leniency::None, "!"},
      {kFoolsMate, "Qh4!#", "Qh4#", Leniency::None, "!"},
      {kStart, " Nf3 ", "Nf3", Leniency::None, ""},
  };
  for (const auto& c : cases) {
    const core::Board b = test::board_from(c.fen);
    auto m = core::parse_san(b, c.text);
    INFO("'" << c.text << "' in " << c.fen << (m ? "" : " -> " + m.error().message));
    REQUIRE(m.has_value());
    CHECK(core::to_san(b, m->move) == c.san);
    INFO("reported: " << core::describe(m->leniency));
    CHECK(m->leniency == c.leniency);
    CHECK(m->annotation == c.annotation);
  }
}

TEST_CASE("Chess960 castling in UCI is read in both forms", "[core][san][chess960]") {
  const core::Board b = test::board_from("4k2r/8/8/8/8/8/8/RK5R w KQk - 0 1", true);
  // King takes own rook: always castling.
  auto ooo = core::parse_san(b, "b1a1");
  REQUIRE(ooo);
  CHECK(core::to_san(b, ooo->move) == "O-O-O");
  // b1c1 is both a plain king step and the king's castling square: the UCI reader decides by
  // the engine's castling form.
  CHECK(core::parse_uci(b, "b1c1", core::UciCastling::KingTakesRook)->kind() == core::MoveKind::Normal);
  CHECK(core::parse_uci(b, "b1c1", core::UciCastling::Standard)->kind() == core::MoveKind::Castling);
}

TEST_CASE("Null moves only when asked for", "[core][san]") {
  const core::Board b = test::board_from(kStart);
  core::SanReadOptions allow;
  allow.allow_null = true;
  for (const char* text : {"--", "Z0", "0000"}) {
    INFO(text);
    auto m = core::parse_san(b, text, allow);
    REQUIRE(m);
    CHECK(m->move.is_null());
    CHECK(m->leniency == Leniency::NullMove);
    auto refused = core::parse_san(b, text);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().kind == core::MoveErrorKind::Syntax);
  }
  const core::Board check = test::board_from("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
  auto in_check = core::parse_san(check, "--", allow);
  REQUIRE_FALSE(in_check);
  CHECK_THAT(in_check.error().message, Catch::Contains("in check"));
}

TEST_CASE("Check marks are not verified when the caller does not ask", "[core][san]") {
  core::SanReadOptions fast;
  fast.verify_check_marks = false;
  const core::Board b = test::board_from(kFoolsMate);
  auto m = core::parse_san(b, "Qh4", fast);
  REQUIRE(m);
  CHECK(m->leniency == Leniency::None);
}

TEST_CASE("Move errors say why and list the candidates", "[core][san]") {
  struct ErrorCase {
    const char* fen;
    const char* text;
    core::MoveErrorKind kind;
    const char* says;
    std::vector<std::string> candidates;
  };
  const ErrorCase cases[] = {
      {kTwoKnights, "Nd3", core::MoveErrorKind::Illegal, "no white knight can move to d3",
       {"Nd2", "Na3", "Nc3", "Ne2", "Nf3", "Nh3"}},
      {"4k3/8/8/8/1b6/2N5/8/4K3 w - - 0 1", "Ne2", core::MoveErrorKind::Illegal,
       "the knight on c3 is pinned to its king", {}},
      {"4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "Kd1", core::MoveErrorKind::Illegal,
       "White is in check and this does not answer it", {"Kd2", "Ke2", "Kf2"}},
      {"4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "Kd1", core::MoveErrorKind::Illegal,
       "the king would be in check on d1", {"Kf1", "Kxd2"}},
      {kStart, "Bb5", core::MoveErrorKind::Illegal, "no white bishop can move to b5", {}},
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "Qh5", core::MoveErrorKind::Illegal, "White has no queen", {}},
      {kStart, "Nd2", core::MoveErrorKind::Illegal, "d2 is occupied by a white pawn", {}},
      {kStart, "e5", core::MoveErrorKind::Illegal, "no white pawn can move to e5", {}},
      {kStart, "exd3", core::MoveErrorKind::Illegal, "no white pawn can move to d3", {}},
      {kPromote, "e8", core::MoveErrorKind::Illegal, "names no promotion piece", {}},
      {kStart, "e4=Q", core::MoveErrorKind::Illegal, "does not promote", {}},
      {kPromote, "e8=K", core::MoveErrorKind::Syntax, "'K' is not a promotion piece", {}},
      {kStart, "O-O", core::MoveErrorKind::Illegal, "f1 is occupied", {}},
      {"4k3/8/8/8/8/8/8/4K2R w - - 0 1", "O-O", core::MoveErrorKind::Illegal,
       "White has no king-side castling right", {}},
      {"4k3/8/8/8/8/8/8/r3K2R w K - 0 1", "O-O", core::MoveErrorKind::Illegal, "White is in check", {}},
      {"4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", "O-O", core::MoveErrorKind::Illegal,
       "attacked square", {}},
      {kStart, "hello", core::MoveErrorKind::Syntax, "is not a move", {}},
      {kStart, "Nz9", core::MoveErrorKind::Syntax, "is not a move", {}},
      {kStart, "", core::MoveErrorKind::Syntax, "empty move", {}},
      {kStart, "N-f3", core::MoveErrorKind::Syntax, "'-' only follows a complete from square", {}},
      {kStart, "Xf3", core::MoveErrorKind::Syntax, "'X' is not a piece letter", {}},
  };
  for (const auto& c : cases) {
    const core::Board b = test::board_from(c.fen);
    auto m = core::parse_san(b, c.text);
    INFO("'" << c.text << "' in " << c.fen);
    REQUIRE_FALSE(m.has_value());
    INFO("message: " << m.error().message);
    CHECK(m.error().kind == c.kind);
    CHECK_THAT(m.error().message, Catch::Contains(c.says));
    if (!c.candidates.empty()) CHECK(m.error().candidates == c.candidates);
  }
}

TEST_CASE("An ambiguous move lists every move that fits", "[core][san]") {
  const core::Board b = test::board_from("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
  auto m = core::parse_san(b, "Nd2");
  REQUIRE_FALSE(m);
  CHECK(m.error().kind == core::MoveErrorKind::Ambiguous);
  CHECK(m.error().candidates == std::vector<std::string>{"Nbd2", "Nfd2"});
  CHECK(m.error().message == "'Nd2' is ambiguous: Nbd2, Nfd2 all fit");
}

TEST_CASE("UCI reading errors", "[core][uci]") {
  const core::Board b = test::board_from(kStart);
  auto bad = core::parse_uci(b, "e2e9");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().kind == core::MoveErrorKind::Syntax);
  auto illegal = core::parse_uci(b, "e2e5");
  REQUIRE_FALSE(illegal);
  CHECK(illegal.error().kind == core::MoveErrorKind::Illegal);
  CHECK(illegal.error().candidates == std::vector<std::string>{"e2e3", "e2e4"});
  CHECK_THAT(core::parse_uci(b, "e7e5").error().message, Catch::Contains("it is White's move"));
  CHECK_THAT(core::parse_uci(b, "e4e5").error().message, Catch::Contains("e4 is empty"));
  const core::Board promo = test::board_from(kPromote);
  CHECK_THAT(core::parse_uci(promo, "e7e8").error().message, Catch::Contains("needs its piece"));
  CHECK(core::parse_uci(promo, "e7e8k").error().kind == core::MoveErrorKind::Syntax);
}

TEST_CASE("Leniency flags are described in words", "[core][san]") {
  CHECK(core::describe(Leniency::None).empty());
  CHECK(core::describe(Leniency::ZeroCastling | Leniency::MissingCapture) ==
        "castling written with zeros (0-0), capture without 'x'");
}
