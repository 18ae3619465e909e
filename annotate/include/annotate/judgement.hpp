// Judgement of a played move from the engine's scores before and after it: lichess's rule
// (lila's Advice) by default, or centipawn-loss thresholds (`cp:50,100,300`).
#pragma once

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/score.hpp"

namespace epdd::annotate {

enum class Judgement { None, Inaccuracy, Mistake, Blunder };

// The move-assessment NAG of a judgement: $6 (?!), $2 (?), $4 (??); 0 for None.
int nag(Judgement judgement);
// Lichess's word for it ("Inaccuracy", "Mistake", "Blunder"); empty for None.
std::string_view word(Judgement judgement);

// Which rule judges moves, and its thresholds.
struct JudgeRule {
  enum class Kind { Lichess, CentipawnLoss };
  Kind kind = Kind::Lichess;
  // Centipawn-loss thresholds (Kind::CentipawnLoss only), strictly increasing: a move is
  // judged by centipawn_loss() (summary.hpp), lichess's capped loss, >= each threshold.
  int inaccuracy = 0;
  int mistake = 0;
  int blunder = 0;
};

// Reads `lichess` or `cp:I,M,B` (three whole centipawn losses, 0 < I < M < B). A bad text
// gets a message that names the text and what was expected, so --judge can print it as is.
Expected<JudgeRule, std::string> parse_judge_rule(std::string_view text);

// lichess's winning chances of a centipawn score, in [-1, 1]: 2 / (1 + exp(-0.00368208 cp)) - 1.
double winning_chances(int cp);

// Judges one move. Both scores are as the engine reports them, each from ITS position's side
// to move: `before` from the position before the move (the mover to move), `after` from the
// position after it (the opponent to move; a mate in 0 there means the mover gave mate).
// The mover's point of view is made here, so a caller never negates anything.
Judgement judge(const JudgeRule& rule, core::Score before, core::Score after);

}  // namespace epdd::annotate
