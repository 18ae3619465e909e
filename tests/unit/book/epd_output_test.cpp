// The backsolved book as EPD: a small book whose every record is worked out by hand below (the
// values from the leaves up, by the negamax of backsolve.hpp's definition), and the output read
// back by epdd's own EPD reader and checker.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/epd_output.hpp"
#include "book/first_paths.hpp"
#include "book_support.hpp"
#include "test_support.hpp"
#include "core/fen.hpp"
#include "epd/check.hpp"

using epdd::book::Dag;
using epdd::book::LeafAnalyses;
using epdd::book::LeafValues;
using epdd::book::NodeId;
using epdd::test::after;
using epdd::test::games_of;
namespace core = epdd::core;
namespace epd = epdd::epd;

namespace {

// Five games: 1. e4 c5 2. Nf3 and 1. Nf3 c5 2. e4 transpose; 1. f3 e5 2. g4 Qh4# ends in mate;
// 1. d4 Nf6 is left without a value.
constexpr const char* kBook = R"([Event "a"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 *

[Event "b"]
[Result "*"]

1. e4 c5 2. Nf3 *

[Event "c"]
[Result "*"]

1. Nf3 c5 2. e4 *

[Event "d"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "e"]
[Result "*"]

1. d4 d5 (1... Nf6) *
)";

// One record as the test expects it: every operation, operands joined by spaces; absent
// operations are left out of the map.
struct Expected {
  std::vector<const char*> sans;  // the first path from the root
  std::map<std::string, std::string> ops;
};

// The book of kBook with its leaf values and the engine's analyses of two leaves.
struct Fixture {
  Dag dag;
  LeafValues values;
  LeafAnalyses analyses;
  Fixture() {
    for (const auto& g : games_of(kBook)) dag.add_game(g);
    // 1. e4 e5 2. Nf3 Nc6, White to move: +30, analysed (the PV's fourth move is illegal).
    const NodeId l1 = dag.find(after({"e4", "e5", "Nf3", "Nc6"}));
    values.emplace(l1, core::Score::centipawns(30));
    epdd::uci::Analysis a;
    a.depth = 20;
    a.nodes = 123456;
    a.time_ms = 2500;
    a.lines.resize(1);
    a.lines[0].pv = {"f1b5", "a7a6", "b5a4", "e1e8", "g8f6"};
    analyses.emplace(l1, a);
    // 1. e4 c5 2. Nf3 (= 1. Nf3 c5 2. e4), Black to move: -40 for Black, analysed.
    const NodeId t = dag.find(after({"e4", "c5", "Nf3"}));
    values.emplace(t, core::Score::centipawns(-40));
    epdd::uci::Analysis b;
    b.depth = 18;
    b.nodes = 1000;
    b.time_ms = 999;
    b.lines.resize(1);
    b.lines[0].pv = {"d7d6", "d2d4"};
    analyses.emplace(t, b);
    // 1. d4 d5, White to move: mated in 4 plies (ce -32763), a value without an analysis.
    values.emplace(dag.find(after({"d4", "d5"})), core::Score::from_ce(-32763).value());
    // The checkmate after Qh4# is valued by the rules; 1. d4 Nf6 has no value.
  }
};

