// `epdd pgn check|export|sort|to-epd` in-process.
#include <sstream>

#include "daemon/pgn_command.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

const std::string kGames =
    "[Event \"B\"]\n[Site \"?\"]\n[Date \"2000.01.02\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"*\"]\n\n"
    "1. e4 e5! 2. Nf3 *\n\n"
    "[Event \"A\"]\n[Site \"?\"]\n[Date \"2000.01.01\"]\n[Round \"1\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"1-0\"]\n\n"
    "1. d4 d5 2. Bh7 1-0\n";

struct Run {
  int status;
  std::string out, err;
};

template <class Options, class F>
Run run(F f, const Options& o) {
  std::ostringstream out, err;
  const int status = f(o, out, err);
  return {status, out.str(), err.str()};
}

}  // namespace

TEST_CASE("pgn check: diagnostics with file, line, column and game, summary, exit status", "[daemon][pgn]") {
  test::TempDir dir;
  daemon::PgnCheckOptions o;
  o.files = {dir.write("g.pgn", kGames).string()};
  Run r = run(daemon::run_pgn_check, o);
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Contains(o.files[0] + ":19:13: error: game 2: 'Bh7' is illegal"));
  CHECK_THAT(r.out, Catch::Contains(o.files[0] + ": 2 games, 5 main-line plies: 1 errors, 0 warnings, 0 notes"));
  o.files = {"/nonexistent.pgn"};
  CHECK(run(daemon::run_pgn_check, o).status == 2);
}

TEST_CASE("pgn export, sort and to-epd", "[daemon][pgn]") {
  test::TempDir dir;
  daemon::PgnWriteOptions o;
  o.file = dir.write("g.pgn", kGames).string();
  o.output = (dir.path() / "out.pgn").string();
  Run r = run(daemon::run_pgn_write, o);
  CHECK(r.status == 1);  // game 2 is written up to its illegal move
  CHECK_THAT(r.err, Catch::Contains("2 games; 1 errors"));
  const std::string exported = test::read_file(*o.output);
  CHECK_THAT(exported, Catch::Contains("1. e4 e5 $1 2. Nf3 *\n"));
  CHECK_THAT(exported, Catch::Contains("1. d4 d5 1-0\n"));
  o.action = daemon::PgnAction::Sort;
  o.output.reset();
  r = run(daemon::run_pgn_write, o);
  CHECK(r.out.find("[Event \"A\"]") < r.out.find("[Event \"B\"]"));
  o.action = daemon::PgnAction::ToEpd;
  r = run(daemon::run_pgn_write, o);
  CHECK_THAT(r.out, Catch::StartsWith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - fmvn 1; hmvc 0; id \"game 1 ply 0\"; sm e4;\n"));
  o.action = daemon::PgnAction::Export;
  o.reduced = true;
  r = run(daemon::run_pgn_write, o);
  CHECK_THAT(r.out, Catch::Contains("1. e4 e5 2. Nf3 *\n"));
}
