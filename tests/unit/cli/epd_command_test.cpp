// `epdd epd check` and `epdd epd format` in-process.
#include <fstream>
#include <sstream>

#include "cli/epd_command.hpp"
#include "diagnostic_output.hpp"
#include "command_run.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

const std::string kGood = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - bm Bxf7+; id \"good\";\n";
const std::string kLong = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - bm Bc4xf7+; id \"long\";\n";
const std::string kIllegal = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - bm Nd2; id \"bad\";\n";

using Run = test::CommandRun;
using test::run;

}  // namespace

TEST_CASE("epd check: diagnostics with file, line and column, summary, exit status", "[daemon][epd]") {
  test::TempDir dir;
  const auto file = dir.write("s.epd", "# comment\n" + kGood + kLong + kIllegal).string();
  cli::EpdCheckOptions o;
  o.files = {file};
  Run r = run(cli::run_epd_check, o);
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Contains(file + ":3:68: note: 'bm' 'Bc4xf7+' read as Bxf7+ (long algebraic notation (from square given)) [move-form]"));
  CHECK_THAT(r.out, Catch::Contains(file + ":4:68: error: 'bm': 'Nd2' is illegal: d2 is occupied by a white pawn"));
  CHECK_THAT(r.out, Catch::Contains(file + ": 3 records in 4 lines: 1 error, 0 warnings, 1 note"));
  o.min_severity = epd::Severity::Error;
  r = run(cli::run_epd_check, o);
  CHECK_THAT(r.out, !Catch::Contains("[move-form]\n"));
  o.files = {dir.write("ok.epd", kGood).string()};
  CHECK(run(cli::run_epd_check, o).status == 0);
  o.files = {"/nonexistent.epd"};
  r = run(cli::run_epd_check, o);
  CHECK(r.status == 2);
  CHECK_THAT(r.err, Catch::Contains("/nonexistent.epd: cannot open for reading"));
}

TEST_CASE("epd check: the first few of each kind, then a count", "[daemon][epd]") {
  test::TempDir dir;
  std::string many;
  for (int i = 0; i < 12; ++i) many += kLong;
  cli::EpdCheckOptions o;
  o.files = {dir.write("many.epd", many).string()};
  Run r = run(cli::run_epd_check, o);
  CHECK(r.status == 0);
  CHECK_THAT(r.out, Catch::Contains("12 move-form              note (7 not shown; --all shows every one)"));
  o.all = true;
  r = run(cli::run_epd_check, o);
  CHECK_THAT(r.out, Catch::Contains(":12:68: note:"));
}

