// The backsolved book as one PGN game: a small book whose whole tree is written out by hand below
// (values from the leaves up by backsolve.hpp's definition, NAGs by annotate's thresholds and
// lichess's rule worked out on paper), the judgement and position NAGs of every move recomputed
// from the written [%eval]s by the test's own oracle (tests/support/annotate_oracle.hpp, not
// annotate's code), and the output read back by epdd's PGN reader without a diagnostic.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "annotate/eval_comment.hpp"
#include "annotate/judgement.hpp"
#include "annotate_oracle.hpp"
#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/pgn_output.hpp"
#include "book_support.hpp"
#include "core/fen.hpp"
#include "pgn/writer.hpp"
#include "test_support.hpp"

using epdd::book::Dag;
using epdd::book::LeafValues;
using epdd::book::NodeId;
using epdd::test::after;
using epdd::test::games_of;
namespace core = epdd::core;
namespace pgn = epdd::pgn;
namespace oracle = epdd::test::oracle;

namespace {

// Seven games. 1. e4 c5 2. Nf3 and 1. Nf3 c5 2. e4 transpose; 1. Nf3 Nf6 2. Ng1 Ng8 comes back
// to the start (a repetition); 2. Qh5, 2. d4 and 2. Na3 lose against 2. Nf3; 1. d4 Nf6 has no
// value.
constexpr const char* kBook = R"([Event "a"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "b"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "c"]
[Result "1/2-1/2"]

1. e4 c5 2. Nf3 1/2-1/2

[Event "d"]
[Result "0-1"]

1. Nf3 c5 2. e4 0-1

[Event "e"]
[Result "*"]

1. Nf3 Nf6 2. Ng1 Ng8 *

[Event "f"]
[Result "0-1"]

1. e4 e5 2. Qh5 (2. d4) (2. Na3) 0-1

[Event "g"]
[Result "*"]

1. d4 Nf6 *
)";

// The leaves' values (side to move) and the book built from kBook.
struct Fixture {
  Dag dag;
  LeafValues values;
  Fixture() {
    for (const auto& g : games_of(kBook)) dag.add_game(g);
    const auto set = [&](std::initializer_list<const char*> line, int ce) {
      const NodeId n = dag.find(after(line));
      REQUIRE(n != Dag::kNoNode);
      values.emplace(n, core::Score::from_ce(ce).value());
    };
    set({"e4", "e5", "Nf3", "Nc6"}, 30);  // White to move
    set({"e4", "c5", "Nf3"}, -40);        // Black to move
    set({"e4", "e5", "Qh5"}, 150);
    set({"e4", "e5", "d4"}, 40);
    set({"e4", "e5", "Na3"}, 100);
  }
};

