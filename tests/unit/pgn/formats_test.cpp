// The three game formats read the same way: which one a file is (suffix, then content), and
// AnyGameReader giving the same games from PGN, PGC and ChessLive! data, errors included.
#include <sstream>
#include <streambuf>

#include <catch2/catch.hpp>

#include "pgn/chesslive.hpp"
#include "pgn/formats.hpp"
#include "pgn/pgc.hpp"
#include "pgn_test_support.hpp"

using namespace epdd;
using pgn::GameFormat;

namespace {

// A stream that can only be read forward, a byte at a time, as a pipe: no seek, no putback.
class PipeBuffer final : public std::streambuf {
 public:
  explicit PipeBuffer(std::string data) : data_(std::move(data)) {}

 protected:
  int_type underflow() override {
    if (at_ >= data_.size()) return traits_type::eof();
    byte_ = data_[at_++];
    setg(&byte_, &byte_, &byte_ + 1);
    return traits_type::to_int_type(byte_);
  }

 private:
  std::string data_;
  std::size_t at_ = 0;
  char byte_ = 0;
};

std::vector<pgn::Game> read_all(std::istream& in, std::optional<GameFormat> format, pgn::Diagnostics& diags,
                                GameFormat* seen = nullptr) {
  pgn::AnyGameReader reader(in, format, diags);
  if (seen) *seen = reader.format();
  std::vector<pgn::Game> games;
  for (pgn::Game g; reader.next(g);) games.push_back(g);
  return games;
}

std::string exported(const std::vector<pgn::Game>& games) {
  std::string text;
  for (const auto& g : games) pgn::append_game(text, g);
  return text;
}

const std::string kTwoGames =
    "[Event \"a\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n[White \"W\"]\n[Black \"B\"]\n"
    "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n"
    "[Event \"b\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"2\"]\n[White \"X\"]\n[Black \"Y\"]\n"
    "[Result \"*\"]\n\n1. d4 d5 2. c4 *\n\n";

}  // namespace

TEST_CASE("Game formats: the suffix names the format, case aside", "[formats]") {
  CHECK(pgn::game_format_of_suffix("games.pgn") == GameFormat::Pgn);
  CHECK(pgn::game_format_of_suffix("dir.d/GAMES.PGC") == GameFormat::Pgc);
  CHECK(pgn::game_format_of_suffix("live.clm") == GameFormat::ChessLive);
  CHECK_FALSE(pgn::game_format_of_suffix("games.txt"));
  CHECK_FALSE(pgn::game_format_of_suffix("dir.pgn/games"));
  CHECK_FALSE(pgn::game_format_of_suffix("games"));
  // The suffix wins over the content; without one the content decides.
  CHECK(pgn::game_format_of("a.pgn", "\x05") == GameFormat::Pgn);
  CHECK(pgn::game_format_of("a.bin", "\x05") == GameFormat::Pgc);
}

TEST_CASE("Game formats: the content names the format where the suffix does not", "[formats]") {
  // PGC: a record marker first.
  for (char marker : {'\x00', '\x01', '\x02', '\x05'})
    CHECK(pgn::sniff_game_format(std::string(1, marker) + "rest") == GameFormat::Pgc);
  // An escape string first: PGC by the binary bytes after it (a PGN may begin with a newline).
  CHECK(pgn::sniff_game_format(std::string("\x0a\x03" "abc\x01\x00", 7)) == GameFormat::Pgc);
  CHECK(pgn::sniff_game_format("\n[Event \"x\"]\n") == GameFormat::Pgn);
  // PGN: tags, movetext, comments, escapes, white space first, nothing at all.
  for (std::string_view pgn : {"[Event \"x;y;e2:e4\"]", "1. e4 e5 *", "{a; b; e2:e4}", "%escape\n[Event \"\"]",
                               "\n\t[Event \"x\"]", "", "\xEF\xBB\xBF[Event \"x\"]", "; a rest-of-line comment\n1. e4",
                               "e4 e5; Nf3 Nc6; Bb5"})
    CHECK(pgn::sniff_game_format(pgn) == GameFormat::Pgn);
  // ChessLive!: players, then a move step, a Result with its ';', or nothing.
  for (std::string_view clm : {"Kasparov;Deep Blue;e2:e4;e7:e5;+;resigns", "A;B;", "A;B;  ", "A;B;=;3-fold repetition",
                               "A;B;-;", "A;B; e2:e4/12/35/300/e4", "\xEF\xBB\xBF\nA;B;g1:f3", "A;B;q:g8"})
    CHECK(pgn::sniff_game_format(clm) == GameFormat::ChessLive);
}

