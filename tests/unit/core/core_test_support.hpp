// Shortcuts for core tests.
#pragma once

#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "core/fen.hpp"
#include "core/notation.hpp"

namespace epdd::test {

// The position of a FEN (or EPD's four fields) that must be valid.
inline core::Board board_from(std::string_view fen, bool chess960 = false) {
  core::FenReadOptions o;
  o.fields = core::FenFields::FourOrSix;
  o.chess960 = chess960;
  auto b = core::parse_fen(fen, o);
  INFO("FEN: " << fen << (b ? "" : " -> " + b.error().message));
  REQUIRE(b.has_value());
  return *b;
}

// Plays SAN moves (space-separated) that must be legal and canonical.
inline void play(core::Board& board, std::string_view moves) {
  std::size_t i = 0;
  while (i < moves.size()) {
    const std::size_t end = std::min(moves.find(' ', i), moves.size());
    const std::string_view san = moves.substr(i, end - i);
    i = end + 1;
    if (san.empty()) continue;
    auto m = core::parse_san(board, san);
    INFO("move " << san << " in " << core::to_fen(board) << (m ? "" : ": " + m.error().message));
    REQUIRE(m.has_value());
    board.make_move(m->move);
  }
}

}  // namespace epdd::test
