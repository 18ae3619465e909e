// PGC reading and writing: byte layouts worked out by hand from the standard's text, every
// marker, Latin-1 text, what PGC cannot hold, round trips of the shared PGN files, and bad
// input (every prefix of a real file, random byte flips).
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pgn/pgc.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;

using test::shared_file;

namespace {

// PGC bytes written out item by item.
struct Bytes {
  std::string s;
  Bytes& m(int b) {
    s += static_cast<char>(b);
    return *this;
  }
  Bytes& str1(std::string_view v) {
    s += static_cast<char>(v.size());
    s += v;
    return *this;
  }
  Bytes& tag(std::string_view name, std::string_view value) { return m(0x02).str1(name).str1(value); }
};

pgn::Game one_game(const std::string& text) {
  auto r = test::read(text);
  REQUIRE(r.games.size() == 1);
  return r.games.front();
}

std::string pgc_of(const std::vector<pgn::Game>& games, pgn::PgcWriteOptions o = {}) {
  std::string out;
  for (const pgn::Game& g : games) {
    auto r = pgn::append_pgc(out, g, o);
    INFO((r ? "" : pgn::to_string(r.error())));
    REQUIRE(r);
  }
  return out;
}

std::vector<pgn::Game> games_of(const std::string& pgc) {
  auto r = pgn::read_pgc(pgc);
  INFO((r ? "" : pgn::to_string(r.error())));
  REQUIRE(r);
  return *r;
}

const std::string kRoster =
    "[Event \"E\"]\n[Site \"S\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"W\"]\n[Black \"B\"]\n";

std::size_t count_kind(const pgn::Variation& v, pgn::Annotation::Kind kind) {
  std::size_t n = kind == pgn::Annotation::Kind::Comment ? v.comments_before.size() : 0;
  for (const auto& node : v.moves)
    for (const auto& a : node.after) {
      if (a.kind == kind) ++n;
      if (a.kind == pgn::Annotation::Kind::Variation) n += count_kind(a.variation.front(), kind);
    }
  return n;
}

void strip_comments(pgn::Variation& v) {
  v.comments_before.clear();
  for (auto& node : v.moves) {
    std::erase_if(node.after, [](const pgn::Annotation& a) { return a.kind == pgn::Annotation::Kind::Comment; });
    for (auto& a : node.after)
      if (a.kind == pgn::Annotation::Kind::Variation) strip_comments(a.variation.front());
  }
}

std::string reduced_export(const std::vector<pgn::Game>& games) {
  std::string out;
  for (const auto& g : games) pgn::append_game(out, g, {.reduced = true});
  return out;
}

}  // namespace

TEST_CASE("pgc writer: a reduced game is one 0x01 record, bytes as the standard lays them out", "[pgc]") {
  const pgn::Game g = one_game(kRoster + "[Result \"1-0\"]\n\n1. e4 e5 1-0\n");
  std::string out;
  auto r = pgn::append_pgc(out, g);
  REQUIRE(r);
  CHECK(r->reduced);
  // e4 is ordinal 13 from the start (Na3 Nc3 Nf3 Nh3 a3 a4 b3 b4 c3 c4 d3 d4 e3 e4), e5 then 12.
  Bytes want;
  want.m(0x01).str1("E").str1("S").str1("2024.01.02").str1("1").str1("W").str1("B").str1("1-0");
  want.m(0x02).m(0x00).m(13).m(12);
  CHECK(out == want.s);
  const auto back = games_of(out);
  REQUIRE(back.size() == 1);
  CHECK(back[0].same_tree(g));
  CHECK(back[0].result == "1-0");
}

