// The fixed positions san_fuzz reads moves in (the input's first byte picks one), shared with
// the seed maker that writes each position's legal moves as seeds.
#pragma once

#include <array>

namespace epdd::fuzz {

struct SanPosition {
  const char* fen;
  bool chess960;
};

constexpr std::array<SanPosition, 8> kSanPositions{{
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},  // kiwipete
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},      // promotions
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},          // en passant
    {"1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1", false},                                      // two rooks, castling
    {"7k/8/8/8/2N3N1/8/2N3N1/K7 w - - 0 1", false},                                   // four knights
    {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false},                                     // back-rank mate
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},      // Chess960
}};

}  // namespace epdd::fuzz
