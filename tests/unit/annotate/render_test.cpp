// render_file on hand-made PGN and hand-made analyses: what a game's annotation is (issue 16).
#include <algorithm>
#include <map>

#include "annotate/input_game.hpp"
#include "core/text.hpp"
#include "annotate/polyglot.hpp"
#include "annotate/summary_report.hpp"
#include <nlohmann/json.hpp>
#include "annotate/render.hpp"
#include "annotate_oracle.hpp"
#include "render_support.hpp"

using namespace epdd;
using test::analysis;
using test::cp;
using test::mate;

namespace {

const std::string kOneMove = "[Event \"t\"]\n\n1. e4 *\n";

}  // namespace

TEST_CASE("Every mate case of the lichess rule, in lila's words, with the NAG the oracle recomputes", "[annotate][render]") {
  struct Case {
    core::Score before, after;  // as the engine reports them: White to move, then Black to move
    int nag;
    const char* comment;        // "" when the move is not judged
  };
  const Case c = GENERATE(values<Case>({
      {cp(0), mate(3), 4, "(0.00 → Mate in 2) Checkmate is now unavoidable. d4 was best."},
      {cp(-800), mate(3), 2, "(-8.00 → Mate in 2) Checkmate is now unavoidable. d4 was best."},
      {cp(-1000), mate(3), 6, "(-10.00 → Mate in 2) Checkmate is now unavoidable. d4 was best."},
      {mate(3), cp(500), 4, "(Mate in 2 → -5.00) Lost forced checkmate sequence. d4 was best."},
      {mate(3), cp(-800), 2, "(Mate in 2 → 8.00) Lost forced checkmate sequence. d4 was best."},
      {mate(3), cp(-1000), 6, "(Mate in 2 → 10.00) Lost forced checkmate sequence. d4 was best."},
      {mate(3), mate(1), 4, "(Mate in 2 → Mate in 1) Lost forced checkmate sequence. d4 was best."},
      {mate(3), mate(-2), 0, ""},
      {mate(-2), mate(1), 0, ""},
      {cp(300), cp(300), 4, "(3.00 → -3.00) Blunder. d4 was best."},
      {cp(50), cp(50), 6, "(0.50 → -0.50) Inaccuracy. d4 was best."},
      {cp(50), cp(-40), 0, ""},
  }));
  const auto r = test::render(kOneMove, test::always({analysis(c.before, 20, {"d2d4", "d7d5"}), analysis(c.after, 18, {"e7e5"})}));
  REQUIRE(r.read_back.size() == 1);
  CHECK(r.read_back_errors == 0);
  const pgn::Game& g = r.read_back[0];
  INFO(r.file.pgn);
  CHECK(test::oracle::written_nags(g) == std::vector<int>{c.nag});
  CHECK(test::oracle::expected_nags(g, {}) == std::vector<std::optional<int>>{c.nag});
  CHECK(test::oracle::eval_form_problems(r.file.pgn).empty());
  const std::string moves = test::movetext(r.file.pgn);
  if (c.nag) {
    CHECK(moves.find(std::string("{") + c.comment + "} (1. d4 d5) *") != std::string::npos);
  } else {
    CHECK(moves.find("was best") == std::string::npos);
    CHECK(moves.find('(') == std::string::npos);
  }
}

TEST_CASE("The whole text of a judged move: eval, NAG, comment, variation, Annotator", "[annotate][render]") {
  annotate::AnnotateOptions o;
  o.annotator = "epdd 0.1, Stockfish 15.1, nodes 1000";
  const auto r = test::render(kOneMove, test::always({analysis(cp(0), 20, {"d2d4", "d7d5"}), analysis(mate(3), 18, {"e7e5"})}), o);
  CHECK(r.file.pgn.rfind(
            "[Event \"t\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
            "[Result \"*\"]\n[Annotator \"epdd 0.1, Stockfish 15.1, nodes 1000\"]\n\n{[%eval 0.00,20]} 1. e4 $4", 0) == 0);
  CHECK(test::movetext(r.file.pgn) ==
        "{[%eval 0.00,20]} 1. e4 $4 {[%eval #-2,18]} {(0.00 → Mate in 2) Checkmate is now unavoidable. d4 was best.} "
        "(1. d4 d5) *");
  CHECK(r.file.pgn.ends_with(" *\n\n"));
  REQUIRE(r.file.games.size() == 1);
  CHECK(r.file.games[0].white_side.blunders == 1);
  CHECK(r.file.games[0].white_side.average_centipawn_loss() == 1000);
  CHECK(r.file.kept.empty());
  CHECK(r.file.notes.empty());
}

TEST_CASE("A human NAG stays unless replace_nags, and so does every comment text, [%clk] and variation", "[annotate][render]") {
  const std::string text =
      "[Event \"t\"]\n\n{Intro [%eval 9.99]} 1. e4! {[%eval 1.5] [%clk 0:03:00] good [%csl Ge4]} (1. d4 {alt}) $14 *\n";
  const annotate::PositionAnalyses a = {analysis(cp(300), 20, {"g1f3", "d7d5", "d2d4"}), analysis(cp(300), 18)};
  SECTION("kept") {
    const auto r = test::render(text, test::always(a));
    CHECK(test::movetext(r.file.pgn) ==
          "{Intro [%eval 3.00,20]} 1. e4 $1 {[%eval -3.00,18] [%clk 0:03:00] good [%csl Ge4]} {(3.00 → -3.00) "
          "Blunder. Nf3 was best.} (1. d4 {alt}) $14 (1. Nf3 d5 2. d4) *");
    CHECK(test::oracle::expected_nags(r.read_back[0], {}) == std::vector<std::optional<int>>{4});
    CHECK(test::oracle::written_nags(r.read_back[0]) == std::vector<int>{1});
  }
  SECTION("replaced, with a shorter variation") {
    annotate::AnnotateOptions o;
    o.replace_nags = true;
    o.variation_plies = 2;
    const auto r = test::render(text, test::always(a), o);
    CHECK(test::movetext(r.file.pgn) ==
          "{Intro [%eval 3.00,20]} 1. e4 $4 {[%eval -3.00,18] [%clk 0:03:00] good [%csl Ge4]} {(3.00 → -3.00) "
          "Blunder. Nf3 was best.} (1. d4 {alt}) $14 (1. Nf3 d5) *");
  }
  SECTION("no variation") {
    annotate::AnnotateOptions o;
    o.variation_plies = 0;
    const auto r = test::render(text, test::always(a), o);
    CHECK(test::movetext(r.file.pgn).find("(1. Nf3") == std::string::npos);
    CHECK(test::movetext(r.file.pgn).find("Nf3 was best.") != std::string::npos);
  }
}

