// --evals-from-input (issue 35, item 2): judging from the evaluations the games already carry.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "annotate/input_evals.hpp"
#include "annotate/summary_report.hpp"
#include "core/notation.hpp"
#include "lichess_games.hpp"
#include "render_support.hpp"

using namespace epdd;
using annotate::AnnotateOptions;
using test::analysis;
using test::cp;
using test::mate;

TEST_CASE("Engine-match comments as cutechess, fastchess and Arena write them", "[annotate][input]") {
  struct Case {
    const char* comment;
    std::optional<core::Score> mover;
    int depth;
  };
  const Case c = GENERATE(values<Case>({
      {"+0.35/20 1.2s", cp(35), 20},
      {"-0.17/15 0.30s", cp(-17), 15},
      {"0.00/45 1.1s, Draw by 3-fold repetition", cp(0), 45},
      {"+1.00/12", cp(100), 12},
      {" +2.04/33 9.6s ", cp(204), 33},
      {"+2.19/27 13s", cp(219), 27},
      {"+M9/30 0.1s", mate(9), 30},  // cutechess counts plies: it mates in 5 moves
      {"-M4/30", mate(-4), 30},
      {"book", std::nullopt, 0},
      {"+0.35", std::nullopt, 0},
      {"+0.35/", std::nullopt, 0},
      {"+0.35/20s", std::nullopt, 0},
      {"+0.35/20 fast", std::nullopt, 0},
      {"+1.5/9", std::nullopt, 0},       // one decimal: not cutechess's
      {"3.5/4 before this round", std::nullopt, 0},  // a human's score of a tournament
      {"1.0/1", std::nullopt, 0},
      {"0.50/1", std::nullopt, 0},       // no sign on a score that is not 0.00
      {"2.5 points/3 games", std::nullopt, 0},
      {"White wins +0.35/20", std::nullopt, 0},
      {"+0.355/20", std::nullopt, 0},
      {"+M0/20", std::nullopt, 0},
      {"M5/20", std::nullopt, 0},
      {"+-5.00/3", std::nullopt, 0},
      {"+99999999.00/1", std::nullopt, 0},  // no overflow: more than 999 pawns is no score
  }));
  INFO(c.comment);
  const auto got = annotate::read_engine_comment(c.comment);
  REQUIRE(got.has_value() == c.mover.has_value());
  if (!got) return;
  CHECK(got->mover == *c.mover);
  CHECK(got->depth == c.depth);
}

TEST_CASE("The games' own evaluations answer their positions: [%eval] and engine comments", "[annotate][input]") {
  SECTION("lichess's [%eval], White's view, the start without one") {
    const auto game = test::game_of("[Event \"t\"]\n\n1. e4 { [%eval 0.3] } 1... e5 { [%eval #-3] } 2. Qh5 *\n", 0);
    const auto a = annotate::input_analyses(game);
    REQUIRE(a.size() == 4);
    CHECK_FALSE(a[0]);
    REQUIRE(a[1]);
    CHECK(a[1]->lines[0].score == cp(-30));  // Black to move: White's +0.30 is Black's -0.30
    REQUIRE(a[2]);
    CHECK(a[2]->lines[0].score == core::Score::from_uci_mate(-3));  // White to move, Black mates in 3
    CHECK_FALSE(a[3]);
  }
  SECTION("cutechess: the engine's search of the position before its move, book moves without one") {
    const auto game = test::game_of("[Event \"t\"]\n\n1. d4 {book} d5 {+0.20/15 0.3s} 2. c4 {+M5/20} *\n", 0);
    const auto a = annotate::input_analyses(game);
    CHECK_FALSE(a[0]);
    REQUIRE(a[1]);
    CHECK(a[1]->lines[0].score == cp(20));  // Black to move after 1. d4: Black's own +0.20
    CHECK(a[1]->depth == 15);
    REQUIRE(a[2]);
    CHECK(a[2]->lines[0].score == mate(5));  // White to move after 1... d5: White mates in 5 plies
    CHECK_FALSE(a[3]);                       // after the last move: no engine searched it
  }
  SECTION("a blunder is judged by the next engine's search, which sees it") {
    // 2... Ke7 is Black's engine's choice at depth 5 (-0.30 for Black); White's engine then finds
    // mate in one: Black's move is a blunder, judged from White's search of the position after it.
    const std::string text = "[Event \"t\"]\n\n1. e4 {+0.30/20 1s} e5 {-0.20/20 1s} 2. Qh5 {+0.40/20 1s} "
                             "Ke7 {-0.30/5 1s} 3. Qxe5# {+M1/20 1s} 1-0\n";
    AnnotateOptions o;
    o.evals_from_input = AnnotateOptions::InputEvals::Only;
    const auto r = test::render(text, [](const pgn::Game&) { return annotate::PositionAnalyses{}; }, o);
    REQUIRE(r.file.games.size() == 1);
    REQUIRE(r.file.games[0].plies.size() == 5);
    CHECK(r.file.games[0].plies[3].judgement == annotate::Judgement::Blunder);  // 2... Ke7
    CHECK(r.file.games[0].black_side.blunders == 1);
    INFO(r.file.pgn);
    CHECK(test::movetext(r.file.pgn).find("2... Ke7 $4 {[%eval #1,20] -0.30/5 1s} {(0.30 → Mate in 1) Checkmate is now "
                                          "unavoidable.}") != std::string::npos);
  }
  SECTION("an earlier judgement's best move and line become the line of the position before the move") {
    const auto game = test::game_of(
        "[Event \"t\"]\n\n{[%eval 0.30,12]} 1. e4 {[%eval 0.30,12]} 1... e5 $2 {[%eval 2.00,12]} "
        "{(0.30 → 2.00) Mistake. Nc6 was best.} (1... Nc6 2. Nf3) *\n", 0);
    const auto a = annotate::input_analyses(game);
    REQUIRE(a[1]);
    CHECK(a[1]->lines[0].pv == std::vector<std::string>{"b8c6", "g1f3"});
    CHECK(a[0]->lines[0].pv.empty());
  }
}