TEST_CASE("pgc writer: tags beyond the roster, NAGs and variations make a general game", "[pgc]") {
  const pgn::Game g = one_game(kRoster + "[Result \"*\"]\n[ECO \"C20\"]\n\n1. e4 $1 (1. d4 d5) 1... e5 *\n");
  std::string out;
  auto r = pgn::append_pgc(out, g);
  REQUIRE(r);
  CHECK_FALSE(r->reduced);
  Bytes want;
  want.m(0x05).tag("Event", "E").tag("Site", "S").tag("Date", "2024.01.02").tag("Round", "1");
  want.tag("White", "W").tag("Black", "B").tag("Result", "*").tag("ECO", "C20");
  want.m(0x03).m(1).m(13).m(0x07).m(1);           // 1. e4 $1
  want.m(0x08).m(0x03).m(2).m(11).m(10).m(0x09);  // (1. d4 d5): d4 is 11, d5 then 10
  want.m(0x03).m(1).m(12).m(0x06);                // 1... e5
  CHECK(out == want.s);
  const auto back = games_of(out);
  REQUIRE(back.size() == 1);
  CHECK(back[0].same_tree(g));
  CHECK(pgn::export_game(back[0]) == pgn::export_game(g));
}

TEST_CASE("pgc: nested variations and NAGs survive a round trip", "[pgc]") {
  const std::string text = kRoster + "[Result \"*\"]\n[Annotator \"A\"]\n\n"
                           "1. e4 (1. d4 d5 (1... Nf6 2. c4 $2) 2. c4) 1... e5 $1 $14 2. Nf3 "
                           "(2. f4 exf4 (2... d5 $5) 3. Nf3) 2... Nc6 $10 *\n";
  const pgn::Game g = one_game(text);
  REQUIRE(count_kind(g.main, pgn::Annotation::Kind::Variation) == 4);
  const auto back = games_of(pgc_of({g}));
  REQUIRE(back.size() == 1);
  CHECK(back[0].same_tree(g));
  CHECK(pgn::export_game(back[0]) == pgn::export_game(g));
}

TEST_CASE("pgc reader: every marker, written by hand", "[pgc]") {
  Bytes b;
  b.m(0x00).m(0x0a).m(3).m(0).s += "abc";  // noop, escape string (string-2) before a game
  b.m(0x01).str1("E").str1("S").str1("D").str1("R").str1("W").str1("B").str1("0-1").m(1).m(0).m(2);  // 1. Nf3
  b.m(0x05).m(0x00).tag("White", "X").tag("Result", "1/2-1/2").m(0x0a).m(1).m(0).s += "z";
  std::string many;
  // Nf3 Nf6 Ng1 Ng8: Nf3 and Nf6 are 2 (after Na3 Nc3); then Na3 Nc3 Nd4 Ne5 Ng1 puts Ng1 at
  // 4, and Na6 Nc6 Nd5 Ne4 Ng4 Ng8 puts Ng8 at 5.
  for (int i = 0; i < 75; ++i) many += std::string{2, 2, 4, 5};
  b.m(0x04).m(static_cast<int>(many.size() & 0xff)).m(static_cast<int>(many.size() >> 8)).s += many;
  b.m(0x07).m(200).m(0x08).m(0x03).m(1).m(4).m(0x07).m(3).m(0x09).m(0x06);
  const auto games = games_of(b.s);
  REQUIRE(games.size() == 2);
  CHECK(games[0].escapes == std::vector<std::string>{"abc"});
  CHECK(games[0].result == "0-1");
  CHECK(test::san_line(games[0].start, games[0].main) == "Nf3");
  CHECK(games[0].tag("Result") == "0-1");
  const pgn::Game& g = games[1];
  CHECK(g.number == 2);
  CHECK(g.escapes == std::vector<std::string>{"z"});
  CHECK(g.result == "1/2-1/2");
  REQUIRE(g.main.moves.size() == 300);
  CHECK(test::san_line(g.start, g.main).substr(0, 15) == "Nf3 Nf6 Ng1 Ng8");
  const auto& last = g.main.moves.back().after;
  REQUIRE(last.size() == 2);
  CHECK(last[0].nag == 200);
  REQUIRE(last[1].kind == pgn::Annotation::Kind::Variation);
  // The variation replaces the last move (Black's Ng8): Na6 Nc6 Nd5 Ne4 Ng4 make Ng4 ordinal 4.
  core::Board before;
  for (std::size_t i = 0; i + 1 < g.main.moves.size(); ++i) before.make_move(g.main.moves[i].move);
  CHECK(test::san_line(before, last[1].variation.front()) == "Ng4");
  REQUIRE(last[1].variation.front().moves.size() == 1);
  CHECK(last[1].variation.front().moves[0].after.at(0).nag == 3);
}

