// Analysis results as JSON text: the form they take in the store (cache entries, item results)
// and in machine-readable output. Written by us, but read back as untrusted input: a store file
// can be damaged or come from another version.
//
// The format (compact, keys always in this order; this comment is its reference):
//
//   {"engine":"Stockfish 15.1",
//    "lines":[{"multipv":1,"depth":20,"seldepth":31,"score":{"cp":25},
//              "wdl":{"win":120,"draw":850,"loss":30},"nodes":123456,"time_ms":250,
//              "pv":["e2e4","e7e5"],"pv_cut":""}],
//    "iterations":[{"depth":1,"nodes":20,"time_ms":0,"score":{"mate_plies":-4},"move":"e2e4"}],
//    "bestmove":"e2e4","ponder":"e7e5","depth":20,"nodes":123456,"time_ms":250,
//    "status":"ongoing","stopped":false,"problems":[]}
//
// A score is {"cp":N} or {"mate_plies":N} (signed plies, as core::Score::mate_in_plies). "seldepth"
// and "wdl" are left out when the engine gave none; every other key is required. "status" is one
// of ongoing checkmate stalemate insufficient_material fifty_move_claimable threefold_claimable
// seventy_five_moves fivefold_repetition: names of this format, not core::to_string's display
// text, so rewording a message cannot make stored results unreadable. Keys the reader does not
// know are ignored, so a newer writer's additions do not make a cache unreadable to older code.
// JSON holds text only: bytes of the engine's output that are not UTF-8 are written as U+FFFD.
#pragma once

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "uci/analysis.hpp"

namespace epdd::store {

// The analysis in the format above. Never throws on content: invalid UTF-8 is replaced.
std::string analysis_to_json(const uci::Analysis& analysis);

// Reads what analysis_to_json wrote; every field comes back exactly (strings that were valid
// UTF-8). Bad JSON, a missing key or a value of the wrong type or range is a message naming the
// key's path ("lines[1].score: ..."), never an exception.
Expected<uci::Analysis, std::string> analysis_from_json(std::string_view json);

}  // namespace epdd::store