// Every record of kBook worked out by hand, in the order the writer promises: by ply, a ply's
// nodes in the order they were first reached (edges in arrival order).
//   L1 = 1. e4 e5 2. Nf3 Nc6 (W): 30         T = 1. e4 c5 2. Nf3 (B): -40
//   A1a (B) Nc6 -> -30; A1 = 1. e4 e5 (W) Nf3 -> 30; A2 = 1. e4 c5 (W) Nf3 -> 40
//   A = 1. e4 (B): e5 -> -30, c5 -> -40: -30 bm e5
//   B1 = 1. Nf3 c5 (W) e4 -> 40; B = 1. Nf3 (B) c5 -> -40
//   M = mate (W to move): -32767; C1a (B) Qh4# -> 32766; C1 (W) g4 -> -32765; C (B) e5 -> 32764
//   D1 (W): -32763; D2 unvalued; D = 1. d4 (B): d5 -> 32762 (Nf6 gives nothing), incomplete
//   root: e4 30, Nf3 40, f3 -32764, d4 -32762: 40 bm Nf3, incomplete (through d4)
std::vector<Expected> expected_records() {
  return {
      {{}, {{"ce", "40"}, {"bm", "Nf3"}, {"pv", "Nf3 c5 e4 d6 d4"}, {"id", "start"}, {"c0", "incomplete"}}},
      {{"e4"}, {{"ce", "-30"}, {"bm", "e5"}, {"pv", "e5 Nf3 Nc6 Bb5 a6 Ba4"}, {"id", "1. e4"}, {"c0", "interior"}}},
      {{"Nf3"}, {{"ce", "-40"}, {"bm", "c5"}, {"pv", "c5 e4 d6 d4"}, {"id", "1. Nf3"}, {"c0", "interior"}}},
      {{"f3"}, {{"ce", "32764"}, {"bm", "e5"}, {"pv", "e5 g4 Qh4#"}, {"id", "1. f3"}, {"c0", "interior"}}},
      {{"d4"}, {{"ce", "32762"}, {"bm", "d5"}, {"pv", "d5"}, {"id", "1. d4"}, {"c0", "incomplete"}}},
      {{"e4", "e5"},
       {{"ce", "30"}, {"bm", "Nf3"}, {"pv", "Nf3 Nc6 Bb5 a6 Ba4"}, {"id", "1. e4 e5"}, {"c0", "interior"}}},
      {{"e4", "c5"}, {{"ce", "40"}, {"bm", "Nf3"}, {"pv", "Nf3 d6 d4"}, {"id", "1. e4 c5"}, {"c0", "interior"}}},
      {{"Nf3", "c5"}, {{"ce", "40"}, {"bm", "e4"}, {"pv", "e4 d6 d4"}, {"id", "1. Nf3 c5"}, {"c0", "interior"}}},
      {{"f3", "e5"}, {{"ce", "-32765"}, {"bm", "g4"}, {"pv", "g4 Qh4#"}, {"id", "1. f3 e5"}, {"c0", "interior"}}},
      {{"d4", "d5"}, {{"ce", "-32763"}, {"id", "1. d4 d5"}, {"c0", "leaf"}}},
      {{"d4", "Nf6"}, {{"id", "1. d4 Nf6"}, {"c0", "unvalued"}}},
      {{"e4", "e5", "Nf3"},
       {{"ce", "-30"}, {"bm", "Nc6"}, {"pv", "Nc6 Bb5 a6 Ba4"}, {"id", "1. e4 e5 2. Nf3"}, {"c0", "interior"}}},
      // The transposition: one record, under its first path (1. e4 c5 2. Nf3, not 1. Nf3 c5 2. e4).
      {{"e4", "c5", "Nf3"},
       {{"ce", "-40"},
        {"pv", "d6 d4"},
        {"acd", "18"},
        {"acn", "1000"},
        {"acs", "0"},
        {"id", "1. e4 c5 2. Nf3"},
        {"c0", "leaf"}}},
      {{"f3", "e5", "g4"},
       {{"ce", "32766"}, {"bm", "Qh4#"}, {"pv", "Qh4#"}, {"id", "1. f3 e5 2. g4"}, {"c0", "interior"}}},
      {{"e4", "e5", "Nf3", "Nc6"},
       {{"ce", "30"},
        {"pv", "Bb5 a6 Ba4"},
        {"acd", "20"},
        {"acn", "123456"},
        {"acs", "2"},
        {"id", "1. e4 e5 2. Nf3 Nc6"},
        {"c0", "leaf"}}},
      {{"f3", "e5", "g4", "Qh4#"}, {{"ce", "-32767"}, {"id", "1. f3 e5 2. g4 Qh4#"}, {"c0", "terminal"}}},
  };
}