namespace {

// A deterministic engine for the round trip: each position's score and line from its place in
// the game, the line's first move the position's first legal move in UCI order.
annotate::PositionAnalyses made_up(const pgn::Game& game) {
  annotate::PositionAnalyses out;
  core::Board board = game.start;
  for (std::size_t p = 0;; ++p) {
    std::vector<std::string> ucis;
    for (const core::Move m : board.legal_moves()) ucis.push_back(core::to_uci(m));
    std::sort(ucis.begin(), ucis.end());
    const int v = static_cast<int>((p * 137) % 700) - 350;
    if (ucis.empty()) out.emplace_back();
    else out.push_back(analysis(p % 7 == 5 ? mate(p % 2 == 0 ? 3 : -4) : cp(v), 10 + static_cast<int>(p % 5), {ucis[0]}));
    if (p == game.main.moves.size()) break;
    board.make_move(game.main.moves[p].move);
  }
  return out;
}

std::string no_notes(std::string summary) {
  const auto at = summary.find("note: ");
  return at == std::string::npos ? summary : summary.substr(0, at);
}

}  // namespace

TEST_CASE("Round trip: our own output judged from its evaluations gives the same annotation", "[annotate][input]") {
  // Whole tag rosters: the first run's export adds what a game lacks, and the second must read
  // the same tags as the first.
  const auto roster = [](const char* event, const char* white, const char* black, const char* result) {
    return std::string("[Event \"") + event + "\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"" + white +
           "\"]\n[Black \"" + black + "\"]\n[Result \"" + result + "\"]\n";
  };
  const std::string text =
      roster("a", "A", "B", "*") + "\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 "
      "7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *\n\n" +
      roster("b", "B", "A", "0-1") + "\n1. f3 e5 2. g4 Qh4# 0-1\n\n" + roster("c", "?", "?", "*") +
      "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 20\"]\n[SetUp \"1\"]\n\n20... Kd7 21. e4 Ke6 22. Ke2 *\n";
  AnnotateOptions o;
  o.annotator = "epdd test";
  const auto searched = test::render(text, made_up, o);
  REQUIRE(searched.read_back_errors == 0);
  o.evals_from_input = AnnotateOptions::InputEvals::Only;
  const auto again = test::render(searched.file.pgn, [](const pgn::Game&) { return annotate::PositionAnalyses{}; }, o);
  CHECK(again.file.pgn == searched.file.pgn);
  CHECK(no_notes(annotate::summary_text(again.file)) == no_notes(annotate::summary_text(searched.file)));
  // The JSON too, but for its notes (the second run says where its evaluations came from).
  auto strip = [](annotate::AnnotatedFile f) {
    f.notes.clear();
    return annotate::summary_json(f, "E", "L");
  };
  CHECK(strip(again.file) == strip(searched.file));
  REQUIRE_FALSE(again.file.notes.empty());
  CHECK(again.file.notes.back() == "31 positions evaluated from the games' own comments ([%eval], engine-match scores), not searched");
}

