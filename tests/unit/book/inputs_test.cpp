// The book's other inputs into one Dag: a Polyglot .bin walked into a book that games started,
// EPD records as nodes (errors named FILE:LINE, links by legal moves with link_epd), Chess960 in
// PGN and EPD, and the EPD output covering every root. Oracles are written here: positions and
// moves by replaying with core, cut to four fields by this file.
#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "book/backsolve.hpp"
#include "book/build.hpp"
#include "book/epd_output.hpp"
#include "book/inputs.hpp"
#include "book/polyglot.hpp"
#include "book_support.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"
#include "epd/check.hpp"
#include "test_support.hpp"

using epdd::book::Dag;
using epdd::book::EpdInputOptions;
using epdd::book::EpdInputs;
using epdd::book::NodeId;
using epdd::test::after;
using epdd::test::four_fields;
using epdd::test::games_of;
namespace book = epdd::book;
namespace core = epdd::core;
namespace epd = epdd::epd;
namespace pgn = epdd::pgn;

namespace {

// Every position and every (position, move) of the games' main lines and variations, replayed.
struct Replay {
  std::set<std::string> positions;
  std::set<std::pair<std::string, std::string>> moves;  // (from, UCI)
};

void replay_line(Replay& r, core::Board board, const pgn::Variation& line) {
  for (const pgn::MoveNode& mn : line.moves) {
    for (const pgn::Annotation& a : mn.after)
      if (a.kind == pgn::Annotation::Kind::Variation)
        for (const pgn::Variation& v : a.variation) replay_line(r, board.detached(), v);
    const std::string from = four_fields(board);
    r.moves.insert({from, core::to_uci(mn.move, core::UciCastling::KingTakesRook)});
    board.make_move(mn.move);
    r.positions.insert(four_fields(board));
  }
}

Replay replay(const std::vector<pgn::Game>& games) {
  Replay r;
  for (const pgn::Game& g : games) {
    r.positions.insert(four_fields(g.start));
    replay_line(r, g.start.detached(), g.main);
  }
  return r;
}

// The same sets read off a Dag.
Replay of_dag(const Dag& dag) {
  Replay r;
  for (NodeId n = 0; n < dag.node_count(); ++n) {
    r.positions.insert(dag.epd(n));
    for (auto e : dag.edges_of(n))
      r.moves.insert({dag.epd(n), core::to_uci(dag.edge(e).move, core::UciCastling::KingTakesRook)});
  }
  return r;
}

constexpr const char* kBookA = R"(
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 (2... d6 3. d4) 3. Bb5 1-0

[Result "0-1"]

1. d4 d5 2. c4 e6 0-1
)";

constexpr const char* kBookB = R"(
[Result "1-0"]

1. e4 e5 2. Nf3 Nf6 1-0

[Result "*"]

1. c4 e5 2. Nc3 *
)";

// Book A as a .bin holding every one of its moves (every leaf valued, losing moves kept).
std::string bin_of_book_a() {
  Dag a;
  for (const auto& g : games_of(kBookA)) a.add_game(g);
  book::LeafValues leaves;
  for (NodeId n = 0; n < a.node_count(); ++n)
    if (a.is_leaf(n)) leaves.emplace(n, core::Score::centipawns(static_cast<int>(n) * 7 - 20));
  book::PolyglotOptions keep;
  keep.keep_losing = true;
  keep.margin_cp = 100000;
  return book::write_polyglot(a, book::backsolve(a, leaves), keep);
}

std::set<std::string> union_of(std::set<std::string> a, const std::set<std::string>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

// The EPD text read and checked by the epd module: no error (shown if any).
epd::CheckedDocument checked(const std::string& text, bool chess960 = false) {
  epd::CheckOptions options;
  options.chess960 = chess960;
  auto doc = epd::check_document(text, options);
  std::string shown;
  for (const auto& d : doc.diags.items()) shown += std::to_string(d.line) + ": " + d.message + "\n";
  INFO(text << shown);
  CHECK(doc.diags.count(epd::Severity::Error) == 0);
  return doc;
}

}  // namespace