// The EPD text read and checked by the epd module: no error or warning (shown if any). With
// ce_for_white the checker rightly warns about the mates of Black-to-move records (their ce is
// White's, against the standard's side to move, so the parity it checks is the other one):
// those warnings, and only those, are expected then.
epd::CheckedDocument checked(const std::string& text, bool ce_for_white = false) {
  auto doc = epd::check_document(text, {});
  std::string shown;
  for (const auto& d : doc.diags.items()) shown += std::to_string(d.line) + ":" + std::to_string(d.column) + " " + d.message + "\n";
  INFO(text << shown);
  CHECK(doc.diags.count(epd::Severity::Error) == 0);
  const std::size_t mate_parity = ce_for_white ? doc.diags.count(epd::Problem::CeMate) : 0;
  CHECK(doc.diags.count(epd::Severity::Warning) == mate_parity);
  return doc;
}

// An operation's operands joined by spaces.
std::string operands_of(const epd::Operation& op) {
  std::string s;
  for (const auto& o : op.operands) s += (s.empty() ? "" : " ") + o.text;
  return s;
}

// The four fields of a position as the book writes them.
std::string f_epd(const core::Board& board) {
  core::FenWriteOptions o;
  o.ep_only_if_capturable = true;
  return core::to_epd_position(board, o);
}

// Whether side to move of a record's fields is Black.
bool black_to_move(const epd::EpdRecord& r) { return r.field(1) == "b"; }

}  // namespace

TEST_CASE("book EPD: every record of a small book, field by field, read back by the EPD checker", "[book][epd]") {
  Fixture f;
  const auto solved = epdd::book::backsolve(f.dag, f.values);
  const std::string text = epdd::book::write_book_epd(f.dag, solved, f.analyses);
  const auto doc = checked(text);
  const auto want = expected_records();
  REQUIRE(f.dag.node_count() == want.size());  // 16 positions: the transposition is one node
  REQUIRE(doc.doc.record_count() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& record = doc.doc.lines[i].record;
    REQUIRE(record);
    INFO("record " << i << ": " << record->canonical_text());
    core::Board board;
    for (const char* san : want[i].sans) board.make_move(core::parse_san(board, san)->move);
    // The position is the node's, and the node's four fields.
    CHECK(record->position() == f_epd(board));
    CHECK(record->position() == f.dag.epd(f.dag.find(board)));
    std::map<std::string, std::string> got;
    for (const auto& op : record->operations()) {
      CHECK(got.count(op.opcode) == 0);
      got[op.opcode] = operands_of(op);
      // Strings quoted as the standard wants, the rest not.
      CHECK(op.operands.front().quoted == (op.opcode == "id" || op.opcode == "c0"));
    }
    CHECK(got == want[i].ops);
  }
}

TEST_CASE("book EPD: ce-for-white negates the records with Black to move and no others", "[book][epd]") {
  Fixture f;
  const auto solved = epdd::book::backsolve(f.dag, f.values);
  epdd::book::EpdOutputOptions white;
  white.ce_for_white = true;
  const auto side = checked(epdd::book::write_book_epd(f.dag, solved, f.analyses));
  const auto flipped = checked(epdd::book::write_book_epd(f.dag, solved, f.analyses, white), true);
  REQUIRE(side.doc.record_count() == flipped.doc.record_count());
  int black_records = 0;
  for (std::size_t i = 0; i < side.doc.lines.size(); ++i) {
    const auto& a = *side.doc.lines[i].record;
    const auto& b = *flipped.doc.lines[i].record;
    INFO(a.canonical_text() << "\n" << b.canonical_text());
    REQUIRE(a.position() == b.position());
    const auto ce_a = a.single_operand("ce");
    const auto ce_b = b.single_operand("ce");
    REQUIRE(ce_a.has_value() == ce_b.has_value());
    if (ce_a) {
      const int sign = black_to_move(a) ? -1 : 1;
      black_records += black_to_move(a);
      CHECK(std::stoi(std::string(*ce_b)) == sign * std::stoi(std::string(*ce_a)));
    }
  }
  CHECK(flipped.diags.count(epd::Problem::CeMate) == 3);  // 1. f3, 1. d4, 1. f3 e5 2. g4
  CHECK(black_records == 7);  // 1. e4, 1. Nf3, 1. f3, 1. d4, and the three after White's second move
}

