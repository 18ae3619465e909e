// The `[%eval]` command of PGN comments as lichess writes it and python-chess and lichess read
// it (python-chess chess.pgn EVAL_REGEX): White's point of view, `[%eval 0.35,20]` (pawns with
// two decimals, a minus sign only, an optional `,depth`), `[%eval #3]` (White mates in 3),
// `[%eval #-3]` (Black mates in 3).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/score.hpp"
#include "core/types.hpp"

namespace epdd::annotate {

// The command for an engine score, given as the engine reports it (from `side_to_move`'s
// point of view) and turned to White's here. depth 0 leaves `,depth` out. A side to move
// checkmated (mate in 0) is `#-0` when White is mated and `#0` when Black is: both match
// python-chess's pattern (which reads either as mate 0) and our reader tells them apart.
std::string format_eval(core::Score score, core::Color side_to_move, int depth = 0);

// The comment with its first `[%eval ...]` command replaced by `eval_command`, every other
// byte kept; with none, `eval_command` goes first (lichess's order, before `[%clk]`), then a
// space unless the comment is empty or starts with white space, then the comment unchanged
// (so an unclosed `[%eval` is kept as text, never swallowed).
std::string replace_eval(std::string_view comment, std::string_view eval_command);
// The same in place.
void replace_eval_in(std::string& comment, std::string_view eval_command);

// An `[%eval]` read back. `white` is White's point of view, as if White were to move: a
// centipawn score, or a mate whose sign says who mates (mate_moves() > 0: White).
struct EvalReading {
  core::Score white = core::Score::centipawns(0);
  int depth = 0;  // 0 when the command has none
  // `#0` / `#-0`: the side checkmated (Black / White); `white` is then mate_in_plies(0).
  std::optional<core::Color> checkmated;
};

// The first `[%eval]` of a comment: nullopt when there is none; an error naming the command
// when its argument is not in python-chess's form or no `]` closes it (before any `[`).
Expected<std::optional<EvalReading>, std::string> read_eval(std::string_view comment);

}  // namespace epdd::annotate
