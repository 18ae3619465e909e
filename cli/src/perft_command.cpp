#include "cli/perft_command.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <sstream>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "daemon/files.hpp"
#include "epd/document.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

using core::Board;
using Clock = std::chrono::steady_clock;

// The built-in suite: well-known perft positions (the start position, "Kiwipete" and the
// Chess Programming Wiki's positions 3 to 6) and two Chess960 starting arrays, with counts
// that Stockfish's `go perft` agrees with.
constexpr std::string_view kBuiltinSuite[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902 ;D4 197281 ;D5 4865609",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2039 ;D3 97862 ;D4 4085603 ;D5 193690690",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D1 14 ;D2 191 ;D3 2812 ;D4 43238 ;D5 674624",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1 ;D1 6 ;D2 264 ;D3 9467 ;D4 422333 ;D5 15833292",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8 ;D1 44 ;D2 1486 ;D3 62379 ;D4 2103487 ;D5 89941194",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10 ;D1 46 ;D2 2079 ;D3 89890 ;D4 3894594 ;D5 164075551",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1 ;D1 20 ;D2 400 ;D3 9006 ;D4 201143 ;D5 4975808",
    "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w FBfb - 0 1 ;D1 18 ;D2 324 ;D3 6658 ;D4 136313 ;D5 3184161",
};

struct Expectation {
  int depth;
  std::uint64_t nodes;
};

struct PerftCase {
  std::size_t line;
  std::string fen;
  Board board;
  std::vector<Expectation> expected;
};