TEST_CASE("epd check: 40,000 records of many diagnostics in flat memory, counts per kind, --all in file order",
          "[daemon][epd]") {
  // Each record: eight unknown opcodes (notes, in ASCII order) and a last operation without
  // ';' (a warning the reader finds at the end of the line, before the checker's notes); every
  // 4,000th record an illegal bm, so the exit status is 1.
  const std::size_t records = 40000, every = 4000, illegal = records / every;
  test::TempDir dir;
  const std::string file = (dir.path() / "many.epd").string();
  std::size_t file_kb = 0;
  {
    std::ofstream f(file, std::ios::binary);
    for (std::size_t i = 1; i <= records; ++i) {
      const std::string line = std::string("4k3/8/8/8/8/8/4P3/4K3 w - - bm ") + (i % every ? "e4" : "e5") +
                               "; id \"r" + std::to_string(i) + "\"; x1 1; x2 2; x3 3; x4 4; x5 5; x6 6; x7 7; x8 8\n";
      f << line;
      file_kb += line.size();
    }
    file_kb /= 1024;
  }
  const std::size_t notes = 8 * records, warnings = records;
  const long before = test::peak_rss_kb();
  cli::EpdCheckOptions o;
  o.files = {file};
  Run r = run(cli::run_epd_check, o);
  CHECK(r.status == 1);
  CHECK_THAT(r.out, Catch::Contains(file + ": " + std::to_string(records) + " records in " + std::to_string(records) +
                                    " lines: " + std::to_string(illegal) + " errors, " + std::to_string(warnings) +
                                    " warnings, " + std::to_string(notes) + " notes\n"));
  CHECK_THAT(r.out, Catch::Contains(std::to_string(notes) + " unknown-opcode         note (" +
                                    std::to_string(notes - 5) + " not shown; --all shows every one)\n"));
  CHECK_THAT(r.out, Catch::Contains(std::to_string(warnings) + " missing-semicolon      warning (" +
                                    std::to_string(warnings - 5) + " not shown; --all shows every one)\n"));
  test::DiagnosticLines shown(file);
  shown.feed(r.out);
  CHECK(shown.lines() == 15);
  CHECK(shown.in_file_order());

  o.all = true;
  test::DiagnosticLines all(file);
  std::ostream out(&all);
  std::ostringstream err;
  CHECK(cli::run_epd_check(o, out, err) == 1);
  CHECK(all.lines() == notes + warnings + illegal);
  CHECK(all.count("[unknown-opcode]") == notes);
  CHECK(all.count("[missing-semicolon]") == warnings);
  CHECK(all.count("[illegal-move]") == illegal);
  CHECK(all.in_file_order());
  // The file is read whole; the diagnostics (about 30 MB of them) are not held.
  const long grown_mb = (test::peak_rss_kb() - before) / 1024;
  INFO("peak memory grew by " << grown_mb << " MB; the file is " << file_kb / 1024 << " MB");
#if !defined(EPDD_SANITIZED_BUILD)  // ASan's quarantine holds freed memory
  CHECK(grown_mb < static_cast<long>(file_kb / 1024) + 15);
#endif
}

TEST_CASE("epd format: canonical rewrite, atomically, idempotent", "[daemon][epd]") {
  test::TempDir dir;
  const auto in = dir.write("in.epd", "# kept\r\n" + kLong + kIllegal).string();
  cli::EpdFormatOptions o;
  o.file = in;
  o.output = (dir.path() / "out.epd").string();
  Run r = run(cli::run_epd_format, o);
  CHECK(r.status == 1);  // the illegal move is kept as written, and reported
  CHECK_THAT(r.err, Catch::Contains(":3:68: error:"));
  CHECK_THAT(r.err, Catch::Contains("2 records, 1 rewritten; 1 error"));
  const std::string once = test::read_file(*o.output);
  CHECK(once == "# kept\r\n" + kGood.substr(0, kGood.find("id")) + "id \"long\";\n" + kIllegal);
  o.file = *o.output;
  o.output = (dir.path() / "again.epd").string();
  run(cli::run_epd_format, o);
  CHECK(test::read_file(*o.output) == once);
  // In place, and to stdout.
  o.file = in;
  o.output = in;
  run(cli::run_epd_format, o);
  CHECK(test::read_file(in) == once);
  o.output.reset();
  CHECK(run(cli::run_epd_format, o).out == once);
}

TEST_CASE("epd format --counters: ops (the default) writes hmvc/fmvn, keep leaves the counters", "[cli][epd]") {
  test::TempDir dir;
  cli::EpdFormatOptions o;
  o.file = dir.write("c.epd", "8/8/8/8/8/5k2/8/Q4K2 w - - 3 40 id \"c\";\n").string();
  const Run ops = run(cli::run_epd_format, o);
  CHECK(ops.status == 0);
  CHECK(ops.out == "8/8/8/8/8/5k2/8/Q4K2 w - - fmvn 40; hmvc 3; id \"c\";\n");
  o.counters_as_operations = false;
  const Run keep = run(cli::run_epd_format, o);
  CHECK(keep.status == 0);
  CHECK(keep.out == "8/8/8/8/8/5k2/8/Q4K2 w - - 3 40 id \"c\";\n");
}