namespace {

// A lichess export of an analysed game (issue 39, item 1): lichess's NAG, its words and its line
// at each move it judged; [%eval]s, a [%clk], and a human's comment and variation beside them.
const std::string kLichess =
    "[Event \"Rated blitz game\"]\n[Annotator \"lichess.org\"]\n\n"
    "1. e4 { [%eval 0.3] [%clk 0:03:00] } 1... e5?! { [%eval 1.2] } { (0.30 → 1.20) Inaccuracy. c5 was best. } "
    "( 1... c5 2. Nf3 ) 2. Nf3? { [%eval -0.8] } { (1.20 → -0.80) Mistake. Bc4 was best. } ( 2. Bc4 Nf6 ) "
    "{ a human's words } ( 2. d4 { a human's line } ) 2... Nc6 *\n";

// The engine of this run: 1...e5 a mistake (Nc6 best), 2.Nf3 good, 2...Nc6 a blunder (a5 best).
const annotate::PositionAnalyses kOurs = {
    analysis(cp(30), 12, {"e2e4"}), analysis(cp(-30), 12, {"b8c6", "g1f3"}), analysis(cp(200), 12, {"g1f3"}),
    analysis(cp(-200), 12, {"a7a5"}), analysis(cp(500), 12, {"f3e5"})};

}  // namespace

TEST_CASE("An earlier engine's judgement is one thing: kept whole with ours beside it, or replaced whole", "[annotate][render]") {
  annotate::AnnotateOptions o;
  o.annotator = "epdd test";
  SECTION("kept whole by default, ours beside it, named") {
    const auto r = test::render(kLichess, test::always(kOurs), o);
    CHECK(test::movetext(r.file.pgn) ==
          "{[%eval 0.30,12]} 1. e4 {[%eval 0.30,12] [%clk 0:03:00]} 1... e5 $6 {[%eval 2.00,12]} "
          "{(0.30 → 1.20) Inaccuracy. c5 was best.} {epdd: (0.30 → 2.00) Mistake. Nc6 was best.} (1... c5 2. Nf3) "
          "(1... Nc6 2. Nf3) 2. Nf3 $2 {[%eval 2.00,12]} {(1.20 → -0.80) Mistake. Bc4 was best.} (2. Bc4 Nf6) "
          "{a human's words} (2. d4 {a human's line}) 2... Nc6 $4 {[%eval 5.00,12]} {(2.00 → 5.00) Blunder. a5 was best.} "
          "(2... a5) *");
    CHECK(r.read_back.at(0).tag("Annotator").value_or("") == "lichess.org; epdd test");
    REQUIRE(r.file.notes.size() == 1);
    CHECK(r.file.notes[0] == "game 1 (line 1): 1 move keeps an earlier engine's judgement whole, epdd's beside it as "
                             "\"epdd: ...\" (--replace-analysis: epdd's alone)");
    // The summary counts our judgements, not lichess's.
    REQUIRE(r.file.games.size() == 1);
    CHECK(r.file.games[0].black_side.mistakes == 1);
    CHECK(r.file.games[0].black_side.blunders == 1);
    CHECK(r.file.games[0].white_side.mistakes == 0);
  }
  SECTION("replaced whole: lichess's words, NAG and line go together, a human's stay") {
    o.replace_analysis = true;
    const auto r = test::render(kLichess, test::always(kOurs), o);
    CHECK(test::movetext(r.file.pgn) ==
          "{[%eval 0.30,12]} 1. e4 {[%eval 0.30,12] [%clk 0:03:00]} 1... e5 $2 {[%eval 2.00,12]} "
          "{(0.30 → 2.00) Mistake. Nc6 was best.} (1... Nc6 2. Nf3) 2. Nf3 {[%eval 2.00,12]} "
          "{a human's words} (2. d4 {a human's line}) 2... Nc6 $4 {[%eval 5.00,12]} {(2.00 → 5.00) Blunder. a5 was best.} "
          "(2... a5) *");
    CHECK(r.read_back.at(0).tag("Annotator").value_or("") == "epdd test");
    CHECK(r.file.notes.empty());
    // Every NAG the output has is the one the oracle recomputes from its [%eval]s.
    CHECK(test::oracle::written_nags(r.read_back.at(0)) == std::vector<int>{0, 2, 0, 4});
  }
  SECTION("a move judged before and not by us keeps its judgement whole, also when replacing elsewhere") {
    o.replace_analysis = true;
    o.side = core::Color::Black;
    const auto r = test::render(kLichess, test::always(kOurs), o);
    CHECK(test::movetext(r.file.pgn).find("2. Nf3 $2 {[%eval 2.00,12]} {(1.20 → -0.80) Mistake. Bc4 was best.} (2. Bc4 Nf6)") !=
          std::string::npos);
    CHECK(r.read_back.at(0).tag("Annotator").value_or("") == "lichess.org; epdd test");
  }
  SECTION("our own output annotated again by the same engine is unchanged; by another, ours beside") {
    const auto first = test::render(kLichess, test::always(kOurs), o);
    CHECK(test::render(first.file.pgn, test::always(kOurs), o).file.pgn == first.file.pgn);
    o.replace_analysis = true;
    const auto replaced = test::render(kLichess, test::always(kOurs), o);
    CHECK(test::render(replaced.file.pgn, test::always(kOurs), o).file.pgn == replaced.file.pgn);
    o.replace_analysis = false;
    annotate::PositionAnalyses other = kOurs;
    other[1] = analysis(cp(-90), 14, {"d7d5"});
    const auto again = test::render(replaced.file.pgn, test::always(other), o);
    CHECK(test::movetext(again.file.pgn).find("1... e5 $2 {[%eval 2.00,12]} {(0.30 → 2.00) Mistake. Nc6 was best.} "
                                               "{epdd: (0.90 → 2.00) Inaccuracy. d5 was best.} (1... Nc6 2. Nf3) (1... d5)") !=
          std::string::npos);
  }
}

TEST_CASE("The engine's own move played is never judged, as on lichess, but its loss still counts", "[annotate][render]") {
  // lila judges a move only where its analysis has a variation, and fishnet gives none when the
  // engine's first move is the move played (AnalysisBuilder: `case first :: rest if first !=
  // move`; Analysis.infoAdvices: `if info.hasVariation`), however far two searches' scores drift.
  const auto r = test::render(kOneMove, test::always({analysis(cp(300), 20, {"e2e4", "e7e5"}), analysis(cp(300), 18)}));
  CHECK(test::movetext(r.file.pgn) == "{[%eval 3.00,20]} 1. e4 {[%eval -3.00,18]} *");
  REQUIRE(r.file.games.size() == 1);
  const auto& white = r.file.games[0].white_side;
  CHECK(white.blunders == 0);
  CHECK(white.moves == 1);  // lila's ACPL and accuracy count every move with two evaluations
  CHECK(white.average_centipawn_loss() == 600);
  REQUIRE(r.file.games[0].plies.at(0).accuracy);
  CHECK(*r.file.games[0].plies[0].accuracy < 10);
}

