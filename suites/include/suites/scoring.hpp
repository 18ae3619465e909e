// Scoring one test-suite record: what the record expects (bm, am, dm, matetrack, STS points) and whether an
// analysis meets it, with time, depth and nodes to solution.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/board.hpp"
#include "core/expected.hpp"
#include "epd/record.hpp"
#include "suites/matetrack.hpp"
#include "uci/analysis.hpp"

namespace epdd::suites {

// Which rule decides a record, in this order of precedence: a record whose bm is a matetrack key
// (`bm #N`, `bm #-N`: epd/matetrack.hpp) is scored by its mate (suites/matetrack.hpp); then a
// record with dm is scored by mate length (any mate no longer than N solves it, whatever its bm
// says: mate suites list one of several mating moves); then bm and am (both may stand: the move
// must be one of bm and none of am); a record with STS points (c0 "move=points, ..." or c7 moves
// with c8 points) is scored by bm for solved/total and by its points for the STS score.
enum class Rule : std::uint8_t { Unscored, Bm, Am, BmAm, Dm, Matetrack };
const char* to_string(Rule rule);

struct Expectation {
  Rule rule = Rule::Unscored;
  std::vector<core::Move> bm, am;
  std::optional<int> dm;                          // full moves
  std::optional<int> mate_key;                    // matetrack: +N mates, -N is mated (full moves)
  std::vector<std::pair<core::Move, int>> points;  // STS: move and its points
  std::string text;  // what was expected, for reports: "bm Qg6", "am Bxh7", "dm 2 (bm Qd8)", "bm #15"
  bool sts() const { return !points.empty(); }
};

// Reads what a record expects from its operations. Moves are read from `board` (the record's
// position); a move that cannot be read is an error that names the opcode and the move (the
// record is then reported, not scored).
Expected<Expectation, std::string> expectation_of(const epd::EpdRecord& record, const core::Board& board);

// Where the engine first had the solving move and kept it to the end (the Arasan / PolyGlot /
// Qapla convention), from the analysis' iterations.
struct ToSolution {
  int depth = 0;
  std::uint64_t nodes = 0;
  std::uint64_t time_ms = 0;
};

struct Verdict {
  bool scored = false;
  bool solved = false;
  int points = 0;       // STS: the points of the engine's move (0 when it has none)
  int max_points = 0;   // STS: the best move's points (10 in STS)
  std::string found;    // the engine's move in SAN; empty when it had none
  std::optional<ToSolution> to_solution;  // when solved
  std::string note;     // why not solved, when it is not plain (a mate too long, a PV short of it)
  std::optional<MateResult> mate;  // matetrack records: the mate against the key
};

// Scores an analysis of `board` against the expectation.
Verdict score(const Expectation& expected, const core::Board& board, const uci::Analysis& analysis);

// The STS rating estimate from the score in percent (Ferdinand Mosca's STS-Rating formula).
inline double sts_rating(double score_percent) { return 44.523 * score_percent - 242.85; }

// The theme of an STS record from its id: "STS(v1.0) Undermine.001" -> "Undermine".
std::string sts_theme(std::string_view id);

}  // namespace epdd::suites