TEST_CASE("inputs: a Polyglot book walked into a book of games joins their positions", "[book][inputs]") {
  const std::string bin = bin_of_book_a();
  Dag dag;
  for (const auto& g : games_of(kBookB)) dag.add_game(g);
  const Replay a = replay(games_of(kBookA));
  const Replay b = replay(games_of(kBookB));
  std::vector<std::uint16_t> weights;
  const auto added = book::add_polyglot(dag, bin, 100, &weights);
  REQUIRE(added);
  const Replay got = of_dag(dag);
  CHECK(got.positions == union_of(a.positions, b.positions));
  std::set<std::pair<std::string, std::string>> moves = a.moves;
  moves.insert(b.moves.begin(), b.moves.end());
  CHECK(got.moves == moves);
  CHECK(dag.node_count() == got.positions.size());
  CHECK(dag.edge_count() == moves.size());
  CHECK(added->illegal_entries == 0);
  CHECK(added->entries == a.moves.size());  // one entry per move of book A
  CHECK(added->nodes_added == union_of(a.positions, b.positions).size() - b.positions.size());
  CHECK(added->edges_added == moves.size() - b.moves.size());
  // Weights by EdgeId: the edges the .bin added have its weights (the best moves 65535), the
  // game edges that were there before keep 0.
  REQUIRE(weights.size() == dag.edge_count());
  const NodeId start = dag.find(core::Board());
  for (auto e : dag.edges_of(start)) {
    const std::string uci = core::to_uci(dag.edge(e).move);
    INFO(uci);
    if (uci == "c2c4") CHECK(weights[e] == 0);  // book B's game move, not in A
    if (uci == "e2e4") CHECK(weights[e] == 0);  // in both: B's edge was there first
    if (uci == "d2d4") CHECK(weights[e] > 0);
  }
  // max_ply 1: only the start position's entries; bad bytes: an error and nothing added.
  Dag shallow;
  const auto one = book::add_polyglot(shallow, bin, 1);
  REQUIRE(one);
  CHECK(shallow.edge_count() == 2);  // 1. e4, 1. d4
  const auto cut = book::add_polyglot(dag, bin.substr(0, 20), 10);
  REQUIRE(!cut);
  CHECK_THAT(cut.error(), Catch::Contains("20 bytes"));
  CHECK(of_dag(dag).positions == got.positions);
}

TEST_CASE("inputs: EPD records are nodes, bad lines are errors named FILE:LINE", "[book][inputs]") {
  const std::string text = "# a comment\n" +
                           four_fields(after({"e4"})) + " id \"King's pawn\";\n" +
                           "8/8/8/8/8/8/8/K6K w - -\n" +  // two white kings: no position
                           four_fields(after({"d4"})) + " bm Nf6;\n" +
                           "rnbqkbnr/pppppppp w\n" +       // two fields: no record
                           "\n" +
                           four_fields(after({"e4"})) + " id \"again\";\n";  // a duplicate
  Dag dag;
  EpdInputs inputs;
  const auto added = book::add_epd(dag, text, "lines.epd", {}, inputs);
  INFO(added.errors.size());
  REQUIRE(added.errors.size() == 2);
  CHECK_THAT(added.errors[0], Catch::StartsWith("lines.epd:3: "));
  CHECK_THAT(added.errors[1], Catch::StartsWith("lines.epd:5: "));
  CHECK(added.records == 4);  // lines 2, 3, 4 and 7 (line 5 has too few fields)
  CHECK(added.nodes_added == 2);
  CHECK(added.duplicates == 1);
  CHECK(added.links == 0);
  CHECK(dag.node_count() == 3);  // the start position, 1. e4, 1. d4
  CHECK(dag.edge_count() == 0);
  const NodeId e4 = dag.find(after({"e4"}));
  const NodeId d4 = dag.find(after({"d4"}));
  REQUIRE(e4 != Dag::kNoNode);
  REQUIRE(d4 != Dag::kNoNode);
  CHECK(inputs.records == std::vector<NodeId>{e4, d4});
  CHECK(inputs.names.at(e4) == "King's pawn");  // the first id given
  CHECK(inputs.names.at(d4) == "lines.epd:4");  // no id: where the record stands
  // A '"' in a name would end the quoted id of the outputs early: it becomes '\''.
  book::add_epd(dag, four_fields(after({"c4"})) + "\n", "my \"best\".epd", {}, inputs);
  CHECK(inputs.names.at(dag.find(after({"c4"}))) == "my 'best'.epd:1");
}

