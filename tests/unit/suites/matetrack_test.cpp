// Matetrack records (bm #N / bm #-N) scored as matetrack's checker reports an engine: found,
// best, better and wrong mates, bad PVs (matecheck.py's pv_status), the counts in the text and
// JSON reports and in suite compare, and nothing of it in a run without such records.
#include <catch2/catch.hpp>
#include <fmt/core.h>

#include "suites/matetrack.hpp"
#include "suites/report.hpp"
#include "suites/scoring.hpp"
#include "suites_test_support.hpp"

using namespace epdd;
using namespace epdd::suites;
using namespace epdd::suites::test;

namespace {

// White mates in 1 (Rh8#); after 1.Rh7 Kb8 2.Rh8# in 2.
const std::string kWhiteMates = "k7/8/1K6/8/8/8/8/7R w - -";
// The same with Black to move: 1...Kb8 (forced) 2.Rh8#, Black is mated in 1.
const std::string kBlackMated = "k7/8/1K6/8/8/8/8/7R b - -";

// The oracle, independent of the code under test: plain minimax on the tiny test positions.
// Whether the side to move mates within n moves.
bool mates_within(core::Board& b, int n);
// Whether every move of the side to move (it has one) lets the opponent mate within n.
bool mated_within(core::Board& b, int n) {
  const auto moves = b.legal_moves();
  if (moves.empty() || n < 1) return false;
  for (core::Move m : moves) {
    b.make_move(m);
    const bool lost = mates_within(b, n);
    b.unmake_move();
    if (!lost) return false;
  }
  return true;
}
bool mates_within(core::Board& b, int n) {
  for (core::Move m : b.legal_moves()) {
    b.make_move(m);
    const bool win = (b.in_check() && b.count_legal() == 0) || mated_within(b, n - 1);
    b.unmake_move();
    if (win) return true;
  }
  return false;
}
// The mate distance in moves for the side to move (+N mates, -N is mated), up to 3; 0 if none.
int mate_distance(const std::string& fen) {
  core::Board b = board_of_fen(fen).detached();
  for (int n = 1; n <= 3; ++n) {
    if (mates_within(b, n)) return n;
    if (mated_within(b, n)) return -n;
  }
  return 0;
}

MateResult scored(const std::string& fen, int key, core::Score score, std::vector<std::string> pv,
                  std::string cut = {}) {
  uci::Analysis a = analysis(score, std::move(pv));
  a.lines.front().pv_cut = std::move(cut);
  return score_mate_key(key, board_of_fen(fen), a);
}

RecordResult mate_record(std::size_t line, int key, std::optional<int> found, MateOutcome outcome,
                         std::optional<PvStatus> pv) {
  RecordResult r;
  r.line = line;
  r.id = fmt::format("mt.{:03}", line);
  r.position = kWhiteMates;
  r.rule = Rule::Matetrack;
  r.expected = "bm " + mate_text(key);
  r.found = "Rh8#";
  r.score = found ? fmt::format("mate {}", *found) : "cp 500";
  r.depth = 5;
  r.nodes = 1000;
  r.time_ms = 10;
  r.mate = MateResult{key, found, outcome, pv, pv && *pv != PvStatus::Ok ? "the PV stops after 1 ply" : ""};
  r.solved = r.mate->solved();
  return r;
}

// One record of each matetrack category: best, better, longer (found), wrong, no mate, and a
// best mate with a bad PV.
SuiteRun mate_run() {
  SuiteRun run;
  run.suite = "keys.epd";
  run.engine = "Fake 1.0";
  run.limits = "depth 5";
  run.records = {mate_record(1, 1, 1, MateOutcome::Best, PvStatus::Ok),
                 mate_record(2, 2, 1, MateOutcome::Better, PvStatus::Ok),
                 mate_record(3, 1, 2, MateOutcome::Longer, PvStatus::Ok),
                 mate_record(4, 1, -1, MateOutcome::Wrong, std::nullopt),
                 mate_record(5, 1, std::nullopt, MateOutcome::NoMate, std::nullopt),
                 mate_record(6, 3, 3, MateOutcome::Best, PvStatus::Short)};
  return run;
}

}  // namespace

TEST_CASE("The oracle agrees with the test positions", "[suites][matetrack]") {
  CHECK(mate_distance(kWhiteMates) == 1);
  CHECK(mate_distance(kBlackMated) == -1);
  CHECK(mate_distance(mate_in_2()) == 2);
}

