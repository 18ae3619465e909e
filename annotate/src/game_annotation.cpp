#include "game_annotation.hpp"

#include <algorithm>

#include "annotate/accuracy.hpp"
#include "annotate/eval_comment.hpp"
#include "annotate/input_evals.hpp"
#include "core/notation.hpp"

namespace epdd::annotate::detail {

bool is_judgement_words(std::string_view c) {
  if (c.starts_with(kBesidePrefix)) c.remove_prefix(kBesidePrefix.size());
  return is_advice_comment(c) || c == kOnlyMoveComment;
}

std::string_view named_best(std::string_view c) {
  constexpr std::string_view kBest = " was best.";
  if (!c.ends_with(kBest)) return {};
  c.remove_suffix(kBest.size());
  c = c.substr(c.rfind(' ') + 1);
  while (!c.empty() && (c.back() == '+' || c.back() == '#')) c.remove_suffix(1);
  return c;
}

std::string first_san(const core::Board& before, const pgn::Annotation& a) {
  if (a.kind != pgn::Annotation::Kind::Variation || a.variation.empty() || a.variation.front().moves.empty()) return {};
  const core::Move m = a.variation.front().moves.front().move;
  if (m.is_null() || !before.is_legal(m)) return {};
  std::string san = core::to_san(before, m);
  while (!san.empty() && (san.back() == '+' || san.back() == '#')) san.pop_back();
  return san;
}

bool chosen(const AnnotateOptions& o, PlayerSides players, core::Color mover, core::Move move, std::size_t ply) {
  if (move.is_null() || static_cast<long long>(ply) < o.from_ply) return false;
  if (o.side && *o.side != mover) return false;
  return mover == core::Color::White ? players.white : players.black;
}

bool in_book(const AnnotateOptions& o, const core::Board& before) { return o.book && o.book->contains(before.polyglot_key()); }

bool selected(const AnnotateOptions& o, PlayerSides players, const core::Board& before, core::Move move, std::size_t ply) {
  return chosen(o, players, before.side_to_move(), move, ply) && !in_book(o, before);
}

bool lila_initial(const core::Board& start) {
  return start.polyglot_key() == core::Board().polyglot_key() && start.fullmove_number() == 1;
}

namespace {

using pgn::Annotation;
using pgn::MoveNode;

// A position's evaluation: from its side to move, as the engine reports it.
struct Eval {
  core::Score score;
  int depth = 0;
};

// A position's evaluation by its analysis's line 1, or none.
std::optional<Eval> analysed(const std::optional<uci::Analysis>* analysis) {
  if (analysis && *analysis && !(*analysis)->lines.empty()) return Eval{(*analysis)->lines[0].score, (*analysis)->depth};
  return std::nullopt;
}

// Checkmate and stalemate are scored on the board (mate in 0, 0.00 at depth 0); any other
// position by its analysis (analysed). (`moves_on`: the main line goes on from it with a move, a
// legal one: no need to count them.)
std::optional<Eval> evaluate(const core::Board& board, const std::optional<uci::Analysis>* analysis, bool moves_on) {
  if (!moves_on && board.count_legal() == 0)
    return Eval{board.in_check() ? core::Score::mate_in_plies(0) : core::Score::centipawns(0), 0};
  return analysed(analysis);
}

// The main line's positions, its board played forward only when one is read: a game judged
// from its own evaluations reads few (a judged move's line, a line's end, a book's key), and
// playing every move is a third of what replaying costs there.
class MainLine {
 public:
  explicit MainLine(const pgn::Game& game) : board_(game.start), moves_(game.main.moves) {}
  // The position before the move of ply `p + 1` (0: the start). Positions are read in order:
  // never one before the last read.
  core::Board& at(std::size_t p) {
    for (; played_ < p; ++played_) {
      const core::Move m = moves_[played_].move;
      if (m.is_null()) board_.make_null_move();
      else board_.make_move(m);
    }
    return board_;
  }
  core::Move move(std::size_t ply) const { return moves_[ply - 1].move; }