TEST_CASE("An engine line stops at its first illegal move", "[annotate][render]") {
  const auto r = test::render(kOneMove, test::always({analysis(cp(300), 20, {"d2d4", "d7d5", "e1e8", "c2c4"}), analysis(cp(300), 18)}));
  CHECK(test::movetext(r.file.pgn).find("(1. d4 d5) *") != std::string::npos);
}

TEST_CASE("Only moves: $1 and 'only move' when line 2 loses 0.2 winning chances, never for a single legal move", "[annotate][render]") {
  annotate::AnnotateOptions o;
  o.only_moves = true;
  auto two_lines = [](core::Score first, core::Score second, std::string move) {
    uci::Analysis a = analysis(first, 20, {std::move(move)});
    uci::PvLine l2;
    l2.multipv = 2;
    l2.score = second;
    l2.pv = {"a2a3"};
    a.lines.push_back(l2);
    return a;
  };
  SECTION("the only move") {
    const auto r = test::render(kOneMove, test::always({two_lines(cp(100), cp(-60), "e2e4"), analysis(cp(-100), 18)}), o);
    CHECK(test::movetext(r.file.pgn) == "{[%eval 1.00,20]} 1. e4 $1 {[%eval 1.00,18]} {only move} *");
  }
  SECTION("line 2 is nearly as good") {
    const auto r = test::render(kOneMove, test::always({two_lines(cp(100), cp(20), "e2e4"), analysis(cp(-100), 18)}), o);
    CHECK(test::movetext(r.file.pgn) == "{[%eval 1.00,20]} 1. e4 {[%eval 1.00,18]} *");
  }
  SECTION("a mate against the mover on line 2") {
    const auto r = test::render(kOneMove, test::always({two_lines(cp(0), mate(-4), "e2e4"), analysis(cp(0), 18)}), o);
    CHECK(test::movetext(r.file.pgn).find("$1") != std::string::npos);
  }
  SECTION("a single legal move") {
    const std::string text = "[FEN \"7k/8/8/8/8/8/6q1/K7 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kb1 *\n";
    const auto r = test::render(text, test::always({two_lines(cp(-900), mate(-2), "a1b1"), analysis(cp(900), 18)}), o);
    CHECK(test::movetext(r.file.pgn).find("only move") == std::string::npos);
  }
}

TEST_CASE("Position NAGs after each main-line move from the eval and the thresholds, not twice", "[annotate][render]") {
  annotate::AnnotateOptions o;
  o.position_nags = true;
  struct Case {
    core::Score after;  // Black to move
    int nag;
  };
  const Case c = GENERATE(values<Case>({{cp(0), 10}, {cp(-29), 10}, {cp(-30), 14}, {cp(30), 15}, {cp(-69), 14},
                                        {cp(-70), 16}, {cp(150), 17}, {cp(-200), 18}, {cp(999), 19}, {mate(1), 19}, {mate(-2), 18}}));
  const auto r = test::render(kOneMove, test::always({analysis(cp(0), 20), analysis(c.after, 18)}), o);
  INFO(r.file.pgn);
  int count = 0;
  for (const auto& a : r.read_back.at(0).main.moves.at(0).after) count += a.kind == pgn::Annotation::Kind::Nag && a.nag == c.nag;
  CHECK(count == 1);
  const auto again = test::render(r.file.pgn, test::always({analysis(cp(0), 20), analysis(c.after, 18)}), o);
  CHECK(again.file.pgn == r.file.pgn);
}

TEST_CASE("Selection: from_ply, side, player and book moves are not judged but keep their evals", "[annotate][render]") {
  const std::string text = "[White \"Alice Smith\"]\n[Black \"Bob\"]\n\n1. e4 e5 2. Qh5 Ke7 *\n";
  // Every move loses 3 pawns: each one is a blunder unless the selection says otherwise.
  const annotate::PositionAnalyses a = {analysis(cp(300), 1), analysis(cp(300), 1), analysis(cp(300), 1),
                                        analysis(cp(300), 1), analysis(cp(300), 1)};
  const auto nags = [&](const annotate::AnnotateOptions& o) {
    const auto r = test::render(text, test::always(a), o);
    CHECK(test::oracle::eval_form_problems(r.file.pgn).empty());
    return test::oracle::written_nags(r.read_back.at(0));
  };
  annotate::AnnotateOptions o;
  CHECK(nags(o) == std::vector<int>{4, 4, 4, 4});
  o.from_ply = 3;
  CHECK(nags(o) == std::vector<int>{0, 0, 4, 4});
  o = {};
  o.side = core::Color::Black;
  CHECK(nags(o) == std::vector<int>{0, 4, 0, 4});
  o = {};
  o.player = "  alice SMITH ";
  CHECK(nags(o) == std::vector<int>{4, 0, 4, 0});
  o.player = "Alice";
  CHECK(nags(o) == std::vector<int>{0, 0, 0, 0});
  // The spacing of a name is not the name (issue 39, item 9): "Carlsen, Magnus" is the TWIC tag
  // "Carlsen,Magnus", and runs of spaces are one.
  const std::string twic = "[White \"Carlsen,Magnus\"]\n[Black \"So,  Wesley\"]\n\n1. e4 e5 2. Qh5 Ke7 *\n";
  for (const char* name : {"Carlsen, Magnus", "carlsen ,magnus", "Carlsen,Magnus"}) {
    o.player = name;
    INFO(name);
    CHECK(test::oracle::written_nags(test::render(twic, test::always(a), o).read_back.at(0)) == std::vector<int>{4, 0, 4, 0});
  }
  o.player = "So, Wesley";
  CHECK(test::oracle::written_nags(test::render(twic, test::always(a), o).read_back.at(0)) == std::vector<int>{0, 4, 0, 4});
  o.player = "Carlsen, M";
  CHECK(test::oracle::written_nags(test::render(twic, test::always(a), o).read_back.at(0)) == std::vector<int>{0, 0, 0, 0});
  o = {};
  core::Board start;
  auto book = std::make_shared<std::unordered_set<std::uint64_t>>();
  book->insert(start.polyglot_key());  // the start position: 1. e4 is a book move
  o.book = book;
  CHECK(nags(o) == std::vector<int>{0, 4, 4, 4});
  const auto plies = annotate::plies_to_analyse(test::game_of(text, 0), o);
  CHECK(plies == std::vector<std::size_t>{0, 1, 2, 3, 4});  // the book position is still analysed
  o = {};
  o.from_ply = 3;
  CHECK(annotate::plies_to_analyse(test::game_of(text, 0), o) == std::vector<std::size_t>{2, 3, 4});
}