TEST_CASE("lichess's three games, judged from lichess's evaluations, give lichess's figures", "[annotate][input]") {
  for (const auto& lg : test::lichess::games()) {
    INFO(lg.id);
    // The game as a PGN with lichess's [%eval] after each move, as its PGN export writes them.
    std::istringstream sans(lg.moves);
    std::ostringstream pgn;
    pgn << "[Event \"" << lg.id << "\"]\n\n";
    std::size_t ply = 0;
    for (std::string san; sans >> san; ++ply) {
      if (ply % 2 == 0) pgn << ply / 2 + 1 << ". ";
      pgn << san << ' ';
      const std::string e = ply < lg.evals.size() ? lg.evals[ply] : "";
      if (e.empty()) continue;
      if (e[0] == '#') pgn << "{ [%eval " << e << "] } ";
      else pgn << "{ [%eval " << std::stoi(e) / 100.0 << "] } ";
    }
    pgn << "*\n";
    AnnotateOptions o;
    o.evals_from_input = AnnotateOptions::InputEvals::Only;
    const auto r = test::render(pgn.str(), [](const pgn::Game&) { return annotate::PositionAnalyses{}; }, o);
    REQUIRE(r.file.games.size() == 1);
    const auto& g = r.file.games[0];
    const std::pair<const annotate::SideSummary*, const test::lichess::SideFigures*> sides[] = {
        {&g.white_side, &lg.white}, {&g.black_side, &lg.black}};
    for (const auto& [ours, theirs] : sides) {
      CHECK(ours->average_centipawn_loss() == theirs->acpl);
      REQUIRE(ours->accuracy());
      CHECK(std::lround(*ours->accuracy()) == theirs->accuracy);
    }
    // Ply by ply: every move lichess judged gets lichess's judgement. A PGN of evaluations alone
    // does not say which moves were the engine's own first move, which lichess never judges
    // (issue 35, item 0): those are judged here by the drop alone, so they are the only moves
    // epdd may judge beyond lichess's, and they are listed by name: VkCaVXJq's 36. Rxe8+ (from
    // #16 to +83.50: lichess's MateLost would call it an inaccuracy had it not been Stockfish's
    // own move).
    std::map<int, char> ours_judged;
    for (std::size_t i = 0; i < g.plies.size(); ++i)
      if (g.plies[i].judgement != annotate::Judgement::None)
        ours_judged[static_cast<int>(i) + 1] = annotate::word(g.plies[i].judgement)[0];
    for (const auto& j : lg.judged) {
      INFO("ply " << j.ply);
      CHECK(ours_judged[j.ply] == j.kind);
      ours_judged.erase(j.ply);
    }
    std::vector<int> extra;
    for (const auto& [ply, kind] : ours_judged) extra.push_back(ply);
    CHECK(extra == (std::string(lg.id) == "VkCaVXJq" ? std::vector<int>{71} : std::vector<int>{}));
    // Every move with an evaluation before and after it was judged (the mating move has none after).
    const int with_evals = static_cast<int>(std::count_if(lg.evals.begin(), lg.evals.end(), [](const char* e) { return *e != 0; }));
    CHECK(g.white_side.moves + g.black_side.moves == with_evals);
  }
}

TEST_CASE("Evaluations from the input decide what is searched: only nothing, fill the positions without one", "[annotate][input]") {
  // Position 1 from d5's comment (Black's search after 1. d4), 3 from the [%eval] after 2. c4;
  // the usual start is lila's +0.15 and is not searched by fill either.
  const auto game = test::game_of("[Event \"t\"]\n\n1. d4 {book} d5 {+0.20/15 0.3s} 2. c4 {[%eval 0.3]} e6 3. Nf3 *\n", 0);
  AnnotateOptions o;
  CHECK(annotate::plies_to_analyse(game, o) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5});
  o.evals_from_input = AnnotateOptions::InputEvals::Fill;
  CHECK(annotate::plies_to_analyse(game, o) == std::vector<std::size_t>{2, 4, 5});
  o.evals_from_input = AnnotateOptions::InputEvals::Only;
  CHECK(annotate::plies_to_analyse(game, o).empty());
}

