// lila's words for a judged move (modules/tree Advice.scala, Info.evalComment), byte for byte.
#include <array>
#include <cstdlib>

#include "game_annotation.hpp"

namespace epdd::annotate::detail {

namespace {

constexpr std::string_view kArrow = " \xE2\x86\x92 ";  // " → "
constexpr std::string_view kAsciiArrow = " -> ";         // the same in ASCII (AnnotateOptions::ascii_words)
constexpr std::string_view kMateCreated = "Checkmate is now unavoidable";
constexpr std::string_view kMateLost = "Lost forced checkmate sequence";

// Info.evalComment: White's point of view, pawns with two decimals (no plus sign), or
// "Mate in N" with N the absolute number of moves.
std::string eval_words(core::Score score, bool white_to_move) {
  if (score.is_mate()) return "Mate in " + std::to_string(std::abs(score.mate_moves()));
  const int cp = white_to_move ? score.cp() : -score.cp();
  const int a = std::abs(cp);
  std::string text = cp < 0 ? "-" : "";
  text += std::to_string(a / 100) + ".";
  text += static_cast<char>('0' + a % 100 / 10);
  text += static_cast<char>('0' + a % 10);
  return text;
}

// lila's MateSequence: cp -> mate against the mover is MateCreated; mate for the mover -> cp
// or mate against is MateLost; anything else has the judgement's own word.
std::string_view sequence_words(core::Score before, core::Score after, Judgement judgement) {
  const bool before_mates = before.is_mate() && before.mate_plies() > 0;
  const bool after_mated = after.is_mate() && after.mate_plies() > 0;  // the opponent mates
  if (!before.is_mate() && after_mated) return kMateCreated;
  if (before_mates && (!after.is_mate() || after_mated)) return kMateLost;
  return word(judgement);
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// "0.36", "-12.05", "Mate in 3": true when `s` is one of eval_words()'s forms.
bool is_eval_words(std::string_view s) {
  constexpr std::string_view kMate = "Mate in ";
  if (s.substr(0, kMate.size()) == kMate) return all_digits(s.substr(kMate.size()));
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  const std::size_t dot = s.find('.');
  return dot != std::string_view::npos && all_digits(s.substr(0, dot)) && s.size() - dot == 3 &&
         all_digits(s.substr(dot + 1));
}

}  // namespace

std::string advice_comment(core::Score before, core::Score after, bool white_moved, Judgement judgement, bool ascii,
                           std::string_view best_san) {
  std::string text = "(" + eval_words(before, white_moved);
  text += ascii ? kAsciiArrow : kArrow;
  text += eval_words(after, !white_moved) + ") ";
  text += sequence_words(before, after, judgement);
  text += '.';
  if (!best_san.empty()) text += " " + std::string(best_san) + " was best.";
  return text;
}

bool is_advice_comment(std::string_view c) {
  if (c.empty() || c[0] != '(') return false;
  std::string_view arrow_text = kArrow;
  std::size_t arrow = c.find(kArrow);
  if (arrow == std::string_view::npos) {
    arrow_text = kAsciiArrow;
    arrow = c.find(kAsciiArrow);
  }
  const std::size_t close = c.find(") ", arrow == std::string_view::npos ? 0 : arrow);
  if (arrow == std::string_view::npos || close == std::string_view::npos) return false;
  if (!is_eval_words(c.substr(1, arrow - 1)) ||
      !is_eval_words(c.substr(arrow + arrow_text.size(), close - arrow - arrow_text.size())))
    return false;
  std::string_view rest = c.substr(close + 2);
  constexpr std::array<std::string_view, 5> kWords = {"Inaccuracy.", "Mistake.", "Blunder.", "Checkmate is now unavoidable.",
                                                      "Lost forced checkmate sequence."};
  bool found = false;
  for (std::string_view w : kWords)
    if (rest.substr(0, w.size()) == w) {
      rest.remove_prefix(w.size());
      found = true;
      break;
    }
  if (!found) return false;
  if (rest.empty()) return true;
  constexpr std::string_view kBest = " was best.";
  if (rest[0] != ' ' || rest.size() <= kBest.size() + 1 || rest.substr(rest.size() - kBest.size()) != kBest) return false;
  const std::string_view move = rest.substr(1, rest.size() - 1 - kBest.size());
  return move.find(' ') == std::string_view::npos;
}

}  // namespace epdd::annotate::detail
