// An analysis given as an EPD record (`epdd analyse`'s output, another tool's, an analyst's):
// `ce` the value, `pv`, `acd`, `acn`, `acs` its line, depth, nodes and seconds. One reader for
// `epdd book backsolve --import` (leaf_import.cpp) and `epdd annotate --import` (its job kind
// reads the file with import_analyses and hands annotate/ the analyses by position: annotate/
// reads no EPD, by the module map).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"
#include "core/score.hpp"
#include "epd/record.hpp"
#include "uci/analysis.hpp"

namespace epdd::book {

struct RecordValue {
  core::Score score = core::Score::centipawns(0);  // from the position's side to move
  std::optional<uci::Analysis> analysis;            // when the record has pv, acd, acn or acs
};

// The value of `record`, whose position is `board`: `ce` (side to move, or White's view with
// `ce_for_white`; an integer in the EPD encoding, mates 32767 - plies); with any of pv, acd, acn,
// acs an analysis of one line with that score, depth acd, nodes acn, time acs x 1000 ms and the pv
// as UCI moves (read as SAN or UCI, cut at its first illegal move with a note "WHERE: pv cut
// ..." in `notes`). No ce, or a ce or count that cannot be read, is an error saying which.
Expected<RecordValue, std::string> value_of_record(const epd::EpdRecord& record, const core::Board& board,
                                                   bool ce_for_white, const std::string& where,
                                                   std::vector<std::string>& notes);

// Analyses from an EPD file for annotate --import (AnnotateOptions::imported), by position (Polyglot key): each record's
// value_of_record as an analysis (depth 0 and no line when the record has only ce). A later
// record of the same position takes the place of an earlier one. Errors and notes "FILE:LINE:
// why", in line order.
struct ImportedAnalyses {
  std::unordered_map<std::uint64_t, uci::Analysis> by_key;
  std::size_t records = 0;
  std::vector<std::string> errors;
  std::vector<std::string> notes;
};
ImportedAnalyses import_analyses(std::string_view text, std::string_view name);

}  // namespace epdd::book
