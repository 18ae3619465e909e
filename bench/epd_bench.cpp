// epd_bench: EPD read throughput on sts.epd repeated to about a million lines: reading alone,
// reading and checking without moves, and with every move operand read against its position.
//
//   epd_bench [--file SUITE.epd] [--lines N] [--repeat N]
#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/core.h>

#include "epd/check.hpp"
#include "epd/document.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// python-chess could not be run here (not packaged for Debian 12, PyPI out of reach); these are
// the figures issue #3 reports for it on this machine.
constexpr double kPythonChessPlain = 33'800;
constexpr double kPythonChessMoves = 7'100;

struct Result {
  double seconds = 1e30;
  std::size_t records = 0;
  std::size_t diagnostics = 0;
};

template <class F>
Result best_of(int repeat, F f) {
  Result best;
  for (int i = 0; i < repeat; ++i) {
    const auto start = Clock::now();
    Result r = f();
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (r.seconds < best.seconds) best = r;
  }
  return best;
}

// Streams the buffer record by record, as a suite runner reads it; optionally checks each one.
Result stream(const std::string& bytes, std::optional<bool> check_moves) {
  epdd::epd::Diagnostics d;
  epdd::epd::EpdStreamReader reader(bytes, d);
  epdd::epd::CheckOptions o;
  o.moves = check_moves.value_or(false);
  Result r;
  for (epdd::epd::EpdLine line; reader.next(line);) {
    if (!line.record) continue;
    ++r.records;
    if (check_moves) epdd::epd::check_record(*line.record, o, d);
    r.diagnostics += d.size();
    d.clear();
  }
  return r;
}

// The canonical rewrite of `epdd epd format`: check, canonicalize and write every record.
Result format(const std::string& bytes) {
  epdd::epd::Diagnostics d;
  const auto f = epdd::epd::format_stream(bytes, {}, false, d);
  return {0, f.records, d.size()};
}

}  // namespace

int main(int argc, char** argv) {
  std::string file = std::string(EPDD_SHARED_DATA) + "/suites/sts.epd";
  std::size_t target_lines = 1'000'000;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--file" && i + 1 < argc) file = argv[++i];
    else if (a == "--lines" && i + 1 < argc) target_lines = std::stoul(argv[++i]);
    else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::stoi(argv[++i]));
    else {
      fmt::print(stderr, "usage: epd_bench [--file SUITE.epd] [--lines N] [--repeat N]\n");
      return 2;
    }
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "epd_bench: cannot read {}\n", file);
    return 2;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string one = ss.str();
  if (!one.empty() && one.back() != '\n') one += "\r\n";
  const std::size_t lines_per_copy = static_cast<std::size_t>(std::count(one.begin(), one.end(), '\n'));
  std::string bytes;
  const std::size_t copies = (target_lines + lines_per_copy - 1) / lines_per_copy;
  bytes.reserve(one.size() * copies);
  for (std::size_t i = 0; i < copies; ++i) bytes += one;
  const double lines = static_cast<double>(lines_per_copy * copies);

  fmt::print("EPD read throughput: {} repeated to {:.0f} lines ({:.1f} MB), best of {}\n\n", file, lines,
             bytes.size() / 1e6, repeat);
  fmt::print("{:<38} {:>12} {:>14} | {:>14} {:>10}\n", "", "seconds", "epdd lines/s", "python-chess*", "target");
  const Result plain = best_of(repeat, [&] { return stream(bytes, std::nullopt); });
  fmt::print("{:<38} {:>12.3f} {:>14.0f} | {:>14.0f} {:>10}\n", "read, no move validation (plain)", plain.seconds,
             lines / plain.seconds, kPythonChessPlain, "1000000");
  const Result typed = best_of(repeat, [&] { return stream(bytes, false); });
  fmt::print("{:<38} {:>12.3f} {:>14.0f} |\n", "read + check positions and operands", typed.seconds,
             lines / typed.seconds);
  const Result moves = best_of(repeat, [&] { return stream(bytes, true); });
  fmt::print("{:<38} {:>12.3f} {:>14.0f} | {:>14.0f} {:>10}\n", "read + check + moves validated", moves.seconds,
             lines / moves.seconds, kPythonChessMoves, "300000");
  const Result formatted = best_of(repeat, [&] { return format(bytes); });
  fmt::print("{:<38} {:>12.3f} {:>14.0f} |\n", "format (check, canonicalize, write)", formatted.seconds,
             lines / formatted.seconds);
  fmt::print("\n{} records, {} diagnostics per pass (with moves).\n", moves.records, moves.diagnostics);
  fmt::print("* python-chess is not packaged for Debian 12 and PyPI is out of reach here: its figures are the ones\n"
             "  issue #3 measured on this machine, quoted, not measured in this run.\n");
  fmt::print("Rows: 'read' streams records (four fields kept verbatim, operations, operands, quoting);\n"
             "'check' adds the position (FEN rules) and every operand's type; 'moves' adds every move read\n"
             "against its position; 'format' is epdd epd format's canonical rewrite.\n");
  fmt::print("Targets: plain {} ({:.2f} M lines/s), with moves validated {} ({:.0f} k lines/s).\n",
             lines / plain.seconds >= 1e6 ? "met" : "NOT met", lines / plain.seconds / 1e6,
             lines / moves.seconds >= 3e5 ? "met" : "NOT met", lines / moves.seconds / 1e3);
  return 0;
}