TEST_CASE("book EPD: --pv-plies N keeps each record's first N plies of its pv, and only the pv", "[book][epd]") {
  Fixture f;
  const auto solved = epdd::book::backsolve(f.dag, f.values);
  const auto whole = checked(epdd::book::write_book_epd(f.dag, solved, f.analyses));
  // The longest pv of the book, so that every limit below it cuts one.
  std::size_t longest = 0;
  for (const auto& line : whole.doc.lines)
    if (const auto* pv = line.record->find("pv")) longest = std::max(longest, pv->operands.size());
  REQUIRE(longest >= 3);
  for (std::size_t limit = 0; limit <= longest + 1; ++limit) {
    INFO("--pv-plies " << limit);
    epdd::book::EpdOutputOptions o;
    o.pv_plies = limit;
    const auto cut = checked(epdd::book::write_book_epd(f.dag, solved, f.analyses, o));
    REQUIRE(cut.doc.record_count() == whole.doc.record_count());
    for (std::size_t i = 0; i < whole.doc.lines.size(); ++i) {
      const auto& a = *whole.doc.lines[i].record;
      const auto& b = *cut.doc.lines[i].record;
      INFO(a.canonical_text() << "\n" << b.canonical_text());
      CHECK(a.position() == b.position());
      std::map<std::string, std::string> ops_a, ops_b;
      for (const auto& op : a.operations()) ops_a[op.opcode] = operands_of(op);
      for (const auto& op : b.operations()) ops_b[op.opcode] = operands_of(op);
      const auto* pv = a.find("pv");
      const std::size_t kept = pv ? std::min(limit, pv->operands.size()) : 0;
      if (kept == 0) {
        CHECK(b.find("pv") == nullptr);
      } else {
        REQUIRE(b.find("pv") != nullptr);
        const auto& got = b.find("pv")->operands;
        REQUIRE(got.size() == kept);
        for (std::size_t k = 0; k < kept; ++k) CHECK(got[k].text == pv->operands[k].text);
      }
      ops_a.erase("pv");
      ops_b.erase("pv");
      CHECK(ops_a == ops_b);  // every other operation as it was
    }
  }
}

TEST_CASE("book EPD: written a part at a time, the same text in whole records", "[book][epd]") {
  // A book of the first 12 plies of twic0920.pgn's games, every leaf valued: a text of several parts.
  Dag dag;
  epdd::book::BuildOptions twelve;
  twelve.max_ply = 12;
  for (const auto& g : games_of(epdd::test::read_file(epdd::test::shared_data("pgn/twic0920.pgn")))) dag.add_game(g, twelve);
  LeafValues values;
  for (NodeId n = 0; n < dag.node_count(); ++n)
    if (dag.is_leaf(n)) values.emplace(n, core::Score::centipawns(static_cast<int>(n % 41) - 20));
  const auto solved = epdd::book::backsolve(dag, values);
  const std::string whole = epdd::book::write_book_epd(dag, solved, {});
  std::vector<std::string> parts;
  epdd::book::write_book_epd(dag, solved, {}, {}, [&](std::string_view part) { parts.emplace_back(part); });
  REQUIRE(parts.size() > 2);
  std::string joined;
  for (const std::string& p : parts) {
    CHECK(!p.empty());
    CHECK(p.back() == '\n');                           // whole records
    CHECK(p.size() < (std::size_t{1} << 16) + 1024);  // a part, never the book
    joined += p;
  }
  CHECK(joined == whole);
}

TEST_CASE("book EPD: a book whose root has Black to move numbers its ids from 1...", "[book][epd]") {
  const auto games = games_of(R"([Event "x"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]
[Result "*"]

1... e5 2. Nf3 Nc6 *
)");
  Dag dag(games.front().start);
  dag.add_game(games.front());
  REQUIRE(dag.node_count() == 4);
  const LeafValues values{{3, core::Score::centipawns(15)}};
  const auto doc = checked(epdd::book::write_book_epd(dag, epdd::book::backsolve(dag, values), {}));
  REQUIRE(doc.doc.record_count() == 4);
  const std::vector<std::string> ids = {"start", "1... e5", "1... e5 2. Nf3", "1... e5 2. Nf3 Nc6"};
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(doc.doc.lines[i].record->single_operand("id") == ids[i]);
  CHECK(doc.doc.lines[0].record->single_operand("ce") == "-15");  // leaf +15 for White, root has Black to move
  CHECK(operands_of(*doc.doc.lines[0].record->find("pv")) == "e5 Nf3 Nc6");
}

