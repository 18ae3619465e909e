// Rendering an annotation run's output: each readable game re-read with its full tree and
// annotated the way lichess annotates (issue 16): `[%eval]` after every main-line move and
// before the first, a NAG and a comment in lila's words on each judged move, the engine's line
// as a variation; optionally `$1` for only moves and `$10`-`$19` for positions. Everything the
// input had is kept; an unreadable game is written back byte for byte. Pure: the analyses come
// from the caller (a store, an engine pool, a test), one game at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "annotate/input_game.hpp"
#include "annotate/judgement.hpp"
#include "annotate/summary.hpp"
#include "core/types.hpp"
#include "pgn/game.hpp"
#include "uci/analysis.hpp"

namespace epdd::annotate {

// Position NAGs from the evaluation after a move, |cp| from White's point of view:
// below `slight` $10 (drawish), below `moderate` $14/$15 (White/Black slightly better), below
// `decisive` $16/$17 (moderately better), else $18/$19 (decisive; every mate too).
struct PositionNagThresholds {
  int slight = 30;
  int moderate = 70;
  int decisive = 200;
};

// The position NAG of an evaluation (as the engine reports it, from `side_to_move`'s point of
// view) by those thresholds. The one implementation: annotate's $10-$19 and the book's PGN.
int position_nag(core::Score score, core::Color side_to_move, const PositionNagThresholds& t);

struct AnnotateOptions {
  JudgeRule rule;                     // default lichess
  bool replace_nags = false;          // our NAG replaces a human's $1-$6 (otherwise the human's stays)
  // An engine's judgement already at a judged move (lichess's words "(0.30 → 1.20) Inaccuracy.
  // c5 was best.", ours from an earlier run, "only move") is one thing: those words, the move's
  // $1-$6 and the variations starting with the move the words name as best. By default it stays
  // whole and ours is added beside it (words "epdd: ...", our line; no second NAG); with
  // replace_analysis all of it goes and ours takes its place (the Annotator tag is then ours
  // alone when no earlier judgement is left in the game).
  bool replace_analysis = false;
  bool only_moves = false;            // analyses have MultiPV 2: `$1` + comment "only move"
  bool position_nags = false;         // $10-$19 after each main-line move
  PositionNagThresholds thresholds;
  int variation_plies = 12;           // the engine line's length (0: no variation)
  int from_ply = 1;                   // moves before this ply (1 = the first move) are not judged
  std::optional<core::Color> side;    // only this side's moves are judged
  // Only moves of the player whose White or Black tag matches are judged: equal to the tag
  // ignoring ASCII case and the spacing (trimmed, none around a comma, a run of it one space:
  // "carlsen, magnus" matches "Carlsen, Magnus" and TWIC's "Carlsen,Magnus"; "Carlsen" does
  // not). A game where neither tag matches judges nothing.
  std::optional<std::string> player;
  // Polyglot keys: a move FROM a book position is not judged (its position is still analysed
  // and gets its [%eval]).
  std::shared_ptr<const std::unordered_set<std::uint64_t>> book;
  // The Annotator tag's value, made by the caller; empty leaves the tag as it is. A game whose
  // Annotator says something else gets "THEIRS; OURS". Parts of THEIRS (split at "; ") equal to
  // OURS, or starting with OURS's first word (an earlier run of the same program with other
  // limits), are dropped first, so a rerun over our own output does not stack.
  std::string annotator;
  // epdd's words in ASCII only ("->" where lichess writes "→"): render_file sets it for an input
  // in Latin-1 (InputGame::latin1), so that the output stays in the input's one encoding.
  bool ascii_words = false;
  // Each game gets the tags WhiteAccuracy and BlackAccuracy (lila's game accuracy, one decimal)
  // and WhiteACPL and BlackACPL, for a side that has them (--accuracy-tags).
  bool accuracy_tags = false;
  // Each summary's PlyRecord::san (the JSON's and the page's moves); false for a caller that
  // makes neither: the SAN of every move is not written for nothing.
  bool move_texts = true;
  // --evals-from-input: the evaluations the games already carry (input_evals.hpp) answer their
  // positions. Off: every position is searched, and what the input had is rewritten from the
  // search. Only: nothing is searched; positions without one have no evaluation (the moves
  // around them are not judged, and counted). Fill: only the positions without one are searched.
  // A position the caller has an analysis of uses that analysis in every mode.
  enum class InputEvals { Off, Only, Fill };
  InputEvals evals_from_input = InputEvals::Off;
  // --import: analyses by position (Polyglot key; analysis_record.hpp) that answer their positions
  // without a search. import_deeper (--merge deeper): the positions are searched all the same, and
  // whichever of the search and the import has the greater depth is used (equal: the search's);
  // otherwise (replace) the import's is used and the position is not searched.
  std::shared_ptr<const std::unordered_map<std::uint64_t, uci::Analysis>> imported;
  bool import_deeper = false;
};

// The plies whose position the engine must analyse (0 = start position, p = after p plies) in
// a readable game: every main-line position from from_ply-1 on that has a legal move (a
// checkmate or stalemate is scored without the engine) and that no null move precedes (UCI
// cannot send one); with evals_from_input Only none, with Fill those of them the game's
// comments give no evaluation of; without those imported (unless import_deeper).
std::vector<std::size_t> plies_to_analyse(const pgn::Game& game, const AnnotateOptions& options);

// Position p's analysis (p = plies from the start), nullopt for those not analysed or failed.
// Its line 1 score is as the engine reports it (from p's side to move); line 2 is read for
// only_moves. A vector shorter than the game is read as nullopt past its end.
using PositionAnalyses = std::vector<std::optional<uci::Analysis>>;

// One main-line move as the annotation page shows it (summary_report.hpp writes it to JSON).
struct PlyRecord {
  std::string san;                   // the move played ("--" for a null move); empty without move_texts
  // The evaluation of the position after it, as the engine reports it (from `to_move`'s point
  // of view), the [%eval] the move got; nullopt where there is none (not analysed, failed).
  std::optional<core::Score> eval;
  core::Color to_move = core::Color::White;  // the side to move after the move
  Judgement judgement = Judgement::None;
  std::string better;                // a judged move's better move (the engine's first), SAN; or empty
  // lila's accuracy of the move (accuracy.hpp), for a move the options judge whose two positions
  // have a value; nullopt otherwise.
  std::optional<double> accuracy;
};

struct GameSummary {
  std::size_t number = 0;
  std::string white, black;
  SideSummary white_side, black_side;
  std::string event, date, result;   // the tags ("" when absent)
  int first_ply = 1;                 // the ply of plies[0]: 1 from the start position, more from a FEN
  std::vector<PlyRecord> plies;      // the main line's moves, in order
};

struct AnnotatedFile {
  std::string pgn;                                        // every game, in input order
  std::vector<GameSummary> games;                         // readable games, in input order
  std::vector<std::pair<std::size_t, std::string>> kept;  // (line, why): games written back unchanged
  std::vector<std::string> notes;                         // anything else a user must hear
  std::size_t evals_from_input = 0;  // positions evaluated from the games' own comments
  std::size_t from_import = 0;       // positions whose analysis came from --import
};

// Whether a White or Black tag of the input names `player` as the --player filter compares
// names (ASCII letter case and the spacing around words and commas aside). Reads the tag pairs
// with the PGN lexer, none of the moves, so that a name that matches no game is said before any
// search.
bool names_player(const InputBytes& bytes, std::string_view player);

// Whether scan_games(bytes) finds a game, without scanning the file: anything the PGN lexer reads
// but escape lines ('%' first) and white space begins one (a lone comment is a game of no moves).
// Reads up to the first such token.
bool holds_a_game(const InputBytes& bytes);

// Renders the file. `games` must be scan_games(bytes) (throws std::invalid_argument when the
// count does not match). Readable games are read again with their full tree (the whole file in
// one pass, one game at a time: a comment after a result stays with the next game),
// annotated, and written in export format (LF line endings); unreadable ones verbatim
// ([begin, end) and a newline), with their line and first error in `kept`. Text after the last
// game that is not white space is written verbatim at the end, with a note. `analyses_of(i)`
// gives game i's analyses (i: index into `games`), called once per readable game, in order.
// With `write`, the text goes there a game at a time, in order, and AnnotatedFile::pgn stays
// empty (a file of many games is never held whole). With `on_game`, each readable game's
// summary goes there as the game is rendered, and AnnotatedFile::games stays empty.
// The input is read a part at a time (a game, a chunk of the text after the last one).
AnnotatedFile render_file(const InputBytes& bytes, const std::vector<InputGame>& games,
                          const std::function<PositionAnalyses(std::size_t)>& analyses_of,
                          const AnnotateOptions& options,
                          const std::function<void(std::string_view)>& write = nullptr,
                          const std::function<void(const GameSummary&)>& on_game = nullptr);
// render_file for a run that searches nothing (--evals-from-input only: the games' own
// evaluations, and the options' imported analyses): no scan before it, the games classified by
// scan_games' rules as they are read, in one pass over an input that is all UTF-8 (one with a
// byte that is not is scanned first, for its Latin-1 games). Each game written back unchanged
// goes to `on_kept` as it is met (after the summaries of the games before it, before those of
// the games after it), and to AnnotatedFile::kept.
AnnotatedFile render_stream(const InputBytes& bytes, const AnnotateOptions& options,
                            const std::function<void(std::string_view)>& write,
                            const std::function<void(const GameSummary&)>& on_game,
                            const std::function<void(const InputGame&)>& on_kept);
AnnotatedFile render_file(std::string_view bytes, const std::vector<InputGame>& games,
                          const std::function<PositionAnalyses(std::size_t)>& analyses_of,
                          const AnnotateOptions& options,
                          const std::function<void(std::string_view)>& write = nullptr,
                          const std::function<void(const GameSummary&)>& on_game = nullptr);

}  // namespace epdd::annotate
