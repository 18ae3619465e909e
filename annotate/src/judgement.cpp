#include "annotate/judgement.hpp"

#include "annotate/summary.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <vector>

namespace epdd::annotate {

namespace {

// A score from the mover's point of view. For a mate only the side matters to the rules:
// +1 the mover mates, -1 the mover is mated.
struct MoverView {
  bool mate;
  int value;
};

// The position before the move has the mover to move: its score is already the mover's.
// A mate in 0 there (the mover checkmated) cannot precede a move; it reads as mated.
MoverView view_before(core::Score s) {
  if (!s.is_mate()) return {false, s.cp()};
  return {true, s.mate_plies() > 0 ? 1 : -1};
}

// The position after the move has the opponent to move: negate. A mate in 0 there is the
// opponent checkmated, i.e. the mover gave mate.
MoverView view_after(core::Score s) {
  if (!s.is_mate()) return {false, -s.cp()};
  return {true, s.mate_plies() > 0 ? -1 : 1};
}

// lila modules/tree/src/main/Advice.scala (current lila, with scalachess's
// WinPercent.winningChances): CpAdvice judges only when both scores are centipawns, by the
// mover's drop in winning chances, the first of .3/.2/.1 with `d <= delta` (so >=), and the
// centipawns are NOT capped (the older modules/analyse Advice ceiled them to +-1000 and used
// 0.004; we follow the current one, as issue 16 states it). MateAdvice: cp -> mate against
// is MateCreated (Inaccuracy if cp before < -999, Mistake if < -700, else Blunder); mate for
// -> cp is MateLost (Inaccuracy if cp after > 999, Mistake if > 700, else Blunder); mate for
// -> mate against is MateLost with no cp after (lila reads 0): Blunder. Every other pair
// (mate to mate for the same side, mate against before) is not judged.
Judgement judge_lichess(MoverView b, MoverView a) {
  if (!b.mate && !a.mate) {
    const double drop = winning_chances(b.value) - winning_chances(a.value);
    if (drop >= 0.3) return Judgement::Blunder;
    if (drop >= 0.2) return Judgement::Mistake;
    if (drop >= 0.1) return Judgement::Inaccuracy;
    return Judgement::None;
  }
  if (!b.mate && a.mate && a.value < 0) {
    if (b.value < -999) return Judgement::Inaccuracy;
    if (b.value < -700) return Judgement::Mistake;
    return Judgement::Blunder;
  }
  if (b.mate && b.value > 0 && !a.mate) {
    if (a.value > 999) return Judgement::Inaccuracy;
    if (a.value > 700) return Judgement::Mistake;
    return Judgement::Blunder;
  }
  if (b.mate && b.value > 0 && a.mate && a.value < 0) return Judgement::Blunder;
  return Judgement::None;
}

Judgement judge_cp_loss(const JudgeRule& rule, core::Score before, core::Score after) {
  const int loss = centipawn_loss(before, after);
  if (loss >= rule.blunder) return Judgement::Blunder;
  if (loss >= rule.mistake) return Judgement::Mistake;
  if (loss >= rule.inaccuracy) return Judgement::Inaccuracy;
  return Judgement::None;
}

// lila's ceiling: centipawns capped at +-1000, a mate (forceAsCp: Int.MaxValue - m) +-1000.
int capped_cp(MoverView v) {
  if (v.mate) return v.value > 0 ? 1000 : -1000;
  return std::clamp(v.value, -1000, 1000);
}

std::string rule_error(std::string_view text, std::string_view why) {
  return "judgement rule '" + std::string(text) + "': " + std::string(why) +
         " (expected 'lichess' or 'cp:INACCURACY,MISTAKE,BLUNDER' in centipawns, e.g. cp:50,100,300)";
}

}  // namespace

int nag(Judgement judgement) {
  switch (judgement) {
    case Judgement::Inaccuracy: return 6;
    case Judgement::Mistake: return 2;
    case Judgement::Blunder: return 4;
    case Judgement::None: break;
  }
  return 0;
}

std::string_view word(Judgement judgement) {
  switch (judgement) {
    case Judgement::Inaccuracy: return "Inaccuracy";
    case Judgement::Mistake: return "Mistake";
    case Judgement::Blunder: return "Blunder";
    case Judgement::None: break;
  }
  return "";
}

double winning_chances(int cp) { return 2.0 / (1.0 + std::exp(-0.00368208 * cp)) - 1.0; }

Expected<JudgeRule, std::string> parse_judge_rule(std::string_view text) {
  if (text == "lichess") return JudgeRule{};
  constexpr std::string_view kPrefix = "cp:";
  if (text.substr(0, kPrefix.size()) != kPrefix) return unexpected(rule_error(text, "unknown rule"));
  std::vector<int> values;
  std::string_view rest = text.substr(kPrefix.size());
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    int v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || v <= 0)
      return unexpected(rule_error(text, "'" + std::string(item) + "' is not a positive whole number"));
    values.push_back(v);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (values.size() != 3)
    return unexpected(rule_error(text, "needs 3 thresholds, has " + std::to_string(values.size())));
  if (!(values[0] < values[1] && values[1] < values[2]))
    return unexpected(rule_error(text, "thresholds must increase: inaccuracy < mistake < blunder"));
  return JudgeRule{JudgeRule::Kind::CentipawnLoss, values[0], values[1], values[2]};
}

int centipawn_loss(core::Score before, core::Score after) {
  return std::max(0, capped_cp(view_before(before)) - capped_cp(view_after(after)));
}

Judgement judge(const JudgeRule& rule, core::Score before, core::Score after) {
  if (rule.kind == JudgeRule::Kind::CentipawnLoss) return judge_cp_loss(rule, before, after);
  return judge_lichess(view_before(before), view_after(after));
}

}  // namespace epdd::annotate