TEST_CASE("fill: the caller's analyses where the input has none", "[annotate][input]") {
  const std::string text = "[Event \"t\"]\n\n1. d4 {book} d5 {+0.20/15 0.3s} 2. c4 *\n";
  AnnotateOptions o;
  o.evals_from_input = AnnotateOptions::InputEvals::Fill;
  // Searched: positions 2 and 3 (after 1... d5 and 2. c4); position 1 from d5's comment (Black's
  // own search after 1. d4); the usual start is lila's +0.15.
  const auto r = test::render(
      text, test::always({std::nullopt, std::nullopt, analysis(cp(30), 9, {"c2c4"}), analysis(cp(-25), 9, {"d5c4"})}), o);
  INFO(r.file.pgn);
  CHECK(test::movetext(r.file.pgn).rfind("1. d4 {[%eval -0.20,15] book} 1... d5 {[%eval 0.30,9] +0.20/15 0.3s} 2. c4 "
                                         "{[%eval 0.25,9]} *", 0) == 0);
  CHECK(r.file.notes.back() == "1 position evaluated from the games' own comments ([%eval], engine-match scores), not searched");
  CHECK(std::none_of(r.file.notes.begin(), r.file.notes.end(),
                     [](const std::string& n) { return n.find("have no evaluation") != std::string::npos; }));
}

TEST_CASE("Accuracy tags over a file that has them: a side without figures now has no tags", "[annotate][input]") {
  AnnotateOptions o;
  o.accuracy_tags = true;
  const std::string text = "[Event \"t\"]\n[BlackAccuracy \"21.9\"]\n[BlackACPL \"495\"]\n\n1. e4 *\n";
  const auto r = test::render(text, test::always({analysis(cp(30), 9, {"d2d4"}), analysis(cp(-20), 9)}), o);
  REQUIRE(r.read_back.size() == 1);
  CHECK_FALSE(r.read_back[0].tag("BlackAccuracy"));
  CHECK_FALSE(r.read_back[0].tag("BlackACPL"));
  CHECK(r.read_back[0].tag("WhiteAccuracy"));
}

TEST_CASE("Imported analyses answer their positions: replace takes it, deeper the deeper of it and the search", "[annotate][import]") {
  auto imported = std::make_shared<std::unordered_map<std::uint64_t, uci::Analysis>>();
  core::Board after_e4;
  after_e4.make_move(*core::parse_uci(after_e4, "e2e4"));
  (*imported)[after_e4.polyglot_key()] = analysis(cp(300), 12, {"e7e5"});  // Black's +3.00: 1. e4 a blunder
  AnnotateOptions o;
  o.imported = imported;
  const auto searched = test::always({analysis(cp(20), 9, {"d2d4"}), analysis(cp(-20), 15, {"e7e5"})});
  SECTION("replace: the import's, and the position is not planned") {
    const auto r = test::render("[Event \"t\"]\n\n1. e4 *\n", searched, o);
    CHECK(test::movetext(r.file.pgn).find("1. e4 $4 {[%eval -3.00,12]}") != std::string::npos);
    CHECK(r.file.notes.back() == "1 position answered by --import, not searched");
    CHECK(annotate::plies_to_analyse(test::game_of("[Event \"t\"]\n\n1. e4 *\n", 0), o) == std::vector<std::size_t>{0});
  }
  SECTION("deeper: the search (depth 15) beats the import (12); a shallower search would not") {
    o.import_deeper = true;
    CHECK(annotate::plies_to_analyse(test::game_of("[Event \"t\"]\n\n1. e4 *\n", 0), o) == std::vector<std::size_t>{0, 1});
    const auto r = test::render("[Event \"t\"]\n\n1. e4 *\n", searched, o);
    CHECK(test::movetext(r.file.pgn).find("1. e4 {[%eval 0.20,15]}") != std::string::npos);
    const auto shallow = test::render("[Event \"t\"]\n\n1. e4 *\n",
                                      test::always({analysis(cp(20), 9, {"d2d4"}), analysis(cp(-20), 8, {"e7e5"})}), o);
    CHECK(test::movetext(shallow.file.pgn).find("1. e4 $4 {[%eval -3.00,12]}") != std::string::npos);
  }
}

