// Inside annotate/: one game's tree annotated in place (render.cpp runs it over a file), and the
// comment words lila writes (advice_words.cpp).
#pragma once

#include <string>
#include <string_view>

#include "annotate/render.hpp"
#include "pgn/game.hpp"

namespace epdd::annotate::detail {

// What annotating one game found: the summary of each side's judged moves and the main-line
// positions that had no evaluation (neither an analysis nor a terminal position).
struct GameOutcome {
  SideSummary white, black;
  std::vector<PlyRecord> plies;  // one per main-line move
  std::size_t positions = 0;   // main-line positions, the start position included
  std::size_t unevaluated = 0;  // the positions after a null move not included
  // The first null move ("--") of the main line: its 1-based index among the moves, and the
  // positions from it on without an evaluation (none is analysed: plies_to_analyse stops there).
  std::size_t null_move = 0;
  std::size_t after_null = 0;
  // Main-line moves with an engine's judgement from before this run (lichess's, an earlier
  // run's): kept whole, or replaced whole (replace_analysis); and those where ours was added
  // beside a kept one.
  std::size_t earlier_kept = 0;
  std::size_t earlier_replaced = 0;
  std::size_t beside = 0;
  // Positions whose evaluation came from the game's own comments (evals_from_input).
  std::size_t from_input = 0;
  // [%eval]s of the input that could not be read (evals_from_input): "ply P: why".
  std::vector<std::string> input_problems;
  // Positions whose analysis came from --import.
  std::size_t from_import = 0;
};

// Which sides' moves the player filter lets through (both when there is no filter).
struct PlayerSides {
  bool white = true;
  bool black = true;
};

// Whether the move at `ply` (1-based), `move` by `mover`, is one the options judge apart from
// the book: from from_ply on, of the chosen side and player, not a null move.
bool chosen(const AnnotateOptions& o, PlayerSides players, core::Color mover, core::Move move, std::size_t ply);
// Whether `before` is a position of the options' book (--book): its moves are not judged.
bool in_book(const AnnotateOptions& o, const core::Board& before);
// Whether the move at `ply` (1-based), `move` from `before`, is one the options judge: chosen
// and not from a book position.
bool selected(const AnnotateOptions& o, PlayerSides players, const core::Board& before, core::Move move, std::size_t ply);

// The usual start position, which lila values as Cp.initial (+0.15) when it has no evaluation.
bool lila_initial(const core::Board& start);

// Annotates `game` (the full tree, as read) with its analyses: evals, judgements, variations,
// only moves and position NAGs as AnnotateOptions says. Tags are not touched. `scratch`: where
// the analyses merged from the input and an import are made (what it holds is overwritten; one
// kept from game to game saves their memory), or none.
GameOutcome annotate_game(pgn::Game& game, const PositionAnalyses& analyses, const AnnotateOptions& options,
                          PlayerSides players, PositionAnalyses* scratch = nullptr);

// lila's Advice.makeComment with eval and best move: "(0.36 → -0.36) Inaccuracy. Ngf3 was best."
// Scores as judge() takes them; `white_moved`: the mover is White; `ascii`: " -> " for the arrow
// (a Latin-1 output); `best_san` empty: no "was best".
std::string advice_comment(core::Score before, core::Score after, bool white_moved, Judgement judgement, bool ascii,
                           std::string_view best_san);

// Whether a comment is exactly one advice_comment() wrote (any scores, words and move): lichess's
// words, so an earlier engine's judgement (lichess's export, a run of ours) is known as one;
// either arrow, " → " or " -> ".
bool is_advice_comment(std::string_view comment);

// The words of a judgement an engine wrote at a move (lichess's export, an earlier run of ours,
// ours beside another's, "only move"): never the eval's comment.
bool is_judgement_words(std::string_view comment);

// The move a judgement's words name as best ("... Nf5 was best."), without a check sign; empty
// if none.
std::string_view named_best(std::string_view comment);

// The first move of a variation hanging after a move, in SAN from the position before that
// move, without a check sign; empty when `a` is no variation or its first move is not legal there.
std::string first_san(const core::Board& before, const pgn::Annotation& a);

// The comment only_moves writes.
inline constexpr std::string_view kOnlyMoveComment = "only move";

// Our words written beside an earlier engine's judgement of the same move start so, to tell the
// two judges apart: "epdd: (1.90 → 3.60) Mistake. Nf5 was best.".
inline constexpr std::string_view kBesidePrefix = "epdd: ";

}  // namespace epdd::annotate::detail
