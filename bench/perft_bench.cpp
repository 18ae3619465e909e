// perft_bench: our perft speed beside Stockfish's own `go perft` on the same positions, in one
// run, single thread each. Both count with bulk counting at the last ply. Stockfish runs as one
// long-lived child process; its time per position is the wall time from sending `go perft` to
// reading "Nodes searched", so process start-up is not counted against it.
//
//   perft_bench [--stockfish PATH] [--no-stockfish] [--repeat N] [--file PERFT.epd --max-depth N]
//
// Exit status: 0 done, 1 node counts disagree, 2 usage or setup error (Stockfish missing
// without --no-stockfish, unreadable file, bad FEN).

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "core/fen.hpp"
#include "uci/line_channel.hpp"
#include "uci/process.hpp"

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kTargetRatio = 0.5;  // the acceptance target: half of Stockfish's speed

struct Position {
  std::string name;
  std::string fen;
  int depth = 0;
  std::optional<std::uint64_t> expected;  // the count a perft file gives for this depth
};

const std::vector<Position> kDefaultPositions = {
    {"start", std::string(epdd::core::kStartFen), 6, 119060324},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5,
     193690690},
    {"cpw-3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11030083},
    {"cpw-4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15833292},
    {"cpw-5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89941194},
    {"cpw-6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5,
     164075551},
};

struct Options {
  std::string stockfish = "/usr/games/stockfish";
  bool use_stockfish = true;
  int repeat = 3;
  std::string file;
  int max_depth = 5;
};

// A measured perft: nodes and the best wall time in seconds.
struct Timing {
  std::uint64_t nodes = 0;
  double seconds = 0;
};

// Parses a decimal number, ignoring leading spaces; nullopt unless the whole text is one.
template <class T>
std::optional<T> parse_number(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// ---- Stockfish as a UCI child process ----

// A UCI engine spoken to in raw text (`go perft` is no search, so no EngineSession), on the
// project's own process layer: uci::ChildProcess spawns and reaps, uci::LineChannel keeps
// every byte after a line.
class Engine {
 public:
  // Generous for start-up (65-310 ms measured) and isready; a program that is no UCI engine
  // (or hangs) must not hang the benchmark.
  static constexpr std::chrono::seconds kHandshakeLimit{10};

  Engine() = default;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  ~Engine() { stop(); }

  // Starts the engine and brings it to a ready, single-threaded state; false if it cannot.
  bool start(const std::string& path) {
    if (!spawn(path)) return false;
    send("uci");
    if (!wait_for("uciok", kHandshakeLimit)) return stop(), false;
    send("setoption name Threads value 1");
    // Perft files also hold Chess960 positions (file-letter castling); Stockfish counts
    // standard positions the same either way.
    send("setoption name UCI_Chess960 value true");
    send("isready");
    if (!wait_for("readyok", kHandshakeLimit)) return stop(), false;
    return true;
  }

  bool running() const { return child_.has_value(); }

  // Nodes and seconds of `go perft depth`; nullopt, and the engine stopped, if it did not answer.
  std::optional<Timing> perft(const std::string& fen, int depth) {
    auto t = try_perft(fen, depth);
    if (!t) stop();
    return t;
  }

 private:
  std::optional<Timing> try_perft(const std::string& fen, int depth) {
    send("position fen " + fen);
    // Waiting for readyok first keeps the position set-up out of the timed span.
    send("isready");
    if (!wait_for("readyok", kHandshakeLimit)) return std::nullopt;
    const auto start = Clock::now();
    send("go perft " + std::to_string(depth));
    // The per-root-move lines ("e2e4: 20") come first; only the total is wanted.
    constexpr std::string_view kTotal = "Nodes searched:";
    // No deadline here: a deep perft may rightly take minutes.
    while (auto line = read_line(std::nullopt)) {
      if (!line->starts_with(kTotal)) continue;
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      const auto nodes = parse_number<std::uint64_t>(std::string_view(*line).substr(kTotal.size()));
      if (!nodes) return std::nullopt;
      return Timing{*nodes, s};
    }
    return std::nullopt;
  }

  bool spawn(const std::string& path) {
    auto child = epdd::uci::ChildProcess::spawn({path, {}, {}, {}});
    if (!child) return fmt::print(stderr, "perft_bench: {}\n", child.error()), false;
    child_.emplace(std::move(*child));
    channel_.emplace(child_->stdout_fd(), child_->stderr_fd(), std::size_t{1} << 20,
                     [](std::string_view line) { fmt::print(stderr, "stockfish: {}\n", line); });
    return true;
  }

  void send(const std::string& line) {
    // SIGPIPE is ignored (ChildProcess::spawn sees to it): a dead engine is a failed write and
    // then end of file.
    if (auto ok = child_->write_all(line + "\n", Clock::now() + kHandshakeLimit); !ok)
      fmt::print(stderr, "perft_bench: write to Stockfish: {}\n", ok.error());
  }

  // The next line, or nullopt at end of file, on a read error or past the deadline (none: a
  // deep perft may rightly take minutes, so a day).
  std::optional<std::string> read_line(std::optional<Clock::time_point> deadline) {
    std::string line;
    if (channel_->read_line(line, deadline.value_or(Clock::now() + std::chrono::hours(24))) !=
        epdd::uci::ChannelStatus::Line)
      return std::nullopt;
    return line;
  }

  // Reads until a line starting with prefix; false if the engine does not say it in time.
  bool wait_for(std::string_view prefix, std::chrono::seconds limit) {
    const auto deadline = Clock::now() + limit;
    while (auto line = read_line(deadline))
      if (line->starts_with(prefix)) return true;
    return false;
  }

  // Asks the engine to quit and reaps it, by force if it does not go (no zombie left behind).
  void stop() {
    if (!child_) return;
    (void)child_->write_all("quit\n", Clock::now() + std::chrono::seconds(1));
    child_->close_stdin();
    if (!child_->wait_until(Clock::now() + std::chrono::seconds(2)))
      child_->terminate(Clock::now() + std::chrono::seconds(1));
    channel_.reset();
    child_.reset();
  }

  std::optional<epdd::uci::ChildProcess> child_;
  std::optional<epdd::uci::LineChannel> channel_;
};

// ---- positions and options ----

// Lines "FEN ;D1 20 ;D2 400 ...": the deepest depth up to max_depth, with its expected count.
std::optional<Position> position_from_line(const std::string& line, int max_depth) {
  const auto semi = line.find(';');
  if (semi == std::string::npos) return std::nullopt;
  Position p;
  for (std::size_t at = line.find(";D", semi); at != std::string::npos;
       at = line.find(";D", at + 2)) {
    const std::string_view field = std::string_view(line).substr(at + 2);
    const auto space = field.find(' ');
    const auto depth = parse_number<int>(field.substr(0, space));
    if (!depth || *depth > max_depth || *depth <= p.depth) continue;
    p.depth = *depth;
    const auto rest = space == std::string_view::npos ? std::string_view{} : field.substr(space);
    p.expected = parse_number<std::uint64_t>(rest.substr(0, rest.find(';')));
  }
  p.fen = line.substr(0, semi);
  while (!p.fen.empty() && p.fen.back() == ' ') p.fen.pop_back();
  if (p.depth == 0) return std::nullopt;
  return p;
}

std::optional<std::vector<Position>> positions_from_file(const std::string& path, int max_depth) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::vector<Position> result;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (auto p = position_from_line(line, max_depth)) {
      p->name = "line " + std::to_string(line_number);
      result.push_back(std::move(*p));
    }
  }
  return result;
}

void print_usage() {
  fmt::print(stderr,
             "usage: perft_bench [--stockfish PATH] [--no-stockfish] [--repeat N] "
             "[--file PERFT.epd --max-depth N]\n");
}

std::optional<Options> parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    const auto number = [&]() { return has_value ? parse_number<int>(argv[++i]) : std::nullopt; };
    if (a == "--no-stockfish") {
      o.use_stockfish = false;
    } else if (a == "--stockfish" && has_value) {
      o.stockfish = argv[++i];
    } else if (a == "--file" && has_value) {
      o.file = argv[++i];
    } else if (a == "--repeat" || a == "--max-depth") {
      const auto n = number();
      if (!n || *n < 1) return std::nullopt;
      (a == "--repeat" ? o.repeat : o.max_depth) = *n;
    } else {
      return std::nullopt;
    }
  }
  return o;
}