TEST_CASE("inputs: link_epd makes every legal move between records an edge, across files", "[book][inputs]") {
  // Records a move apart and two apart; a transposition (1. e4 e5 2. Nf3 = 1. Nf3 e5 2. e4).
  const std::vector<core::Board> first = {core::Board(), after({"e4"}), after({"Nf3"}), after({"e4", "e5"}),
                                          after({"d4", "d5"})};
  const std::vector<core::Board> second = {after({"e4", "e5", "Nf3"}), after({"Nf3", "e5"}),
                                           after({"e4", "e5", "Nf3", "Nc6"}), after({"c4", "c5", "Nc3"})};
  std::string text1, text2;
  for (const auto& b : first) text1 += four_fields(b) + "\n";
  for (const auto& b : second) text2 += four_fields(b) + "\n";
  // The oracle: every legal move from a record's position whose result is another record's.
  std::set<std::string> records;
  for (const auto* set : {&first, &second})
    for (const auto& b : *set) records.insert(four_fields(b));
  std::set<std::pair<std::string, std::string>> want;
  for (const auto* set : {&first, &second})
    for (const auto& b : *set)
      for (core::Move m : b.legal_moves()) {
        core::Board c = b.detached();
        c.make_move(m);
        if (records.count(four_fields(c))) want.insert({four_fields(b), core::to_uci(m)});
      }
  REQUIRE(want.size() == 7);  // e4, Nf3; e5; e5; Nf3; e4 (transposing); Nc6
  Dag dag;
  EpdInputs inputs;
  EpdInputOptions link;
  link.link_epd = true;
  const auto one = book::add_epd(dag, text1, "one.epd", link, inputs);
  CHECK(one.links == 3);  // start -> e4, start -> Nf3, e4 -> e4 e5
  const auto two = book::add_epd(dag, text2, "two.epd", link, inputs);
  CHECK(two.links == 4);
  CHECK(one.errors.empty());
  CHECK(two.errors.empty());
  std::set<std::pair<std::string, std::string>> got;
  for (NodeId n = 0; n < dag.node_count(); ++n)
    for (auto e : dag.edges_of(n)) got.insert({dag.epd(n), core::to_uci(dag.edge(e).move)});
  CHECK(got == want);
  // The transposition is one node with two parents; the unlinked records are roots.
  CHECK(dag.node(dag.find(after({"e4", "e5", "Nf3"}))).parents == 2);
  CHECK(dag.node(dag.find(after({"d4", "d5"}))).parents == 0);
  CHECK(dag.node(dag.find(after({"c4", "c5", "Nc3"}))).parents == 0);
}

TEST_CASE("inputs: link_epd does not graft records onto positions only games gave", "[book][inputs]") {
  Dag dag;
  for (const auto& g : games_of("1. Nf3 d5 2. d4 *\n")) dag.add_game(g);
  const std::size_t edges = dag.edge_count();
  EpdInputs inputs;
  EpdInputOptions link;
  link.link_epd = true;
  // 1. Nf3 is a game's node too (the same node); from 1. d4 d5, Nf3 transposes into the game's
  // 1. Nf3 d5 2. d4, a position no record gave: not linked.
  const auto added =
      book::add_epd(dag, four_fields(after({"Nf3"})) + "\n" + four_fields(after({"d4", "d5"})) + "\n", "x.epd", link, inputs);
  REQUIRE(dag.find(after({"d4", "d5", "Nf3"})) == dag.find(after({"Nf3", "d5", "d4"})));
  CHECK(added.nodes_added == 1);
  CHECK(added.links == 0);
  CHECK(dag.edge_count() == edges);
}

