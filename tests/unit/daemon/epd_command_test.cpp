// `epdd epd check` and `epdd epd format` in-process.
#include <sstream>

#include "daemon/epd_command.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

const std::string kGood = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - bm Bxf7+; id \"good\";\n";
const std::string kLong = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - bm Bc4xf7+; id \"long\";\n";
const std::string kIllegal = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - bm Nd2; id \"bad\";\n";

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

TEST_CASE("epd check: diagnostics with file, line and column, summary, exit status", "[daemon][epd]") {
  test::TempDir dir;
  const auto file = dir.write("s.epd", "# comment\n" + kGood + kLong + kIllegal).string();
  daemon::EpdCheckOptions o;
  o.files = {file};
  Run r = run(daemon::run_epd_check, o);
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Contains(file + ":3:68: note: 'bm' 'Bc4xf7+' read as Bxf7+ (long algebraic notation (from square given)) [move-form]"));
  CHECK_THAT(r.out, Catch::Contains(file + ":4:68: error: 'bm': 'Nd2' is illegal: d2 is occupied by a white pawn"));
  CHECK_THAT(r.out, Catch::Contains(file + ": 3 records in 4 lines: 1 errors, 0 warnings, 1 notes"));
  o.min_severity = epd::Severity::Error;
  r = run(daemon::run_epd_check, o);
  CHECK_THAT(r.out, !Catch::Contains("[move-form]\n"));
  o.files = {dir.write("ok.epd", kGood).string()};
  CHECK(run(daemon::run_epd_check, o).status == 0);
  o.files = {"/nonexistent.epd"};
  r = run(daemon::run_epd_check, o);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("/nonexistent.epd: cannot open for reading"));
}

TEST_CASE("epd check: the first few of each kind, then a count", "[daemon][epd]") {
  test::TempDir dir;
  std::string many;
  for (int i = 0; i < 12; ++i) many += kLong;
  daemon::EpdCheckOptions o;
  o.files = {dir.write("many.epd", many).string()};
  Run r = run(daemon::run_epd_check, o);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("12 move-form              note (7 not shown; --all shows every one)"));
  o.all = true;
  r = run(daemon::run_epd_check, o);
  CHECK_THAT(r.out, Catch::Contains(":12:68: note:"));
}

TEST_CASE("epd format: canonical rewrite, atomically, idempotent", "[daemon][epd]") {
  test::TempDir dir;
  const auto in = dir.write("in.epd", "# kept\r\n" + kLong + kIllegal).string();
  daemon::EpdFormatOptions o;
  o.file = in;
  o.output = (dir.path() / "out.epd").string();
  Run r = run(daemon::run_epd_format, o);
  CHECK(r.status == 1);  // the illegal move is kept as written, and reported
  CHECK_THAT(r.err, Catch::Contains(":3:68: error:"));
  CHECK_THAT(r.err, Catch::Contains("2 records, 1 rewritten; 1 errors"));
  const std::string once = test::read_file(*o.output);
  CHECK(once == "# kept\r\n" + kGood.substr(0, kGood.find("id")) + "id \"long\";\n" + kIllegal);
  o.file = *o.output;
  o.output = (dir.path() / "again.epd").string();
  run(daemon::run_epd_format, o);
  CHECK(test::read_file(*o.output) == once);
  // In place, and to stdout.
  o.file = in;
  o.output = in;
  run(daemon::run_epd_format, o);
  CHECK(test::read_file(in) == once);
  o.output.reset();
  CHECK(run(daemon::run_epd_format, o).out == once);
}