// The whole book by hand. Values, from the leaves up (own value of each node, side to move):
//   1. e4 e5 2. Nf3 (B) -30; 1. e4 e5 (W): Nf3 30, Qh5 -150, d4 -40, Na3 -100: 30;
//   1. e4 c5 (W) 40; 1. e4 (B): e5 -30, c5 -40: -30; the root through e4 30.
//   The cycle 1. Nf3 Nf6 2. Ng1 Ng8: from the root, Nf3 is worth 0 (1... Nf6 heads for the
//   repetition), so the root is 30 with e4 its best move (and 1. d4 gives no value). Each node of
//   the cycle on its own (its EPD record's value): 1. Nf3 Nf6 2. Ng1 (B) -30 (Ng8 leads to the
//   root, 30); 1. Nf3 Nf6 (W) 30; 1. Nf3 (B): c5 -40, Nf6 -30: -30, best Nf6.
// Position NAGs (White's view): |30|, |40| -> $14; -40 -> $15; -100, -150 -> $17.
// Judgements (lichess): from 1. e4 e5 (30): Qh5 to -150 drops W(30) - W(-150) = 0.055 + 0.269 =
// 0.324 -> $4; Na3 to -100: 0.055 + 0.182 = 0.237 -> $2; d4 to -40: 0.055 + 0.074 = 0.129 -> $6.
// Game statistics: +White wins =draws -Black wins over the games that played the move.
constexpr const char* kExpectedMovetext =
    "{[%eval 0.30]} 1. e4 $14 {[%eval 0.30] games 4: +2 =1 -1}"
    " (1. Nf3 $14 {[%eval 0.30] games 2: +0 =0 -1} 1... Nf6 $14 {[%eval 0.30] games 1: +0 =0 -0}"
    "   (1... c5 $14 {[%eval 0.40] games 1: +0 =0 -1}"
    "    2. e4 $14 {[%eval 0.40] games 1: +0 =0 -1; transposes to 1. e4 c5 2. Nf3})"
    "  2. Ng1 $14 {[%eval 0.30] games 1: +0 =0 -0}"
    "  2... Ng8 $14 {[%eval 0.30] games 1: +0 =0 -0; repeats the start position})"
    " (1. d4 {no value; games 1: +0 =0 -0} 1... Nf6 {no value; games 1: +0 =0 -0})"
    " 1... e5 $14 {[%eval 0.30] games 3: +2 =0 -1}"
    " (1... c5 $14 {[%eval 0.40] games 1: +0 =1 -0} 2. Nf3 $14 {[%eval 0.40] games 1: +0 =1 -0})"
    " 2. Nf3 $14 {[%eval 0.30] games 2: +2 =0 -0}"
    " (2. Qh5 $4 $17 {[%eval -1.50] games 1: +0 =0 -1})"
    " (2. d4 $6 $15 {[%eval -0.40] games 1: +0 =0 -1})"
    " (2. Na3 $2 $17 {[%eval -1.00] games 1: +0 =0 -1})"
    " 2... Nc6 $14 {[%eval 0.30] games 2: +2 =0 -0} *";

// The one game of a PGN text, read without any diagnostic (they are shown if any).
pgn::Game only_game(const std::string& text) {
  pgn::Diagnostics diags;
  auto games = pgn::read_games(text, diags);
  std::string shown;
  for (const auto& d : diags.items()) shown += std::to_string(d.line) + ": " + d.message + "\n";
  INFO(text << "\n" << shown);
  CHECK(diags.items().empty());
  REQUIRE(games.size() == 1);
  return games.front();
}

// The NAGs of a move node in a range ($1-$6 or $10-$19), 0 when none, -1 when more than one.
int nag_in(const pgn::MoveNode& node, int low, int high) {
  int found = 0;
  for (const auto& a : node.after)
    if (a.kind == pgn::Annotation::Kind::Nag && a.nag >= low && a.nag <= high) found = found ? -1 : a.nag;
  return found;
}

// The test's own position NAG from a White-view evaluation (annotate's default thresholds).
int oracle_position_nag(const oracle::WhiteEval& e) {
  if (e.mate) return e.white_mates ? 18 : 19;
  const int size = std::abs(e.value);
  if (size < 30) return 10;
  const int better = e.value > 0 ? 0 : 1;
  return (size < 70 ? 14 : size < 200 ? 16 : 18) + better;
}

std::optional<oracle::WhiteEval> eval_of(const std::vector<std::string>& comments) {
  const auto commands = oracle::eval_commands(comments);
  if (commands.empty()) return std::nullopt;
  return oracle::parse(commands.front());
}

// Walks a line of the written tree: each move's judgement NAG recomputed from the eval before it
// (the previous position's) and after it, and its position NAG from the eval after it. Counts
// the moves judged and checked.
struct TreeCheck {
  int moves = 0, judged = 0, valued = 0;
  // `before_comment`: the comments holding the eval of the position `v` starts from.
  void line(const pgn::Variation& v, core::Board board, std::vector<std::string> before_comment) {
    for (const pgn::MoveNode& node : v.moves) {
      const auto before = eval_of(before_comment);
      ++moves;
      const auto here = eval_of(oracle::comments_of(node));
      const bool white = board.side_to_move() == core::Color::White;
      INFO("move " << moves << " " << core::to_san(board, node.move));
      if (here) {
        ++valued;
        CHECK(nag_in(node, 10, 19) == oracle_position_nag(*here));
      } else {
        CHECK(nag_in(node, 10, 19) == 0);
      }
      const int want = before && here ? oracle::judge({}, oracle::mover_view(*before, white), oracle::mover_view(*here, white)) : 0;
      CHECK(nag_in(node, 1, 6) == want);
      if (want) ++judged;
      // The same from annotate::judge itself, fed the written evals read by annotate's reader and
      // turned back to each position's side to move (the mover's before, the opponent's after).
      const auto read_before = annotate_reading(before_comment);
      const auto read_here = annotate_reading(oracle::comments_of(node));
      if (read_before && read_here) {
        const core::Score b = white ? *read_before : read_before->negated();
        const core::Score a = white ? read_here->negated() : *read_here;
        CHECK(nag_in(node, 1, 6) == epdd::annotate::nag(epdd::annotate::judge({}, b, a)));
      }
      for (const auto& a : node.after)
        if (a.kind == pgn::Annotation::Kind::Variation) line(a.variation.front(), board.detached(), before_comment);
      board.make_move(node.move);
      before_comment = oracle::comments_of(node);
    }
  }

