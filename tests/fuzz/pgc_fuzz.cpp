// PGC: any bytes through PgcReader; property: every game read writes to PGC (lossy: nothing a
// game read from PGC holds is beyond PGC, so nothing may be refused) and reads back as one game
// with the same tree.
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "pgn/pgc.hpp"
#include "pgn/writer.hpp"

using namespace epdd;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pgn::PgcReader reader(fuzz::as_text(data, size));
  pgn::Game game;
  for (;;) {
    const auto more = reader.next(game);
    if (!more || !*more) break;
    std::string bytes;
    const auto written = pgn::append_pgc(bytes, game, {.lossy = true});
    fuzz::require(written.has_value(), "a game read from PGC cannot be written to PGC", pgn::export_game(game),
                  written ? std::string() : pgn::to_string(written.error()));
    const auto again = pgn::read_pgc(bytes);
    fuzz::require(again.has_value(), "PGC written does not read back", pgn::export_game(game),
                  again ? std::string() : pgn::to_string(again.error()));
    fuzz::require(again->size() == 1, "PGC written reads back as another number of games", pgn::export_game(game));
    fuzz::require((*again)[0].same_tree(game), "PGC written reads back to another tree", pgn::export_game(game),
                  pgn::export_game((*again)[0]));
  }
  return 0;
}
