// English descriptive notation: squares from the mover's side, the least precise designation
// that names exactly one legal move.
#include <sstream>

#include "core_test_support.hpp"

using namespace epdd;

TEST_CASE("Descriptive notation of a whole opening", "[core][descriptive]") {
  // Ruy Lopez, exchange variation: SAN in, descriptive out, move by move.
  const std::pair<const char*, const char*> moves[] = {
      {"e4", "P-K4"},   {"e5", "P-K4"},   {"Nf3", "N-KB3"}, {"Nc6", "N-QB3"}, {"Bb5", "B-N5"},
      {"a6", "P-QR3"},  {"Bxc6", "BxN"},  {"dxc6", "QPxB"}, {"O-O", "O-O"},   {"f6", "P-B3"},
      {"d4", "P-Q4"},   {"exd4", "PxP"},  {"Nxd4", "NxP"},  {"c5", "P-QB4"},  {"Nb3", "N-N3"},
      {"Qxd1", "QxQ"},  {"Rxd1", "RxQ"},
  };
  core::Board b;
  for (auto [san, descriptive] : moves) {
    auto m = core::parse_san(b, san);
    REQUIRE(m);
    INFO(san << " in " << core::to_fen(b));
    CHECK(core::to_descriptive(b, m->move) == descriptive);
    b.make_move(m->move);
  }
}

TEST_CASE("Descriptive notation of special moves", "[core][descriptive]") {
  auto desc = [](std::string_view fen, std::string_view uci) {
    const core::Board b = test::board_from(fen);
    return core::to_descriptive(b, *core::parse_uci(b, uci));
  };
  CHECK(desc("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", "e5d6") == "PxP e.p.");
  CHECK(desc("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q") == "P-K8=Q");
  CHECK(desc("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8") == "R-R8ch");
  CHECK(desc("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2", "d8h4") == "Q-R5 mate");
  CHECK(desc("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1") == "O-O-O");
  // Two rooks reach Q1: the one on the queen's wing is QR, the other KR.
  CHECK(desc("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "a1d1") == "QR-Q1");
  CHECK(desc("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "f1d1") == "KR-Q1");
  // Two pawns can take a pawn: the taker is named by its file.
  CHECK(desc("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "c4d5") == "BPxP");
  CHECK(desc("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1", "e4d5") == "KPxP");
  // One pawn can take two pawns: the taken one is named by its file.
  CHECK(desc("4k3/8/8/2p1p3/3P4/8/8/4K3 w - - 0 1", "d4c5") == "PxBP");
  CHECK(desc("4k3/8/8/2p1p3/3P4/8/8/4K3 w - - 0 1", "d4e5") == "PxKP");
}