 private:
  core::Board board_;
  const std::vector<MoveNode>& moves_;
  std::size_t played_ = 0;
};

// The evaluation of the position the move of `ply` (1-based) leads to (evaluate): the board
// is read, played to it and back, only where the line ends there (or a null move follows).
std::optional<Eval> evaluate_after(MainLine& line, std::size_t ply, const std::optional<uci::Analysis>* analysis,
                                   bool moves_on) {
  if (moves_on) return analysed(analysis);
  core::Board& before = line.at(ply - 1);
  const core::Move move = line.move(ply);
  if (move.is_null()) before.make_null_move();
  else before.make_move(move);
  std::optional<Eval> e = evaluate(before, analysis, false);
  before.unmake_move();
  return e;
}

const std::optional<uci::Analysis>* analysis_at(const PositionAnalyses& analyses, std::size_t ply) {
  return ply < analyses.size() ? &analyses[ply] : nullptr;
}

bool is_kind(const Annotation& a, Annotation::Kind k) { return a.kind == k; }
bool is_assessment(const Annotation& a) { return a.kind == Annotation::Kind::Nag && a.nag >= 1 && a.nag <= 6; }
bool is_position_nag(const Annotation& a) { return a.kind == Annotation::Kind::Nag && a.nag >= 10 && a.nag <= 19; }

Annotation nag_annotation(int nag) { return {Annotation::Kind::Nag, static_cast<std::uint8_t>(nag), {}, {}}; }
Annotation comment_annotation(std::string text) { return {Annotation::Kind::Comment, 0, std::move(text), {}}; }

bool is_judgement(const Annotation& a) { return is_kind(a, Annotation::Kind::Comment) && is_judgement_words(a.comment); }

// Removes an earlier engine judgement whole: its words, the move's assessment NAG ($1-$6), and
// the variations that begin with a move its words name as best. Returns whether there was one.
bool remove_earlier_judgement(std::vector<Annotation>& after, const core::Board& before) {
  std::vector<std::string> named;
  for (const Annotation& a : after)
    if (is_judgement(a))
      if (const auto best = named_best(a.comment); !best.empty()) named.emplace_back(best);
  if (!std::any_of(after.begin(), after.end(), is_judgement)) return false;
  std::erase_if(after, [&](const Annotation& a) {
    if (is_judgement(a) || is_assessment(a)) return true;
    const std::string san = first_san(before, a);
    return !san.empty() && std::find(named.begin(), named.end(), san) != named.end();
  });
  return true;
}

// The eval goes into the move's first comment (not a judgement's); with none, a new comment
// after its NAGs and before its variations.
void put_eval(std::vector<Annotation>& after, const std::string& command) {
  for (Annotation& a : after)
    if (is_kind(a, Annotation::Kind::Comment) && !is_judgement(a)) {
      replace_eval_in(a.comment, command);
      return;
    }
  const auto at = std::find_if(after.begin(), after.end(), [](const Annotation& a) { return !is_kind(a, Annotation::Kind::Nag); });
  after.insert(at, comment_annotation(command));
}

// A move-assessment NAG: a human's $1-$6 stays unless replace_nags (then every one goes). Ours
// goes first, where a move's assessment stands.
void put_assessment(std::vector<Annotation>& after, int nag, bool replace) {
  if (std::any_of(after.begin(), after.end(), is_assessment)) {
    if (!replace) return;
    std::erase_if(after, is_assessment);
  }
  after.insert(after.begin(), nag_annotation(nag));
}

// $10-$19 from White's view of the position after the move, after the move's leading NAGs.
void put_position_nag(std::vector<Annotation>& after, core::Score score, bool white_to_move,
                      const PositionNagThresholds& t) {
  if (std::any_of(after.begin(), after.end(), is_position_nag)) return;
  const int nag = position_nag(score, white_to_move ? core::Color::White : core::Color::Black, t);
  const auto at = std::find_if(after.begin(), after.end(), [](const Annotation& a) { return !is_kind(a, Annotation::Kind::Nag); });
  after.insert(at, nag_annotation(nag));
}

// The engine's line from `board`, at most `plies` moves, up to its first illegal move.
pgn::Variation engine_line(core::Board board, const std::vector<std::string>& pv, int plies) {
  pgn::Variation v;
  for (const std::string& text : pv) {
    if (static_cast<int>(v.moves.size()) >= plies) break;
    const auto move = core::parse_uci(board, text, core::uci_castling_for(board));
    if (!move) break;
    v.moves.push_back(MoveNode{*move, {}});
    board.make_move(*move);
  }
  return v;
}

// lila's winning chances from the mover's point of view; a mate counts as the limit, +-1.
double mover_chances(core::Score s) {
  if (s.is_mate()) return s.mate_plies() > 0 ? 1.0 : -1.0;
  return winning_chances(s.cp());
}

// The played move was the only one not losing >= 0.2 winning chances (MultiPV 2).
bool only_move(const core::Board& before, core::Move played, const uci::Analysis& a) {
  if (a.lines.size() < 2 || a.lines[0].pv.empty() || before.count_legal() < 2) return false;
  const auto best = core::parse_uci(before, a.lines[0].pv[0], core::uci_castling_for(before));
  return best && *best == played && mover_chances(a.lines[0].score) - mover_chances(a.lines[1].score) >= 0.2;
}

// Everything one judged move gets.
struct MoveContext {
  MainLine& line;
  std::size_t ply;  // the move's, 1-based
  core::Color mover;
  MoveNode& node;
  Eval before_eval, after_eval;
  const uci::Analysis* before_analysis;  // nullptr for a position scored on the board
  // The position before the move, the mover to move (played to when read).
  const core::Board& before() const { return line.at(ply - 1); }
};

// Whether the engine's first move in the position before the move is the move played.
bool played_best(const MoveContext& m) {
  if (!m.before_analysis || m.before_analysis->lines.empty() || m.before_analysis->lines[0].pv.empty()) return false;
  const auto best = core::parse_uci(m.before(), m.before_analysis->lines[0].pv[0], core::uci_castling_for(m.before()));
  return best && *best == m.node.move;
}

// What a judged move gets from us: the NAG, the words and the engine's line (each may be none).
struct OurJudgement {
  int nag = 0;
  std::string words;
  pgn::Variation line;
};

// Where a judgement goes: ours alone after the eval's comment; beside an earlier engine's, after
// its words, marked as ours ("epdd: ...") so that the two judges are told apart, with no NAG
// (the move's assessment is the earlier judgement's, which stays whole). Nothing is added twice:
// words or a line the move already has (a rerun over our own output) stay as they are. Returns
// whether something was added beside an earlier judgement.
bool put_judgement(std::vector<Annotation>& after, OurJudgement ours, bool replace_nags) {
  const bool earlier = std::any_of(after.begin(), after.end(), is_judgement);
  bool added = false;
  if (!ours.words.empty()) {
    const bool same = std::any_of(after.begin(), after.end(), [&](const Annotation& a) {
      return is_judgement(a) && (a.comment == ours.words || a.comment == std::string(kBesidePrefix) + ours.words);
    });
    if (!same) {
      std::size_t at = 0;
      for (std::size_t i = 0; i < after.size(); ++i)
        if (is_kind(after[i], Annotation::Kind::Comment) && (earlier ? is_judgement(after[i]) : at == 0)) at = i + 1;
      after.insert(after.begin() + static_cast<std::ptrdiff_t>(at),
                   comment_annotation(earlier ? std::string(kBesidePrefix) + ours.words : ours.words));
      added = earlier;
    }
  }
  if (ours.nag != 0 && !earlier) put_assessment(after, ours.nag, replace_nags);
  if (!ours.line.moves.empty()) {
    const bool already = std::any_of(after.begin(), after.end(), [&](const Annotation& a) {
      return is_kind(a, Annotation::Kind::Variation) && a.variation.front() == ours.line;
    });
    if (!already) {
      Annotation v{Annotation::Kind::Variation, 0, {}, {}};
      v.variation.push_back(std::move(ours.line));
      after.push_back(std::move(v));
      added = added || earlier;
    }
  }
  return added;
}

// Judges one move, writes what it gets, and returns the judgement for the summary; a judged
// move's better move (SAN, when the engine's first differs from it) goes to `better`. An earlier
// engine judgement at the move is replaced whole (replace_analysis) or kept whole, ours beside
// it (`beside` set when ours was added there).
Judgement judge_move(MoveContext& m, const AnnotateOptions& o, std::string& better, bool& replaced, bool& beside) {
  auto& after = m.node.after;
  replaced = o.replace_analysis && remove_earlier_judgement(after, m.before());
  // lila judges a move only where its analysis has a variation, and has none where the engine's
  // first move is the move played (fishnet's AnalysisBuilder): the engine's own move is never
  // marked, whatever two searches said of the positions around it.
  const Judgement j = played_best(m) ? Judgement::None : judge(o.rule, m.before_eval.score, m.after_eval.score);
  OurJudgement ours;
  if (j == Judgement::None) {
    if (o.only_moves && m.before_analysis && only_move(m.before(), m.node.move, *m.before_analysis)) {
      ours.words = kOnlyMoveComment;
      ours.nag = 1;
    }
    beside = !ours.words.empty() && put_judgement(after, std::move(ours), o.replace_nags);
    return j;
  }
  std::string best_san;
  if (m.before_analysis && !m.before_analysis->lines.empty()) {
    ours.line = engine_line(m.before(), m.before_analysis->lines[0].pv, std::max(o.variation_plies, 1));
    if (!ours.line.moves.empty() && ours.line.moves[0].move != m.node.move) best_san = core::to_san(m.before(), ours.line.moves[0].move);
    else ours.line.moves.clear();
  }
  const bool white = m.mover == core::Color::White;
  better = best_san;
  ours.words = advice_comment(m.before_eval.score, m.after_eval.score, white, j, o.ascii_words, best_san);
  ours.nag = nag(j);
  if (o.variation_plies <= 0) ours.line.moves.clear();
  else if (static_cast<int>(ours.line.moves.size()) > o.variation_plies)
    ours.line.moves.resize(static_cast<std::size_t>(o.variation_plies));
  beside = put_judgement(after, std::move(ours), o.replace_nags);
  return j;
}

// A position's value as lila's accuracy reads it: White's centipawns, a mate as +-1000.
int white_centipawns(core::Score score, core::Color to_move) {
  const bool white = to_move == core::Color::White;
  if (score.is_mate()) return (score.mate_plies() > 0) == white ? 1000 : -1000;
  return white ? score.cp() : -score.cp();
}

bool checkmated(const Eval& e) { return e.score.is_mate() && e.score.mate_plies() == 0; }

// The analyses the game is annotated with: the caller's (searched), or, with evals_from_input
// or an import, those merged into `merged` (read before anything is written into the game), the
// positions answered by the input and the import counted in `out`.
const PositionAnalyses& answers(const pgn::Game& game, const PositionAnalyses& searched, const AnnotateOptions& options,
                                GameOutcome& out, PositionAnalyses& merged) {
  const PositionAnalyses* use = &searched;
  std::vector<bool> given;  // the positions answered by the input's evaluations
  if (options.evals_from_input != AnnotateOptions::InputEvals::Off) {
    input_analyses(game, merged, &out.input_problems);
    for (std::size_t p = 0; p < merged.size(); ++p) {
      const bool has_search = p < searched.size() && searched[p] && !searched[p]->lines.empty();
      // A position fill searched for its line only (plies_to_analyse): the input's score, the
      // engine's line.
      bool from_search = false;
      if (has_search && merged[p] && merged[p]->lines[0].pv.empty()) {
        merged[p]->lines[0].pv = searched[p]->lines[0].pv;
      } else if (has_search) {
        merged[p] = searched[p];
        from_search = true;
      }
      given.push_back(merged[p].has_value() && !from_search);
    }
    use = &merged;
  }
  const auto count_given = [&] { out.from_input += static_cast<std::size_t>(std::count(given.begin(), given.end(), true)); };
  if (!options.imported) {
    count_given();
    return *use;
  }
  // --import: an imported analysis takes a position's place (replace), or the deeper of the two.
  if (use == &searched) merged = searched;
  merged.resize(std::max(merged.size(), game.main.moves.size() + 1));
  core::Board at = game.start;
  for (std::size_t p = 0;; ++p) {
    // (A checkmate or stalemate is scored on the board: no analysis of it counts.)
    if (const auto it = options.imported->find(at.polyglot_key()); it != options.imported->end() && at.count_legal() > 0)
      if (!merged[p] || !options.import_deeper || it->second.depth > merged[p]->depth) {
        merged[p] = it->second;
        ++out.from_import;
        if (p < given.size()) given[p] = false;  // (counted once, as the import's)
      }
    if (p == game.main.moves.size() || game.main.moves[p].move.is_null()) break;
    at.make_move(game.main.moves[p].move);
  }
  count_given();
  return merged;
}

}  // namespace

GameOutcome annotate_game(pgn::Game& game, const PositionAnalyses& searched, const AnnotateOptions& options,
                          PlayerSides players, PositionAnalyses* scratch) {
  GameOutcome out;
  PositionAnalyses local;
  PositionAnalyses& merged = scratch ? *scratch : local;
  const PositionAnalyses& analyses = answers(game, searched, options, out, merged);
  out.plies.reserve(game.main.moves.size());
  const core::Board& start = game.start;
  MainLine line(game);
  const auto& moves = game.main.moves;
  const auto moves_on = [&moves](std::size_t ply) { return ply < moves.size() && !moves[ply].move.is_null(); };
  std::optional<Eval> previous = evaluate(start, analysis_at(analyses, 0), moves_on(0));
  out.positions = game.main.moves.size() + 1;
  // (The usual start without one is not counted: lila's +0.15 below stands for it.)
  out.unevaluated += !previous && !lila_initial(start);
  if (previous) {
    const std::string command = format_eval(previous->score, start.side_to_move(), previous->depth);
    auto& comments = game.main.comments_before;
    if (comments.empty()) comments.insert(comments.begin(), command);
    else replace_eval_in(comments.front(), command);
  }
  // lila never reads an evaluation of the usual start position (a lichess export has none): its
  // judgement, ACPL and accuracy of the first move take Cp.initial, White's +0.15. So does epdd
  // when that position has no evaluation; one it has (searched, or given) is used as it is.
  if (!previous && lila_initial(start))
    previous = Eval{core::Score::centipawns(kInitialCentipawns), 0};
  // Each main-line position's value for the accuracy (White's centipawns), and the moves it rates.
  std::vector<std::optional<int>> values(game.main.moves.size() + 1);
  std::vector<bool> rated(game.main.moves.size(), false);
  if (previous) values[0] = white_centipawns(previous->score, start.side_to_move());
  core::Color mover = start.side_to_move();
  // The board is played to the position before a move only when something reads it (the move's
  // SAN for the report, a judgement's line, a book, a line's end: MainLine).
  for (std::size_t ply = 1; ply <= game.main.moves.size(); ++ply) {
    MoveNode& node = game.main.moves[ply - 1];
    PlyRecord& record = out.plies.emplace_back();
    if (options.move_texts) record.san = core::to_san(line.at(ply - 1), node.move);
    if (node.move.is_null() && out.null_move == 0) out.null_move = ply;
    const auto* before_analysis = analysis_at(analyses, ply - 1);
    const std::optional<Eval> current = evaluate_after(line, ply, analysis_at(analyses, ply), moves_on(ply));
    (out.null_move > 0 ? out.after_null : out.unevaluated) += !current;
    const core::Color to_move = ~mover;  // after the move
    record.to_move = to_move;
    if (current) record.eval = current->score;
    if (current) {
      const std::string command = format_eval(current->score, to_move, current->depth);
      put_eval(node.after, command);
      if (options.position_nags)
        put_position_nag(node.after, current->score, to_move == core::Color::White, options.thresholds);
    }
    const bool earlier = std::any_of(node.after.begin(), node.after.end(), is_judgement);
    // A checkmate is the end of lila's analysis: the mating move has no evaluation after it
    // there, so it is neither judged nor in the ACPL or the accuracy (its [%eval #0] is written).
    if (current && !checkmated(*current)) values[ply] = white_centipawns(current->score, to_move);
    // (The board is played to the move only with a book to look it up in.)
    if (previous && current && !checkmated(*current) && chosen(options, players, mover, node.move, ply) &&
        !(options.book && in_book(options, line.at(ply - 1)))) {
      rated[ply - 1] = true;
      MoveContext m{line, ply, mover, node, *previous, *current,
                    before_analysis && *before_analysis ? &**before_analysis : nullptr};
      bool replaced = false, beside = false;
      const Judgement j = judge_move(m, options, record.better, replaced, beside);
      out.earlier_replaced += replaced;
      out.earlier_kept += earlier && !replaced;
      out.beside += beside;
      record.judgement = j;
      SideSummary& side = mover == core::Color::White ? out.white : out.black;
      side.add(j, centipawn_loss(previous->score, current->score));
    } else {
      out.earlier_kept += earlier;
    }
    mover = to_move;
    previous = current;
  }
  const GameAccuracy accuracy = game_accuracy(values, game.start.side_to_move(), &rated);
  for (std::size_t i = 0; i < out.plies.size(); ++i) out.plies[i].accuracy = accuracy.moves[i];
  if (accuracy.white) out.white.add_game_accuracy(*accuracy.white);
  if (accuracy.black) out.black.add_game_accuracy(*accuracy.black);
  return out;
}

}  // namespace epdd::annotate::detail

namespace epdd::annotate {

int position_nag(core::Score score, core::Color side_to_move, const PositionNagThresholds& t) {
  const bool white_to_move = side_to_move == core::Color::White;
  const bool white_better = score.is_mate() ? (score.mate_plies() > 0) == white_to_move
                                            : (white_to_move ? score.cp() : -score.cp()) > 0;
  const int size = score.is_mate() ? t.decisive : std::abs(score.cp());
  if (!score.is_mate() && size < t.slight) return 10;
  if (size < t.moderate) return white_better ? 14 : 15;
  if (size < t.decisive) return white_better ? 16 : 17;
  return white_better ? 18 : 19;
}

}  // namespace epdd::annotate