TEST_CASE("inputs: Chess960 games with X-FEN or Shredder-FEN tags, with or without Variant", "[book][inputs][960]") {
  // The first game of the cutechess file again, its start written three ways.
  const auto games = games_of(epdd::test::read_file(epdd::test::shared_data("pgn/chess960-cutechess.pgn")));
  REQUIRE(games.size() == 4);
  std::string moves;
  {
    core::Board b = games[0].start.detached();
    int ply = 0;
    for (core::Move m : games[0].mainline()) {
      if (ply % 2 == 0) moves += std::to_string(ply / 2 + 1) + ". ";
      moves += core::to_san(b, m) + " ";
      b.make_move(m);
      ++ply;
    }
  }
  const std::string shredder = "[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd - 0 1\"]\n[SetUp \"1\"]\n";
  const std::string xfen_variant = "[Variant \"chess960\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n[SetUp \"1\"]\n";
  Dag dag;
  for (const auto& head : {shredder, xfen_variant}) {
    const auto g = games_of(head + "\n" + moves + "*\n");
    REQUIRE(g.size() == 1);
    CHECK(g[0].mainline().size() == games[0].mainline().size());  // every move read (O-O, O-O-O)
    dag.add_game(g[0]);
  }
  // Both are the one game: the nodes are its positions and the start position.
  std::set<std::string> positions{four_fields(core::Board())};
  core::Board b = games[0].start.detached();
  positions.insert(four_fields(b));
  for (core::Move m : games[0].mainline()) {
    b.make_move(m);
    positions.insert(four_fields(b));
  }
  CHECK(dag.node_count() == positions.size());
  for (NodeId n = 0; n < dag.node_count(); ++n) CHECK(positions.count(dag.epd(n)) == 1);
  // X-FEN KQkq without a Variant tag, the king off the e-file (the second game, king on c1):
  // read as Chess960 (a warning, no error), every move read, one node per position.
  const std::string fen = "rqkrbnnb/pppppppp/8/8/8/8/PPPPPPPP/RQKRBNNB w KQkq - 0 1";
  REQUIRE(four_fields(games[1].start) == "rqkrbnnb/pppppppp/8/8/8/8/PPPPPPPP/RQKRBNNB w KQkq -");
  std::string second;
  core::Board c = games[1].start.detached();
  std::set<std::string> seen{four_fields(c)};
  int ply = 0;
  for (core::Move m : games[1].mainline()) {
    if (ply % 2 == 0) second += std::to_string(ply / 2 + 1) + ". ";
    second += core::to_san(c, m) + " ";
    c.make_move(m);
    seen.insert(four_fields(c));
    ++ply;
  }
  const auto g = games_of("[FEN \"" + fen + "\"]\n[SetUp \"1\"]\n\n" + second + "*\n");
  REQUIRE(g.size() == 1);
  CHECK(g[0].start.chess960());
  CHECK(g[0].mainline().size() == games[1].mainline().size());
  Dag other{Dag::Empty{}};
  other.add_game(g[0]);
  CHECK(other.node_count() == seen.size());
}

TEST_CASE("inputs: Chess960 EPD records in X-FEN and Shredder-FEN are one node", "[book][inputs][960]") {
  // X-FEN KQkq with the king on e1 and the rooks on d1 and g1: not standard chess, so read as
  // the outermost rooks; the Shredder-FEN spelling of the same position; and one castling later.
  const std::string xfen = "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq -";
  const std::string shredder = "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w GDgd -";
  auto start = book::read_epd_position(xfen);
  REQUIRE(start);
  CHECK(start->chess960());
  auto castled = start->detached();
  // The f1 knight stands where the rook goes: knights away, then O-O (king g1, rook f1).
  castled.make_move(core::parse_san(castled, "Ne3")->move);
  castled.make_move(core::parse_san(castled, "Ne6")->move);
  const auto oo = core::parse_san(castled, "O-O");
  REQUIRE(oo);
  const std::string before_oo = four_fields(castled, core::CastlingNotation::Shredder);
  castled.make_move(oo->move);
  Dag dag;
  EpdInputs inputs;
  EpdInputOptions link;
  link.link_epd = true;
  const auto added = book::add_epd(
      dag, xfen + "\n" + shredder + "\n" + before_oo + "\n" + four_fields(castled, core::CastlingNotation::Shredder) + "\n",
      "960.epd", link, inputs);
  CHECK(added.errors.empty());
  CHECK(added.records == 4);
  CHECK(added.duplicates == 1);
  REQUIRE(added.links == 1);  // O-O, the king taking its rook
  const NodeId from = dag.find(*core::parse_fen(before_oo, {core::FenFields::Four, true}));
  REQUIRE(from != Dag::kNoNode);
  const auto& edge = dag.edge(dag.node(from).first_edge);
  CHECK(edge.move == oo->move);
  // A bad castling field is an error named by its line.
  EpdInputs other;
  const auto bad = book::add_epd(dag, "nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkqA -\n", "bad.epd", {}, other);
  REQUIRE(bad.errors.size() == 1);
  CHECK_THAT(bad.errors[0], Catch::StartsWith("bad.epd:1: ") && Catch::Contains("castling"));
}

