// BOOKUP's round trip: the leaves written as EPD, filled in here as an analyst would, imported
// back, and every leaf valued; and the import's merge rules, counts and errors on a small book
// whose every record is worked out by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "book/backsolve.hpp"
#include "book/epd_output.hpp"
#include "book/leaf_import.hpp"
#include "book_support.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"
#include "epd/check.hpp"
#include "test_support.hpp"

using epdd::book::Dag;
using epdd::book::ImportOptions;
using epdd::book::LeafAnalyses;
using epdd::book::LeafValues;
using epdd::book::Merge;
using epdd::book::NodeId;
using epdd::test::after;
using epdd::test::four_fields;
using epdd::test::games_of;
namespace book = epdd::book;
namespace core = epdd::core;
namespace epd = epdd::epd;
namespace pgn = epdd::pgn;

namespace {

// The leaves the games make, replayed here: positions no move of any game leaves, less those
// where the game is over by the rules (no legal move, or no mating material).
std::set<std::string> leaves_of(const std::vector<pgn::Game>& games) {
  std::set<std::string> reached, left;
  std::map<std::string, bool> over;
  for (const pgn::Game& g : games) {
    core::Board b = g.start.detached();
    reached.insert(four_fields(b));
    for (core::Move m : g.mainline()) {
      left.insert(four_fields(b));
      b.make_move(m);
      reached.insert(four_fields(b));
      over[four_fields(b)] = b.legal_moves().empty() || b.is_insufficient_material();
    }
  }
  std::set<std::string> leaves;
  for (const std::string& p : reached)
    if (!left.count(p) && !over[p]) leaves.insert(p);
  return leaves;
}

epd::CheckedDocument read_epd(const std::string& text) {
  auto doc = epd::check_document(text, {});
  std::string shown;
  for (const auto& d : doc.diags.items()) shown += std::to_string(d.line) + ": " + d.message + "\n";
  INFO(shown);
  CHECK(doc.diags.count(epd::Severity::Error) == 0);
  return doc;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

}  // namespace

TEST_CASE("leaves EPD: written, filled in by hand, imported: every leaf valued", "[book][leaves]") {
  auto games = games_of(epdd::test::read_file(epdd::test::shared_data("books/2moves_v2.pgn")));
  // A game ending in mate: its last position is a leaf the rules decide, not written.
  for (auto& g : games_of("1. f3 e5 2. g4 Qh4# 0-1\n")) games.push_back(std::move(g));
  Dag dag;
  for (const auto& g : games) dag.add_game(g);
  const std::set<std::string> want = leaves_of(games);
  REQUIRE(want.size() == 12092);  // the file's last positions (dag_test pins 12092 leaves), none over
  REQUIRE(!want.count(four_fields(after({"f3", "e5", "g4", "Qh4#"}))));

  const std::string leaves = book::write_leaves_epd(dag);
  const auto doc = read_epd(leaves);
  REQUIRE(doc.doc.record_count() == want.size());
  // Each leaf once, c0 "leaf", and the id write_book_epd gives its position.
  std::map<std::string, std::string> book_ids;
  for (const auto& line : read_epd(book::write_book_epd(dag, book::backsolve(dag, {}), {})).doc.lines)
    book_ids[line.record->position()] = std::string(*line.record->single_operand("id"));
  std::set<std::string> got;
  std::vector<std::string> filled;
  std::map<std::string, int> given;  // position -> ce written
  for (std::size_t i = 0; i < doc.doc.lines.size(); ++i) {
    const auto& r = *doc.doc.lines[i].record;
    got.insert(r.position());
    CHECK(r.single_operand("c0") == "leaf");
    CHECK(r.single_operand("id") == book_ids.at(r.position()));
    CHECK(r.operations().size() == 2);
    // The analyst's answer: a value, a depth, and one legal move (UCI) as the pv.
    const auto board = core::parse_fen(r.position(), {core::FenFields::Four, false});
    REQUIRE(board);
    const int ce = static_cast<int>(i * 37 % 601) - 300;
    given[r.position()] = ce;
    filled.push_back(r.canonical_text() + " acd 14; ce " + std::to_string(ce) + "; pv " +
                     core::to_uci(*board->legal_moves().begin()) + ";");
  }
  CHECK(got == want);

  LeafValues values;
  LeafAnalyses analyses;
  const auto report = book::import_leaf_values(dag, joined(filled), "analysed.epd", {}, values, analyses);
  CHECK(report.errors.empty());
  CHECK(report.notes.empty());
  CHECK(report.records == want.size());
  CHECK(report.matched == want.size());
  CHECK(report.added == want.size());
  CHECK(values.size() == want.size());
  CHECK(analyses.size() == want.size());
  for (const auto& [position, ce] : given) {
    const NodeId n = dag.find(*core::parse_fen(position, {core::FenFields::Four, false}));
    REQUIRE(n != Dag::kNoNode);
    CHECK(values.at(n).to_ce() == ce);
    CHECK(analyses.at(n).depth == 14);
    CHECK(analyses.at(n).lines.at(0).pv.size() == 1);
  }
  // Backsolved: no node unvalued or incomplete; the leaves' records carry acd.
  const auto solved = book::backsolve(dag, values);
  for (NodeId n = 0; n < dag.node_count(); ++n) {
    CHECK(solved.nodes[n].ce.has_value());
    CHECK(!solved.nodes[n].incomplete);
  }
  std::size_t with_acd = 0;
  for (const auto& line : read_epd(book::write_book_epd(dag, solved, analyses)).doc.lines)
    with_acd += line.record->single_operand("acd") == "14";
  CHECK(with_acd == want.size());
}

namespace {

// A small book: leaves 1. e4 e5 2. Nf3 Nc6 (White to move), 1. e4 c5 (White), 1. d4 (Black),
// and the mate after 1. f3 e5 2. g4 Qh4# (terminal).
Dag small_book() {
  Dag dag;
  for (const auto& g : games_of("1. e4 e5 2. Nf3 Nc6 *\n\n1. e4 c5 *\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n1. d4 *\n"))
    dag.add_game(g);
  return dag;
}

// The analyst's file, line by line (the numbers are the lines the report names).
std::string analysed_file() {
  const std::string nc6 = four_fields(after({"e4", "e5", "Nf3", "Nc6"}));
  const std::string c5 = four_fields(after({"e4", "c5"}));
  return joined({
      nc6 + " ce 20; acd 12; acn 5000; acs 3; pv Bb5 a6 e1e8 Nf6;",  // 1: deeper than 10; pv cut at e1e8
      c5 + " ce +30;",                                                 // 2: a value alone
      four_fields(after({"d4"})) + " ce 15; acd 5; pv d7d5 c2c4;",          // 3: Black to move, pv in UCI
      four_fields(after({"f3", "e5", "g4", "Qh4#"})) + " ce 0;",           // 4: terminal
      four_fields(core::Board()) + " ce 0;",                                // 5: not a leaf
      four_fields(after({"a4"})) + " ce 0;",                                // 6: not in the book
      c5 + " acd 30;",                                                 // 7: no ce
      nc6 + " ce 99; acd 12;",                                         // 8: as deep as line 1
      "8/8/8/8/8/8/8/K6K w - - ce 1;",                                 // 9: no position
      nc6 + " ce abc;",                                                // 10: ce no integer
  });
}

}  // namespace

TEST_CASE("leaf import: deeper keeps the deeper value, counts and errors by line", "[book][leaves]") {
  const Dag dag = small_book();
  const NodeId nc6 = dag.find(after({"e4", "e5", "Nf3", "Nc6"}));
  const NodeId c5 = dag.find(after({"e4", "c5"}));
  const NodeId d4 = dag.find(after({"d4"}));
  LeafValues values{{nc6, core::Score::centipawns(10)}};
  LeafAnalyses analyses;
  analyses[nc6].depth = 10;
  ImportOptions deeper;
  deeper.merge = Merge::Deeper;
  const auto r = book::import_leaf_values(dag, analysed_file(), "a.epd", deeper, values, analyses);
  CHECK(r.records == 10);
  CHECK(r.matched == 4);  // lines 1, 2, 3, 8
  CHECK(r.added == 2);    // c5, d4
  CHECK(r.replaced == 1); // line 1 over the engine's depth 10
  CHECK(r.kept == 1);     // line 8: depth 12 is not deeper than 12
  CHECK(r.terminal == 1);
  CHECK(r.not_a_leaf == 1);
  CHECK(r.not_in_book == 1);
  REQUIRE(r.errors.size() == 3);
  CHECK_THAT(r.errors[0], Catch::StartsWith("a.epd:7: ") && Catch::Contains("no ce"));
  CHECK_THAT(r.errors[1], Catch::StartsWith("a.epd:9: "));
  CHECK_THAT(r.errors[2], Catch::StartsWith("a.epd:10: ") && Catch::Contains("ce"));
  REQUIRE(r.notes.size() == 1);
  CHECK_THAT(r.notes[0], Catch::StartsWith("a.epd:1: ") && Catch::Contains("e1e8"));
  CHECK(values.at(nc6).to_ce() == 20);
  const auto& a = analyses.at(nc6);
  CHECK(a.depth == 12);
  CHECK(a.nodes == 5000);
  CHECK(a.time_ms == 3000);
  CHECK(a.bestmove == "f1b5");
  CHECK(a.lines.at(0).pv == std::vector<std::string>{"f1b5", "a7a6"});
  CHECK(a.lines.at(0).score.to_ce() == 20);
  CHECK(values.at(c5).to_ce() == 30);
  CHECK(analyses.count(c5) == 0);  // a value alone: no analysis, so no acd written for it
  CHECK(values.at(d4).to_ce() == 15);
  CHECK(analyses.at(d4).lines.at(0).pv == std::vector<std::string>{"d7d5", "c2c4"});
  CHECK(values.size() == 3);
}

TEST_CASE("leaf import: replace lets every record win, ce-for-white turns Black's", "[book][leaves]") {
  const Dag dag = small_book();
  const NodeId nc6 = dag.find(after({"e4", "e5", "Nf3", "Nc6"}));
  const NodeId d4 = dag.find(after({"d4"}));
  LeafValues values{{nc6, core::Score::centipawns(10)}};
  LeafAnalyses analyses;
  analyses[nc6].depth = 40;
  const auto r = book::import_leaf_values(dag, analysed_file(), "a.epd", {}, values, analyses);
  CHECK(r.matched == 4);
  CHECK(r.replaced == 2);  // lines 1 and 8, whatever the depth
  CHECK(r.kept == 0);
  CHECK(values.at(nc6).to_ce() == 99);
  CHECK(analyses.at(nc6).depth == 12);
  CHECK(values.at(d4).to_ce() == 15);

  ImportOptions white;
  white.ce_for_white = true;
  LeafValues v2;
  LeafAnalyses a2;
  book::import_leaf_values(dag, analysed_file(), "a.epd", white, v2, a2);
  CHECK(v2.at(d4).to_ce() == -15);  // Black to move: White's +15 is Black's -15
  CHECK(v2.at(nc6).to_ce() == 99);  // White to move: as written
  // A value without a known depth never beats one with a depth under deeper, and a value alone
  // replacing an analysed one takes the analysis away.
  LeafValues v3{{nc6, core::Score::centipawns(5)}};
  LeafAnalyses a3;
  a3[nc6].depth = 3;
  ImportOptions deeper;
  deeper.merge = Merge::Deeper;
  const std::string alone = four_fields(after({"e4", "e5", "Nf3", "Nc6"})) + " ce 77;\n";
  CHECK(book::import_leaf_values(dag, alone, "b.epd", deeper, v3, a3).kept == 1);
  CHECK(v3.at(nc6).to_ce() == 5);
  CHECK(book::import_leaf_values(dag, alone, "b.epd", {}, v3, a3).replaced == 1);
  CHECK(v3.at(nc6).to_ce() == 77);
  CHECK(a3.count(nc6) == 0);
  // The reader's errors and the import's come in line order.
  const auto mixed = book::import_leaf_values(dag, "two fields\n" + four_fields(after({"d4"})) + " acd 3;\n", "c.epd", {},
                                              v3, a3);
  REQUIRE(mixed.errors.size() == 2);
  CHECK_THAT(mixed.errors[0], Catch::StartsWith("c.epd:1: "));
  CHECK_THAT(mixed.errors[1], Catch::StartsWith("c.epd:2: no ce"));
  CHECK(mixed.records == 1);
}