TEST_CASE("A position the input and the import both answer is counted once, as the one whose answer is used",
          "[annotate][import][input]") {
  auto imported = std::make_shared<std::unordered_map<std::uint64_t, uci::Analysis>>();
  core::Board after_e4;
  after_e4.make_move(*core::parse_uci(after_e4, "e2e4"));
  (*imported)[after_e4.polyglot_key()] = analysis(cp(300), 12, {"e7e5"});
  AnnotateOptions o;
  o.imported = imported;
  o.evals_from_input = AnnotateOptions::InputEvals::Only;
  // Three positions: the start and after 1... e5 from the input, after 1. e4 from both.
  const std::string text = "[Event \"t\"]\n\n{[%eval 0.20,5]} 1. e4 {[%eval 0.30,5]} 1... e5 {[%eval 0.25,5]} *\n";
  const auto none = [](const pgn::Game&) { return annotate::PositionAnalyses{}; };
  SECTION("replace: the import's answer, counted as the import's") {
    const auto r = test::render(text, none, o);
    CHECK(r.file.from_import == 1);
    CHECK(r.file.evals_from_input == 2);
    CHECK(test::movetext(r.file.pgn).find("1. e4 $4 {[%eval -3.00,12]}") != std::string::npos);
  }
  SECTION("deeper: the import (depth 12) beats the input (depth 5), counted as the import's") {
    o.import_deeper = true;
    const auto r = test::render(text, none, o);
    CHECK(r.file.from_import == 1);
    CHECK(r.file.evals_from_input == 2);
  }
  SECTION("deeper: an input deeper than the import keeps the position, counted as the input's") {
    o.import_deeper = true;
    const std::string deep = "[Event \"t\"]\n\n{[%eval 0.20,5]} 1. e4 {[%eval 0.30,20]} 1... e5 {[%eval 0.25,5]} *\n";
    const auto r = test::render(deep, none, o);
    CHECK(r.file.from_import == 0);
    CHECK(r.file.evals_from_input == 3);
    CHECK(test::movetext(r.file.pgn).find("1. e4 {[%eval 0.30,20]}") != std::string::npos);
  }
}

TEST_CASE("An [%eval] of the input that cannot be read is said, with its game and ply", "[annotate][input]") {
  AnnotateOptions o;
  o.evals_from_input = AnnotateOptions::InputEvals::Only;
  const auto r = test::render("[Event \"t\"]\n\n1. e4 { [%eval 0.3] } 1... e5 { [%eval x.y] } *\n",
                              [](const pgn::Game&) { return annotate::PositionAnalyses{}; }, o);
  INFO(r.file.pgn);
  const auto said = std::find_if(r.file.notes.begin(), r.file.notes.end(),
                                 [](const std::string& n) { return n.find("ply 2: ") != std::string::npos; });
  REQUIRE(said != r.file.notes.end());
  CHECK(said->rfind("game 1 (line 1): ply 2: ", 0) == 0);
  CHECK(said->find("no evaluation taken from it") != std::string::npos);
}

TEST_CASE("fill: a move the input's evaluations judge gets the engine's line from a search", "[annotate][input]") {
  // 2. Qh5 loses 3 pawns by the input's [%eval]s, which name no better move: fill searches the
  // position before it for its line (only that: its score stays the input's).
  const std::string text = "[Event \"t\"]\n\n{[%eval 0.20]} 1. e4 {[%eval 0.30]} 1... e5 {[%eval 0.25]} 2. Qh5 "
                           "{[%eval -3.00]} *\n";
  AnnotateOptions o;
  o.evals_from_input = AnnotateOptions::InputEvals::Fill;
  CHECK(annotate::plies_to_analyse(test::game_of(text, 0), o) == std::vector<std::size_t>{2});
  const auto r = test::render(text,
                              test::always({std::nullopt, std::nullopt, analysis(cp(90), 18, {"g1f3", "b8c6"})}), o);
  INFO(r.file.pgn);
  CHECK(test::movetext(r.file.pgn).find("2. Qh5 $4 {[%eval -3.00]} {(0.25 → -3.00) Blunder. Nf3 was best.} (2. Nf3 Nc6)") !=
        std::string::npos);
  // The judged move's line is also what tells the engine's own move: searched to be Qh5, no mark.
  const auto own = test::render(text, test::always({std::nullopt, std::nullopt, analysis(cp(90), 18, {"d1h5"})}), o);
  CHECK(test::movetext(own.file.pgn).find("2. Qh5 {[%eval -3.00]} *") != std::string::npos);
}
