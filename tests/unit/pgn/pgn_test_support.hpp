// Shortcuts for PGN tests.
#pragma once

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "core/notation.hpp"
#include "pgn/reader.hpp"
#include "pgn/writer.hpp"

namespace epdd::test {

// A file of the shared PGN data (../shared/data/pgn), whole.
inline std::string shared_file(const std::string& name) {
  std::ifstream in(std::string(EPDD_SHARED_DATA) + "/pgn/" + name, std::ios::binary);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::map<std::string, std::size_t> count_kinds(const pgn::Diagnostics& d) {
  std::map<std::string, std::size_t> counts;
  for (const auto& item : d.items()) ++counts[pgn::name(item.problem)];
  return counts;
}

// The SAN of a line of play from a position, space-separated.
inline std::string san_line(core::Board board, const pgn::Variation& v) {
  std::string out;
  for (const auto& node : v.moves) {
    if (!out.empty()) out += ' ';
    out += node.move.is_null() ? "--" : core::to_san(board, node.move);
    if (node.move.is_null()) board.make_null_move();
    else board.make_move(node.move);
  }
  return out;
}

struct ReadResult {
  std::vector<pgn::Game> games;
  pgn::Diagnostics diags;
};

inline ReadResult read(std::string_view text) {
  ReadResult r;
  r.games = pgn::read_games(text, r.diags);
  return r;
}

inline std::string messages(const pgn::Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items())
    out += "\n  " + std::string(pgn::name(item.problem)) + " g" + std::to_string(item.game) + " " +
           std::to_string(item.line) + ":" + std::to_string(item.column) + ": " + item.message;
  return out;
}

}  // namespace epdd::test