  // White's view of the first [%eval] of the comments, by annotate's reader.
  static std::optional<core::Score> annotate_reading(const std::vector<std::string>& comments) {
    for (const std::string& c : comments) {
      const auto reading = epdd::annotate::read_eval(c);
      REQUIRE(reading);
      if (*reading) return (*reading)->white;
    }
    return std::nullopt;
  }
};

// Every move of a tree, variations included.
std::vector<core::Move> all_moves(const pgn::Variation& v) {
  std::vector<core::Move> out;
  for (const pgn::MoveNode& node : v.moves) {
    out.push_back(node.move);
    for (const auto& a : node.after)
      if (a.kind == pgn::Annotation::Kind::Variation)
        for (const core::Move m : all_moves(a.variation.front())) out.push_back(m);
  }
  return out;
}

}  // namespace

TEST_CASE("book PGN: the whole tree of a small book as worked out by hand", "[book][pgn-output]") {
  Fixture f;
  const auto solved = epdd::book::backsolve(f.dag, f.values);
  const std::string text = epdd::book::write_book_pgn(f.dag, solved);
  const pgn::Game got = only_game(text);
  const pgn::Game want = games_of(std::string(kExpectedMovetext) + "\n").front();
  INFO(text);
  CHECK(got.main == want.main);
  CHECK(got.result == "*");
  // The tags, in export order (the Seven Tag Roster, then the others in ASCII order).
  const std::vector<pgn::Tag> tags = {{"Event", "epdd book"}, {"Site", "?"}, {"Date", "????.??.??"},
                                      {"Round", "-"},         {"White", "?"}, {"Black", "?"},
                                      {"Result", "*"},        {"Annotator", "epdd"}};
  CHECK(got.tags == tags);
  // Export format, as epdd's writer puts it: writing the read game again gives the same bytes.
  CHECK(pgn::export_game(got) == text);
}

TEST_CASE("book PGN: judgement and position NAGs recomputed from the written evals", "[book][pgn-output]") {
  Fixture f;
  const std::string text = epdd::book::write_book_pgn(f.dag, epdd::book::backsolve(f.dag, f.values));
  const pgn::Game got = only_game(text);
  TreeCheck check;
  check.line(got.main, got.start, got.main.comments_before);
  CHECK(check.moves == 17);  // every edge of the book once
  CHECK(check.valued == 15);  // all but 1. d4 and 1... Nf6
  CHECK(check.judged == 3);
}