// ---- measuring and printing ----

Timing time_ours(epdd::core::Board& board, int depth, int repeat) {
  Timing best{0, 1e300};
  for (int r = 0; r < repeat; ++r) {
    const auto start = Clock::now();
    best.nodes = board.perft(depth);
    best.seconds =
        std::min(best.seconds, std::chrono::duration<double>(Clock::now() - start).count());
  }
  return best;
}

std::optional<Timing> time_stockfish(Engine& engine, const Position& p, int repeat) {
  std::optional<Timing> best;
  for (int r = 0; r < repeat; ++r) {
    const auto t = engine.perft(p.fen, p.depth);
    if (!t) return std::nullopt;
    if (!best || t->seconds < best->seconds) best = t;
  }
  return best;
}

double mnps(const Timing& t) {
  return t.seconds > 0 ? static_cast<double>(t.nodes) / t.seconds / 1e6 : 0;
}

void print_header() {
  fmt::print("{:<10} {:>5} {:>13} | {:>9} {:>10} | {:>9} {:>10} | {:>7}\n", "position", "depth",
             "nodes", "epdd ms", "epdd Mn/s", "sf ms", "sf Mn/s", "epdd/sf");
}

// One table row; without Stockfish figures its columns show '-'.
void print_row(std::string_view name, std::string_view depth, const Timing& ours,
               const std::optional<Timing>& sf) {
  std::string theirs = fmt::format("{:>9} {:>10} | {:>7}", "-", "-", "-");
  if (sf)
    theirs = fmt::format("{:>9.1f} {:>10.1f} | {:>7.2f}", sf->seconds * 1e3, mnps(*sf),
                         mnps(ours) / mnps(*sf));
  fmt::print("{:<10} {:>5} {:>13} | {:>9.1f} {:>10.1f} | {}\n", name, depth, ours.nodes,
             ours.seconds * 1e3, mnps(ours), theirs);
  std::fflush(stdout);  // rows take seconds each: show them as they come
}

