// PGN import: any bytes through the lax GameReader (lexer, reader, replay); property: every
// game read exports (strict export format) to text that re-imports to one game with the same
// tree, with no error when the game was read without one, and that export is a fixed point.
// (A game read with an error may keep what export writes as read: a tag named "8:" is kept,
// with its error, and written back.)
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
  for (std::size_t errors = 0; reader.next(game); errors = diags.count(pgn::Severity::Error)) {
    const bool read_clean = diags.count(pgn::Severity::Error) == errors;
    const std::string exported = pgn::export_game(game);
    pgn::Diagnostics again_diags;
    const auto again = pgn::read_games(exported, again_diags);
    fuzz::require(!read_clean || again_diags.count(pgn::Severity::Error) == 0, "exported game re-imports with an error", exported);
    fuzz::require(again.size() == 1, "exported game re-imports as another number of games", exported);
    fuzz::require(again[0].same_tree(game), "exported game re-imports to another tree", exported,
                  pgn::export_game(again[0]));
    fuzz::require(pgn::export_game(again[0]) == exported, "export is not a fixed point", exported,
                  pgn::export_game(again[0]));
  }
  return 0;
}