TEST_CASE("book PGN: a root that is not the start position, Black to move, with a mate", "[book][pgn-output]") {
  // After 1. f3: Black mates with 1... e5 2. g4 Qh4#; 1... d5 is a leaf worth -20 for White.
  const core::Board root = after({"f3"});
  Dag dag(root);
  const auto games = games_of("[FEN \"" + core::to_fen(root) + "\"]\n[SetUp \"1\"]\n\n1... e5 (1... d5) 2. g4 Qh4# 0-1\n");
  dag.add_game(games.front());
  LeafValues values;
  core::Board d5 = root.detached();
  d5.make_move(core::parse_san(d5, "d5")->move);
  values.emplace(dag.find(d5), core::Score::centipawns(-20));
  const std::string text = epdd::book::write_book_pgn(dag, epdd::book::backsolve(dag, values));
  const pgn::Game got = only_game(text);
  CHECK(got.tag("SetUp") == "1");
  CHECK(got.tag("FEN") == core::to_fen(root));
  // The root (Black to move) is mate in 3 plies for Black: #-2 in moves from White's view; after
  // 1... e5 and after 2. g4 Black mates in one move (#-1); the mated position is "#-0" (White
  // checkmated). 1... d5 (-0.20, $10) loses the mate: a blunder.
  const pgn::Game want = games_of("[FEN \"" + core::to_fen(root) +
                                   "\"]\n[SetUp \"1\"]\n\n{[%eval #-2]} 1... e5 $19 {[%eval #-1] games 1: +0 =0 -1}"
                                   " (1... d5 $4 $10 {[%eval -0.20] games 1: +0 =0 -1})"
                                   " 2. g4 $19 {[%eval #-1] games 1: +0 =0 -1}"
                                   " 2... Qh4# $19 {[%eval #-0] games 1: +0 =0 -1} *\n").front();
  INFO(text);
  CHECK(got.main == want.main);
  TreeCheck check;
  check.line(got.main, got.start, got.main.comments_before);
  CHECK(check.judged == 1);
}

