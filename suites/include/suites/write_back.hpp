// Analysis written back into EPD records: acd, acn, acs, ce, pm, pv and (for `epdd analyse`) bm
// and dm. The four position fields and every other operation stay as they were, byte for byte
// (EpdRecord::preserved_text rewrites only what was set here).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/board.hpp"
#include "epd/record.hpp"
#include "uci/analysis.hpp"

namespace epdd::suites {

struct WriteBackOptions {
  // Write bm (the first move of the engine's line) and dm (a forced mate it found), replacing what the record had.
  // Off for test-suite runs, whose bm/am/dm are the key the engine is scored against.
  bool solution_opcodes = true;
  // ce from White's point of view (positive: White is better), for importers such as BOOKUP
  // that want it so. The standard's convention, and the default, is the side to move's.
  bool ce_for_white = false;
  // FEN counters after the fields written as hmvc/fmvn operations (standard EPD, which
  // python-chess reads); off: kept as they were.
  bool counters_as_operations = false;
};

// The opcodes write_analysis writes (or removes when the analysis has nothing for them).
inline constexpr const char* kAnalysisOpcodes[] = {"acd", "acn", "acs", "ce", "pm", "pv"};

// Whether the record already carries analysis (any of acd, acn, acs, ce, pm, pv).
bool has_analysis(const epd::EpdRecord& record);

// What write_analysis did to operations the record already had, beyond refreshing analysis:
// opcodes it removed (one entry per operation removed, duplicates folded into one included) and
// keys (am, bm, dm) whose operands it changed. Nothing of the record's is lost without a word:
// the commands count these in their summaries.
struct WriteBackChanges {
  std::vector<std::string> removed;
  std::vector<std::string> changed;
};

// Totals of WriteBackChanges over a run, for the summary ("144 dm removed, 37 bm changed").
class ChangeCounts {
 public:
  void add(const WriteBackChanges& c);
  // Removals first, then changes, each by count (largest first) and opcode; empty when none.
  std::string describe() const;
  bool empty() const { return removed_.empty() && changed_.empty(); }

 private:
  std::map<std::string, std::size_t> removed_, changed_;
};

// Writes the analysis of `board` (the record's position) into the record. Moves in SAN: pv is
// engine_line (below), pm and bm its first move. ce is line 1's score (a mate for the side to
// move in N plies is 32767 - N); a position with no legal move gets its verdict without
// pm/pv/bm (checkmate: -32767, stalemate: 0) and acd/acn/acs 0.
// dm N is written when line 1 is a forced mate in N for the side to move, and removed otherwise
// (with solution_opcodes). Opcodes the analysis has no value for are removed, not left stale.
WriteBackChanges write_analysis(epd::EpdRecord& record, const core::Board& board, const uci::Analysis& analysis,
                                const WriteBackOptions& options);

// Why line's mate score is not borne out by its PV where the PV reaches the mate ("the PV does
// not end in mate after 3 plies"); empty when it is, when the PV is too short to tell, or when
// the score is not a mate for the side to move.
std::string mate_contradiction(const core::Board& board, const uci::PvLine& line);

// The engine's moves in SAN from `board` (UCI in, the legal prefix out).
std::vector<std::string> san_line(const core::Board& board, const std::vector<std::string>& uci_moves);

// The engine's line in SAN, one rule for every writer (the pv opcode and pm/bm, its first move;
// a suite report's "pv"; the book's leaves and annotate read line 1 the same way): line 1's PV as
// the engine's deepest complete iteration left it, with the score that goes with it; the
// bestmove alone when the engine printed no line; empty without a bestmove (no legal move).
// A bestmove off that line (the engine changed its mind in an iteration it did not finish) is
// the move it plays, which a suite is scored on, but no line or score of it was completed.
std::vector<std::string> engine_line(const core::Board& board, const uci::Analysis& analysis);

}  // namespace epdd::suites