TEST_CASE("The summary counts judged moves per side as lila counts ACPL", "[annotate][render]") {
  const std::string text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Qh5 Ke7 *\n";
  const annotate::PositionAnalyses a = {analysis(cp(20), 1), analysis(cp(-20), 1), analysis(cp(80), 1),
                                        analysis(cp(-2000), 1), analysis(mate(1), 1)};
  const auto r = test::render(text, test::always(a));
  REQUIRE(r.file.games.size() == 1);
  const auto& w = r.file.games[0].white_side;
  const auto& b = r.file.games[0].black_side;
  // White: 20 -> 20 (loss 0), 80 -> 1000 (gain): ACPL 0. Black: -20 -> -80 (60), -1000 capped -> mated (0).
  CHECK(w.moves == 2);
  CHECK(w.average_centipawn_loss() == 0);
  CHECK(b.moves == 2);
  CHECK(b.average_centipawn_loss() == 30);
}

TEST_CASE("Annotator: set, appended to another, never stacked on a rerun", "[annotate][render]") {
  annotate::AnnotateOptions o;
  o.annotator = "epdd 0.1 Stockfish nodes 1000";
  const auto tag = [&](const std::string& text) {
    const auto r = test::render(text, test::always({}), o);
    return std::string(r.read_back.at(0).tag("Annotator").value_or("(none)"));
  };
  CHECK(tag("1. e4 *") == "epdd 0.1 Stockfish nodes 1000");
  CHECK(tag("[Annotator \"GM Someone\"]\n\n1. e4 *") == "GM Someone; epdd 0.1 Stockfish nodes 1000");
  CHECK(tag("[Annotator \"GM Someone; epdd 0.1 Stockfish nodes 1000\"]\n\n1. e4 *") == "GM Someone; epdd 0.1 Stockfish nodes 1000");
  CHECK(tag("[Annotator \"GM Someone; epdd 0.1 Stockfish depth 9\"]\n\n1. e4 *") == "GM Someone; epdd 0.1 Stockfish nodes 1000");
  CHECK(tag("[Annotator \"epdd 0.1 Stockfish nodes 1000\"]\n\n1. e4 *") == "epdd 0.1 Stockfish nodes 1000");
}

TEST_CASE("Idempotence: annotating our own output again changes nothing", "[annotate][render]") {
  const std::string text = "[Event \"t\"]\n\n1. e4 {[%clk 0:01:00]} e5 2. Qh5 (2. Nf3 {usual}) Ke7 3. Qxe5# 1-0\n";
  const annotate::PositionAnalyses a = {analysis(cp(30), 12, {"d2d4", "d7d5"}), analysis(cp(-30), 12, {"g8f6"}),
                                        analysis(cp(30), 12, {"g1f3", "b8c6"}), analysis(cp(-300), 12, {"g7g6", "h5e5"}),
                                        analysis(mate(1), 12, {"h5e5"})};
  annotate::AnnotateOptions o;
  o.position_nags = true;
  o.annotator = "epdd test";
  const auto first = test::render(text, test::always(a), o);
  const auto second = test::render(first.file.pgn, test::always(a), o);
  CHECK(second.file.pgn == first.file.pgn);
  CHECK(test::oracle::eval_form_problems(first.file.pgn).empty());
  // The game ends in checkmate: its last eval is #0 (Black is mated), with no engine.
  CHECK(first.file.pgn.find("3. Qxe5# $18 {[%eval #0]} 1-0") != std::string::npos);
  const auto nags = test::oracle::expected_nags(first.read_back.at(0), {});
  CHECK(nags == std::vector<std::optional<int>>{0, 0, 0, 4, 0});
  CHECK(test::oracle::written_nags(first.read_back.at(0)) == std::vector<int>{0, 0, 0, 4, 0});
}

TEST_CASE("An unreadable game is written back byte for byte and reported with its line", "[annotate][render]") {
  const std::string bad = "[Event \"bad\"]\r\n\r\n1. e4 e5 2. Ke3 {odd}  Nc6 1-0";
  const std::string text = "[Event \"good\"]\n\n1. d4 *\n\n" + bad + "\r\n\r\n[Event \"third\"]\n\n1. c4 *\n";
  const auto games = annotate::scan_games(text);
  REQUIRE(games.size() == 3);
  CHECK_FALSE(games[1].readable);
  CHECK(games[1].line == 5);
  CHECK(games[1].problem.rfind("7:13: ", 0) == 0);
  CHECK(text.substr(games[1].begin, games[1].end - games[1].begin) == bad);
  CHECK(games[1].plies == 0);  // none of its positions is analysed
  std::vector<std::size_t> asked;
  const auto file = annotate::render_file(text, games, [&](std::size_t i) {
    asked.push_back(i);
    return annotate::PositionAnalyses{analysis(cp(0), 5)};
  }, {});
  CHECK(asked == std::vector<std::size_t>{0, 2});
  CHECK(file.pgn.find("\n" + bad + "\n") != std::string::npos);
  REQUIRE(file.kept.size() == 1);
  CHECK(file.kept[0].first == 5);
  CHECK(file.kept[0].second == games[1].problem);
  CHECK(file.games.size() == 2);
  pgn::Diagnostics diags;
  CHECK(pgn::read_games(file.pgn, diags).size() == 3);
}

TEST_CASE("Text between games goes with the next game, text after the last is kept, CRLF input is read", "[annotate][render]") {
  const std::string text = "\xEF\xBB\xBF[Event \"a\"]\r\n\r\n1. e4 1-0 {after one}\r\n\r\n%escape\r\n[Event \"b\"]\r\n\r\n1. d4 *\r\n{tail}\r\n";
  const auto games = annotate::scan_games(text);
  REQUIRE(games.size() == 2);
  CHECK(games[0].begin == 0);
  CHECK(text.substr(0, games[0].end).ends_with("1. e4 1-0"));
  CHECK(text.substr(games[1].begin).rfind("{after one}", 0) == 0);
  CHECK(games[0].readable);  // the reader's error about the comment after its result is past its end
  CHECK(games[1].readable);
  const auto r = test::render(text, test::always({analysis(cp(0), 5), analysis(cp(0), 5)}));
  INFO(r.file.pgn);
  CHECK(r.file.pgn.find("\r") == r.file.pgn.rfind("{tail}\r") + 6);  // CR only in the verbatim tail
  CHECK(r.file.pgn.find("{[%eval 0.00,5] after one} 1. d4") != std::string::npos);  // the root eval joins it
  CHECK(r.file.pgn.find("%escape\n") != std::string::npos);
  CHECK(r.file.pgn.ends_with("{tail}\r\n"));
  REQUIRE(r.file.notes.size() == 1);
  CHECK(r.file.notes[0].rfind("line 9: ", 0) == 0);
}