TEST_CASE("expectation_of: bm #N is a matetrack key, whatever else the record says", "[suites][matetrack]") {
  const std::vector<std::tuple<std::string, int, std::string>> cases = {
      {kWhiteMates + " bm #1;", 1, "bm #1"},
      {kBlackMated + " bm #-1; id \"x\";", -1, "bm #-1"},
      {kWhiteMates + " bm #2; dm 1;", 2, "bm #2"},  // the key decides, not dm
  };
  for (const auto& [line, key, text] : cases) {
    auto r = record(line);
    const auto e = expectation_of(r, board_of(r));
    INFO(line);
    REQUIRE(e);
    CHECK(e->rule == Rule::Matetrack);
    CHECK(e->mate_key == key);
    CHECK(e->bm.empty());
    CHECK(e->text == text);
  }
  // A record of the shared file reads (it failed as "'#15' is not a move" before).
  const std::string first = epdd::test::read_file(epdd::test::shared_data("suites/matetrack-classic280.epd"));
  auto r = record(first.substr(0, first.find('\n')));
  const auto e = expectation_of(r, board_of(r));
  REQUIRE(e);
  CHECK(e->rule == Rule::Matetrack);
  CHECK(e->mate_key == 15);
  // Not keys: the old errors stand.
  auto bad = record(kWhiteMates + " bm #0;");
  CHECK_FALSE(expectation_of(bad, board_of(bad)));
  CHECK(std::string(to_string(Rule::Matetrack)) == "matetrack");
}

TEST_CASE("check_mate_pv: matecheck's pv_status of each kind", "[suites][matetrack]") {
  struct Case {
    std::string fen;
    int mate;
    std::vector<std::string> pv;
    std::string cut;
    PvStatus status;
    std::string note;
  };
  // hmvc 99: the first move without a capture or pawn move reaches the fifty-move claim.
  const std::vector<Case> cases = {
      {kWhiteMates, 1, {"h1h8"}, "", PvStatus::Ok, ""},
      {kWhiteMates, 2, {"h1h7", "a8b8", "h7h8"}, "", PvStatus::Ok, ""},
      {kBlackMated, -1, {"a8b8", "h1h8"}, "", PvStatus::Ok, ""},
      {kWhiteMates, 2, {"h1h7"}, "", PvStatus::Short, "the PV stops after 1 ply, a mate in 2 takes 3"},
      {kBlackMated, -1, {"a8b8"}, "", PvStatus::Short, "the PV stops after 1 ply, mated in 1 takes 2"},
      {kWhiteMates, 1, {"h1h7", "a8b8", "h7h8"}, "", PvStatus::Long, "the PV goes on for 3 plies, a mate in 1 takes 1"},
      {kWhiteMates, 1, {"h1h2"}, "", PvStatus::Wrong, "no checkmate at the end of the PV (1 ply)"},
      {kWhiteMates, 2, {"h1h7", "a8b8"}, "PV cut at move 3 'h7h9': not a square", PvStatus::Illegal,
       "PV cut at move 3 'h7h9': not a square"},
      // Threefold: before Black's 4th move, ...Ka8 repeats the start a third time.
      {kWhiteMates, 5, {"h1h2", "a8b8", "h2h1", "b8a8", "h1h2", "a8b8", "h2h1", "b8a8", "h1h8"}, "", PvStatus::Draw,
       "the losing side could claim a draw before ply 8"},
  };
  for (const auto& c : cases) {
    INFO(c.fen << " mate " << c.mate << " pv " << c.pv.size());
    const PvCheck got = check_mate_pv(board_of_fen(c.fen), c.mate, c.pv, c.cut);
    CHECK(got.status == c.status);
    CHECK(got.note == c.note);
  }
  // The fifty-move claim from the record's clock (hmvc), at the first ply the losing side moves.
  auto r = record("k7/8/1K6/8/8/8/8/6R1 w - - bm #2; hmvc 99;");
  const PvCheck fifty = check_mate_pv(board_of(r), 2, {"g1g7", "a8b8", "g7g8"});
  CHECK(fifty.status == PvStatus::Draw);
  CHECK(fifty.note == "the losing side could claim a draw before ply 2");
  // The same line from a fresh clock is a mate.
  CHECK(check_mate_pv(board_of_fen("k7/8/1K6/8/8/8/8/6R1 w - -"), 2, {"g1g7", "a8b8", "g7g8"}).status == PvStatus::Ok);
}

