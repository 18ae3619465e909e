// Analysis written back into EPD records: acd, acn, acs, ce, pm, pv and (for `epdd analyse`) bm
// and dm. The four position fields and every other operation stay as they were, byte for byte
// (EpdRecord::preserved_text rewrites only what was set here).
#pragma once

#include "core/board.hpp"
#include "epd/record.hpp"
#include "uci/analysis.hpp"

namespace epdd::suites {

struct WriteBackOptions {
  // Write bm (the engine's move) and dm (a forced mate it found), replacing what the record had.
  // Off for test-suite runs, whose bm/am/dm are the key the engine is scored against.
  bool solution_opcodes = true;
  // ce from White's point of view (positive: White is better), for importers such as BOOKUP
  // that want it so. The standard's convention, and the default, is the side to move's.
  bool ce_for_white = false;
};

// The opcodes write_analysis writes (or removes when the analysis has nothing for them).
inline constexpr const char* kAnalysisOpcodes[] = {"acd", "acn", "acs", "ce", "pm", "pv"};

// Whether the record already carries analysis (any of acd, acn, acs, ce, pm, pv).
bool has_analysis(const epd::EpdRecord& record);

// Writes the analysis of `board` (the record's position) into the record. Moves in SAN. ce is
// line 1's score (a mate for the side to move in N plies is 32767 - N); a position with no legal
// move gets its verdict without pm/pv/bm (checkmate: -32767, stalemate: 0) and acd/acn/acs 0.
// dm N is written when line 1 is a forced mate in N for the side to move, and removed otherwise
// (with solution_opcodes). Opcodes the analysis has no value for are removed, not left stale.
void write_analysis(epd::EpdRecord& record, const core::Board& board, const uci::Analysis& analysis,
                    const WriteBackOptions& options);

// Why line's mate score is not borne out by its PV where the PV reaches the mate ("the PV does
// not end in mate after 3 plies"); empty when it is, when the PV is too short to tell, or when
// the score is not a mate for the side to move.
std::string mate_contradiction(const core::Board& board, const uci::PvLine& line);

// The engine's moves in SAN from `board` (UCI in, the legal prefix out).
std::vector<std::string> san_line(const core::Board& board, const std::vector<std::string>& uci_moves);

}  // namespace epdd::suites