TEST_CASE("pgc writer: move sequences are mvseq-1 up to 255 moves and mvseq-2 beyond", "[pgc]") {
  for (int plies : {255, 256, 300}) {
    std::string moves;
    const char* cycle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    for (int i = 0; i < plies; ++i) moves += std::string(i % 2 ? " " : " 1. ") + cycle[i % 4];
    const pgn::Game g = one_game(kRoster + "[Result \"*\"]\n[X \"y\"]\n\n" + moves + " *\n");
    REQUIRE(g.main.moves.size() == static_cast<std::size_t>(plies));
    const std::string out = pgc_of({g});
    const std::size_t at = out.find(static_cast<char>(plies <= 255 ? 0x03 : 0x04), out.find("y") + 1);
    REQUIRE(at != std::string::npos);
    if (plies <= 255) {
      CHECK(static_cast<unsigned char>(out[at + 1]) == plies);
    } else {
      CHECK(static_cast<unsigned char>(out[at + 1]) == (plies & 0xff));
      CHECK(static_cast<unsigned char>(out[at + 2]) == (plies >> 8));
    }
    CHECK(games_of(out).at(0).same_tree(g));
  }
}

TEST_CASE("pgc writer: comments are refused, or left out and counted with lossy", "[pgc]") {
  pgn::Game g = one_game(kRoster + "[Result \"*\"]\n\n{before} 1. e4 {good} e5 (1... c5 {Sicilian}) *\n");
  g.number = 7;
  std::string out = "keep";
  auto r = pgn::append_pgc(out, g);
  REQUIRE_FALSE(r);
  CHECK(out == "keep");
  const std::string message = pgn::to_string(r.error());
  CHECK(message.find("game 7 (W - B)") != std::string::npos);
  CHECK(message.find("3 comments") != std::string::npos);
  CHECK(message.find("lossy") != std::string::npos);
  auto lossy = pgn::append_pgc(out, g, {.lossy = true});
  REQUIRE(lossy);
  CHECK(lossy->comments == 3);
  const auto back = games_of(out.substr(4));
  strip_comments(g.main);
  CHECK(back.at(0).same_tree(g));
}

TEST_CASE("pgc writer: a termination marker other than the Result tag, a missing Result, null moves", "[pgc]") {
  const pgn::Game mismatch = one_game(kRoster + "[Result \"1-0\"]\n\n1. e4 *\n");
  std::string out;
  auto r = pgn::append_pgc(out, mismatch);
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("termination marker") != std::string::npos);
  auto lossy = pgn::append_pgc(out, mismatch, {.lossy = true});
  REQUIRE(lossy);
  CHECK(lossy->result_marks == 1);
  CHECK(games_of(out).at(0).result == "1-0");

  const pgn::Game no_result = one_game("[Event \"E\"]\n\n1. e4 0-1\n");
  const auto back = games_of(pgc_of({no_result}));
  CHECK(back.at(0).result == "0-1");
  CHECK(pgn::export_game(back.at(0)) == pgn::export_game(no_result));

  const pgn::Game null_move = one_game(kRoster + "[Result \"*\"]\n\n1. e4 -- 2. d4 *\n");
  std::string none;
  auto n = pgn::append_pgc(none, null_move, {.lossy = true});
  REQUIRE_FALSE(n);
  CHECK(n.error().message.find("null move at ply 2") != std::string::npos);
  CHECK(none.empty());
}

TEST_CASE("pgc text: UTF-8 up to U+00FF becomes Latin-1 and comes back, the rest needs lossy", "[pgc]") {
  pgn::Game g = one_game(kRoster + "[Result \"*\"]\n\n1. e4 *\n");
  g.set_tag("White", "Caf\xc3\xa9 \xc2\xa0");  // é and no-break space
  std::string out;
  REQUIRE(pgn::append_pgc(out, g));
  CHECK(out.find("Caf\xe9 \xa0") != std::string::npos);
  CHECK(games_of(out).at(0).tag("White") == "Caf\xc3\xa9 \xc2\xa0");

  g.set_tag("Black", "\xe2\x82\xac uro");  // U+20AC: not Latin-1
  g.set_tag("Site", "M\xfcnchen");          // a Latin-1 byte: not UTF-8
  std::string bad;
  auto r = pgn::append_pgc(bad, g);
  REQUIRE_FALSE(r);
  CHECK(r.error().message.find("2 characters") != std::string::npos);
  auto lossy = pgn::append_pgc(bad, g, {.lossy = true});
  REQUIRE(lossy);
  CHECK(lossy->characters == 2);
  const auto back = games_of(bad);
  CHECK(back.at(0).tag("Black") == "? uro");
  CHECK(back.at(0).tag("Site") == "M\xc3\xbcnchen");

  g.set_tag("Black", std::string(256, 'x'));
  auto long_tag = pgn::append_pgc(bad, g, {.lossy = true});
  REQUIRE_FALSE(long_tag);
  CHECK(long_tag.error().message.find("256 bytes") != std::string::npos);
}