struct CaseResult {
  bool ok = true;
  int mismatch_depth = 0;
  std::uint64_t expected = 0;
  std::uint64_t counted = 0;
  int depths_checked = 0;
  std::uint64_t nodes = 0;
  double seconds = 0;
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool parse_u64(std::string_view s, std::uint64_t& out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

using Located = std::pair<std::size_t, std::string>;  // a column and a message

// Reads "FEN ;D1 20 ;D2 400": an error message with its column, or the case. The position is
// read as leniently as an EPD record is (what was tolerated goes to `notes`), so that a Chess960
// line with KQkq castling is counted as the X-FEN position it is.
std::optional<Located> parse_case(std::string_view raw, bool chess960, PerftCase& out, std::vector<Located>& notes) {
  const std::size_t semi = raw.find(';');
  const std::string_view position = trim(raw.substr(0, semi));
  core::FenReadOptions fen_options;
  fen_options.fields = core::FenFields::FourOrSix;
  fen_options.chess960 = chess960;
  const std::size_t position_column = static_cast<std::size_t>(position.data() - raw.data()) + 1;
  auto board = core::parse_fen(position, fen_options);
  if (!board) {
    fen_options.lenient = true;
    std::vector<core::FenNote> tolerated;
    auto lenient = core::parse_fen(position, fen_options, &tolerated);
    if (!lenient) return Located{position_column + board.error().column - 1, board.error().message};
    for (const core::FenNote& n : tolerated) notes.push_back({position_column + n.column - 1, n.message});
    board = std::move(lenient);
  }
  out.board = std::move(*board);
  out.fen = std::string(position);  // as written: a rewrite could change its castling letters
  if (semi == std::string_view::npos) return Located{raw.size() + 1, "no ';Dn count' items after the position"};
  std::size_t pos = semi;
  while (pos != std::string_view::npos && pos < raw.size()) {
    const std::size_t next = raw.find(';', pos + 1);
    const std::string_view item = trim(raw.substr(pos + 1, next == std::string_view::npos ? std::string_view::npos : next - pos - 1));
    const std::size_t column = pos + 2;
    pos = next;
    if (item.empty()) continue;
    const std::size_t space = item.find(' ');
    std::uint64_t depth = 0;
    std::uint64_t nodes = 0;
    if (item[0] != 'D' || space == std::string_view::npos || !parse_u64(item.substr(1, space - 1), depth) ||
        !parse_u64(trim(item.substr(space + 1)), nodes) || depth < 1 || depth > 20)
      return Located{column, core::quoted_escaped(item) + " is not 'Dn count' (a depth 1-20 and a node count)"};
    out.expected.push_back({static_cast<int>(depth), nodes});
  }
  if (out.expected.empty()) return Located{semi + 1, "no ';Dn count' items after the position"};
  std::sort(out.expected.begin(), out.expected.end(), [](auto a, auto b) { return a.depth < b.depth; });
  return std::nullopt;
}

CaseResult count_case(PerftCase& c, int max_depth) {
  CaseResult r;
  const auto start = Clock::now();
  for (const Expectation& e : c.expected) {
    if (max_depth > 0 && e.depth > max_depth) continue;
    const std::uint64_t n = c.board.perft(e.depth);
    r.nodes += n;
    ++r.depths_checked;
    if (n != e.nodes) {
      // Deeper counts cannot match once a shallower one does not: stop here.
      r.ok = false;
      r.mismatch_depth = e.depth;
      r.expected = e.nodes;
      r.counted = n;
      break;
    }
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return r;
}

std::string rate(std::uint64_t nodes, double seconds) {
  if (seconds <= 0) return "-";
  return fmt::format("{:.0f} Mnodes/s", static_cast<double>(nodes) / seconds / 1e6);
}

// Counts the cases on `jobs` threads and prints each result in input order as soon as it and
// all before it are done. Returns the number of mismatches.
int run_cases(std::vector<PerftCase>& cases, const PerftOptions& o, std::ostream& out,
              std::uint64_t& total_nodes, int& counts_checked) {
  std::vector<CaseResult> results(cases.size());
  std::vector<char> done(cases.size(), 0);
  std::mutex mutex;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < cases.size();) {
      CaseResult r = count_case(cases[i], o.max_depth);
      std::lock_guard lock(mutex);
      results[i] = r;
      done[i] = 1;
      cv.notify_one();
    }
  };
  const unsigned jobs = std::max(1u, std::min<unsigned>(o.jobs, static_cast<unsigned>(cases.size())));
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(worker);

  int mismatches = 0;
  const int width = static_cast<int>(std::to_string(cases.size()).size());
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CaseResult r;
    {
      std::unique_lock lock(mutex);
      cv.wait(lock, [&] { return done[i] != 0; });
      r = results[i];
    }
    total_nodes += r.nodes;
    counts_checked += r.depths_checked;
    const PerftCase& c = cases[i];
    if (r.ok) {
      fmt::print(out, "[{:>{}}/{}] ok        {:>2} depths {:>13} nodes {:8.3f} s {:>16}  line {}: {}\n", i + 1,
                 width, cases.size(), r.depths_checked, r.nodes, r.seconds, rate(r.nodes, r.seconds), c.line, c.fen);
    } else {
      ++mismatches;
      fmt::print(out, "[{:>{}}/{}] MISMATCH  D{}: expected {}, counted {}  line {}: {}\n", i + 1, width,
                 cases.size(), r.mismatch_depth, r.expected, r.counted, c.line, c.fen);
      fmt::print(out, "{:>{}}  compare the moves: epdd perft --fen \"{}\" --depth {} --divide{}\n", "", width * 2 + 3,
                 c.fen, r.mismatch_depth, c.board.chess960() ? " --chess960" : "");
    }
    out.flush();
  }
  for (auto& t : threads) t.join();
  return mismatches;
}