TEST_CASE("A game from a FEN with Black to move first, and one ending in stalemate", "[annotate][render]") {
  const std::string text =
      "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n[SetUp \"1\"]\n\n1... e5 2. Nf3 *\n\n"
      "[FEN \"k7/8/8/8/8/8/8/1Q5K w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Qb6 1/2-1/2\n";
  const auto games = annotate::scan_games(text);
  REQUIRE(games.size() == 2);
  CHECK(annotate::plies_to_analyse(test::game_of(text, 1), {}) == std::vector<std::size_t>{0});  // the stalemate needs no engine
  const auto r = test::render(text, [](const pgn::Game& g) {
    if (g.number == 1)
      return annotate::PositionAnalyses{analysis(cp(-30), 10, {"c7c5"}), analysis(cp(300), 10), analysis(cp(-300), 10)};
    return annotate::PositionAnalyses{analysis(cp(1000), 10, {"h1g2"})};
  });
  INFO(r.file.pgn);
  CHECK(r.read_back_errors == 0);
  std::string out = r.file.pgn;
  std::replace(out.begin(), out.end(), '\n', ' ');
  CHECK(out.find("{[%eval 0.30,10]} 1... e5 $4 {[%eval 3.00,10]} {(0.30 → 3.00) Blunder. c5 was best.} (1... c5)") !=
        std::string::npos);
  CHECK(out.find("{[%eval 10.00,10]} 1. Qb6 $4 {[%eval 0.00]} {(10.00 → 0.00) Blunder. Kg2 was best.} (1. Kg2) 1/2-1/2") !=
        std::string::npos);
  for (const pgn::Game& g : r.read_back)
    CHECK(test::oracle::expected_nags(g, {}) == [&] {
      std::vector<std::optional<int>> w;
      for (int n : test::oracle::written_nags(g)) w.push_back(n);
      return w;
    }());
  CHECK(test::oracle::eval_form_problems(r.file.pgn).empty());
}

TEST_CASE("The cp: rule judges by lila's capped centipawn loss, mates as +-1000", "[annotate][render]") {
  annotate::AnnotateOptions o;
  o.rule = *annotate::parse_judge_rule("cp:50,100,300");
  const test::oracle::Rule rule{false, 50, 100, 300};
  struct Case {
    core::Score before, after;
    int nag;
  };
  const Case c = GENERATE(values<Case>({{cp(0), cp(49), 0}, {cp(0), cp(50), 6}, {cp(0), cp(100), 2}, {cp(0), cp(300), 4},
                                        {cp(2000), cp(-950), 6}, {cp(2000), cp(-900), 2}, {mate(5), cp(-900), 2}, {cp(0), mate(3), 4},
                                        {mate(3), mate(-2), 0}, {mate(-2), mate(1), 0}}));
  const auto r = test::render(kOneMove, test::always({analysis(c.before, 9, {"d2d4"}), analysis(c.after, 9)}), o);
  INFO(r.file.pgn);
  CHECK(test::oracle::written_nags(r.read_back.at(0)) == std::vector<int>{c.nag});
  CHECK(test::oracle::expected_nags(r.read_back.at(0), rule) == std::vector<std::optional<int>>{c.nag});
}

TEST_CASE("Positions without analysis get no eval, and a note says how many", "[annotate][render]") {
  const auto r = test::render(kOneMove, test::always({analysis(cp(10), 5)}));
  CHECK(test::movetext(r.file.pgn) == "{[%eval 0.10,5]} 1. e4 *");
  REQUIRE(r.file.notes.size() == 1);
  CHECK(r.file.notes[0].rfind("game 1 (line 1): 1 of 2 positions have no evaluation", 0) == 0);
  CHECK(r.file.games.at(0).white_side.moves == 0);
}

TEST_CASE("Polyglot keys: 16-byte big-endian entries, a cut file is an error", "[annotate][polyglot]") {
  std::string book(32, '\0');
  const std::uint64_t key = core::Board().polyglot_key();
  for (int i = 0; i < 8; ++i) book[static_cast<std::size_t>(16 + i)] = static_cast<char>(key >> (56 - 8 * i));
  const auto keys = annotate::polyglot_keys(book);
  REQUIRE(keys);
  CHECK(keys->size() == 2);
  CHECK(keys->contains(key));
  CHECK(keys->contains(0));
  const auto cut = annotate::polyglot_keys(book.substr(0, 20));
  REQUIRE_FALSE(cut);
  CHECK(cut.error().find("20 bytes (4 left over)") != std::string::npos);
  // Not a book though of the right size (issue 39, item 9): keys out of order, or nothing.
  const auto unsorted = annotate::polyglot_keys(book.substr(16) + book.substr(0, 16));
  REQUIRE_FALSE(unsorted);
  CHECK(unsorted.error() == "entry 2 has a key smaller than the one before: a Polyglot book is sorted by key, so this file is not one");
  const auto pgn = annotate::polyglot_keys("[Event \"xxxxxxxx\"]\n\n1. e4 *\n\n\n\n\n");  // 32 bytes
  REQUIRE_FALSE(pgn);
  CHECK(pgn.error().rfind("entry 2 has a key smaller", 0) == 0);
  CHECK_FALSE(annotate::polyglot_keys(""));
}