TEST_CASE("inputs: a Chess960 book's EPD writes Shredder-FEN and reads back to the same nodes", "[book][inputs][960]") {
  const auto games = games_of(epdd::test::read_file(epdd::test::shared_data("pgn/chess960-cutechess.pgn")));
  Dag dag;
  for (const auto& g : games) dag.add_game(g);
  const auto solved = book::backsolve(dag, {});
  const std::string text = book::write_book_epd(dag, solved, {});
  const auto doc = checked(text);
  // Every node once (the start position has no moves: the games start elsewhere).
  REQUIRE(doc.doc.record_count() == dag.node_count() - 1);
  std::set<std::string> want;
  for (const auto& g : games) {
    core::Board b = g.start.detached();
    want.insert(four_fields(b, core::CastlingNotation::Shredder));
    for (core::Move m : g.mainline()) {
      b.make_move(m);
      want.insert(four_fields(b, core::CastlingNotation::Shredder));
    }
  }
  std::set<std::string> got;
  bool castled_id = false;
  for (const auto& line : doc.doc.lines) {
    got.insert(line.record->position());
    castled_id = castled_id || line.record->single_operand("id")->find("O-O-O") != std::string_view::npos;
  }
  CHECK(got == want);
  CHECK(castled_id);  // "21. O-O-O" of the first game, in the path of the positions after it
  // Read back as EPD input: the same positions, found in the first book.
  Dag back{Dag::Empty{}};
  EpdInputs inputs;
  const auto added = book::add_epd(back, text, "book.epd", {}, inputs);
  CHECK(added.errors.empty());
  CHECK(back.node_count() == dag.node_count() - 1);
  for (NodeId n = 0; n < back.node_count(); ++n) {
    auto board = core::parse_fen(back.epd(n), {core::FenFields::Four, true});
    REQUIRE(board);
    CHECK(dag.find(*board) != Dag::kNoNode);
  }
}

TEST_CASE("book EPD: several roots, every node a record, roots named by the EPD ids", "[book][epd][inputs]") {
  // A game from the start; two EPD records not reached by it, one with an id; a game from a FEN.
  Dag dag;
  for (const auto& g : games_of("1. e4 e5 *\n")) dag.add_game(g);
  EpdInputs inputs;
  book::add_epd(dag, four_fields(after({"d4", "d5"})) + " id \"QP\";\n" + four_fields(after({"c4"})) + "\n", "r.epd", {}, inputs);
  for (const auto& g : games_of("[FEN \"" + four_fields(after({"Nf3", "Nf6"})) + " 0 2\"]\n[SetUp \"1\"]\n\n2. g3 g6 *\n"))
    dag.add_game(g);
  REQUIRE(dag.node_count() == 8);
  book::EpdOutputOptions options;
  options.root_names = &inputs.names;
  const auto doc = checked(book::write_book_epd(dag, book::backsolve(dag, {}), {}, options));
  REQUIRE(doc.doc.record_count() == dag.node_count());
  const std::vector<std::pair<core::Board, std::string>> want = {
      {core::Board(), "start"},
      {after({"e4"}), "1. e4"},
      {after({"e4", "e5"}), "1. e4 e5"},
      {after({"d4", "d5"}), "QP"},
      {after({"c4"}), "r.epd:2"},
      {after({"Nf3", "Nf6"}), "root 1"},
      {after({"Nf3", "Nf6", "g3"}), "root 1: 1. g3"},
      {after({"Nf3", "Nf6", "g3", "g6"}), "root 1: 1. g3 g6"},
  };
  for (std::size_t i = 0; i < want.size(); ++i) {
    const auto& r = *doc.doc.lines[i].record;
    INFO(i << ": " << r.canonical_text());
    CHECK(r.position() == four_fields(want[i].first));
    CHECK(r.single_operand("id") == want[i].second);
  }
  // Without names: the EPD roots are "root K" too, in node order.
  const auto plain = checked(book::write_book_epd(dag, book::backsolve(dag, {}), {}));
  CHECK(plain.doc.lines[3].record->single_operand("id") == "root 1");
  CHECK(plain.doc.lines[7].record->single_operand("id") == "root 3: 1. g3 g6");
}