int run_fen(const PerftOptions& o, std::ostream& out, std::ostream& err) {
  core::FenReadOptions fen_options;
  fen_options.fields = core::FenFields::FourOrSix;
  fen_options.chess960 = o.chess960;
  auto board = core::parse_fen(*o.fen, fen_options);
  if (!board) {
    fmt::print(err, "epdd perft: --fen: {}\n", core::to_string(board.error()));
    return 2;
  }
  const auto start = Clock::now();
  std::uint64_t nodes = 0;
  if (o.divide) {
    const core::UciCastling castling = core::uci_castling_for(*board);
    for (core::Move m : board->legal_moves()) {
      board->make_move(m);
      const std::uint64_t n = board->perft(o.depth - 1);
      board->unmake_move();
      nodes += n;
      fmt::print(out, "{}: {}\n", core::to_uci(m, castling), n);
    }
    fmt::print(out, "\nNodes searched: {}\n", nodes);
  } else {
    nodes = board->perft(o.depth);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fmt::print(out, "D{} {} nodes in {:.3f} s ({})\n", o.depth, nodes, seconds, rate(nodes, seconds));
  return 0;
}

}  // namespace

int run_perft(const PerftOptions& o, std::ostream& out, std::ostream& err) {
  if (o.fen) return run_fen(o, out, err);
  if (auto once = check_stdio_once(o.files, {}); !once) {
    fmt::print(err, "epdd perft: {}\n", once.error());
    return 2;
  }

  int status = 0;
  std::vector<std::pair<std::string, std::vector<std::string>>> sources;
  if (o.files.empty()) {
    sources.push_back({"built-in suite", std::vector<std::string>(std::begin(kBuiltinSuite), std::end(kBuiltinSuite))});
  }
  for (const std::string& file : o.files) {
    auto bytes = read_whole_file(file);
    if (!bytes) {
      fmt::print(err, "epdd perft: {}\n", bytes.error());
      status = 2;
      continue;
    }
    // Bytes as the EPD reader takes them: NUL bytes dropped with a warning, the rest kept.
    epd::Diagnostics diags;
    std::vector<std::string> lines;
    epd::LineSplitter splitter(*bytes);
    for (std::string_view line, ending; splitter.next(line, ending);)
      lines.push_back(epd::clean_line(line, lines.size() + 1, diags));
    for (const epd::Diagnostic& d : diags.items())
      fmt::print(err, "{}:{}:{}: {}: {}\n", core::escaped(file), d.line, d.column, epd::to_string(d.severity),
                 core::one_line(d.message));
    sources.push_back({file, std::move(lines)});
  }

  std::uint64_t total_nodes = 0;
  int counts_checked = 0;
  int mismatches = 0;
  int bad_lines = 0;
  std::size_t positions = 0;
  const auto start = Clock::now();
  for (auto& [name, lines] : sources) {
    std::vector<PerftCase> cases;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::string_view line = trim(lines[i]);
      if (line.empty() || line.front() == '#') continue;
      PerftCase c;
      c.line = i + 1;
      std::vector<Located> notes;
      const auto problem = parse_case(lines[i], o.chess960, c, notes);
      for (const auto& [column, message] : notes) fmt::print(err, "{}:{}:{}: note: {}\n", name, i + 1, column, message);
      if (problem) {
        fmt::print(err, "{}:{}:{}: error: {}\n", name, i + 1, problem->first, problem->second);
        ++bad_lines;
        continue;
      }
      cases.push_back(std::move(c));
    }
    fmt::print(out, "perft {}: {} position{}{}\n", name, cases.size(), cases.size() == 1 ? "" : "s",
               o.max_depth > 0 ? fmt::format(", depths up to {}", o.max_depth) : "");
    positions += cases.size();
    mismatches += run_cases(cases, o, out, total_nodes, counts_checked);
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fmt::print(out, "\n{} position{}, {} counts checked: {} mismatched, {} malformed lines; {} nodes in {:.2f} s ({}{})\n",
             positions, positions == 1 ? "" : "s", counts_checked, mismatches, bad_lines, total_nodes, seconds, rate(total_nodes, seconds),
             o.jobs > 1 ? fmt::format(", {} jobs", o.jobs) : "");
  if (status != 0) return status;
  return mismatches > 0 || bad_lines > 0 ? 1 : 0;
}

}  // namespace epdd::cli