TEST_CASE("score_mate_key: every category against the oracle's mate distance", "[suites][matetrack]") {
  const int white = mate_distance(kWhiteMates);  // 1
  const int black = mate_distance(kBlackMated);  // -1
  REQUIRE(white == 1);
  REQUIRE(black == -1);
  struct Case {
    std::string fen;
    int key;
    core::Score score;
    std::vector<std::string> pv;
    MateOutcome outcome;
    std::optional<int> found;
    std::optional<PvStatus> pv_status;
    bool solved;
  };
  using O = MateOutcome;
  const auto mate = [](int n) { return core::Score::from_uci_mate(n); };
  const std::vector<Case> cases = {
      // The key is right and the engine finds the mate of its length.
      {kWhiteMates, white, mate(1), {"h1h8"}, O::Best, 1, PvStatus::Ok, true},
      {kBlackMated, black, mate(-1), {"a8b8", "h1h8"}, O::Best, -1, PvStatus::Ok, true},
      // A key one move too long: the engine's mate in 1 is better than the key.
      {kWhiteMates, white + 1, mate(1), {"h1h8"}, O::Better, 1, PvStatus::Ok, true},
      // The engine's mate is longer than the key: found, not best, not solved.
      {kWhiteMates, white, mate(2), {"h1h7", "a8b8", "h7h8"}, O::Longer, 2, PvStatus::Ok, false},
      {kBlackMated, black - 1, mate(-3), {"a8b8"}, O::Longer, -3, PvStatus::Short, false},
      // A key with the wrong sign: the engine's mate is for the other side; no PV verdict.
      {kBlackMated, -black, mate(-1), {"a8b8", "h1h8"}, O::Wrong, -1, std::nullopt, false},
      {kWhiteMates, -white, mate(1), {"h1h8"}, O::Wrong, 1, std::nullopt, false},
      // No mate reported.
      {kWhiteMates, white, core::Score::centipawns(500), {"h1h7"}, O::NoMate, std::nullopt, std::nullopt, false},
      {kWhiteMates, white, mate(0), {"h1h8"}, O::NoMate, std::nullopt, std::nullopt, false},
      // A best mate whose PV does not show it: still best (matecheck counts both).
      {kWhiteMates, white, mate(1), {"h1h2"}, O::Best, 1, PvStatus::Wrong, true},
  };
  for (const auto& c : cases) {
    INFO(c.fen << " key " << c.key << " score " << c.score.to_uci_string());
    const MateResult r = scored(c.fen, c.key, c.score, c.pv);
    CHECK(r.key == c.key);
    CHECK(r.outcome == c.outcome);
    CHECK(r.found == c.found);
    CHECK(r.pv == c.pv_status);
    CHECK(r.solved() == c.solved);
    CHECK(r.found_mate() == (c.outcome == O::Best || c.outcome == O::Better || c.outcome == O::Longer));
    CHECK(r.bad_pv() == (c.pv_status && *c.pv_status != PvStatus::Ok));
  }
  // No line at all.
  uci::Analysis none;
  none.bestmove = "h1h8";
  CHECK(score_mate_key(1, board_of_fen(kWhiteMates), none).outcome == O::NoMate);
}

TEST_CASE("score: a matetrack record's verdict, note and time to solution", "[suites][matetrack]") {
  struct Case {
    std::string line;
    core::Score score;
    std::vector<std::string> pv;
    bool solved;
    std::string note;
  };
  const auto mate = [](int n) { return core::Score::from_uci_mate(n); };
  const std::vector<Case> cases = {
      {kWhiteMates + " bm #1;", mate(1), {"h1h8"}, true, ""},
      {kWhiteMates + " bm #2;", mate(1), {"h1h8"}, true, ""},
      {kWhiteMates + " bm #1;", mate(2), {"h1h7", "a8b8", "h7h8"}, false, "mate in 2, longer than the key #1"},
      {kBlackMated + " bm #1;", mate(-1), {"a8b8", "h1h8"}, false, "mated in 1: the wrong side for the key #1"},
      {kWhiteMates + " bm #-2;", mate(1), {"h1h8"}, false, "mate in 1: the wrong side for the key #-2"},
      {kWhiteMates + " bm #1;", core::Score::centipawns(500), {"h1h7"}, false, "no mate found (score cp 500)"},
  };
  for (const auto& c : cases) {
    auto r = record(c.line);
    const auto board = board_of(r);
    auto e = expectation_of(r, board);
    REQUIRE(e);
    const Verdict v = score(*e, board, analysis(c.score, c.pv, 7, 700, 70));
    INFO(c.line << " " << c.score.to_uci_string());
    CHECK(v.scored);
    CHECK(v.solved == c.solved);
    CHECK(v.note == c.note);
    REQUIRE(v.mate);
    CHECK(v.mate->solved() == c.solved);
    CHECK(v.found == san(board, *core::parse_uci(board, c.pv.front())));
    CHECK(v.to_solution.has_value() == c.solved);
  }
}