TEST_CASE("book EPD: a book of EPD records alone leaves the unused start position out", "[book][epd][inputs]") {
  Dag dag;
  EpdInputs inputs;
  book::add_epd(dag, four_fields(after({"e4"})) + "\n" + four_fields(after({"e4", "c5"})) + "\n", "s.epd", {true, false}, inputs);
  REQUIRE(dag.node_count() == 3);
  const auto doc = checked(book::write_book_epd(dag, book::backsolve(dag, {}), {}));
  REQUIRE(doc.doc.record_count() == 2);
  CHECK(doc.doc.lines[0].record->position() == four_fields(after({"e4"})));
  CHECK(doc.doc.lines[0].record->single_operand("id") == "root 1");
  CHECK(doc.doc.lines[1].record->single_operand("id") == "root 1: 1... c5");
  CHECK(book::book_nodes(dag) == std::vector<NodeId>{dag.find(after({"e4"})), dag.find(after({"e4", "c5"}))});
  // Given as a record itself (named), the start position is a root again.
  book::add_epd(dag, four_fields(core::Board()) + "\n", "t.epd", {true, false}, inputs);
  book::EpdOutputOptions options;
  options.root_names = &inputs.names;
  const auto with_start = checked(book::write_book_epd(dag, book::backsolve(dag, {}), {}, options));
  REQUIRE(with_start.doc.record_count() == 3);
  CHECK(with_start.doc.lines[0].record->single_operand("id") == "start");
  CHECK(with_start.doc.lines[2].record->single_operand("id") == "1. e4 c5");
}

TEST_CASE("inputs: the min-games filter keeps the other roots and the moves no game counts", "[book][inputs]") {
  const std::string x = four_fields(after({"Nf3", "Nf6"}));
  const std::string y = four_fields(after({"a3", "a6"}));
  Dag dag;
  for (const auto& g : games_of("1. e4 e5 *\n\n1. e4 e5 *\n\n1. d4 *\n\n"
                                "[FEN \"" + x + " 0 2\"]\n[SetUp \"1\"]\n\n2. g3 *\n\n"
                                "[FEN \"" + x + " 0 2\"]\n[SetUp \"1\"]\n\n2. g3 *\n\n"
                                "[FEN \"" + y + " 0 2\"]\n[SetUp \"1\"]\n\n2. b3 *\n"))
    dag.add_game(g);
  EpdInputs inputs;
  EpdInputOptions link;
  link.link_epd = true;
  book::add_epd(dag, four_fields(after({"c4"})) + "\n" + four_fields(after({"c4", "c5"})) + "\n", "l.epd", link, inputs);
  const Dag two = dag.filtered(2);
  // Kept: start, 1. e4, 1. e4 e5; the FEN starts x (and 2. g3, two games) and y (its 2. b3, one
  // game, goes); the records 1. c4 and 1. c4 c5 with their link. 1. d4 (one game) goes.
  std::set<std::string> want;
  for (const auto& b : {core::Board(), after({"e4"}), after({"e4", "e5"}), after({"Nf3", "Nf6", "g3"}), after({"c4"}),
                        after({"c4", "c5"})})
    want.insert(four_fields(b));
  want.insert(x);
  want.insert(y);
  CHECK(of_dag(two).positions == want);
  CHECK(two.node_count() == want.size());
  CHECK(two.edge_count() == 4);  // e4, e5, g3, c5
  CHECK(two.epd(0) == four_fields(core::Board()));
}

