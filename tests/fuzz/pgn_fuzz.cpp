// PGN import: any bytes through the lax GameReader (lexer, reader, replay); property: every
// game read exports (strict export format) to text that re-imports, with no error, to one game
// with the same tree, and that export is a fixed point.
#include <cstdint>
#include <string>

#include "fuzz_check.hpp"
#include "pgn/reader.hpp"
#include "pgn/writer.hpp"

using namespace epdd;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pgn::Diagnostics diags;
  pgn::GameReader reader(fuzz::as_text(data, size), diags);
  pgn::Game game;
  while (reader.next(game)) {
    const std::string exported = pgn::export_game(game);
    pgn::Diagnostics again_diags;
    const auto again = pgn::read_games(exported, again_diags);
    fuzz::require(again_diags.count(pgn::Severity::Error) == 0, "exported game re-imports with an error", exported);
    fuzz::require(again.size() == 1, "exported game re-imports as another number of games", exported);
    fuzz::require(again[0].same_tree(game), "exported game re-imports to another tree", exported,
                  pgn::export_game(again[0]));
    fuzz::require(pgn::export_game(again[0]) == exported, "export is not a fixed point", exported,
                  pgn::export_game(again[0]));
  }
  return 0;
}
