// Evaluations a game already carries (--evals-from-input): lichess's `[%eval]` (White's view)
// and the engine-match comments of cutechess, fastchess and Arena (`{+0.35/20 1.2s}`,
// `{-M5/30}`: the engine's own score of its move, the mover's view), read into the analyses the
// annotation judges from, as if an engine had searched those positions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "annotate/render.hpp"
#include "core/score.hpp"
#include "pgn/game.hpp"

namespace epdd::annotate {

// An engine-match comment as cutechess writes it (MoveEvaluation::scoreText, the PGN's
// "{+0.35/20 1.2s}"): a sign on every score but 0.00, pawns with two decimals or `M<plies>`
// (+M9: the engine mates in 9 plies, its move included; -M4: it is mated in 4), '/', the depth;
// then the end ("{+1.00/12}") or white space, the time ("1.2s", "13s") and anything after it
// ("0.00/45 1.1s, Draw by 3-fold repetition"). The score is the engine's own search of the
// position before its move, from its side (the mover's view). nullopt for anything else ("book",
// a human's "3.5/4 before this round").
struct EngineComment {
  core::Score mover;  // as mate_in_plies counts, from the mover to move before the move
  int depth = 0;
};
std::optional<EngineComment> read_engine_comment(std::string_view comment);

// Each main-line position's evaluation from the game's own comments, as analyses (line 1's
// score from the position's side to move, its depth; no search): position p from an `[%eval]`
// in the comments after move p (position 0: before the first move); else from the engine-match
// comment after move p + 1, the engine's search of position p (as a fishnet or an epdd analysis
// is the search of the position it belongs to: the move that follows is judged by the next
// engine's search, which sees a blunder the mover did not). Where a move carries an earlier
// engine's judgement that names the engine's best move ("Nc6 was best.") and a variation
// starting with that move (lichess's export, epdd's own output), the position before the move
// gets that variation as its line 1 (so the judgement can name the best move and write its
// line). Positions after a null move are not read. A comment whose `[%eval]` cannot be read is
// no evaluation.
// With `problems`, each [%eval] that cannot be read is said there ("ply P: why"; ply 0: before
// the first move).
PositionAnalyses input_analyses(const pgn::Game& game, std::vector<std::string>* problems = nullptr);
// The same into `out`, whatever it held (its memory reused: annotating a file of games calls
// this once a game).
void input_analyses(const pgn::Game& game, PositionAnalyses& out, std::vector<std::string>* problems = nullptr);

}  // namespace epdd::annotate