// Standard input has no suffix: its type comes from its bytes; any other name keeps to its suffix.
TEST_CASE("inputs: '-' is typed by its content, a named file by its suffix only", "[book][inputs]") {
  using book::InputType;
  const std::string polyglot("\x00\x01\x02\x03\x04\x05\x06\x07\xe2\x00\x00\x01\x00\x00\x00\x00", 16);
  const auto [bytes, type] = GENERATE_COPY(table<std::string, std::optional<InputType>>({
      {"[Event \"x\"]\n\n1. e4 *\n", InputType::Pgn},
      {"\xef\xbb\xbf\n  [Event \"x\"]\n", InputType::Pgn},  // a UTF-8 byte-order mark first
      {"\n\n[Site \"y\"]\n1. d4 *\n", InputType::Pgn},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start\";\n", InputType::Epd},
      {"", InputType::Epd},
      {polyglot, InputType::Polyglot},
      // PGN that does not open with a tag pair: an escape line, a comment, bare movetext.
      {"% exported by ChessBase\n[Event \"x\"]\n\n1. e4 *\n", InputType::Pgn},
      {"{ annotated by hand }\n[Event \"x\"]\n\n1. e4 *\n", InputType::Pgn},
      {"; a rest-of-line comment\n1. e4 e5 *\n", InputType::Pgn},
      {"1. e4 e5 2. Nf3 *\n", InputType::Pgn},
      {"\n  1.d4 d5 1/2-1/2\n", InputType::Pgn},
      // EPD: the first line that is not blank or a '#' comment has four FEN-like fields.
      {"# a suite\n\n8/8/8/8/8/8/8/K1k5 b - - bm Kc1;\n", InputType::Epd},
      {"\xef\xbb\xbf  rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n", InputType::Epd},
      {"# only a comment\n", InputType::Epd},
      // Text with control bytes a text file may hold: a DOS end-of-file ^Z, a form feed between
      // games, a stray byte (its reader says where). Polyglot is whole 16-byte entries, keys in order.
      {"[Event \"x\"]\n\n1. e4 *\n\x1a", InputType::Pgn},
      {"[Event \"x\"]\n\n1. e4 *\n\f\n[Event \"y\"]\n\n1. d4 *\n", InputType::Pgn},
      {std::string("[Event \"xxxxxxxx\"]\n\n1. e4\x01 *\n\n\n\n", 32), InputType::Pgn},  // 2 entries' size, keys not in order
      {polyglot + polyglot, InputType::Polyglot},
  }));
  CAPTURE(bytes);
  CHECK(book::input_type_of("-", bytes) == type);
  // A name decides by its suffix, whatever the bytes; a name without one is not guessed at.
  CHECK(book::input_type_of("games.PGN", polyglot) == InputType::Pgn);
  CHECK(book::input_type_of("book.bin", bytes) == InputType::Polyglot);
  CHECK_FALSE(book::input_type_of("games", bytes).has_value());
}

// What standard input gives is what the same bytes give from a file named by its type: PGN that
// opens with an escape line, a comment or bare movetext is read as PGN (not as EPD lines that
// are "not a legal position"), and an EPD from '-' is still EPD.
TEST_CASE("inputs: a book from '-' equals the book from the same bytes in a named file", "[book][inputs]") {
  using book::InputType;
  const std::string kasparov = epdd::test::read_file(epdd::test::shared_data("pgn/kasparov-deep-blue-1997.pgn"));
  const auto [bytes, name] = GENERATE_COPY(table<std::string, std::string>({
      {"% exported by ChessBase\n" + kasparov, "games.pgn"},
      {"{ six games, 1997 }\n" + kasparov, "games.pgn"},
      {"1. e4 e5 2. Nf3 Nc6 *\n\n1. d4 d5 2. c4 *\n", "games.pgn"},
      {"# two positions\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"e4\";\n"
       "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 id \"d4\";\n",
       "positions.epd"},
  }));
  CAPTURE(bytes.substr(0, 40));
  const auto typed = book::input_type_of("-", bytes);
  CHECK(typed == book::input_type_of(name));
  book::BookInputOptions options;
  options.max_ply = 4;
  const std::vector<book::InputFile> from_stdin{{*typed, "-", bytes}}, from_file{{*book::input_type_of(name), name, bytes}};
  const auto a = book::build_book(from_stdin, options);
  const auto b = book::build_book(from_file, options);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->note_count == 0);
  CHECK(a->dag.node_count() == b->dag.node_count());
  CHECK(a->dag.edge_count() == b->dag.edge_count());
  CHECK(a->games == b->games);
  CHECK(a->epd_records == b->epd_records);
  CHECK(a->dag.node_count() > 2);
}
