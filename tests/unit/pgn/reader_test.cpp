// Import format, laxly: every form the issue lists, and recovery from errors.
#include "core/fen.hpp"
#include <random>
#include <sstream>

#include "core/text.hpp"
#include "pgn/tags.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;
using pgn::Annotation;

TEST_CASE("A game with tags, comments, NAGs, suffix annotations and nested variations", "[pgn][reader]") {
  const auto r = test::read(
      "[Event \"Test\"]\n[White \"A \\\"quoted\\\" name\"]\n\n"
      "{Before the first move} 1. e4! $14 {Good,\n   central} (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 2. Nf3 Nc6?! 1-0\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 1);
  CHECK(r.diags.size() == 5);  // the roster tags Site, Date, Round, Black and Result are missing
  const pgn::Game& g = r.games[0];
  CHECK(g.tag("White") == "A \"quoted\" name");
  CHECK(g.result == "1-0");
  CHECK(g.main.comments_before == std::vector<std::string>{"Before the first move"});
  CHECK(test::san_line(g.start, g.main) == "e4 e5 Nf3 Nc6");
  const auto& after = g.main.moves[0].after;
  REQUIRE(after.size() == 4);
  CHECK(after[0].kind == Annotation::Kind::Nag);
  CHECK(after[0].nag == 1);  // "!"
  CHECK(after[1].nag == 14);
  CHECK(after[2].comment == "Good, central");  // white space made one space
  REQUIRE(after[3].kind == Annotation::Kind::Variation);
  const pgn::Variation& d4 = after[3].variation.front();
  CHECK(test::san_line(g.start, d4) == "d4 d5 c4");
  core::Board after_d4 = g.start;
  after_d4.make_move(*core::parse_uci(after_d4, "d2d4"));
  REQUIRE(d4.moves[1].after.size() == 1);  // (1... Nf6 2. c4) is the alternative to 1... d5
  CHECK(test::san_line(after_d4, d4.moves[1].after[0].variation.front()) == "Nf6 c4");
  CHECK(g.main.moves[3].after[0].nag == 6);  // "?!"
}

TEST_CASE("Lax forms: no tags, no move numbers, wrong numbers, no result, tags glued to movetext", "[pgn][reader]") {
  const auto r = test::read(
      "e4 e5 Nf3 *\n"
      "[Result \"1-0\"] e4 1-0\n"
      "1. e4 5. e5 6. Nf3 *\n"
      "1. e4 e5\n"
      "[Event \"next\"]\n1. d4 *\n");
  REQUIRE(r.games.size() == 5);
  CHECK(test::count_kinds(r.diags) ==
        std::map<std::string, std::size_t>{{"missing-result", 1}, {"move-number", 1}, {"tag-value", 12}});
  CHECK(r.games[0].main.moves.size() == 3);
  CHECK(r.games[1].result == "1-0");
  CHECK(r.games[2].main.moves.size() == 3);  // the wrong numbers are reported, the moves kept
  CHECK(r.games[3].main.moves.size() == 2);
  CHECK_FALSE(r.games[3].result_written);
  CHECK(r.games[3].result == "*");
  CHECK(r.games[4].tag("Event") == "next");
  CHECK(r.games[4].main.moves.size() == 1);
}

TEST_CASE("An illegal move keeps the longest legal prefix and the next game is intact", "[pgn][reader]") {
  const auto r = test::read(
      "[Event \"1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 Qxe4?? 4. O-O {lost} 1-0\n\n"
      "[Event \"2\"]\n\n1. d4 (1. e4 e5 2. Ke3 Nc6) 1... d5 *\n\n"
      "[Event \"3\"]\n\n1. c4 *\n");
  REQUIRE(r.games.size() == 3);
  INFO(test::messages(r.diags));
  CHECK(test::san_line(r.games[0].start, r.games[0].main) == "e4 e5 Nf3 Nc6 Bb5");
  CHECK(r.games[0].result == "1-0");
  // In a variation, only the rest of the variation is skipped.
  CHECK(test::san_line(r.games[1].start, r.games[1].main) == "d4 d5");
  CHECK(test::san_line(r.games[1].start, r.games[1].main.moves[0].after[0].variation.front()) == "e4 e5");
  CHECK(r.games[2].main.moves.size() == 1);
  std::size_t illegal = 0;
  for (const auto& d : r.diags.items())
    if (d.problem == pgn::Problem::IllegalMove) {
      ++illegal;
      if (d.game == 1) {
        CHECK(d.line == 3);
        CHECK(d.column == 28);
        CHECK(d.token == "Qxe4??");
        CHECK_THAT(d.message, Catch::Contains("the rest of the game is skipped"));
      } else {
        CHECK(d.game == 2);
        CHECK(d.token == "Ke3");
        CHECK_THAT(d.message, Catch::Contains("the rest of this variation is skipped"));
      }
    }
  CHECK(illegal == 2);
}

TEST_CASE("Setup positions, Chess960 and null moves", "[pgn][reader]") {
  const auto r = test::read(
      "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n\n40... Kd7 41. e4 *\n"
      "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/RK5R w KQ - 0 1\"]\n\n"
      "1. Ka2 Kd7 2. Kb1 Ke8 3. O-O *\n"
      "1. e4 -- 2. d4 Z0 *\n"
      "[Variant \"fischerandom\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/RK5R w KQ - 0 1\"]\n\n1. O-O Kd7 2. Rfe1 *\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 4);
  CHECK(test::san_line(r.games[3].start, r.games[3].main) == "O-O Kd7 Rfe1");
  CHECK(core::to_fen(r.games[0].start) == "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
  CHECK(r.games[0].main.moves.size() == 2);
  CHECK(r.games[1].start.chess960());
  // X-FEN KQ with the king on b1: the outermost rooks, a1 and h1. The king went away and came
  // back, so the rights are gone and castling is illegal: the game stops there.
  CHECK(test::san_line(r.games[1].start, r.games[1].main) == "Ka2 Kd7 Kb1 Ke8");
  CHECK(test::san_line(r.games[2].start, r.games[2].main) == "e4 -- d4 --");
  CHECK(test::count_kinds(r.diags).at("null-move") == 2);
}

TEST_CASE("Start positions that cannot be used are errors, and the next game is read", "[pgn][reader]") {
  const auto r = test::read(
      "[SetUp \"1\"]\n\n1. e4 *\n"
      "[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n"
      "[Variant \"crazyhouse\"]\n\n1. e4 *\n"
      "1. d4 *\n");
  REQUIRE(r.games.size() == 4);
  CHECK(test::count_kinds(r.diags).at("setup") == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(r.games[i].main.moves.empty());
    CHECK_FALSE(r.games[i].moves_read);  // its start is not the initial position: it has none
  }
  CHECK(r.games[3].main.moves.size() == 1);
  CHECK(r.games[3].moves_read);
}

TEST_CASE("lichess's From Position games are standard chess from their FEN", "[pgn][reader]") {
  // As lichess exports a study chapter (tags in lichess's order, FEN before SetUp).
  const auto r = test::read(
      "[Event \"Catalan: Open, Nc6\"]\n[Result \"*\"]\n[Variant \"From Position\"]\n"
      "[FEN \"r1bqkb1r/ppp2ppp/2n1pn2/8/2pP4/5NP1/PP2PPBP/RNBQK2R w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n"
      "1. Qa4 Bb4+ 2. Bd2 Nd5 *\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 1);
  CHECK(r.diags.count(pgn::Severity::Error) == 0);
  CHECK(r.games[0].moves_read);
  CHECK_FALSE(r.games[0].start.chess960());
  CHECK(core::to_fen(r.games[0].start) == "r1bqkb1r/ppp2ppp/2n1pn2/8/2pP4/5NP1/PP2PPBP/RNBQK2R w KQkq - 0 1");
  CHECK(test::san_line(r.games[0].start, r.games[0].main) == "Qa4 Bb4+ Bd2 Nd5");
}

TEST_CASE("BOM, CRLF, Latin-1 and UTF-8 text, escape lines, rest-of-line comments", "[pgn][reader]") {
  const std::string text = std::string("\xEF\xBB\xBF") + "%private data\r\n[Event \"Caf\xE9 \xC3\xA9\"]\r\n\r\n" +
                           "1. e4 ; a rest-of-line comment {with braces}\r\n1... e5 *\r\n";
  const auto r = test::read(text);
  REQUIRE(r.games.size() == 1);
  const auto kinds = test::count_kinds(r.diags);
  CHECK(kinds.at("byte-order-mark") == 1);
  CHECK(kinds.at("crlf") == 1);
  CHECK(r.games[0].escapes == std::vector<std::string>{"private data"});
  CHECK(r.games[0].tag("Event") == "Caf\xE9 \xC3\xA9");
  CHECK(r.games[0].main.moves[0].after[0].comment == "a rest-of-line comment {with braces}");
}

TEST_CASE("Broken tokens are reported and skipped", "[pgn][reader]") {
  const auto r = test::read(
      "[Event Casual Game]\n[White \"unterminated\n[Black \"B\"]\n\n"
      "1. e4 @ e5 < > $300 2. Nf3 ) 2... Nc6 \"str\" *\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 1);
  CHECK(r.games[0].tag("Event") == "Casual Game");
  CHECK(r.games[0].tag("Black") == "B");
  CHECK(r.games[0].main.moves.size() == 4);
  const auto kinds = test::count_kinds(r.diags);
  CHECK(kinds.at("tag-syntax") == 2);
  CHECK(kinds.at("unterminated-string") == 1);
  CHECK(kinds.at("unexpected-character") == 2);
  CHECK(kinds.at("reserved-token") == 2);
  CHECK(kinds.at("bad-nag") == 1);
  CHECK(kinds.at("parenthesis") == 1);
}

TEST_CASE("Comment commands [%eval] and [%clk] are kept and can be read", "[pgn][reader]") {
  const auto r = test::read("1. e4 { [%eval 0.25] [%clk 0:03:00] fine } *");
  const auto& c = r.games[0].main.moves[0].after[0].comment;
  CHECK(c == "[%eval 0.25] [%clk 0:03:00] fine");
  const auto commands = pgn::commands_in(c);
  REQUIRE(commands.size() == 2);
  CHECK(commands[0].name == "eval");
  CHECK(commands[0].value == "0.25");
  CHECK(commands[1].name == "clk");
  CHECK(commands[1].value == "0:03:00");
}

TEST_CASE("The main-line reader skips what it does not need and agrees with the full reader", "[pgn][reader]") {
  const std::string text =
      "[Event \"x\"]\n\n1. e4 {c} (1. d4 d5 (1... Nf6)) 1... e5 $1 2. Nf3 1-0\n[Event \"y\"]\n\n1. d4 *\n";
  pgn::Diagnostics d1, d2;
  const auto full = pgn::read_games(text, d1);
  pgn::MainlineReader reader(text, d2);
  pgn::MainlineGame g;
  for (const auto& game : full) {
    REQUIRE(reader.next(g));
    CHECK(g.moves == game.mainline());
    CHECK(g.result == game.result);
    CHECK(g.tags == game.tags);
  }
  CHECK_FALSE(reader.next(g));
}

TEST_CASE("Reading from a stream gives the same games as reading from memory", "[pgn][reader]") {
  std::string text;
  for (int i = 0; i < 3000; ++i) text += "[Event \"" + std::to_string(i) + "\"]\n\n1. e4 {a long enough comment} e5 *\n\n";
  std::istringstream in(text);
  pgn::Diagnostics d1, d2;
  pgn::GameReader streamed(in, d1);
  const auto memory = pgn::read_games(text, d2);
  std::size_t n = 0;
  for (pgn::Game g; streamed.next(g); ++n) {
    REQUIRE(n < memory.size());
    CHECK(g.same_tree(memory[n]));
    CHECK(g.line == memory[n].line);
  }
  CHECK(n == memory.size());
}

TEST_CASE("One Game object read into game after game, changed between reads, gives fresh games", "[pgn][reader]") {
  // The reader keeps the memory of the last game's lists (annotators read every game into one
  // object and add to it): nothing of a game, or of what its caller added, reaches the next.
  for (const char* name : {"heavily-annotated.pgn", "tcec-engine-comments.pgn", "chess960-cutechess.pgn"}) {
    const std::string text = test::shared_file(name);
    pgn::Diagnostics d1, d2;
    const auto fresh = pgn::read_games(text, d1);
    pgn::GameReader reader(text, d2);
    std::size_t n = 0;
    for (pgn::Game g; reader.next(g); ++n) {
      REQUIRE(n < fresh.size());
      const pgn::Game& f = fresh[n];
      CHECK(g.same_tree(f));
      CHECK((g.number == f.number && g.line == f.line && g.byte_end == f.byte_end));
      CHECK((g.result_written == f.result_written && g.moves_read == f.moves_read));
      CHECK(core::to_fen(g.start) == core::to_fen(f.start));
      // What an annotator does to it before the next read.
      g.main.comments_before.push_back("before");
      g.set_tag("Annotator", "test");
      for (pgn::MoveNode& node : g.main.moves) {
        node.after.push_back({Annotation::Kind::Comment, 0, std::string(40, 'x'), {}});
        node.after.push_back({Annotation::Kind::Nag, 2, {}, {}});
        Annotation v{Annotation::Kind::Variation, 0, {}, {}};
        v.variation.emplace_back().moves.push_back({node.move, {}});
        node.after.push_back(std::move(v));
      }
    }
    CHECK(n == fresh.size());
    CHECK(d1.items().size() == d2.items().size());
  }
}

TEST_CASE("Each game says where its bytes end: its last token, before trailing comments and white space", "[pgn][reader]") {
  // Game 1 ends at its result; the comment after it is carried to game 2. Game 2 has no
  // marker: it ends with its last move. Game 3 is tags only, then a stream of CRLF white space.
  const std::string text =
      "[Event \"a\"]\n\n1. e4 e5 1-0 {after}\n\n[Event \"b\"]\n\n1. d4 d5\n\n"
      "[Event \"c\"]\r\n\r\n";
  pgn::Diagnostics diags;
  const auto games = pgn::read_games(text, diags);
  REQUIRE(games.size() == 3);
  CHECK(text.substr(0, games[0].byte_end).ends_with("e5 1-0"));
  CHECK(text.substr(0, games[1].byte_end).ends_with("1. d4 d5"));
  CHECK(text.substr(0, games[2].byte_end).ends_with("[Event \"c\"]"));
  pgn::MainlineReader mainline(text, diags);
  std::vector<std::size_t> ends;
  for (pgn::MainlineGame g; mainline.next(g);) ends.push_back(g.byte_end);
  CHECK(ends == std::vector<std::size_t>{games[0].byte_end, games[1].byte_end, games[2].byte_end});
  std::istringstream stream(text);
  pgn::GameReader streamed(stream, diags);
  std::vector<std::size_t> stream_ends;
  for (pgn::Game g; streamed.next(g);) stream_ends.push_back(g.byte_end);
  CHECK(stream_ends == ends);
}

TEST_CASE("An unquoted tag value read over lines is kept on one line and exports to the same tree", "[pgn][reader]") {
  // Found by tests/fuzz/pgn_fuzz (regressions/pgn/unquoted-tag-value-with-newline): the words of
  // an unquoted value kept a comment's newlines, which export wrote into a string that
  // re-imported as another game.
  const auto r = test::read("[Event {Casual\nGame}]\n\n1. e4 *\n");
  INFO(test::messages(r.diags));
  REQUIRE(r.games.size() == 1);
  CHECK(r.games[0].tag("Event") == "Casual Game");
  const auto again = test::read(pgn::export_game(r.games[0]));
  REQUIRE(again.games.size() == 1);
  CHECK(again.games[0].same_tree(r.games[0]));
}

TEST_CASE("normalize_comment: every run of white space one space, trimmed, whatever the text", "[pgn][reader]") {
  // The oracle, from the rule as the header states it: split into words at white space (the six
  // characters C's isspace knows), join them with one space.
  const auto oracle = [](std::string_view text) {
    std::string out, word;
    const auto flush = [&] {
      if (word.empty()) return;
      if (!out.empty()) out += ' ';
      out += word;
      word.clear();
    };
    for (const char c : text) {
      if (std::string_view(" \t\n\v\f\r").find(c) != std::string_view::npos) flush();
      else word += c;
    }
    flush();
    return out;
  };
  CHECK(pgn::normalize_comment("") == "");
  CHECK(pgn::normalize_comment("[%eval\n0.35]") == "[%eval 0.35]");
  CHECK(pgn::normalize_comment(" a  b\t\r\nc ") == "a b c");
  CHECK(pgn::normalize_comment("a\x01 b") == "a\x01 b");  // other control characters are text
  // Texts drawn from a few letters, spaces, line breaks, tabs and control characters.
  std::mt19937 random(20261207);
  const std::string_view alphabet = "ab  \n\t\r\v\f\x01\x1f";
  for (int n = 0; n < 20000; ++n) {
    std::string text(random() % 12, ' ');
    for (char& c : text) c = alphabet[random() % alphabet.size()];
    INFO(core::escaped(text));
    CHECK(pgn::normalize_comment(text) == oracle(text));
  }
}
