#include "annotate/input_evals.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include "annotate/eval_comment.hpp"
#include "core/notation.hpp"
#include "game_annotation.hpp"

namespace epdd::annotate {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// Whole digits at the front of `s`, taken off it; nullopt when there is none.
std::optional<int> take_number(std::string_view& s) {
  int v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(end - s.data()));
  return v;
}

// An [%eval] read back as the score of its position's side to move.
core::Score side_to_move_score(const EvalReading& e, core::Color to_move) {
  if (e.checkmated) return core::Score::mate_in_plies(0);
  const bool white = to_move == core::Color::White;
  if (e.white.is_mate()) return core::Score::from_uci_mate(white ? e.white.mate_moves() : -e.white.mate_moves());
  return core::Score::centipawns(white ? e.white.cp() : -e.white.cp());
}

// Emptied line lists whose memory is used again (this runs for every position).
using SpareLines = std::vector<std::vector<uci::PvLine>>;

// `slot` set to an analysis of line 1 only (made in place, its list from `spare` when there is one).
void set_evaluation(std::optional<uci::Analysis>& slot, core::Score score, int depth, SpareLines& spare) {
  uci::Analysis& a = slot.emplace();
  if (!spare.empty()) {
    a.lines = std::move(spare.back());
    spare.pop_back();
  }
  uci::PvLine& line = a.lines.emplace_back();
  line.score = score;
  line.depth = depth;
  a.depth = depth;
}

// The text of a comment: a game's comments before its first move are strings, those after a
// move are among its annotations (nullptr for a NAG or a variation).
const std::string* comment_text(const std::string& c) { return &c; }
const std::string* comment_text(const pgn::Annotation& a) {
  return a.kind == pgn::Annotation::Kind::Comment ? &a.comment : nullptr;
}

// The position's evaluation an [%eval] in these comments gives (the first readable one); one
// that cannot be read is said in `problems` (with `ply`).
// (Set in `slot`; left as it is when there is none.)
template <class Comments>
void eval_command_of(std::optional<uci::Analysis>& slot, const Comments& comments, core::Color to_move, std::size_t ply,
                     std::vector<std::string>* problems, SpareLines& spare) {
  for (const auto& item : comments) {
    const std::string* c = comment_text(item);
    if (!c) continue;
    const auto e = read_eval(*c);
    if (!e && problems) problems->push_back("ply " + std::to_string(ply) + ": " + e.error());
    if (e && *e) return set_evaluation(slot, side_to_move_score(**e, to_move), (*e)->depth, spare);
  }
}

// The score an engine-match comment after a move gives the position BEFORE that move: the
// engine's own search of it, from its side to move (the mover), as an analysis gives it. (Set in
// `slot`; left as it is when there is none.)
void engine_comment_of(std::optional<uci::Analysis>& slot, const std::vector<pgn::Annotation>& after, SpareLines& spare) {
  for (const pgn::Annotation& a : after)
    if (const std::string* c = comment_text(a))
      if (const auto e = read_engine_comment(*c)) return set_evaluation(slot, e->mover, e->depth, spare);
}

// The move an earlier judgement at this move names as best ("Nc6 was best."), or empty.
std::string_view named_best(const std::vector<pgn::Annotation>& after) {
  std::string_view best;
  for (const pgn::Annotation& a : after)
    if (a.kind == pgn::Annotation::Kind::Comment && detail::is_judgement_words(a.comment))
      if (const auto named = detail::named_best(a.comment); !named.empty()) best = named;
  return best;
}

// The engine's line starting with `best` (named_best) among the variations after the move, in
// UCI from `before`; empty when there is none.
std::vector<std::string> named_line(const core::Board& before, std::string_view best,
                                    const std::vector<pgn::Annotation>& after) {
  for (const pgn::Annotation& a : after) {
    if (detail::first_san(before, a) != best) continue;
    std::vector<std::string> pv;
    core::Board board = before;
    const auto castling = core::uci_castling_for(before);
    for (const pgn::MoveNode& node : a.variation.front().moves) {
      if (node.move.is_null() || !board.is_legal(node.move)) break;
      pv.push_back(core::to_uci(node.move, castling));
      board.make_move(node.move);
    }
    return pv;
  }
  return {};
}

}  // namespace

