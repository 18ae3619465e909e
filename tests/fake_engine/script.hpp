// --script: per-position overrides of the fake search, so a test can make the engine claim a
// given bestmove, pv, score or depth, or crash, hang or exit, in exactly one position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"

namespace epdd::fake_engine {

// What `go` does in a scripted position before searching.
enum class Action : std::uint8_t { None, Crash, Hang, Exit };

// One script line: the position and what to say there. Moves are kept as text because they
// are printed as given, legal or not.
struct ScriptEntry {
  std::string key;  // position_key of the FEN
  int line = 0;     // in the script file, for messages
  std::optional<std::string> bestmove;
  std::optional<std::string> ponder;
  std::vector<std::string> pv;
  // Line 1's first move per depth (depth d: the d-th, the last beyond the list), each followed
  // by its best reply: an engine that changes its mind, for time-to-solution tests.
  std::vector<std::string> firstmoves;
  std::optional<std::string> score;  // "cp N" or "mate N"
  // Lines 2 and beyond under MultiPV: line k's first move (followed by its best reply when legal)
  // and score, for the lines the script names; the others are the fake search's.
  struct OtherLine {
    int multipv = 2;
    std::string move;
    std::string score;  // "cp N" or "mate N"
  };
  std::vector<OtherLine> other_lines;
  std::optional<int> depth;
  Action action = Action::None;
};

// The identity of a position for matching: the four position fields of FEN, written one way
// (Shredder castling letters, en passant only when capturable) so that two spellings of one
// position match.
std::string position_key(const core::Board& board);

class Script {
 public:
  // Reads a script file. Every bad line is reported (one message per line, "FILE:LINE: ..."),
  // not just the first.
  static Expected<Script, std::string> load(const std::string& path);

  // The entry for this position, or nullptr.
  const ScriptEntry* find(const core::Board& board) const;

 private:
  // The entry with this position_key, or nullptr.
  const ScriptEntry* find_key(const std::string& key) const;

  std::vector<ScriptEntry> entries_;
};

}  // namespace epdd::fake_engine