TEST_CASE("Game formats: PGN, PGC and a move file give the same games through one reader", "[formats]") {
  pgn::Diagnostics d0;
  const auto games = pgn::read_games(kTwoGames, d0);
  REQUIRE(games.size() == 2);
  std::string pgc;
  for (const auto& g : games) REQUIRE(pgn::append_pgc(pgc, g));
  auto clm = pgn::write_chesslive(games[1]);
  REQUIRE(clm);

  for (bool pipe : {false, true}) {
    INFO("read from a pipe: " << pipe);
    const auto stream = [pipe](const std::string& data) -> std::unique_ptr<std::istream> {
      if (!pipe) return std::make_unique<std::istringstream>(data);
      struct Pipe : std::istream {
        explicit Pipe(std::string d) : std::istream(nullptr), buffer(std::move(d)) { rdbuf(&buffer); }
        PipeBuffer buffer;
      };
      return std::make_unique<Pipe>(data);
    };
    GameFormat seen{};
    pgn::Diagnostics d1, d2, d3;
    CHECK(exported(read_all(*stream(kTwoGames), std::nullopt, d1, &seen)) == exported(games));
    CHECK(seen == GameFormat::Pgn);
    const auto from_pgc = read_all(*stream(pgc), std::nullopt, d2, &seen);
    CHECK(seen == GameFormat::Pgc);
    pgn::ExportOptions reduced;
    reduced.reduced = true;
    std::string want, got;
    for (const auto& g : games) pgn::append_game(want, g, reduced);
    for (const auto& g : from_pgc) pgn::append_game(got, g, reduced);
    CHECK(got == want);
    const auto from_clm = read_all(*stream(*clm), std::nullopt, d3, &seen);
    CHECK(seen == GameFormat::ChessLive);
    REQUIRE(from_clm.size() == 1);
    CHECK(from_clm[0].mainline() == games[1].mainline());
    CHECK(from_clm[0].number == 1);
    CHECK(d1.count(pgn::Severity::Error) + d2.count(pgn::Severity::Error) + d3.count(pgn::Severity::Error) == 0);
  }
}

TEST_CASE("Game formats: a damaged PGC file gives its games up to the damage and one error with its byte", "[formats]") {
  pgn::Diagnostics d0;
  const auto games = pgn::read_games(kTwoGames, d0);
  std::string pgc;
  for (const auto& g : games) REQUIRE(pgn::append_pgc(pgc, g));
  const std::string cut = pgc.substr(0, pgc.size() - 3);
  std::istringstream in(cut);
  pgn::Diagnostics diags;
  const auto read = read_all(in, GameFormat::Pgc, diags);
  CHECK(read.size() == 1);
  REQUIRE(diags.count(pgn::Severity::Error) == 1);
  const pgn::Diagnostic& e = diags.items().front();
  CHECK(e.problem == pgn::Problem::PgcData);
  CHECK(e.line == 0);
  CHECK(e.game == 2);
  CHECK_THAT(e.message, Catch::Contains("byte "));
  CHECK_FALSE(pgn::as_pgn_text(cut, GameFormat::Pgc));
  CHECK_THAT(pgn::as_pgn_text(cut, GameFormat::Pgc).error(), Catch::Contains("byte "));
}