TEST_CASE("book PGN: a book of several roots is a game per root, the start first", "[book][pgn-output]") {
  // The start's tree (1. e4 e5), and two games from set-up positions (after 1. d4 and after
  // 1. c4): three roots, so three games; the set-up ones carry their FEN and the label of their
  // root ("root 1", "root 2": no names were given), and each is read back with its own moves.
  const core::Board d4 = after({"d4"}), c4 = after({"c4"});
  Dag dag;
  for (const auto& g : games_of("1. e4 e5 *\n\n[FEN \"" + core::to_fen(d4) + "\"]\n[SetUp \"1\"]\n\n1... d5 *\n\n[FEN \"" +
                                core::to_fen(c4) + "\"]\n[SetUp \"1\"]\n\n1... c5 2. Nc3 *\n"))
    dag.add_game(g);
  const std::string text = epdd::book::write_book_pgn(dag, epdd::book::backsolve(dag, {}));
  INFO(text);
  const auto got = games_of(text);
  REQUIRE(got.size() == 3);
  CHECK(got[0].tag("Event") == "epdd book");
  CHECK(!got[0].tag("FEN"));
  CHECK(got[1].tag("Event") == "epdd book: root 1");
  // Positions are their four fields: en passant only when a capture is legal.
  CHECK(got[1].tag("FEN") == "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
  CHECK(got[2].tag("Event") == "epdd book: root 2");
  CHECK(got[2].tag("FEN") == "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1");
  CHECK(got[0].main.moves.size() == 2);
  CHECK(got[1].main.moves.size() == 1);
  CHECK(got[2].main.moves.size() == 2);
}

TEST_CASE("book PGN: a repetition of a position inside the book", "[book][pgn-output]") {
  // No leaf at all: the only line comes back to 1. e4 e5, and a repetition is a draw, so every
  // position is worth 0.00 ($10).
  Dag dag;
  for (const auto& g : games_of("1. e4 e5 2. Nf3 Nf6 3. Ng1 Ng8 *\n")) dag.add_game(g);
  const std::string text = epdd::book::write_book_pgn(dag, epdd::book::backsolve(dag, {}));
  const pgn::Game got = only_game(text);
  const pgn::Game want = games_of(
      "{[%eval 0.00]} 1. e4 $10 {[%eval 0.00] games 1: +0 =0 -0} 1... e5 $10 {[%eval 0.00] games 1: +0 =0 -0}"
      " 2. Nf3 $10 {[%eval 0.00] games 1: +0 =0 -0} 2... Nf6 $10 {[%eval 0.00] games 1: +0 =0 -0}"
      " 3. Ng1 $10 {[%eval 0.00] games 1: +0 =0 -0}"
      " 3... Ng8 $10 {[%eval 0.00] games 1: +0 =0 -0; repeats the position after 1. e4 e5} *\n").front();
  INFO(text);
  CHECK(got.main == want.main);
}

TEST_CASE("book PGN: a Chess960 book names its variant and start, and castles as epdd reads it", "[book][pgn-output]") {
  const auto games = games_of(
      "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"rk2r3/4p3/8/8/8/8/4P3/RK2R3 w EAea - 0 1\"]\n\n"
      "1. O-O (1. O-O-O) O-O-O *\n");
  Dag dag(games.front().start);
  dag.add_game(games.front());
  LeafValues values;
  for (NodeId n = 0; n < dag.node_count(); ++n)
    if (dag.is_leaf(n)) values.emplace(n, core::Score::centipawns(static_cast<int>(n) * 10));
  const std::string text = epdd::book::write_book_pgn(dag, epdd::book::backsolve(dag, values));
  const pgn::Game got = only_game(text);
  INFO(text);
  CHECK(got.tag("Variant") == "Chess960");
  CHECK(got.tag("SetUp") == "1");
  // In X-FEN (core's default): KQkq are the outermost rooks, here the a- and e-file ones.
  CHECK(got.tag("FEN") == "rk2r3/4p3/8/8/8/8/4P3/RK2R3 w KQkq - 0 1");
  CHECK(got.start.chess960());
  // The same three castling moves (king takes rook, as core holds them), whichever is main.
  const auto written = all_moves(got.main);
  const auto played = all_moves(games.front().main);
  CHECK(written.size() == 3);
  for (const core::Move m : played) CHECK(std::count(written.begin(), written.end(), m) == 1);
  TreeCheck check;
  check.line(got.main, got.start, got.main.comments_before);
  CHECK(check.valued == 3);
}

// A book of real games with leaf values made up from the node numbers (every seventh leaf left
// without one), written as PGN and read back without a diagnostic: every edge written once, the
// oracle's NAGs, and the count of transposition comments. Returns the text.
std::string real_book(const std::string& text, int max_ply, std::size_t& transpositions) {
  Dag dag;
  epdd::book::BuildOptions options;
  options.max_ply = max_ply;
  for (const auto& g : games_of(text)) dag.add_game(g, options);
  LeafValues values;
  for (NodeId n = 0; n < dag.node_count(); ++n)
    if (dag.is_leaf(n) && n % 7 != 3) values.emplace(n, core::Score::centipawns(static_cast<int>(n * 37 % 301) - 150));
  const std::string book = epdd::book::write_book_pgn(dag, epdd::book::backsolve(dag, values));
  const pgn::Game game = only_game(book);
  TreeCheck check;
  check.line(game.main, game.start, game.main.comments_before);
  // Every edge of the book is written once (every node is reached from the root here).
  CHECK(check.moves == static_cast<int>(dag.edge_count()));
  CHECK(check.judged > 0);
  transpositions = 0;
  for (std::size_t at = book.find("transposes to"); at != std::string::npos; at = book.find("transposes to", at + 1))
    ++transpositions;
  return book;
}

std::string file_text(const std::string& path, std::size_t max_lines) {
  std::ifstream in(path);
  REQUIRE(in);
  std::string text, line;
  for (std::size_t i = 0; i < max_lines && std::getline(in, line); ++i) text += line + "\n";
  return text;
}

// For the pgn-extract test (tests/integration/book/pgn_extract_test.sh): the small book above,
// the book of the first 200 lines of 2moves_v2.pgn and that of twic0920.pgn's games to 12 plies
// (with transpositions), written to $EPDD_BOOK_PGN_DIR.
TEST_CASE("book PGN: write books for pgn-extract", "[.book-pgn-write]") {
  const char* dir = std::getenv("EPDD_BOOK_PGN_DIR");
  REQUIRE(dir);
  Fixture f;
  std::ofstream(std::string(dir) + "/small.pgn") << epdd::book::write_book_pgn(f.dag, epdd::book::backsolve(f.dag, f.values));
  std::size_t transpositions = 0;
  const std::string data = EPDD_SHARED_DATA;
  std::ofstream(std::string(dir) + "/2moves.pgn") << real_book(file_text(data + "/books/2moves_v2.pgn", 200), 100, transpositions);
  std::ofstream(std::string(dir) + "/twic.pgn") << real_book(file_text(data + "/pgn/twic0920.pgn", 1u << 30), 12, transpositions);
  CHECK(transpositions > 0);
}
