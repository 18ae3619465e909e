// FEN: any bytes read strictly and leniently (six fields, four or six, standard and Chess960);
// property: a board read writes (to_fen) to a FEN that strict reading reads back to the same
// board, and that FEN is a fixed point of writing.
#include <cstdint>
#include <string>

#include "core/fen.hpp"
#include "fuzz_check.hpp"

using namespace epdd;

namespace {

void check_round_trip(const core::Board& board) {
  const std::string fen = core::to_fen(board);
  const auto again = core::parse_fen(fen, {.fields = core::FenFields::Six, .chess960 = board.chess960()});
  fuzz::require(again.has_value(), "to_fen of a board read does not parse strictly", fen,
                again ? std::string() : core::to_string(again.error()));
  fuzz::require(*again == board, "to_fen then parse_fen gives another board", fen, core::to_fen(*again));
  fuzz::require(core::to_fen(*again) == fen, "to_fen is not a fixed point", fen, core::to_fen(*again));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  for (const bool lenient : {false, true})
    for (const bool chess960 : {false, true}) {
      std::vector<core::FenNote> notes;
      const auto board = core::parse_fen(text, {.fields = core::FenFields::FourOrSix, .chess960 = chess960,
                                                .lenient = lenient},
                                         &notes);
      if (board) check_round_trip(*board);
      if (!lenient) fuzz::require(notes.empty(), "strict reading made lenient notes");
    }
  return 0;
}
