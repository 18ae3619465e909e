// SAN/LAN/UCI move text: the first byte picks one of a few fixed positions (castling both ways,
// en passant, promotions, ambiguous knights and rooks, check and mate, Chess960), the rest is
// read leniently with parse_san and, as UCI, with parse_uci; property: a move read is legal,
// and its SAN (and LAN, and UCI) written and read again gives the same move.
#include <cstdint>
#include <string>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "fuzz_check.hpp"
#include "san_positions.hpp"

using namespace epdd;

namespace {


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
  const fuzz::SanPosition& p = fuzz::kSanPositions[data[0] % fuzz::kSanPositions.size()];
  const auto board = core::parse_fen(p.fen, {.chess960 = p.chess960});
  fuzz::require(board.has_value(), "a fixed position does not parse", p.fen);
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  if (const auto parsed = core::parse_san(*board, text)) check_move(*board, parsed->move, text);
  if (const auto uci = core::parse_uci(*board, text, core::uci_castling_for(*board))) check_move(*board, *uci, text);
  return 0;
}