TEST_CASE("book EPD: an id longer than the standard's 255 bytes keeps its first 252 and ends in ...", "[book][epd]") {
  // The first game of Kasparov - Deep Blue 1997, its main line as a book of one line.
  const auto games = games_of(epdd::test::read_file(epdd::test::shared_data("pgn/kasparov-deep-blue-1997.pgn")));
  const auto moves = games.front().mainline();
  REQUIRE(moves.size() > 80);
  Dag dag;
  core::Board board;
  std::string path;  // the oracle: the numbered SAN path, written here
  std::vector<std::string> seen{f_epd(board)};
  NodeId at = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    if (i % 2 == 0) path += (i ? " " : "") + std::to_string(i / 2 + 1) + ". ";
    else path += " ";
    path += core::to_san(board, moves[i]);
    board.make_move(moves[i]);
    const NodeId child = dag.add_position(board);
    dag.add_edge(at, moves[i], child);
    at = child;
    seen.push_back(f_epd(board));
  }
  std::sort(seen.begin(), seen.end());
  REQUIRE(std::adjacent_find(seen.begin(), seen.end()) == seen.end());  // no repetition: one path
  REQUIRE(path.size() > 255);
  const auto doc = checked(epdd::book::write_book_epd(dag, epdd::book::backsolve(dag, {}), {}));
  REQUIRE(doc.doc.record_count() == moves.size() + 1);
  const auto& last = *doc.doc.lines.back().record;
  CHECK(last.position() == f_epd(board));
  CHECK(last.single_operand("id") == path.substr(0, 252) + "...");
  // A shorter path is whole: the record after 20 plies.
  const std::string twenty = path.substr(0, path.find(" 11. "));
  CHECK(doc.doc.lines[20].record->single_operand("id") == twenty);
}

TEST_CASE("book ids: made one after another, each as first_path_id cut to its first 256 characters", "[book][epd]") {
  // twic0920's games 90 plies deep (ids far over 255 characters), two FEN roots, one named
  // with a name over 255 characters and one "root 1"; the ids made in order against
  // first_path_id, which walks each node's path back to its root.
  std::string text = epdd::test::read_file(epdd::test::shared_data("pgn/twic0920.pgn"));
  text += "\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. Kd2 Kd6 3. Ke3 Ke5 *\n";
  text += "\n[FEN \"4k3/8/8/8/8/8/3P4/4K3 b - - 0 1\"]\n[SetUp \"1\"]\n\n1... Kd7 2. d4 Kd6 *\n";
  Dag dag;
  epdd::book::BuildOptions options;
  options.max_ply = 90;
  for (const auto& g : games_of(text)) dag.add_game(g, options);
  epdd::book::RootNames names;
  names[dag.find(*core::parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))] = std::string(300, 'n');
  for (const bool renumbered : {false, true}) {
    INFO("renumbered " << renumbered);
    if (renumbered) {
      const auto rank = dag.renumber(epdd::book::output_order(dag, &names));
      epdd::book::RootNames moved;
      for (const auto& [n, name] : names) moved[rank[n]] = name;
      names = moved;
    }
    const auto f = epdd::book::first_paths(dag, &names);
    epdd::book::FirstPathIds ids(dag, f, 256);
    std::size_t over = 0;
    for (const NodeId n : f.order) {
      const std::string whole = epdd::book::first_path_id(dag, f, n);
      std::size_t length = 0;
      const std::string_view id = ids.next(n, length);
      REQUIRE(length == whole.size());
      REQUIRE(id == std::string_view(whole).substr(0, 256));
      over += whole.size() > 256;
    }
    CHECK(over > 1000);
    CHECK(f.label.size() == 3);
    // A node whose parent was not given before it.
    epdd::book::FirstPathIds skipping(dag, f, 256);
    std::size_t length = 0;
    skipping.next(f.order[0], length);
    REQUIRE(f.root[f.order.back()] != f.order.back());  // (the last walk's last node, no root)
    CHECK_THROWS_AS(skipping.next(f.order.back(), length), std::out_of_range);
  }
}
