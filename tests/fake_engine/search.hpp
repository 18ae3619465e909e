// The fake search: a deterministic function from position and `go` limits to the lines a real
// engine would print, computed up front so that the caller only decides when to print them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/notation.hpp"
#include "script.hpp"

namespace epdd::fake_engine {

// What `go` asked for. Clock limits (wtime, btime, ...) are read and ignored: they change
// nothing in a fake search.
struct GoLimits {
  std::optional<int> depth;
  std::optional<std::int64_t> nodes;
  std::optional<int> movetime;  // milliseconds
  std::optional<int> mate;      // moves
  bool infinite = false;
  bool ponder = false;
  std::vector<std::string> searchmoves;

  // True when the search must wait (for stop, ponderhit or movetime) before bestmove.
  bool waits() const { return infinite || ponder || movetime.has_value(); }
};

// Reads the words after "go". Unknown words and bad numbers are skipped, as engines do;
// "searchmoves" takes every word after it, as Stockfish does.
GoLimits parse_go(std::span<const std::string_view> words);

// Engine state and switches that shape the output.
struct SearchSettings {
  int multipv = 1;
  core::UciCastling castling = core::UciCastling::Standard;
  bool illegal_bestmove = false;
  bool illegal_pv = false;
  // --stop-short N: `go nodes L` with N < L answered at depth 1 after N nodes (Ethereal 12.75
  // answers go nodes 10000 after 21).
  std::optional<std::int64_t> stop_short_nodes;
};

// Everything one search prints, in order: info lines, then bestmove [ponder].
struct SearchOutput {
  std::vector<std::string> info;
  std::string bestmove;  // "(none)" when there is no legal move
  std::string ponder;    // empty: no ponder move

  std::string bestmove_line() const {
    return ponder.empty() ? "bestmove " + bestmove : "bestmove " + bestmove + " ponder " + ponder;
  }
};

// The fake search. Candidates are the legal moves (only searchmoves, if given) ordered: mate in
// one first, then captures by captured value, then by UCI text. See README.md for the lines.
SearchOutput fake_search(const core::Board& board, const GoLimits& limits,
                         const SearchSettings& settings, const ScriptEntry* script);

// The move the fake search would play ("" when there is none).
std::string first_candidate(const core::Board& board, core::UciCastling castling);

// How deep a search that ignores its limit goes before it only waits for stop.
inline constexpr int kRunawayDepth = 1000;

// After `info depth D ... pv M ...`, the line of iteration D+1 cut off by stop: an upper bound
// (not a result), with a different score.
std::string unfinished_iteration(std::string_view last_info);

// Line k (1-based) of an endless stream of depth-1 info lines with pv move, for --flood-info.
std::string flood_line(std::uint64_t k, std::string_view move);

// A move that is never legal here: from the first empty square to the next one ("a3b3" in the
// start position). Never "0000" or "a1a1", which sessions read as "no move".
std::string illegal_move(const core::Board& board);

}  // namespace epdd::fake_engine
