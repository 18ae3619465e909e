// Helpers of the suites tests: records read as the workflows read them, their boards, and
// analyses built by hand the way uci::SearchRecord fills them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "epd/check.hpp"
#include "epd/record.hpp"
#include "test_support.hpp"
#include "uci/analysis.hpp"

namespace epdd::suites::test {

// After 1.e4 e5 2.Nf3 Nc6, White to move.
inline const std::string kTwoKnights = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq -";
// Black mates in 1: 1...Qh4# (Fool's mate).
inline const std::string kFoolsMate = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq -";

// White mates in 2 (1.Qf6): the four fields of the first record of the shared mate_in_2.epd,
// read in place (shared data is never copied into the repository). Called inside test cases.
inline std::string mate_in_2() {
  const std::string text = epdd::test::read_file(epdd::test::shared_data("suites/mate_in_2.epd"));
  std::string out;
  std::size_t pos = 0;
  for (int field = 0; field < 4; ++field) {
    const std::size_t end = text.find(' ', pos);
    REQUIRE(end != std::string::npos);
    out += (field ? " " : "") + text.substr(pos, end - pos);
    pos = end + 1;
  }
  return out;
}

// One EPD line read as a record; the line must be one.
inline epd::EpdRecord record(std::string line) {
  epd::Diagnostics diags;
  auto r = epd::EpdRecord::parse(std::move(line), 1, diags);
  REQUIRE(r);
  return std::move(*r);
}

// The record's position as the checker builds it (clocks from hmvc/fmvn included).
inline core::Board board_of(const epd::EpdRecord& r, bool chess960 = false) {
  epd::Diagnostics diags;
  epd::CheckOptions options;
  options.chess960 = chess960;
  options.moves = false;
  auto checked = epd::check_record(r, options, diags);
  INFO(r.source());
  REQUIRE(checked.board);
  return *checked.board;
}

inline core::Board board_of_fen(const std::string& four_fields, bool chess960 = false) {
  core::FenReadOptions options;
  options.fields = core::FenFields::Four;
  options.chess960 = chess960;
  auto b = core::parse_fen(four_fields, options);
  INFO(four_fields);
  REQUIRE(b);
  return *b;
}

// An analysis whose line 1 is `pv` with `score`, and whose bestmove is the PV's first move.
inline uci::Analysis analysis(core::Score score, std::vector<std::string> pv, int depth = 12,
                              std::uint64_t nodes = 54321, std::uint64_t time_ms = 1234) {
  uci::Analysis a;
  a.engine = "Fake 1.0";
  uci::PvLine line;
  line.depth = depth;
  line.score = score;
  line.nodes = nodes;
  line.time_ms = time_ms;
  line.pv = std::move(pv);
  a.bestmove = line.pv.empty() ? std::string() : line.pv.front();
  a.lines.push_back(std::move(line));
  a.depth = depth;
  a.nodes = nodes;
  a.time_ms = time_ms;
  return a;
}

inline std::string san(const core::Board& board, core::Move m) { return core::to_san(board, m); }

inline std::vector<std::string> sans(const core::Board& board, const std::vector<core::Move>& moves) {
  std::vector<std::string> out;
  for (auto m : moves) out.push_back(core::to_san(board, m));
  return out;
}

}  // namespace epdd::suites::test