TEST_CASE("summarize and render_text: the matetrack counts and lists", "[suites][matetrack]") {
  const SuiteRun run = mate_run();
  const Summary s = summarize(run);
  CHECK(s.solved == 3);
  CHECK(s.mates.records == 6);
  CHECK(s.mates.found == 4);
  CHECK(s.mates.best == 2);
  CHECK(s.mates.better == 1);
  CHECK(s.mates.wrong == 1);
  CHECK(s.mates.bad_pv == 1);
  CHECK(s.mates.no_mate == 1);
  const std::string text = render_text(run);
  INFO(text);
  CHECK_THAT(text, Catch::Contains("Solved    3 / 6  50.0%\n"));
  CHECK_THAT(text, Catch::Contains("Mates     6 matetrack records: found 4, best 2, better 1, wrong 1, bad PVs 1, "
                                   "no mate 1\n"));
  CHECK_THAT(text, Catch::Contains("\nBetter mates than the key (the key is wrong)\n"
                                   "   line  id      key  found  move\n"
                                   "      2  mt.002  #2   #1     Rh8#\n"));
  CHECK_THAT(text, Catch::Contains("\nBad PVs (the PV does not end in the mate it claims)\n"
                                   "   line  id      key  found  pv     note\n"
                                   "      6  mt.006  #3   #3     short  the PV stops after 1 ply\n"));
}

TEST_CASE("A run without matetrack records shows nothing of them", "[suites][matetrack]") {
  SuiteRun run = mate_run();
  for (auto& r : run.records) {
    r.rule = Rule::Dm;
    r.mate.reset();
  }
  CHECK(summarize(run).mates.records == 0);
  for (const std::string& text : {render_text(run), to_json(run), render_compare({{"a", run}, {"b", run}})}) {
    INFO(text);
    CHECK_THAT(text, !Catch::Contains("matetrack") && !Catch::Contains("Mates") && !Catch::Contains("mates") &&
                         !Catch::Contains("Bad PV") && !Catch::Contains("bad_pv") && !Catch::Contains("\"mate\""));
  }
}

TEST_CASE("to_json and run_from_json: matetrack results and counts read back", "[suites][matetrack]") {
  const SuiteRun run = mate_run();
  const std::string json = to_json(run);
  CHECK_THAT(json, Catch::Contains("\"rule\": \"matetrack\""));
  CHECK_THAT(json, Catch::Contains("\"mates\": {\n      \"bad_pv\": 1,\n      \"best\": 2,\n      \"better\": 1,\n"
                                   "      \"found\": 4,\n      \"no_mate\": 1,\n      \"records\": 6,\n"
                                   "      \"wrong\": 1\n    }"));
  CHECK_THAT(json, Catch::Contains("\"mate\": {\n        \"found\": -1,\n        \"key\": 1,\n"
                                   "        \"outcome\": \"wrong\"\n      }"));
  auto back = run_from_json(json);
  REQUIRE(back);
  REQUIRE(back->records.size() == run.records.size());
  for (std::size_t i = 0; i < run.records.size(); ++i) {
    INFO("record " << i);
    CHECK(back->records[i].rule == Rule::Matetrack);
    CHECK(back->records[i].mate == run.records[i].mate);
  }
  CHECK(to_json(*back) == json);
  // A mate result that is not one is an error that says so.
  std::string bad = json;
  bad.replace(bad.find("\"outcome\": \"wrong\""), 18, "\"outcome\": \"worse\"");
  auto err = run_from_json(bad);
  REQUIRE_FALSE(err);
  CHECK_THAT(err.error(), Catch::Contains("unknown mate outcome 'worse'"));
}

TEST_CASE("render_compare: the matetrack counts side by side", "[suites][matetrack]") {
  const SuiteRun a = mate_run();
  SuiteRun b = a;
  b.records[2] = mate_record(3, 1, 1, MateOutcome::Best, PvStatus::Ok);
  b.records[3] = mate_record(4, 1, std::nullopt, MateOutcome::NoMate, std::nullopt);
  const std::string text = render_compare({{"a", a}, {"b", b}});
  INFO(text);
  const auto row = [](const char* name, const char* x, const char* y) {
    return fmt::format("{:<22} {:>24} {:>24}\n", name, x, y);
  };
  CHECK_THAT(text, Catch::Contains(row("mates found", "4", "4") + row("best mates", "2", "3") +
                                   row("better mates", "1", "1") + row("wrong mates", "1", "0") +
                                   row("bad PVs", "1", "1") + row("no mate", "1", "2")));
  CHECK_THAT(text, Catch::Contains(row("3 mt.003", "-", "solved")));
}
