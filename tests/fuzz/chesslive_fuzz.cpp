// ChessLive! move files: any bytes through read_chesslive; property: a game read writes
// (lossy) to a move file that reads back to the same moves.
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "pgn/chesslive.hpp"
#include "pgn/writer.hpp"

using namespace epdd;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto game = pgn::read_chesslive(fuzz::as_text(data, size));
  if (!game) return 0;
  const auto written = pgn::write_chesslive(*game, {.santags = true, .lossy = true});
  fuzz::require(written.has_value(), "a game read from a move file cannot be written", pgn::export_game(*game),
                written ? std::string() : pgn::to_string(written.error()));
  const auto again = pgn::read_chesslive(*written);
  fuzz::require(again.has_value(), "a move file written does not read back", *written,
                again ? std::string() : pgn::to_string(again.error()));
  fuzz::require(again->mainline() == game->mainline(), "a move file written reads back to other moves", *written,
                pgn::export_game(*again));
  // Not checked: that writing is a fixed point. A White name that starts with the bytes of a
  // byte-order mark is written first in the file, and read again the mark is set aside.
  return 0;
}
