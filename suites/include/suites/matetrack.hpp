// Scoring a matetrack record (`bm #N` / `bm #-N`, epd/matetrack.hpp) the way matetrack's checker
// (matecheck.py in vondele/matetrack) reports an engine: found mates, best mates, better mates,
// wrong mates and bad PVs.
//
// What is judged is the engine's final report: line 1's last exact score of its deepest
// iteration, the line matecheck.py counts found and best mates from. matecheck.py also counts
// better mates, wrong mates and bad PVs on every earlier info line of the search; epdd keeps only
// the final line of a search (its cache holds no more), so here all five are of that line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/board.hpp"
#include "uci/analysis.hpp"

namespace epdd::suites {

// The engine's final mate against the key.
enum class MateOutcome : std::uint8_t {
  NoMate,  // the final score is not a mate (or "mate 0" in a live position)
  Best,    // a mate for the side the key says, of the key's length (matecheck: best mate)
  Longer,  // for that side, longer than the key (a found mate, not a best one)
  Better,  // for that side, shorter than the key: the key is wrong (matecheck: better mate)
  Wrong,   // a mate for the other side (matecheck: wrong mate)
};
const char* to_string(MateOutcome outcome);
std::optional<MateOutcome> mate_outcome_from(std::string_view text);

// Whether a mate's PV bears it out, in matecheck.py's pv_status words.
enum class PvStatus : std::uint8_t {
  Ok,       // the mated side is checkmated after exactly the claimed number of plies
  Short,    // the PV stops before that (also a PV cut short by the engine)
  Long,     // the PV goes on past that
  Wrong,    // exactly that long, but no checkmate at the end
  Draw,     // the losing side could claim a draw on the way (fifty moves, threefold repetition)
  Illegal,  // a move of the PV is not legal
};
const char* to_string(PvStatus status);
std::optional<PvStatus> pv_status_from(std::string_view text);

struct PvCheck {
  PvStatus status = PvStatus::Ok;
  std::string note;  // in words, for a status other than Ok
};

// Plays `pv` (UCI, the legal prefix the engine printed; `cut` non-empty when the rest was an
// illegal move) from `board` and judges it against a mate in `mate_moves` (UCI "score mate":
// > 0 mates in 2N-1 plies, < 0 is mated in 2|N| plies), as matecheck.py's pv_status does: a
// claimable draw at a ply where the losing side is to move first, then an illegal move, then the
// length, then checkmate at the end.
PvCheck check_mate_pv(const core::Board& board, int mate_moves, const std::vector<std::string>& pv,
                      const std::string& cut = {});

// A matetrack record as scored.
struct MateResult {
  int key = 0;               // +N: the side to move mates in N; -N: it is mated in N (moves)
  std::optional<int> found;  // the engine's final mate in moves, signed the same way
  MateOutcome outcome = MateOutcome::NoMate;
  std::optional<PvStatus> pv;  // checked for mates for the key's side only (as matecheck.py)
  std::string pv_note;
  // A mate for the key's side, of any length: matecheck's "found mates".
  bool found_mate() const {
    return outcome == MateOutcome::Best || outcome == MateOutcome::Longer || outcome == MateOutcome::Better;
  }
  // epdd's "solved": a mate for the key's side no longer than the key (best and better mates),
  // as dm is solved by any mate no longer than N. Bad PVs are counted apart and do not unsolve.
  bool solved() const { return outcome == MateOutcome::Best || outcome == MateOutcome::Better; }
  bool bad_pv() const { return pv && *pv != PvStatus::Ok; }
  bool operator==(const MateResult&) const = default;
};

// Scores line 1 of `analysis` of `board` against the key.
MateResult score_mate_key(int key, const core::Board& board, const uci::Analysis& analysis);

// "#15", "#-3": a mate in moves, signed, the way matetrack writes its keys.
std::string mate_text(int moves);

// The matetrack figures of a run.
struct MateCounts {
  std::size_t records = 0;  // scored matetrack records
  std::size_t found = 0, best = 0, better = 0, wrong = 0, bad_pv = 0, no_mate = 0;
  void add(const MateResult& r);
};

}  // namespace epdd::suites