TEST_CASE("The summary per game side and per player over the file, as JSON and text", "[annotate][render][summary]") {
  const std::string text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 *\n\n[White \"B\"]\n[Black \"A\"]\n\n1. d4 *\n\n"
                           "[White \"C\"]\n\n1. e4 e5 2. Ke3 *\n";
  const auto r = test::render(text, test::always({analysis(cp(300), 9, {"c2c4"}), analysis(cp(300), 9)}));
  const std::string json = annotate::summary_json(r.file, "Stockfish 15.1", "nodes 1000");
  INFO(json);
  const auto parsed = nlohmann::json::parse(json);
  CHECK(parsed["engine"] == "Stockfish 15.1");
  CHECK(parsed["games"].size() == 2);
  CHECK(parsed["games"][0]["white_side"]["blunders"] == 1);
  CHECK(parsed["games"][0]["black_side"]["acpl"].is_null());
  REQUIRE(parsed["players"].size() == 2);
  CHECK(parsed["players"][0]["name"] == "A");
  CHECK(parsed["players"][0]["games"] == 2);
  CHECK(parsed["players"][0]["blunders"] == 1);
  CHECK(parsed["players"][1]["name"] == "B");
  CHECK(parsed["players"][1]["blunders"] == 1);
  REQUIRE(parsed["kept"].size() == 1);
  CHECK(parsed["kept"][0]["line"] == 11);
  const std::string summary = annotate::summary_text(r.file);
  // accuracy: White's winning percent 75.1 -> 24.9, 103.1668 x exp(-0.0435442 x 50.2) - 3.1669 + 1 = 9.4
  CHECK(summary.find("game 1: A - B\n  White 0 inaccuracies, 0 mistakes, 1 blunder, ACPL 600, accuracy 9% (1 move judged)\n") !=
        std::string::npos);
  CHECK(summary.find("kept unchanged") == std::string::npos);  // the caller lists them, with the file's name
  REQUIRE(r.file.kept.size() == 1);
}

TEST_CASE("Positions after a null move are said to be left without evaluation, and why", "[annotate][render]") {
  // Issue 39, item 11: they had no [%eval] and no word. Plies 0 and 1 are analysed here, as
  // plies_to_analyse asks for; those from the null move on are not.
  const std::string text = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 -- 2. d4 e5 *\n";
  pgn::Diagnostics diags;
  REQUIRE(annotate::plies_to_analyse(pgn::read_games(text, diags).at(0), {}) == std::vector<std::size_t>{0, 1});
  const auto r = test::render(text, test::always({analysis(cp(30), 9, {"e2e4"}), analysis(cp(30), 9, {"e7e5"})}));
  INFO(r.file.pgn);
  REQUIRE(r.file.notes.size() == 1);
  CHECK(r.file.notes[0] == "game 1 (line 1): no evaluation from the null move on (1... --): a null move makes a position no game "
                           "reaches, and epdd asks the engine about none after it (3 of 5 positions); their moves are "
                           "not judged");
}

TEST_CASE("holds_a_game says what scan_games finds, without scanning the file", "[annotate][render]") {
  // The refusal of an input with no game (issue 39, item 9) is made before a job from this; the
  // run's count is scan_games'. They must agree on every kind of text, empty to odd.
  const std::vector<std::string> inputs = {"",          " \n\t\n",     "%escape\n",     "%a\n%b\n\n",
                                           "{comment}", "; line\n",     "x",             "*",
                                           "1.",        "[Event \"a\"]", "!!",            "%e\n{c}",
                                           "\xff\xfe",   "%e\n\n1. e4 *", "\n\n\n%e\n$1"};
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string& text = inputs[i];
    INFO("input " << i);
    const auto bytes = annotate::bytes_in_memory(text);
    CHECK(annotate::holds_a_game(bytes) == !annotate::scan_games(bytes).empty());
  }
}

TEST_CASE("Players named \"?\" or not named are no one player in the totals", "[annotate][render][summary]") {
  // The standard's "?" is an unknown player: two games of unknown players are not one player's
  // two games (issue 39, item 11). Their game lines stay.
  const std::string text = "[White \"?\"]\n[Black \"A\"]\n\n1. e4 *\n\n[White \"?\"]\n[Black \"\"]\n\n1. d4 *\n\n"
                           "[Black \" ? \"]\n\n1. c4 *\n";
  const auto r = test::render(text, test::always({analysis(cp(300), 9, {"c2c4"}), analysis(cp(300), 9)}));
  const auto parsed = nlohmann::json::parse(annotate::summary_json(r.file, "e", "l"));
  CHECK(parsed["games"].size() == 3);
  REQUIRE(parsed["players"].size() == 1);
  CHECK(parsed["players"][0]["name"] == "A");
}

