// SAN/LAN/UCI move text: the first byte picks one of a few fixed positions (castling both ways,
// en passant, promotions, ambiguous knights and rooks, check and mate, Chess960), the rest is
// read leniently with parse_san and, as UCI, with parse_uci; property: a move read is legal,
// and its SAN (and LAN, and UCI) written and read again gives the same move.
#include <array>
#include <cstdint>
#include <string>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "fuzz_check.hpp"

using namespace epdd;

namespace {

struct Position {
  const char* fen;
  bool chess960;
};

constexpr std::array<Position, 8> kPositions{{
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},  // kiwipete
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},      // promotions
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},          // en passant
    {"1k6/8/8/8/8/8/8/R3K2R w KQ - 0 1", false},                                      // two rooks, castling
    {"7k/8/8/8/2N3N1/8/2N3N1/K7 w - - 0 1", false},                                   // four knights
    {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", false},                                     // back-rank mate
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},      // Chess960
}};

void check_move(const core::Board& board, core::Move move, std::string_view input) {
  fuzz::require(board.is_legal(move), "a move read is not legal", input, core::to_uci(move));
  const std::string san = core::to_san(board, move);
  const auto again = core::parse_san(board, san);
  fuzz::require(again.has_value(), "SAN written does not read back", input, san);
  fuzz::require(again->move == move, "SAN written reads back to another move", san, core::to_san(board, again->move));
  fuzz::require(again->leniency == core::Leniency::None, "SAN written needs leniency to read", san,
                core::describe(again->leniency));
  const std::string lan = core::to_lan(board, move);
  const auto lan_again = core::parse_san(board, lan);
  fuzz::require(lan_again && lan_again->move == move, "LAN written does not read back to the move", input, lan);
  const std::string uci = core::to_uci(move, core::uci_castling_for(board));
  const auto uci_again = core::parse_uci(board, uci, core::uci_castling_for(board));
  fuzz::require(uci_again && *uci_again == move, "UCI written does not read back to the move", input, uci);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const Position& p = kPositions[data[0] % kPositions.size()];
  const auto board = core::parse_fen(p.fen, {.chess960 = p.chess960});
  fuzz::require(board.has_value(), "a fixed position does not parse", p.fen);
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  if (const auto parsed = core::parse_san(*board, text)) check_move(*board, parsed->move, text);
  if (const auto uci = core::parse_uci(*board, text, core::uci_castling_for(*board))) check_move(*board, *uci, text);
  return 0;
}
