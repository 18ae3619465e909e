// Helpers of the book tests: positions after SAN lines, and PGN read with its errors shown.
#pragma once

#include <catch2/catch.hpp>

#include <initializer_list>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/fen.hpp"
#include "core/move.hpp"
#include "core/notation.hpp"
#include "pgn/reader.hpp"

namespace epdd::test {

// A node's best moves (book::NodeValue::best_moves) as a list, to compare.
inline std::vector<core::Move> listed(std::span<const core::Move> moves) { return {moves.begin(), moves.end()}; }

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

// The four EPD fields of a position, cut from core's FEN here, the en passant square kept only
// when the side to move has an en passant capture among its legal moves (the standard FEN writer
// writes it after every double push): the book's identity of a position, independently.
inline std::string four_fields(const core::Board& board,
                               core::CastlingNotation notation = core::CastlingNotation::Auto) {
  core::FenWriteOptions o;
  o.castling = notation;
  std::istringstream in(core::to_fen(board, o));
  std::string placement, side, castling, ep;
  in >> placement >> side >> castling >> ep;
  bool capture = false;
  for (core::Move m : board.legal_moves()) capture = capture || m.kind() == core::MoveKind::EnPassant;
  return placement + ' ' + side + ' ' + castling + ' ' + (capture ? ep : "-");
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