// The JSON summary is written a game at a time; its text must be what a whole-tree dump(2) of
// the same object writes (the oracle below builds that tree the plain way), but for the plies,
// each written compact on a line of its own, for empty and non-empty arrays, escapes, and text
// that is not UTF-8. The plies' values are written here by hand (`plies`, by game number).
TEST_CASE("The JSON summary, written a game at a time, is the text of the whole tree's dump", "[annotate][summary]") {
  using Json = nlohmann::ordered_json;
  std::map<std::size_t, std::vector<Json>> plies;
  const auto oracle = [&](const annotate::AnnotatedFile& f, const std::string& engine, const std::string& limits) {
    const auto side = [](const annotate::SideSummary& s) {
      Json j = Json::object();
      j["inaccuracies"] = s.inaccuracies;
      j["mistakes"] = s.mistakes;
      j["blunders"] = s.blunders;
      j["moves"] = s.moves;
      const auto acpl = s.average_centipawn_loss();
      j["acpl"] = acpl ? Json(*acpl) : Json(nullptr);
      // One decimal; a player's is the plain mean of their games' accuracies.
      j["accuracy"] = s.accuracy_games == 0 ? Json(nullptr) : Json(std::round(s.accuracy_sum / s.accuracy_games * 10) / 10);
      return j;
    };
    Json j;
    j["format"] = "epdd annotation 1";
    j["engine"] = engine;
    j["limits"] = limits;
    j["games"] = Json::array();
    std::vector<std::string> names;
    std::map<std::string, std::pair<int, annotate::SideSummary>> players;
    const auto add = [&](const std::string& name, const annotate::SideSummary& s, bool game) {
      // No name and the standard's "?" (unknown) are nobody's: not totalled as a player.
      std::string trimmed = name;
      trimmed.erase(0, trimmed.find_first_not_of(" \t"));
      trimmed.erase(trimmed.find_last_not_of(" \t") + 1);
      if (trimmed.empty() || trimmed == "?") return;
      if (!players.count(name)) names.push_back(name);
      players[name].first += game;
      players[name].second.merge(s);
    };
    std::vector<std::string> ply_lines;  // each ply's compact text, put in place of a marker below
    for (const auto& g : f.games) {
      Json marks = Json::array();
      for (const Json& ply : plies[g.number]) {
        marks.push_back("\x01PLY" + std::to_string(ply_lines.size()) + "\x01");
        ply_lines.push_back(ply.dump(-1, ' ', false, Json::error_handler_t::replace));
      }
      j["games"].push_back(Json{{"number", g.number}, {"white", g.white}, {"black", g.black},
                                {"white_side", side(g.white_side)}, {"black_side", side(g.black_side)},
                                {"event", g.event}, {"date", g.date}, {"result", g.result},
                                {"first_ply", g.first_ply}, {"plies", marks}});
      add(g.white, g.white_side, true);
      add(g.black, g.black_side, g.black != g.white);
    }
    j["players"] = Json::array();
    for (const auto& name : names) {
      Json p{{"name", name}, {"games", players[name].first}};
      const Json totals = side(players[name].second);
      for (const auto& [k, v] : totals.items()) p[k] = v;
      j["players"].push_back(p);
    }
    j["kept"] = Json::array();
    for (const auto& [line, why] : f.kept) j["kept"].push_back(Json{{"line", line}, {"why", why}});
    j["notes"] = f.notes;
    std::string text = j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
    for (std::size_t i = 0; i < ply_lines.size(); ++i) {
      const std::string marker = "\"\\u0001PLY" + std::to_string(i) + "\\u0001\"";
      const std::size_t at = text.find(marker);
      REQUIRE(at != std::string::npos);
      text.replace(at, marker.size(), ply_lines[i]);
    }
    return text;
  };
  annotate::AnnotatedFile file;
  CHECK(annotate::summary_json(file, "E", "depth 1") == oracle(file, "E", "depth 1"));  // every array empty
  annotate::SideSummary s;
  s.add(annotate::Judgement::Blunder, 350);
  s.add(annotate::Judgement::None, 0);
  s.add_game_accuracy(71.26);
  annotate::SideSummary two_games = s;
  two_games.add_game_accuracy(90.1);  // a player's: (71.26 + 90.1) / 2 = 80.68 -> 80.7
  using annotate::Judgement;
  using core::Color;
  const auto ply = [](std::string san, std::optional<core::Score> eval, Color to_move, Judgement j = Judgement::None,
                      std::string better = "") {
    return annotate::PlyRecord{std::move(san), eval, to_move, j, std::move(better), {}};
  };
  file.games.push_back({1, "Kasparov, G", "Deep \"Blue\"\n", two_games, {}, "Match <1997>", "1997.05.03", "1-0", 1,
                        {ply("e4", test::cp(35), Color::Black), ply("e5", test::cp(-35), Color::White),
                         ply("Qh5", std::nullopt, Color::Black), ply("Ke7", test::mate(1), Color::White, Judgement::Blunder, "Nc6"),
                         ply("Qxe5#", test::mate(0), Color::Black)}});
  file.games[0].plies[0].accuracy = 97.06;
  file.games[0].plies[3].accuracy = 0;
  plies[1] = {Json{{"san", "e4"}, {"eval", -35}, {"wc", -0.064}, {"accuracy", 97.1}},
              Json{{"san", "e5"}, {"eval", -35}, {"wc", -0.064}},
              Json{{"san", "Qh5"}, {"eval", nullptr}, {"wc", nullptr}},
              Json{{"san", "Ke7"}, {"eval", "#1"}, {"wc", 1}, {"accuracy", 0.0}, {"judgement", "blunder"}, {"better", "Nc6"}},
              Json{{"san", "Qxe5#"}, {"eval", "#0"}, {"wc", 1}}};
  file.games.push_back({2, "M\xfcller", "Kasparov, G", {}, s, "", "", "*", 20,
                        {ply("N\xe4""3", test::mate(-4), Color::White, Judgement::Mistake, "O-O"),
                         ply("--", test::cp(-2000), Color::White, Judgement::Inaccuracy)}});
  plies[2] = {Json{{"san", "N\xe4""3"}, {"eval", "#-2"}, {"wc", -1}, {"judgement", "mistake"}, {"better", "O-O"}},
              Json{{"san", "--"}, {"eval", -2000}, {"wc", -0.999}, {"judgement", "inaccuracy"}}};
  file.games.push_back({7, "", "", s, s, "", "", "", 1, {}});
  CHECK(annotate::summary_json(file, "Stockfish 15.1", "nodes 1000") == oracle(file, "Stockfish 15.1", "nodes 1000"));
  file.kept.emplace_back(12, "1:5: illegal move \"Ke9\"");
  file.notes.push_back("line 99: the text after the last game is no game: written back as it was");
  file.notes.push_back("second note");
  CHECK(annotate::summary_json(file, "E\tF", "movetime 50") == oracle(file, "E\tF", "movetime 50"));
  INFO(annotate::summary_json(file, "E", "L"));
  CHECK(annotate::summary_json(file, "E", "L").find("\n        {\"san\":\"e4\",\"eval\":-35,\"wc\":-0.064,\"accuracy\":97.1},\n") !=
        std::string::npos);
}

// What the page needs per ply, from a real render: the move, White's eval as the [%eval] says
// it, White's winning chances (2 / (1 + exp(-0.00368208 cp)) - 1, worked out by hand here), the
// judgement and the better move; the tags; the first ply of a game from a FEN.
TEST_CASE("The summary JSON has each ply's move, eval, winning chances, judgement and better move", "[annotate][summary]") {
  const std::string text =
      "[Event \"E <1>\"]\n[Date \"2026.11.24\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Ke2 0-1\n\n"
      "[White \"C\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 20\"]\n\n20... Kd7 *\n";
  const auto r = test::render(text, [](const pgn::Game& g) -> annotate::PositionAnalyses {
    if (g.tag("FEN")) return {analysis(cp(-500), 9, {"e8e7"}), analysis(cp(500), 9)};
    return {analysis(cp(30), 9, {"d2d4"}), analysis(cp(-30), 9, {"e7e5"}), analysis(cp(40), 9, {"g1f3"}),
            analysis(cp(300), 9, {"d7d5"})};
  });
  const auto j = nlohmann::ordered_json::parse(annotate::summary_json(r.file, "E", "L"));
  CHECK(j.begin().key() == "format");
  CHECK(j["format"] == "epdd annotation 1");
  const auto& g = j["games"][0];
  CHECK(g["event"] == "E <1>");
  CHECK(g["date"] == "2026.11.24");
  CHECK(g["result"] == "0-1");
  CHECK(g["first_ply"] == 1);
  REQUIRE(g["plies"].size() == 3);
  // wc: tanh(0.00368208 * 30 / 2). accuracy: 100 where the mover's winning percent does not
  // drop (1. e4: 30 -> 30; 1... e5: White's 30 -> 40, Black's drop 0.92 points: 103.1668 x
  // exp(-0.0435442 x 0.92) - 3.1669 + 1 = 97.0); 2. Ke2: White 40 -> -300, a drop of 28.8 points: 27.3.
  CHECK(g["plies"][0] == nlohmann::ordered_json{{"san", "e4"}, {"eval", 30}, {"wc", 0.055}, {"accuracy", 100.0}});
  CHECK(g["plies"][1] == nlohmann::ordered_json{{"san", "e5"}, {"eval", 40}, {"wc", 0.074}, {"accuracy", 97.0}});
  CHECK(g["plies"][2] == nlohmann::ordered_json{{"san", "Ke2"}, {"eval", -300}, {"wc", -0.502}, {"accuracy", 27.3},
                                                {"judgement", "blunder"}, {"better", "Nf3"}});
  const auto& fen = j["games"][1];
  CHECK(fen["first_ply"] == 40);  // Black's 20th move
  CHECK(fen["event"] == "");
  REQUIRE(fen["plies"].size() == 1);
  CHECK(fen["plies"][0]["san"] == "Kd7");
  CHECK(fen["plies"][0]["eval"] == 500);
}

