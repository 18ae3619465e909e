#include "annotate/input_evals.hpp"

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

uci::Analysis evaluation(core::Score score, int depth) {
  uci::Analysis a;
  uci::PvLine line;
  line.score = score;
  line.depth = depth;
  a.lines.push_back(std::move(line));
  a.depth = depth;
  return a;
}

// A position's evaluation from comments: the first readable [%eval]; else (a position after a
// move) an engine-match comment, the mover's score turned to the side to move's.
std::optional<uci::Analysis> evaluation_of(const std::vector<std::string>& comments, core::Color to_move, bool after_move_comments) {
  for (const std::string& c : comments) {
    const auto e = read_eval(c);
    if (e && *e) return evaluation(side_to_move_score(**e, to_move), (*e)->depth);
  }
  if (!after_move_comments) return std::nullopt;
  for (const std::string& c : comments)
    if (const auto e = read_engine_comment(c)) return evaluation(after_move(e->mover), e->depth);
  return std::nullopt;
}

std::vector<std::string> comments_of(const std::vector<pgn::Annotation>& after) {
  std::vector<std::string> out;
  for (const pgn::Annotation& a : after)
    if (a.kind == pgn::Annotation::Kind::Comment) out.push_back(a.comment);
  return out;
}

// The engine's line an earlier judgement at this move names ("Nc6 was best." and a variation
// starting with Nc6), in UCI from `before`; empty when the move has none.
std::vector<std::string> named_line(const core::Board& before, const std::vector<pgn::Annotation>& after) {
  std::string_view best;
  for (const pgn::Annotation& a : after)
    if (a.kind == pgn::Annotation::Kind::Comment && detail::is_judgement_words(a.comment))
      if (const auto named = detail::named_best(a.comment); !named.empty()) best = named;
  if (best.empty()) return {};
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
  std::string_view s = trimmed(comment);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  EngineComment out{core::Score::centipawns(0), 0};
  if (!s.empty() && s.front() == 'M') {
    s.remove_prefix(1);
    const auto plies = take_number(s);
    if (!plies || *plies <= 0 || *plies > core::Score::kMaxMatePlies) return std::nullopt;
    out.mover = core::Score::mate_in_plies(negative ? -*plies : *plies);
  } else {
    // Pawns: digits, a point and digits (cutechess and fastchess write two decimals).
    const auto whole = take_number(s);
    if (!whole || s.empty() || s.front() != '.') return std::nullopt;
    s.remove_prefix(1);
    std::string_view fraction = s.substr(0, s.find_first_not_of("0123456789"));
    if (fraction.empty() || fraction.size() > 2) return std::nullopt;
    s.remove_prefix(fraction.size());
    int cp = *whole * 100 + (fraction[0] - '0') * 10 + (fraction.size() == 2 ? fraction[1] - '0' : 0);
    if (*whole > 300) return std::nullopt;  // not a score any engine writes in pawns
    out.mover = core::Score::centipawns(negative ? -cp : cp);
  }
  if (s.empty() || s.front() != '/') return std::nullopt;
  s.remove_prefix(1);
  const auto depth = take_number(s);
  if (!depth || *depth < 0) return std::nullopt;
  if (!s.empty() && !is_blank(s.front())) return std::nullopt;
  out.depth = *depth;
  return out;
}

core::Score after_move(core::Score mover_before) {
  if (!mover_before.is_mate()) return core::Score::centipawns(-mover_before.cp());
  const int plies = mover_before.mate_plies();
  if (plies > 0) return core::Score::mate_in_plies(-(plies - 1));
  if (plies < 0) return core::Score::mate_in_plies(-plies - 1);
  return mover_before;
}

PositionAnalyses input_analyses(const pgn::Game& game) {
  const auto& moves = game.main.moves;
  PositionAnalyses out(moves.size() + 1);
  core::Board board = game.start;
  out[0] = evaluation_of(game.main.comments_before, board.side_to_move(), false);
  for (std::size_t ply = 1; ply <= moves.size(); ++ply) {
    const pgn::MoveNode& node = moves[ply - 1];
    if (node.move.is_null()) break;
    const core::Board before = board;
    board.make_move(node.move);
    out[ply] = evaluation_of(comments_of(node.after), board.side_to_move(), true);
    if (out[ply - 1])
      if (auto pv = named_line(before, node.after); !pv.empty()) out[ply - 1]->lines[0].pv = std::move(pv);
  }
  return out;
}

}  // namespace epdd::annotate