void print_mismatch(const Position& p, std::uint64_t ours, std::string_view who,
                    std::uint64_t theirs) {
  fmt::print("{:<10} MISMATCH at depth {}: epdd {} nodes, {} {}\n  {}\n", p.name, p.depth, ours,
             who, theirs, p.fen);
}

void print_verdict(const Timing& ours, const std::optional<Timing>& sf) {
  if (!sf) {
    fmt::print("\nno Stockfish figures: the target (epdd at least {:.2f}x Stockfish's speed) "
               "was not checked\n",
               kTargetRatio);
    return;
  }
  const double ratio = mnps(ours) / mnps(*sf);
  fmt::print("\nepdd/sf = epdd's nodes/s over Stockfish's (above 1: epdd is faster).\n");
  fmt::print("overall {:.2f}; target >= {:.2f}: {}\n", ratio, kTargetRatio,
             ratio >= kTargetRatio ? "met" : "NOT met");
}

struct Totals {
  Timing ours;
  std::optional<Timing> sf;
};

// Measures one position and prints its row; false after a node-count mismatch. An engine that
// stops answering is dropped (message, empty columns) rather than ending the run.
bool bench_position(const Position& p, epdd::core::Board& board, Engine& engine, int repeat,
                    Totals& totals) {
  const Timing ours = time_ours(board, p.depth, repeat);
  if (p.expected && *p.expected != ours.nodes)
    return print_mismatch(p, ours.nodes, "expected", *p.expected), false;
  std::optional<Timing> sf;
  if (engine.running() && !(sf = time_stockfish(engine, p, repeat))) {
    fmt::print("perft_bench: Stockfish stopped answering at {}; epdd's figures only from here\n",
               p.name);
    totals.sf.reset();
  }
  if (sf && sf->nodes != ours.nodes)
    return print_mismatch(p, ours.nodes, "Stockfish", sf->nodes), false;
  print_row(p.name, std::to_string(p.depth), ours, sf);
  totals.ours = {totals.ours.nodes + ours.nodes, totals.ours.seconds + ours.seconds};
  if (sf && totals.sf)
    totals.sf = Timing{totals.sf->nodes + sf->nodes, totals.sf->seconds + sf->seconds};
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const auto options = parse_args(argc, argv);
  if (!options) return print_usage(), 2;

  auto positions = options->file.empty() ? std::optional(kDefaultPositions)
                                         : positions_from_file(options->file, options->max_depth);
  if (!positions) return fmt::print(stderr, "perft_bench: cannot read {}\n", options->file), 2;

  Engine engine;
  const bool have_stockfish = options->use_stockfish && engine.start(options->stockfish);
  if (options->use_stockfish && !have_stockfish)
    fmt::print(
        "perft_bench: cannot run Stockfish at {} (install Debian's stockfish, pass "
        "--stockfish PATH, or --no-stockfish); epdd's figures only\n\n",
        options->stockfish);
  fmt::print("perft, single thread, bulk counting, best of {} runs each{}\n\n", options->repeat,
             have_stockfish ? ", beside " + options->stockfish + " (one process, go perft)" : "");
  print_header();

  Totals totals;
  if (have_stockfish) totals.sf = Timing{};
  for (const Position& p : *positions) {
    // Four fields are enough for a perft file's EPD-style lines; Stockfish accepts both.
    auto board = epdd::core::parse_fen(p.fen, {.fields = epdd::core::FenFields::FourOrSix});
    if (!board)
      return fmt::print(stderr, "perft_bench: {}: {}\n", p.name, to_string(board.error())), 2;
    if (!bench_position(p, *board, engine, options->repeat, totals)) return 1;
  }
  print_row("total", "", totals.ours, totals.sf);
  print_verdict(totals.ours, totals.sf);
  return options->use_stockfish && !engine.running() ? 2 : 0;
}
