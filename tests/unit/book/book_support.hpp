// Helpers of the book tests: positions after SAN lines, and PGN read with its errors shown.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/notation.hpp"
#include "pgn/reader.hpp"

namespace epdd::test {

// The position after a line of SAN moves from the start.
inline core::Board after(std::initializer_list<const char*> sans) {
  core::Board b;
  for (const char* san : sans) {
    auto m = core::parse_san(b, san);
    REQUIRE(m);
    b.make_move(m->move);
  }
  return b;
}

// The games of a PGN text, which must read without errors (those are shown when it does not).
inline std::vector<pgn::Game> games_of(std::string_view text) {
  pgn::Diagnostics diags;
  auto games = pgn::read_games(text, diags);
  std::string errors;
  for (const auto& d : diags.items()) errors += std::to_string(d.line) + ": " + d.message + "\n";
  INFO(errors);
  REQUIRE(diags.count(pgn::Severity::Error) == 0);
  return games;
}

}  // namespace epdd::test