TEST_CASE("A game in Latin-1 is written back in Latin-1 with ASCII words, its names shown decoded", "[annotate][render]") {
  // Issue 39, item 5: names came out as U+FFFD in the JSON, and the PGN mixed Latin-1 tags with
  // UTF-8 arrows. The bytes are ISO 8859-1: 0xFC u-umlaut, 0xF6 o-umlaut, 0xE9 e-acute.
  const std::string text = "[Event \"t\"]\n[White \"M\xFC" "ller, J\xF6rg\"]\n[Black \"G\xE9za\"]\n\n{sch\xF6n} 1. e4 *\n";
  const annotate::PositionAnalyses a = {analysis(cp(300), 20, {"d2d4", "d7d5"}), analysis(cp(300), 18, {"e7e5"})};
  const auto r = test::render(text, test::always(a));
  INFO(r.file.pgn);
  CHECK(r.file.pgn.find("[White \"M\xFC" "ller, J\xF6rg\"]") != std::string::npos);  // its bytes as they were
  CHECK(test::movetext(r.file.pgn).find("{[%eval 3.00,20] sch\xF6n} 1. e4 $4 {[%eval -3.00,18]} "
                                        "{(3.00 -> -3.00) Blunder. d4 was best.} (1. d4 d5) *") != std::string::npos);
  CHECK_FALSE(core::is_utf8(r.file.pgn));  // one encoding: no UTF-8 sequence was added
  CHECK(r.file.pgn.find("\xE2\x86\x92") == std::string::npos);
  REQUIRE(r.file.games.size() == 1);
  CHECK(r.file.games[0].white == "M\xC3\xBC" "ller, J\xC3\xB6rg");
  CHECK(r.file.games[0].black == "G\xC3\xA9za");
  const auto parsed = nlohmann::json::parse(annotate::summary_json(r.file, "e", "l"));
  CHECK(parsed["games"][0]["white"] == "M\xC3\xBC" "ller, J\xC3\xB6rg");
  CHECK(parsed["players"][1]["name"] == "G\xC3\xA9za");
  REQUIRE(r.file.notes.size() == 1);
  CHECK(r.file.notes[0].starts_with("1 game's text is Latin-1"));
  // A rerun over its own output changes nothing ("->" is known as epdd's words), and --player
  // finds the name as a terminal types it, in UTF-8.
  CHECK(test::render(r.file.pgn, test::always(a)).file.pgn == r.file.pgn);
  annotate::AnnotateOptions o;
  o.player = "m\xC3\xBC" "ller, j\xC3\xB6rg";
  const auto only = test::render(text, test::always(a), o);
  CHECK(only.file.games.at(0).white_side.blunders == 1);
  CHECK(annotate::names_player(annotate::bytes_in_memory(text), "M\xC3\xBC" "ller,J\xC3\xB6rg"));

  // The same game in UTF-8: lichess's arrow, and no note.
  const std::string utf8 = "[Event \"t\"]\n[White \"M\xC3\xBC" "ller\"]\n\n1. e4 *\n";
  const auto u = test::render(utf8, test::always(a));
  CHECK(test::movetext(u.file.pgn).find("{(3.00 \xE2\x86\x92 -3.00) Blunder. d4 was best.}") != std::string::npos);
  CHECK(u.file.notes.empty());
}

TEST_CASE("lila's edges: the unanalysed start is +0.15, the mating move is not judged, accuracy tags", "[annotate][render]") {
  SECTION("the usual start without an evaluation counts as lila's Cp.initial, White's +0.15") {
    // 1. e4 and then Black's +1.50: White's winning chances 0.028 -> -0.269, a drop of 0.297.
    const auto r = test::render(kOneMove, test::always({std::nullopt, analysis(cp(150), 18)}));
    CHECK(test::movetext(r.file.pgn) == "1. e4 $2 {[%eval -1.50,18]} {(0.15 → -1.50) Mistake.} *");
    REQUIRE(r.file.games.size() == 1);
    CHECK(r.file.games[0].white_side.average_centipawn_loss() == 165);
  }
  SECTION("a game from a FEN without an evaluation of its start: the first move is not judged") {
    const std::string fen = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *\n";
    const auto r = test::render(fen, test::always({std::nullopt, analysis(cp(150), 18)}));
    REQUIRE(r.file.games.size() == 1);
    CHECK(r.file.games[0].white_side.moves == 0);
    CHECK_FALSE(r.file.games[0].white_side.accuracy());
  }
  SECTION("the move that gives mate is neither judged nor counted in the ACPL or the accuracy") {
    const std::string text = "[Event \"t\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
    const auto r = test::render(text, test::always({analysis(cp(30), 9, {"d2d4"}), analysis(cp(60), 9, {"e7e5"}),
                                                    analysis(cp(-70), 9, {"d2d4"}), analysis(mate(1), 9, {"d8h4"})}));
    REQUIRE(r.file.games.size() == 1);
    const auto& g = r.file.games[0];
    CHECK(g.black_side.moves == 1);  // 1... e5 only
    REQUIRE(g.plies.size() == 4);
    CHECK(g.plies[3].judgement == annotate::Judgement::None);
    CHECK_FALSE(g.plies[3].accuracy);
    CHECK(test::movetext(r.file.pgn).find("Qh4# {[%eval #-0]}") != std::string::npos);  // its eval is written
  }
  SECTION("--accuracy-tags: each side's accuracy and ACPL as tags, for a side that has them") {
    annotate::AnnotateOptions o;
    o.accuracy_tags = true;
    const auto r = test::render(kOneMove, test::always({analysis(cp(300), 9, {"c2c4"}), analysis(cp(300), 9)}), o);
    REQUIRE(r.read_back.size() == 1);
    const pgn::Game& g = r.read_back[0];
    CHECK(g.tag("WhiteAccuracy").value_or("") == "9.4");  // lila: 75.1% -> 24.9%, see the summary test above
    CHECK(g.tag("WhiteACPL").value_or("") == "600");
    CHECK_FALSE(g.tag("BlackAccuracy"));  // Black has no move
    CHECK_FALSE(g.tag("BlackACPL"));
    const auto plain = test::render(kOneMove, test::always({analysis(cp(300), 9, {"c2c4"}), analysis(cp(300), 9)}));
    CHECK_FALSE(plain.read_back.at(0).tag("WhiteAccuracy"));  // only when asked
  }
}
