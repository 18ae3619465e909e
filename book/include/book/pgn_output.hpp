// The backsolved book as one PGN game (issue 17, "The command and outputs"): a GUI replays the
// whole book, its values, judgements and game statistics in one tree.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "annotate/judgement.hpp"
#include "annotate/render.hpp"
#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/first_paths.hpp"

namespace epdd::book {

// How the PGN is written.
struct BookPgnOptions {
  // The rule of the judgement NAGs $6/$2/$4: annotate's (lichess's winning chances by default).
  annotate::JudgeRule rule;
  // The thresholds of the position NAGs $10-$19: annotate's (annotate::position_nag).
  annotate::PositionNagThresholds thresholds;
  // The Site, White, Black and Round tags ("?" is the standard's unknown) and the Annotator's.
  std::string site = "?";
  std::string white = "?";
  std::string black = "?";
  std::string round = "-";
  std::string annotator = "epdd";
  // Names of roots other than the start (EpdInputs::names; first_paths).
  const RootNames* root_names = nullptr;
};

// The whole book as ONE game per root (first_paths: the start position, then every other root, a
// game's FEN start or an EPD record: one game when the book has one root) in PGN export format
// (pgn::export_game: LF line endings, lines under 80 characters), each ending with the blank line
// after its movetext.
//
// Tags: Event "epdd book" (another root's: "epdd book: LABEL", its first_paths label), Site, Date
// "????.??.??", Round, White, Black, Result "*", Annotator; SetUp "1" and FEN when the root is not
// the standard start position; Variant "Chess960" for a Chess960 book.
//
// The tree. Each node's moves are written where the node is first reached breadth first from the
// root (first_paths: the path the EPD `id` names). There the first of its backsolved best moves
// (Backsolved::best_moves; a node without one: its first edge) continues the line, and every
// other edge, in edge order, is a variation (RAV) after that move, each continued recursively
// the same way. So the main line is principal_line from the root, up to the first node of that
// line that is first reached by another path (a transposition) or repeats a position: there the
// line ends with the comment below, and the principal line goes on where the comment says.
// A move into a node that is first reached elsewhere ends its line with a comment
// "transposes to 1. e4 c5 2. Nf3" (that node's first path). A move back into a position on the
// line that led to it (a repetition: the book's cycles) ends its line with "repeats the position
// after 1. Nf3 Nf6" ("repeats the start position" for node 0, "repeats the position of LABEL" for
// another root).
//
// After each move, from the value of the node it reaches (Backsolved's ce of that node, from its
// side to move: the value that node's own EPD record has):
//   - the judgement NAG $6 / $2 / $4: annotate::judge(rule, before, after) with before = the
//     value of the node the move leaves (its side to move, the mover) and after = the value of
//     the node it reaches (its side to move), as annotate judges a played move against the
//     engine's values before and after it. The best move never gets one; none when either node
//     has no value.
//   - the position NAG: annotate::position_nag(value, side to move, thresholds); mates $18/$19.
//   - one comment: "[%eval E]" (annotate::format_eval: White's point of view, pawns with two
//     decimals or #N in moves, no depth), or "no value" for an unvalued node (then no NAG either);
//     then, for a move played in games, " games G: +W =D -L": G the games that played the move
//     (results unknown included), W the White wins among them, D the draws, L the Black wins
//     (White's point of view, as the eval: W + D + L < G when some results are unknown);
//     then "; transposes to ..." or "; repeats ..." as above.
// Before the first move, a comment with the root's "[%eval E]" (or "no value").
// Anonymous nodes are not written. Result "*". An empty book, or one without a position, gives "".
std::string write_book_pgn(const Dag& dag, const Backsolved& values, const BookPgnOptions& options = {});
// The same written as it is made, a part at a time (whole lines), to `sink`: a book of millions
// of positions is never held whole as text or as a game tree. `paths`: the book's first_paths
// (with options.root_names) where the caller has them, else made here.
void write_book_pgn(const Dag& dag, const Backsolved& values, const BookPgnOptions& options,
                    const std::function<void(std::string_view)>& sink, const FirstPaths* paths = nullptr);

}  // namespace epdd::book