TEST_CASE("pgc: escape lines travel before their game", "[pgc]") {
  const pgn::Game g = one_game("%esc one\n" + kRoster + "[Result \"*\"]\n\n1. d4 *\n");
  REQUIRE(g.escapes == std::vector<std::string>{"esc one"});
  const std::string out = pgc_of({g});
  CHECK(out.substr(0, 10) == std::string("\x0a\x07\x00", 3) + "esc one");
  CHECK(games_of(out).at(0).same_tree(g));
}

TEST_CASE("pgc reader: bad records are errors with their byte offset", "[pgc]") {
  const auto error = [](const std::string& data) {
    auto r = pgn::read_pgc(data);
    REQUIRE_FALSE(r);
    return r.error();
  };
  CHECK(error("\x0b").message == "marker 0x0b outside a game");
  CHECK(error(std::string("\x00\x02\x01" "A\x01" "B", 6)).message == "marker 0x02 (tag pair) outside a game");
  CHECK(error(std::string("\x00\x02", 2)).offset == 1);
  const std::string empty_roster(7, '\0');
  auto e = error("\x01" + empty_roster + std::string("\x01\x00\x14", 3));
  CHECK(e.offset == 10);
  CHECK(e.game == 1);
  CHECK(e.message == "move ordinal 20 where the position has 20 legal moves");
  CHECK(pgn::to_string(e) == "byte 10, game 1: move ordinal 20 where the position has 20 legal moves");
  CHECK(error("\x05\x09").message == "a RAV end without its RAV begin");
  CHECK(error("\x05\x05").message.find("inside a general game") != std::string::npos);
  CHECK(error("\x05\x01").offset == 1);
  CHECK(error("\x05\x08").message == "a variation before any move of its line");
  CHECK(error("\x05\x03\x01\x0d\x02").message == "a tag pair after the moves");
  CHECK(error("\x05\x03\x01\x0d\x08").message == "the data ends inside the game begun at byte 0");
  CHECK(error("\x05\x03\x01\x0d\x08\x06").message == "the game ends with 1 variation(s) open");
  auto fen = error("\x05\x02\x03" "FEN\x05" "junk!\x03\x01" + std::string(1, '\0') + "\x06");
  CHECK(fen.offset == 12);  // the move record that needs the start position
  CHECK(fen.message.find("FEN tag") != std::string::npos);
  auto truncated = error("\x01\x05" "E");
  CHECK(truncated.offset == 1);
  CHECK(truncated.message.find("the data ends inside") != std::string::npos);
  CHECK(error("\x0a\x01").message.find("escape string") != std::string::npos);
  CHECK(error(std::string("\x0a\x00\x00", 3)).message == "the data ends after an escape string that belongs to no game");
}

