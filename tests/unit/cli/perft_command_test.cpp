// `epdd perft` in-process: counts, mismatches, malformed lines, unreadable files.
#include <sstream>

#include "cli/perft_command.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

struct Run {
  int status;
  std::string out;
  std::string err;
};

Run run(const cli::PerftOptions& o) {
  std::ostringstream out, err;
  const int status = cli::run_perft(o, out, err);
  return {status, out.str(), err.str()};
}

}  // namespace

TEST_CASE("perft: a file whose counts all match", "[daemon][perft]") {
  test::TempDir dir;
  cli::PerftOptions o;
  o.files = {dir.write("ok.epd",
                       "# a comment line\n"
                       "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\r\n"
                       "\n"
                       "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\n")
                 .string()};
  const Run r = run(o);
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK_THAT(r.out, Catch::Contains("[1/2] ok"));
  CHECK_THAT(r.out, Catch::Contains("line 4: 4k3/8/8/8/8/8/8/4K2R w K -"));
  CHECK_THAT(r.out, Catch::Contains("2 positions, 5 counts checked: 0 mismatched, 0 malformed lines; 9403 nodes"));
}

TEST_CASE("perft: --max-depth limits the counts checked", "[daemon][perft]") {
  test::TempDir dir;
  cli::PerftOptions o;
  o.files = {dir.write("d.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 1\n").string()};
  o.max_depth = 2;
  CHECK(run(o).status == 0);
  o.max_depth = 0;
  CHECK(run(o).status == 1);
}

TEST_CASE("perft: a mismatch fails and tells how to find the move", "[daemon][perft]") {
  test::TempDir dir;
  cli::PerftOptions o;
  o.files = {dir.write("bad.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401 ;D3 8902\n")
                 .string()};
  const Run r = run(o);
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Contains("MISMATCH  D2: expected 401, counted 400"));
  CHECK_THAT(r.out, Catch::Contains("epdd perft --fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\" --depth 2 --divide"));
  // Deeper counts are not attempted once a shallower one is wrong.
  CHECK_THAT(r.out, Catch::Contains("2 counts checked: 1 mismatched"));
}

TEST_CASE("perft: malformed lines are reported with file, line and column, the rest still runs",
          "[daemon][perft]") {
  test::TempDir dir;
  const auto path = dir.write("mixed.epd",
                              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 x\n"
                              "8/8/8/8/8/8/8/8 w - - 0 1 ;D1 1\n"
                              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n");
  cli::PerftOptions o;
  o.files = {path.string()};
  const Run r = run(o);
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains(path.string() + ":1:59: error: 'D1 x' is not 'Dn count'"));
  CHECK_THAT(r.err, Catch::Contains(path.string() + ":2:1: error: piece placement: White has 0 kings"));
  CHECK_THAT(r.err, Catch::Contains(path.string() + ":3:"));
  CHECK_THAT(r.err, Catch::Contains("no ';Dn count' items"));
  CHECK_THAT(r.out, Catch::Contains("1 position, 1 counts checked: 0 mismatched, 3 malformed lines"));
}

TEST_CASE("perft: an unreadable file exits 2", "[daemon][perft]") {
  cli::PerftOptions o;
  o.files = {"/nonexistent/epdd/perft.epd"};
  const Run r = run(o);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("/nonexistent/epdd/perft.epd: cannot open for reading"));
}

TEST_CASE("perft: Chess960 X-FEN is read as X-FEN with or without --chess960, Shredder-FEN too",
          "[daemon][perft][chess960]") {
  test::TempDir dir;
  cli::PerftOptions o;
  o.files = {dir.write("x.epd", "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w KQkq - 0 1 ;D1 18 ;D2 324\n").string()};
  const Run r = run(o);
  CHECK(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("read as X-FEN"));
  o.chess960 = true;
  CHECK(run(o).status == 0);
  o.chess960 = false;
  o.files = {dir.write("s.epd", "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w FBfb - 0 1 ;D1 18 ;D2 324\n").string()};
  CHECK(run(o).status == 0);
}

TEST_CASE("perft: parallel jobs print results in input order", "[daemon][perft]") {
  cli::PerftOptions o;  // the built-in suite
  o.jobs = 2;
  o.max_depth = 3;
  const Run r = run(o);
  CHECK(r.status == 0);
  const auto first = r.out.find("[1/8]");
  const auto last = r.out.find("[8/8]");
  REQUIRE(first != std::string::npos);
  REQUIRE(last != std::string::npos);
  CHECK(first < last);
}

TEST_CASE("perft --fen --divide prints every move's count like Stockfish", "[daemon][perft]") {
  cli::PerftOptions o;
  o.fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  o.depth = 2;
  o.divide = true;
  const Run r = run(o);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("e1g1: "));
  CHECK_THAT(r.out, Catch::Contains("Nodes searched: 568"));
  o.fen = "not a fen";
  CHECK(run(o).status == 2);
}

TEST_CASE("perft: NUL bytes and trailing blanks are read as the EPD reader reads them", "[daemon][perft]") {
  using namespace std::string_literals;
  test::TempDir dir;
  cli::PerftOptions o;
  o.files = {dir.write("nul.epd", "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 \0"s
                                  "\n4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66 \t\r\n"s)
                 .string()};
  const Run r = run(o);
  CHECK(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("nul.epd:1:46: warning: NUL byte in the line (dropped)"));
  CHECK_THAT(r.out, Catch::Contains("2 positions, 4 counts checked: 0 mismatched, 0 malformed lines"));
}

TEST_CASE("perft: control bytes in a message are shown escaped", "[daemon][perft]") {
  test::TempDir dir;
  cli::PerftOptions o;
  o.files = {dir.write("ctl.epd", "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 6\x1f" "6\n").string()};
  const Run r = run(o);
  CHECK(r.status == 1);
  CHECK_THAT(r.err, Catch::Contains("'D2 6\\x1f6' is not 'Dn count'"));
}

TEST_CASE("perft: KQkq with the king off the e-file is counted as X-FEN, with a note", "[daemon][perft]") {
  // The first position of the shared chess960.epd (HFhf) with its castling written as X-FEN.
  test::TempDir dir;
  cli::PerftOptions o;
  o.files = {dir.write("xfen.epd",
                       "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9 ;D1 21 ;D2 528 ;D3 12189\n")
                 .string()};
  const Run r = run(o);
  CHECK(r.status == 0);
  CHECK_THAT(r.err, Catch::Contains("xfen.epd:1:56: note: castling availability: 'KQkq' read as X-FEN"));
  CHECK_THAT(r.out, Catch::Contains("0 mismatched, 0 malformed lines"));
}

TEST_CASE("perft: a directory is an error, not an empty file", "[daemon][perft]") {
  test::TempDir dir;
  cli::PerftOptions o;
  o.files = {dir.path().string()};
  const Run r = run(o);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains(dir.path().string() + ": cannot read: is a directory"));
}
