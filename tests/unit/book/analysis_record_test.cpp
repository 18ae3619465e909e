// book::import_analyses: the reader of analysis records that annotate --import uses (book's own
// --import reads its leaves with the same value_of_record; leaf_import_test.cpp).
#include <catch2/catch.hpp>

#include "book/analysis_record.hpp"
#include "core/board.hpp"

using namespace epdd;

namespace {
core::Score cp(int v) { return core::Score::centipawns(v); }
}  // namespace

TEST_CASE("import_analyses: EPD records by position, their errors with file and line", "[book][import]") {
  const std::string text =
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ce -35; acd 20; pv e5 Nf3;\n"
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ce 20;\n"
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ce 25; acd 9; pv d4 Ke2;\n"  // a later record wins
      "8/8/8/8/8/8/8/8 w - - ce 1;\n"
      "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - acd 3;\n";
  const auto r = book::import_analyses(text, "a.epd");
  CHECK(r.records == 5);
  REQUIRE(r.by_key.size() == 2);
  const core::Board start;
  const auto& s = r.by_key.at(start.polyglot_key());
  CHECK(s.lines.at(0).score == cp(25));
  CHECK(s.depth == 9);
  CHECK(s.lines[0].pv == std::vector<std::string>{"d2d4"});  // cut at Ke2, said in a note
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].rfind("a.epd:3: pv cut at \"Ke2\"", 0) == 0);
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0].rfind("a.epd:4: not a legal position", 0) == 0);
  CHECK(r.errors[1] == "a.epd:5: no ce: a record needs its value");
}