TEST_CASE("pgc: every game of twic0920 and chess960-cutechess gives the reduced export back", "[pgc][files]") {
  for (const char* file : {"twic0920.pgn", "chess960-cutechess.pgn"}) {
    INFO(file);
    const auto read = test::read(shared_file(file));
    REQUIRE(!read.games.empty());
    std::size_t comments = 0;
    for (const auto& g : read.games) comments += count_kind(g.main, pgn::Annotation::Kind::Comment);
    std::string pgc;
    pgn::PgcWriteReport total;
    for (const auto& g : read.games) {
      auto r = pgn::append_pgc(pgc, g, {.lossy = true});
      INFO((r ? "" : pgn::to_string(r.error())));
      REQUIRE(r);
      total += *r;
    }
    CHECK(total.comments == comments);
    CHECK(total.characters == 0);
    CHECK(total.result_marks == 0);
    const auto back = games_of(pgc);
    REQUIRE(back.size() == read.games.size());
    const std::string want = reduced_export(read.games);
    const std::string got = reduced_export(back);
    if (got != want)
      for (std::size_t i = 0; i < back.size(); ++i)
        REQUIRE(pgn::export_game(back[i], {.reduced = true}) == pgn::export_game(read.games[i], {.reduced = true}));
    CHECK(got == want);
    // Streamed in 64 KiB pieces, the same games.
    std::istringstream in(pgc);
    pgn::PgcReader reader(in);
    pgn::Game g;
    std::size_t n = 0;
    for (;;) {
      auto r = reader.next(g);
      REQUIRE(r);
      if (!*r) break;
      REQUIRE(g.same_tree(back.at(n)));
      ++n;
    }
    CHECK(n == back.size());
  }
}

TEST_CASE("pgc: heavily-annotated.pgn keeps its NAGs, its comments need lossy", "[pgc][files]") {
  const auto read = test::read(shared_file("heavily-annotated.pgn"));
  std::string out;
  for (const auto& g : read.games) REQUIRE_FALSE(pgn::append_pgc(out, g));
  const std::string pgc = pgc_of(read.games, {.lossy = true});
  auto back = games_of(pgc);
  REQUIRE(back.size() == read.games.size());
  std::size_t nags = 0, nags_before = 0;
  for (std::size_t i = 0; i < back.size(); ++i) {
    pgn::Game want = read.games[i];
    strip_comments(want.main);
    nags += count_kind(back[i].main, pgn::Annotation::Kind::Nag);
    nags_before += count_kind(read.games[i].main, pgn::Annotation::Kind::Nag);
    CHECK(back[i].same_tree(want));
    CHECK(pgn::export_game(back[i]) == pgn::export_game(want));
  }
  CHECK(nags > 0);  // "20.Bxc6?" (the file has no variations: the tests above hold those)
  CHECK(nags == nags_before);
}

TEST_CASE("pgc writer: the stream writer writes what append_pgc does and totals what it left out", "[pgc]") {
  const auto read = test::read(shared_file("chess960-cutechess.pgn"));
  std::ostringstream os;
  {
    pgn::PgcWriter w(os, {.lossy = true});
    for (const auto& g : read.games) REQUIRE(w.write(g));
    CHECK(w.totals().comments > 0);
  }
  CHECK(os.str() == pgc_of(read.games, {.lossy = true}));
}

TEST_CASE("pgc reader: every prefix of a real file and random byte flips give games or an error, never a crash", "[pgc][robustness]") {
  auto read = test::read(shared_file("twic0920.pgn"));
  read.games.resize(25);
  read.games.push_back(one_game(kRoster + "[Result \"*\"]\n[X \"y\"]\n\n1. e4 (1. d4 d5 (1... Nf6 $1)) e5 $2 *\n"));
  const std::string pgc = pgc_of(read.games);
  std::size_t errors = 0, whole = 0;
  for (std::size_t n = 0; n < pgc.size(); ++n) {
    auto r = pgn::read_pgc(std::string_view(pgc).substr(0, n));
    if (r) {
      ++whole;
      CHECK(r->size() < read.games.size());
    } else {
      ++errors;
      CHECK(r.error().offset <= n);
      CHECK(!r.error().message.empty());
    }
  }
  CHECK(whole == read.games.size());  // the prefixes that end where a game ends
  CHECK(errors == pgc.size() - whole);
  std::mt19937 rng(20260919);
  std::size_t flipped_errors = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    std::string bad = pgc;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < flips; ++i) bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    std::istringstream in(bad);
    pgn::PgcReader reader(in);
    pgn::Game g;
    for (;;) {
      auto r = reader.next(g);
      if (!r) {
        ++flipped_errors;
        CHECK(r.error().offset < bad.size());
        CHECK_FALSE(reader.next(g));  // the error repeats
        break;
      }
      if (!*r) break;
    }
  }
  CHECK(flipped_errors > 100);
}