TEST_CASE("Game formats: a move file that plays no legal move is one error with its line and column", "[formats]") {
  std::istringstream in("White;Black;\ne2:e4;\ne7:e4;+;resigns\n");
  pgn::Diagnostics diags;
  CHECK(read_all(in, std::nullopt, diags).empty());
  REQUIRE(diags.count(pgn::Severity::Error) == 1);
  const pgn::Diagnostic& e = diags.items().front();
  CHECK(e.problem == pgn::Problem::MoveFile);
  CHECK(e.line == 3);
  CHECK(e.column == 1);
  CHECK_THAT(e.message, Catch::Contains("e7:e4"));
}

TEST_CASE("Game formats: PGC and move files as PGN text, PGN as it is", "[formats]") {
  pgn::Diagnostics d0;
  const auto games = pgn::read_games(kTwoGames, d0);
  std::string pgc;
  for (const auto& g : games) REQUIRE(pgn::append_pgc(pgc, g));
  auto text = pgn::as_pgn_text(pgc, GameFormat::Pgc);
  REQUIRE(text);
  pgn::ExportOptions reduced;
  reduced.reduced = true;
  std::string want;
  for (const auto& g : games) pgn::append_game(want, g, reduced);
  CHECK(*text == want);
  CHECK(*pgn::as_pgn_text(kTwoGames, GameFormat::Pgn) == kTwoGames);
  auto clm = pgn::as_pgn_text("Anand;Carlsen;e2:e4;c7:c5;=;agreed\n", GameFormat::ChessLive);
  REQUIRE(clm);
  CHECK_THAT(*clm, Catch::Contains("[White \"Anand\"]"));
  CHECK_THAT(*clm, Catch::Contains("1. e4 c5 {agreed} 1/2-1/2"));
}

TEST_CASE("Game formats: reduced_game is what the reduced export writes, and PGC holds it as 0x01 records", "[formats]") {
  for (const char* name : {"twic0920.pgn", "heavily-annotated.pgn", "chess960-cutechess.pgn"}) {
    INFO(name);
    pgn::Diagnostics diags;
    const auto games = pgn::read_games(test::shared_file(name), diags);
    REQUIRE(!games.empty());
    std::string want, got, pgc;
    std::size_t reduced_records = 0;
    for (const auto& g : games) {
      pgn::append_game(want, g, {.reduced = true});
      const pgn::Game r = pgn::reduced_game(g);
      pgn::append_game(got, r);  // the full export of the reduced game: nothing left to drop
      auto report = pgn::append_pgc(pgc, r);
      REQUIRE(report);  // no comments: nothing needs lossy
      reduced_records += report->reduced;
    }
    CHECK(got == want);
    auto back = pgn::as_pgn_text(pgc, GameFormat::Pgc);
    REQUIRE(back);
    CHECK(*back == want);
    if (std::string_view(name) == "twic0920.pgn") CHECK(reduced_records == games.size());
  }
}

TEST_CASE("Game formats: a move file broken into lines gives PGN that reads back as the same game", "[formats]") {
  // The players on lines of their own, and a reason holding '}' and a line break (export writes
  // such a comment as a rest-of-line comment, which a line break would end).
  const std::string clm = "Carlsen, M;\nNepomniachtchi, I;\ne2:e4;\ne7:e5;\n-;won }\n2. d4 { x\n";
  auto pgn_text = pgn::as_pgn_text(clm, GameFormat::ChessLive);
  REQUIRE(pgn_text);
  CHECK_THAT(*pgn_text, Catch::Contains("[White \"Carlsen, M\"]"));
  CHECK_THAT(*pgn_text, Catch::Contains("[Black \"Nepomniachtchi, I\"]"));
  pgn::Diagnostics diags;
  const auto back = pgn::read_games(*pgn_text, diags);
  CHECK(diags.count(pgn::Severity::Error) == 0);
  REQUIRE(back.size() == 1);
  CHECK(back[0].main.moves.size() == 2);
  REQUIRE(back[0].main.moves.back().after.size() == 1);
  CHECK(back[0].main.moves.back().after[0].comment == "won } 2. d4 { x");
  // A name broken inside is refused with its place.
  auto broken = pgn::read_chesslive("Carlsen,\nM;B;e2:e4;\n");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().line == 1);
  CHECK_THAT(broken.error().message, Catch::Contains("WhitePlayer is broken across lines"));
}