std::optional<EngineComment> read_engine_comment(std::string_view comment) {
  // cutechess's form exactly (MoveEvaluation::scoreText, ChessGame::evalString): a sign on every
  // score but 0.00, pawns with two decimals or M and plies, '/', the depth; then the end, or white
  // space and the time ("1.2s", "13s") and anything after it. A human's "3.5/4 before this
  // round" or "1.0/1" is none of that.
  std::string_view s = trimmed(comment);
  bool negative = false, signed_score = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    signed_score = true;
    s.remove_prefix(1);
  }
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  EngineComment out{core::Score::centipawns(0), 0};
  if (!s.empty() && s.front() == 'M') {
    s.remove_prefix(1);
    if (!signed_score || s.empty() || !is_digit(s.front())) return std::nullopt;
    const auto plies = take_number(s);
    if (!plies || *plies <= 0 || *plies > core::Score::kMaxMatePlies) return std::nullopt;
    out.mover = core::Score::mate_in_plies(negative ? -*plies : *plies);
  } else {
    if (s.empty() || !is_digit(s.front())) return std::nullopt;  // no second sign
    const std::size_t point = s.find('.');
    if (point == std::string_view::npos || point == 0 || point > 3) return std::nullopt;  // at most 999 pawns
    const std::string_view whole_text = s.substr(0, point);
    if (s.size() < point + 3 || !is_digit(s[point + 1]) || !is_digit(s[point + 2])) return std::nullopt;
    int whole = 0;
    for (char c : whole_text) {
      if (!is_digit(c)) return std::nullopt;
      whole = whole * 10 + (c - '0');
    }
    const int cp = whole * 100 + (s[point + 1] - '0') * 10 + (s[point + 2] - '0');
    if (cp != 0 && !signed_score) return std::nullopt;
    s.remove_prefix(point + 3);
    out.mover = core::Score::centipawns(negative ? -cp : cp);
  }
  if (s.empty() || s.front() != '/') return std::nullopt;
  s.remove_prefix(1);
  if (s.empty() || !is_digit(s.front())) return std::nullopt;
  const auto depth = take_number(s);
  if (!depth) return std::nullopt;
  out.depth = *depth;
  if (s.empty()) return out;
  if (!is_blank(s.front())) return std::nullopt;
  s = trimmed(s);
  // The time: digits, optionally a fraction, then 's' and the end or anything after a non-letter.
  std::size_t i = 0;
  while (i < s.size() && is_digit(s[i])) ++i;
  if (i == 0) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    const std::size_t frac = ++i;
    while (i < s.size() && is_digit(s[i])) ++i;
    if (i == frac) return std::nullopt;
  }
  if (i >= s.size() || s[i] != 's') return std::nullopt;
  ++i;
  if (i < s.size() && (std::isalpha(static_cast<unsigned char>(s[i])) != 0)) return std::nullopt;
  return out;
}

PositionAnalyses input_analyses(const pgn::Game& game, std::vector<std::string>* problems) {
  PositionAnalyses out;
  input_analyses(game, out, problems);
  return out;
}

void input_analyses(const pgn::Game& game, PositionAnalyses& out, std::vector<std::string>* problems) {
  const auto& moves = game.main.moves;
  // What it held is gone; its memory stays (the slots', and their line lists').
  SpareLines spare;
  for (std::optional<uci::Analysis>& slot : out)
    if (slot && slot->lines.capacity() > 0) {
      slot->lines.clear();
      spare.push_back(std::move(slot->lines));
    }
  out.assign(moves.size() + 1, std::nullopt);
  core::Color to_move = game.start.side_to_move();
  eval_command_of(out[0], game.main.comments_before, to_move, 0, problems, spare);
  // The board is played forward only to a move that names a best line (few do).
  core::Board board = game.start;
  std::size_t played = 0;
  for (std::size_t ply = 1; ply <= moves.size(); ++ply) {
    const pgn::MoveNode& node = moves[ply - 1];
    if (node.move.is_null()) break;
    to_move = ~to_move;
    eval_command_of(out[ply], node.after, to_move, ply, problems, spare);
    // An [%eval] of the position before the move, where there is one, wins over the mover's own.
    if (!out[ply - 1]) engine_comment_of(out[ply - 1], node.after, spare);
    if (!out[ply - 1]) continue;
    if (const std::string_view best = named_best(node.after); !best.empty()) {
      for (; played < ply - 1; ++played) board.make_move(moves[played].move);
      if (auto pv = named_line(board, best, node.after); !pv.empty()) out[ply - 1]->lines[0].pv = std::move(pv);
    }
  }
}

}  // namespace epdd::annotate
