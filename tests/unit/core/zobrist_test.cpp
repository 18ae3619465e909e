// The Polyglot book format's published key vectors.
#include <cstdio>

#include "core_test_support.hpp"

using namespace epdd;

namespace {

std::uint64_t key_after(std::string_view uci_moves) {
  core::Board b;
  std::size_t i = 0;
  while (i < uci_moves.size()) {
    const std::size_t end = std::min(uci_moves.find(' ', i), uci_moves.size());
    auto m = core::parse_uci(b, uci_moves.substr(i, end - i));
    REQUIRE(m);
    b.make_move(*m);
    i = end + 1;
  }
  return b.polyglot_key();
}

}  // namespace

TEST_CASE("Polyglot keys match the specification's test vectors", "[core][zobrist]") {
  CHECK(key_after("") == 0x463b96181691fc9cULL);
  CHECK(key_after("e2e4") == 0x823c9b50fd114196ULL);
  CHECK(key_after("e2e4 d7d5") == 0x0756b94461c50fb0ULL);
  CHECK(key_after("e2e4 d7d5 e4e5") == 0x662fafb965db29d4ULL);
  CHECK(key_after("e2e4 d7d5 e4e5 f7f5") == 0x22a48b5a8e47ff78ULL);
  CHECK(key_after("e2e4 d7d5 e4e5 f7f5 e1e2") == 0x652a607ca3f242c1ULL);
  CHECK(key_after("e2e4 d7d5 e4e5 f7f5 e1e2 e8f7") == 0x00fdd303c946bdd9ULL);
  CHECK(key_after("a2a4 b7b5 h2h4 b5b4 c2c4") == 0x3c8123ea7b067637ULL);
  CHECK(key_after("a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3") == 0x5c3f9b829b279560ULL);
}

TEST_CASE("Polyglot keys from FEN equal the keys reached by moves", "[core][zobrist]") {
  CHECK(test::board_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").polyglot_key() ==
        0x823c9b50fd114196ULL);
  CHECK(test::board_from("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").polyglot_key() ==
        0x22a48b5a8e47ff78ULL);
  CHECK(test::board_from("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4").polyglot_key() ==
        0x00fdd303c946bdd9ULL);
  CHECK(test::board_from("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3").polyglot_key() ==
        0x3c8123ea7b067637ULL);
  CHECK(test::board_from("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4").polyglot_key() ==
        0x5c3f9b829b279560ULL);
}

TEST_CASE("En passant enters the Polyglot key only with a pawn beside, the repetition key only when legal",
          "[core][zobrist]") {
  // e3 is the en passant square but no black pawn stands on d4 or f4.
  const auto no_taker = test::board_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  const auto no_ep = test::board_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  CHECK(no_taker.polyglot_key() == no_ep.polyglot_key());
  CHECK(no_taker.repetition_key() == no_ep.repetition_key());
  // A taker beside that may not take (pinned along the rank): Polyglot counts it, FIDE does not.
  const auto pinned = test::board_from("8/8/8/KPp4r/8/8/8/7k w - c6 0 1");
  const auto pinned_no_ep = test::board_from("8/8/8/KPp4r/8/8/8/7k w - - 0 1");
  CHECK(pinned.polyglot_key() != pinned_no_ep.polyglot_key());
  CHECK(pinned.repetition_key() == pinned_no_ep.repetition_key());
}
