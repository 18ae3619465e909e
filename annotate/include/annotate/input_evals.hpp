// Evaluations a game already carries (--evals-from-input): lichess's `[%eval]` (White's view)
// and the engine-match comments of cutechess, fastchess and Arena (`{+0.35/20 1.2s}`,
// `{-M5/30}`: the engine's own score of its move, the mover's view), read into the analyses the
// annotation judges from, as if an engine had searched those positions.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "annotate/render.hpp"
#include "core/score.hpp"
#include "pgn/game.hpp"

namespace epdd::annotate {

// An engine-match comment: the whole comment is `[+|-]P.PP/D` or `[+|-]MN/D`, then optionally
// white space and anything (the time, "Draw by 3-fold repetition", ...). The score is the
// mover's (the engine's own, of the position before its move, which its move keeps): pawns with
// a fraction, or cutechess's `M<plies>` (+M9: it mates in 9 plies, its move included; -M4: it
// is mated in 4). D is the depth. nullopt for any other comment ("book", a human's words).
struct EngineComment {
  core::Score mover;  // as mate_in_plies counts, from the mover to move before the move
  int depth = 0;
};
std::optional<EngineComment> read_engine_comment(std::string_view comment);

// The same score seen from the position after the move, the opponent to move: centipawns
// negated; a mate one ply nearer, for the other side.
core::Score after_move(core::Score mover_before);

// Each main-line position's evaluation from the game's own comments, as analyses (line 1's
// score from the position's side to move, its depth; no search): position 0 from an `[%eval]`
// before the first move, position p from the comments after move p: its `[%eval]`, else an
// engine-match comment. Where a move carries an earlier engine's judgement that names the
// engine's best move ("Nc6 was best.") and a variation starting with that move (lichess's
// export, epdd's own output), the position before the move gets that variation as its line 1
// (so the judgement can name the best move and write its line). Positions after a null move are
// not read. A comment whose `[%eval]` cannot be read is no evaluation.
PositionAnalyses input_analyses(const pgn::Game& game);

}  // namespace epdd::annotate
