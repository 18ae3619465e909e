// SAN as the PGN standard writes it (section 8.2.3), and LAN and UCI beside it.
#include "core_test_support.hpp"

using namespace epdd;

namespace {

// The SAN of a move given in UCI in the position.
std::string san(std::string_view fen, std::string_view uci, bool chess960 = false) {
  const core::Board b = test::board_from(fen, chess960);
  auto m = core::parse_uci(b, uci, chess960 ? core::UciCastling::KingTakesRook : core::UciCastling::Standard);
  INFO(fen << " " << uci << (m ? "" : ": " + m.error().message));
  REQUIRE(m.has_value());
  return core::to_san(b, *m);
}

}  // namespace

TEST_CASE("SAN disambiguation: file, then rank, then both, among legal moves only", "[core][san]") {
  struct Case {
    const char* fen;
    const char* uci;
    const char* san;
  };
  const Case cases[] = {
      // The standard's example: knights on c3 and g1 both reach e2.
      {"4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "c3e2", "Nce2"},
      {"4k3/8/8/8/8/2N5/8/4K1N1 w - - 0 1", "g1e2", "Nge2"},
      // ... and with the c3 knight pinned by a bishop on b4 only one can go: "Ne2".
      {"4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2", "Ne2"},
      // Same file: the rank tells them apart.
      {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
      {"4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3", "R5a3"},
      // Neither file nor rank alone: the whole square.
      {"4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a1b2", "Qa1b2"},
      {"4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "c1b2", "Qcb2"},
      {"4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1", "a3b2", "Q3b2"},
      // Captures keep the disambiguation before the 'x'.
      {"4k3/8/8/3p4/8/2N1N3/8/4K3 w - - 0 1", "c3d5", "Ncxd5"},
      // A check does not replace disambiguation (the standard): both rooks reach e4 and check
      // from there, and the move is still "Rae4+".
      {"4k3/8/8/8/R6R/8/8/4K3 w - - 0 1", "a4e4", "Rae4+"},
      // Pawns: captures name the file, never more.
      {"4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "c4d5", "cxd5"},
      {"4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "e4d5", "exd5"},
      // Kings are never disambiguated.
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1d2", "Kd2"},
  };
  for (const auto& c : cases) CHECK(san(c.fen, c.uci) == c.san);
}

TEST_CASE("SAN of pawn moves, promotions, en passant, castling, checks and mates", "[core][san]") {
  CHECK(san(core::kStartFen, "e2e4") == "e4");
  CHECK(san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6") == "exf6");
  CHECK(san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6") == "exd6");
  CHECK(san("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q") == "e8=Q");
  CHECK(san("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8n") == "e8=N");
  CHECK(san("k4r2/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7f8q") == "exf8=Q+");
  CHECK(san("k4r2/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7f8r") == "exf8=R+");
  CHECK(san("k4r2/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7f8b") == "exf8=B");
  CHECK(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1") == "O-O");
  CHECK(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1") == "O-O-O");
  CHECK(san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8") == "O-O");
  CHECK(san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1") == "O-O+");
  // Fool's mate.
  CHECK(san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", "d8h4") == "Qh4#");
  CHECK(san("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8") == "Ra8#");
  CHECK(san("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a7") == "Ra7");
}

TEST_CASE("SAN of Chess960 castling is O-O / O-O-O whatever the squares", "[core][san][chess960]") {
  // King b1, rooks a1 and h1: O-O-O leaves the king on c1 and puts the rook on d1.
  const char* fen = "4k2r/8/8/8/8/8/8/RK5R w KQk - 0 1";
  CHECK(san(fen, "b1a1", true) == "O-O-O");
  CHECK(san(fen, "b1h1", true) == "O-O");
  // King already on g1 with the rook on h1: castling only moves the rook to f1.
  CHECK(san("4k3/8/8/8/8/8/8/6KR w K - 0 1", "g1h1", true) == "O-O");
}

TEST_CASE("SAN reads back to the same move in every position of a game", "[core][san]") {
  core::Board b;
  test::play(b, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7");
  for (core::Move m : b.legal_moves()) {
    const std::string text = core::to_san(b, m);
    auto back = core::parse_san(b, text);
    INFO(text);
    REQUIRE(back);
    CHECK(back->move == m);
    CHECK(back->leniency == core::Leniency::None);
  }
}

TEST_CASE("Null move is written --", "[core][san]") {
  core::Board b;
  CHECK(core::to_san(b, core::Move::null()) == "--");
  CHECK(core::to_uci(core::Move::null()) == "0000");
}

TEST_CASE("LAN: from square, '-' or 'x', to square", "[core][lan]") {
  auto lan = [](std::string_view fen, std::string_view uci) {
    const core::Board b = test::board_from(fen);
    return core::to_lan(b, *core::parse_uci(b, uci));
  };
  CHECK(lan(core::kStartFen, "e2e4") == "e2-e4");
  CHECK(lan(core::kStartFen, "g1f3") == "Ng1-f3");
  CHECK(lan("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", "f1b5") == "Bf1-b5");
  CHECK(lan("rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e4d5") == "e4xd5");
  CHECK(lan("k4r2/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7f8q") == "e7xf8=Q+");
  CHECK(lan("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1") == "O-O-O");
  CHECK(lan("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6") == "e5xd6");
  CHECK(lan("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", "d8h4") == "Qd8-h4#");
}

TEST_CASE("UCI: castling as the standard king move or as king takes rook", "[core][uci]") {
  const core::Board b = test::board_from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const core::Move oo = *core::parse_uci(b, "e1g1");
  CHECK(oo.kind() == core::MoveKind::Castling);
  CHECK(core::to_uci(oo, core::UciCastling::Standard) == "e1g1");
  CHECK(core::to_uci(oo, core::UciCastling::KingTakesRook) == "e1h1");
  CHECK(*core::parse_uci(b, "e1h1") == oo);
  CHECK(core::to_uci(*core::parse_uci(b, "e1c1"), core::UciCastling::KingTakesRook) == "e1a1");
  const core::Board promo = test::board_from("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
  CHECK(core::to_uci(*core::parse_uci(promo, "e7e8n")) == "e7e8n");
}

TEST_CASE("Locale piece letters of the standard, for writing and reading SAN", "[core][san][locale]") {
  REQUIRE(core::locale_letters().size() == 17);
  const core::PieceLetters* german = core::find_locale("German");
  const core::PieceLetters* french = core::find_locale("french");
  const core::PieceLetters* polish = core::find_locale("POLISH");
  REQUIRE(german);
  REQUIRE(french);
  REQUIRE(polish);
  CHECK(core::find_locale("Klingon") == nullptr);
  CHECK(std::string(german->letters.begin(), german->letters.end()) == "BSLTDK");
  CHECK(std::string(french->letters.begin(), french->letters.end()) == "PCFTDR");
  CHECK(std::string(polish->letters.begin(), polish->letters.end()) == "PSGWHK");
  CHECK(std::string(core::find_locale("Hungarian")->letters.begin(), core::find_locale("Hungarian")->letters.end()) ==
        "GHFBVK");

  core::Board b;
  const core::Move nf3 = *core::parse_uci(b, "g1f3");
  CHECK(core::to_san(b, nf3, *german) == "Sf3");
  CHECK(core::to_san(b, nf3, *french) == "Cf3");
  CHECK(core::to_lan(b, nf3, *german) == "Sg1-f3");
  const core::Board promo = test::board_from("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
  CHECK(core::to_san(promo, *core::parse_uci(promo, "e7e8q"), *german) == "e8=D");
  CHECK(core::to_san(promo, *core::parse_uci(promo, "e7e8q"), *french) == "e8=D");

  core::SanReadOptions read_german;
  read_german.letters = german;
  auto m = core::parse_san(b, "Sf3", read_german);
  REQUIRE(m);
  CHECK(m->move == nf3);
  auto p = core::parse_san(promo, "e8=D+", read_german);
  REQUIRE(p);
  CHECK(p->move.promotion() == core::PieceType::Queen);
  // French: R is the king (roi) and T the rook (tour).
  core::SanReadOptions read_french;
  read_french.letters = french;
  const core::Board castle = test::board_from("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
  CHECK(core::to_san(castle, *core::parse_uci(castle, "e1d1"), *french) == "Rd1");
  CHECK(core::parse_san(castle, "Rd1", read_french)->move == *core::parse_uci(castle, "e1d1"));
  CHECK(core::parse_san(castle, "Td1", read_french)->move == *core::parse_uci(castle, "a1d1"));
}
