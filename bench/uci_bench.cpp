// uci_bench: positions per second through epdd's engine layer beside a raw pipe to the same
// Stockfish, in one run, on the first 500 records of sts.epd, at `go nodes 1` (the protocol's
// cost dominates) and at `go nodes 10000` (the search dominates).
//
//   raw pipe       uci::ChildProcess for the spawn only; we write "position fen ...\ngo nodes N\n"
//                  and read(2)/poll(2) stdout until a line starting with "bestmove". No
//                  ucinewgame, no validation: the floor any UCI client pays.
//   session keep   one EngineSession, analyse() with NewGame::Keep (no ucinewgame, like the raw
//                  pipe): the FEN checked by core, every info line parsed, PVs and bestmove
//                  checked. Target >= 0.90 of the raw pipe at nodes-low, >= 0.99 at nodes-high.
//   session clear  the same with NewGame::Clear (ucinewgame + isready per position): for
//                  information only.
//   pool x2        an EnginePool of 2 instances of the same engine, all positions submitted at
//                  once (futures) at nodes-high. Target >= 1.8x the session keep row.
//
// Each round starts fresh engines (Threads 1, Hash 16: every row begins with an empty hash;
// start-up and the handshake are not timed). Within a round the raw pipe and the two session
// rows at one node count run side by side, their engines all started, and take the positions in
// blocks of 25 in turn (the order alternating per block), so that a burst of load on this noisy
// machine hits them alike. A row's time is the sum over blocks of each block's best of --repeat
// rounds. The pool runs one pass per round, keeps its best, and is compared with session keep's
// best whole round.
//
//   uci_bench [--positions N] [--repeat N] [--stockfish PATH] [--nodes-low N] [--nodes-high N]
//             [--file SUITE.epd]
//
// Exit status: 0 done (whether or not the targets are met); 2 bad arguments, an unreadable or
// short suite, or Stockfish missing (could not be started, or stopped answering the raw pipe).
#include <poll.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "uci/engine_config.hpp"
#include "uci/engine_pool.hpp"
#include "uci/engine_session.hpp"
#include "uci/process.hpp"

namespace {

namespace uci = epdd::uci;
using Clock = std::chrono::steady_clock;

constexpr double kSessionLowTarget = 0.90;   // of the raw pipe, at nodes-low
constexpr double kSessionHighTarget = 0.99;  // of the raw pipe, at nodes-high
constexpr double kPoolTarget = 1.8;          // 2 sessions over one, at nodes-high
// Above this one-minute load average the machine is not quiet enough to trust the figures.
constexpr double kQuietLoad = 0.5;
// A pool of 2 measured above 2x one session (by more than this margin of noise) is no
// measurement: the machine's load changed between the rows.
constexpr double kImpossibleMargin = 1.02;

// Generous for start-up (65-310 ms measured) and isready; a search at nodes-high takes tens of
// milliseconds. Neither may hang the benchmark.
constexpr auto kHandshakeLimit = std::chrono::seconds(10);
constexpr auto kSearchLimit = std::chrono::seconds(65);

struct Options {
  std::string file = std::string(EPDD_SHARED_DATA) + "/suites/sts.epd";
  std::string stockfish = "/usr/games/stockfish";
  std::size_t positions = 500;
  int repeat = 3;
  std::uint64_t nodes_low = 1;
  std::uint64_t nodes_high = 10000;
};

// One suite record: its four FEN fields, and the six-field FEN the raw pipe sends.
struct Position {
  std::string fen4;
  std::string fen6;
};

template <class T>
std::optional<T> parse_number(std::string_view text) {
  T value{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

void print_usage() {
  fmt::print(stderr,
             "usage: uci_bench [--positions N] [--repeat N] [--stockfish PATH] [--nodes-low N] "
             "[--nodes-high N] [--file SUITE.epd]\n");
}

std::optional<Options> parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (i + 1 >= argc) return std::nullopt;  // every option takes a value
    const std::string_view value = argv[++i];
    if (a == "--stockfish") {
      o.stockfish = value;
    } else if (a == "--file") {
      o.file = value;
    } else if (a == "--repeat") {
      const auto n = parse_number<int>(value);
      if (!n || *n < 1) return std::nullopt;
      o.repeat = *n;
    } else if (a == "--positions" || a == "--nodes-low" || a == "--nodes-high") {
      const auto n = parse_number<std::uint64_t>(value);
      if (!n || *n < 1) return std::nullopt;
      if (a == "--positions") o.positions = static_cast<std::size_t>(*n);
      else (a == "--nodes-low" ? o.nodes_low : o.nodes_high) = *n;
    } else {
      return std::nullopt;
    }
  }
  return o;
}

// The first `count` records of an EPD file: the first four space-separated fields of each line
// (blank lines and '#' comments skipped). An error message if the file cannot be read, a record
// has fewer than four fields, or there are fewer records than asked for.
std::optional<std::vector<Position>> read_positions(const std::string& path, std::size_t count,
                                                    std::string& error) {
  std::ifstream in(path);
  if (!in) return error = "cannot read " + path, std::nullopt;
  std::vector<Position> result;
  int line_number = 0;
  for (std::string line; result.size() < count && std::getline(in, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    std::string fen;
    std::size_t at = first;
    for (int field = 0; field < 4; ++field) {
      at = line.find_first_not_of(" \t", at);
      if (at == std::string::npos) {
        error = fmt::format("{}:{}: fewer than four FEN fields", path, line_number);
        return std::nullopt;
      }
      const auto end = std::min(line.find_first_of(" \t", at), line.size());
      if (field > 0) fen += ' ';
      fen.append(line, at, end - at);
      at = end;
    }
    result.push_back({fen, fen + " 0 1"});
  }
  if (result.size() < count) {
    error = fmt::format("{} has {} records, fewer than the {} asked for", path, result.size(), count);
    return std::nullopt;
  }
  return result;
}

// ---- the raw pipe ----

// Stockfish on uci::ChildProcess's pipes, read with nothing but read(2) and poll(2): the lines
// are only looked at for the word that ends the wait.
class RawPipe {
 public:
  // Spawns the engine and brings it to readyok with Threads and Hash set; an error otherwise.
  std::optional<std::string> start(const std::string& path) {
    auto child = uci::ChildProcess::spawn({path, {}, {}, {}});
    if (!child) return child.error();
    child_.emplace(std::move(*child));
    const auto deadline = Clock::now() + kHandshakeLimit;
    if (!write("uci\n", deadline) || !wait_for("uciok", deadline)) return "no uciok";
    if (!write("setoption name Threads value 1\nsetoption name Hash value 16\nisready\n", deadline) ||
        !wait_for("readyok", deadline))
      return "no readyok";
    return std::nullopt;
  }

  // One search; false if the engine gave no bestmove in time.
  bool search(const std::string& commands) {
    const auto deadline = Clock::now() + kSearchLimit;
    return write(commands, deadline) && wait_for("bestmove", deadline);
  }

  void stop() {
    if (!child_) return;
    (void)child_->write_all("quit\n", Clock::now() + std::chrono::seconds(1));
    child_->close_stdin();
    child_->wait_until(Clock::now() + std::chrono::seconds(2));
    child_.reset();  // kills and reaps it if it did not end
  }

  ~RawPipe() { stop(); }

 private:
  bool write(std::string_view text, uci::Deadline deadline) {
    return child_->write_all(text, deadline).has_value();
  }

  // Reads stdout until a line starting with `prefix` and drops everything up to its end. Like
  // LineChannel: poll, then read until a read comes back short (the pipe is empty), so no
  // syscall is spent on a read that would find nothing.
  bool wait_for(std::string_view prefix, uci::Deadline deadline) {
    std::size_t scanned = 0;  // complete lines before this offset have been looked at
    for (;;) {
      for (std::size_t nl; (nl = buffer_.find('\n', scanned)) != std::string::npos; scanned = nl + 1) {
        if (std::string_view(buffer_).substr(scanned).starts_with(prefix)) {
          buffer_.erase(0, nl + 1);
          return true;
        }
      }
      buffer_.erase(0, scanned);
      scanned = 0;
      pollfd fd{child_->stdout_fd(), POLLIN, 0};
      const int ready = ::poll(&fd, 1, uci::poll_timeout_ms(deadline));
      if (ready == 0) return false;  // the deadline
      if (ready < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      for (;;) {
        const ssize_t n = ::read(child_->stdout_fd(), chunk_, sizeof chunk_);
        if (n > 0) {
          buffer_.append(chunk_, static_cast<std::size_t>(n));
          if (static_cast<std::size_t>(n) < sizeof chunk_) break;
        } else if (n == 0) {
          return false;  // end of file: the engine is gone
        } else if (errno == EAGAIN) {
          break;
        } else if (errno != EINTR) {
          return false;
        }
      }
    }
  }

  std::optional<uci::ChildProcess> child_;
  std::string buffer_;
  char chunk_[65536];
};

// ---- the sides ----

enum class Kind { Raw, SessionKeep, SessionClear, Pool };

// What one row measured, over all rounds.
struct Row {
  Kind kind;
  std::uint64_t nodes;
  std::string name;
  // Single-engine rows: each block's best wall time and CPU time (this process's user + system,
  // not Stockfish's) over the rounds. Their sums are the row's figures.
  std::vector<double> block_seconds, block_cpu;
  double seconds = 1e300;        // the row's time: the sum of its block bests (the pool: its best round)
  double cpu = 0;                // likewise
  double round_seconds = 1e300;  // the best whole round, wall time
  std::size_t done = 0;          // positions answered in that round
  std::size_t failed = 0;        // positions that failed, over all rounds
  std::string first_error;

  Row(Kind k, std::uint64_t n, std::string label) : kind(k), nodes(n), name(std::move(label)) {}
};

// CPU seconds used so far by the calling thread (RUSAGE_THREAD) or the whole process.
double cpu_seconds(int who) {
  rusage u{};
  getrusage(who, &u);
  const auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

uci::EngineConfig engine_config(const Options& o, int instances) {
  uci::EngineConfig c;
  c.name = "stockfish";
  c.process.program = o.stockfish;
  c.options = {{"Threads", "1"}, {"Hash", "16"}};
  c.instances = instances;
  return c;
}

std::vector<uci::AnalysisRequest> requests(const std::vector<Position>& positions, std::uint64_t nodes,
                                           uci::NewGame new_game) {
  std::vector<uci::AnalysisRequest> result;
  for (const Position& p : positions) {
    uci::AnalysisRequest r;
    r.fen = p.fen4;
    r.limits.nodes = nodes;
    r.new_game = new_game;
    result.push_back(std::move(r));
  }
  return result;
}

// One engine that takes the positions one at a time: the raw pipe or an EngineSession. The
// commands and requests are made before the clock starts.
class Side {
 public:
  Side(Row& row, const std::vector<Position>& positions) : row_(row) {
    if (row.kind == Kind::Raw) {
      for (const Position& p : positions)
        commands_.push_back("position fen " + p.fen6 + "\ngo nodes " + std::to_string(row.nodes) + "\n");
    } else {
      requests_ = requests(positions, row.nodes,
                           row.kind == Kind::SessionClear ? uci::NewGame::Clear : uci::NewGame::Keep);
    }
  }

  // Starts the engine (untimed); an error message if it cannot.
  std::optional<std::string> start(const Options& o) {
    if (row_.kind == Kind::Raw) {
      if (auto error = raw_.start(o.stockfish)) return "cannot start " + o.stockfish + ": " + *error;
      return std::nullopt;
    }
    auto session = uci::EngineSession::start(engine_config(o, 1));
    if (!session) return session.error().to_string();
    session_ = std::move(*session);
    return std::nullopt;
  }

  // Positions [begin, end), timed; false if the raw pipe got no bestmove (that ends the run).
  // A failed analysis is counted and the next position goes on.
  bool run(std::size_t begin, std::size_t end, std::size_t block) {
    const auto start = Clock::now();
    const double cpu_start = cpu_seconds(RUSAGE_THREAD);
    for (std::size_t i = begin; i < end; ++i) {
      if (row_.kind == Kind::Raw) {
        if (!raw_.search(commands_[i])) return false;
        ++done_;
      } else if (auto a = session_->analyse(requests_[i])) {
        ++done_;
      } else {
        ++failed_;
        if (error_.empty()) error_ = a.error().to_string();
      }
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const double cpu = cpu_seconds(RUSAGE_THREAD) - cpu_start;
    if (row_.block_seconds.size() <= block) {
      row_.block_seconds.resize(block + 1, 1e300);
      row_.block_cpu.resize(block + 1, 1e300);
    }
    row_.block_seconds[block] = std::min(row_.block_seconds[block], seconds);
    row_.block_cpu[block] = std::min(row_.block_cpu[block], cpu);
    round_seconds_ += seconds;
    return true;
  }

  // Folds this round into the row: its failures, its whole-round time if it is the best, and
  // the row's figures so far.
  void finish() {
    row_.failed += failed_;
    if (row_.first_error.empty()) row_.first_error = error_;
    if (round_seconds_ < row_.round_seconds) row_.round_seconds = round_seconds_, row_.done = done_;
    row_.seconds = row_.cpu = 0;
    for (const double s : row_.block_seconds) row_.seconds += s;
    for (const double c : row_.block_cpu) row_.cpu += c;
  }

 private:
  Row& row_;
  std::vector<std::string> commands_;
  std::vector<uci::AnalysisRequest> requests_;
  RawPipe raw_;
  std::unique_ptr<uci::EngineSession> session_;
  double round_seconds_ = 0;
  std::size_t done_ = 0, failed_ = 0;
  std::string error_;
};

// Positions per interleaving block: small enough that a burst of load on the machine hits every
// side alike, large enough that the switches cost nothing.
constexpr std::size_t kBlock = 25;

// One round of the single-engine rows at one node count: every side's engine started, then the
// positions in blocks, each block run by every side in turn (the order alternating per block).
// An error message ends the run.
std::optional<std::string> single_round(const Options& o, const std::vector<Position>& positions,
                                        const std::vector<Row*>& rows) {
  std::vector<std::unique_ptr<Side>> sides;
  for (Row* r : rows) {
    sides.push_back(std::make_unique<Side>(*r, positions));
    if (auto error = sides.back()->start(o)) return fmt::format("{} (nodes {}): {}", r->name, r->nodes, *error);
  }
  for (std::size_t begin = 0, block = 0; begin < positions.size(); begin += kBlock, ++block) {
    const std::size_t end = std::min(positions.size(), begin + kBlock);
    for (std::size_t k = 0; k < sides.size(); ++k) {
      const std::size_t s = block % 2 == 0 ? k : sides.size() - 1 - k;
      if (!sides[s]->run(begin, end, block))
        return fmt::format("{} (nodes {}): Stockfish gave no bestmove", rows[s]->name, rows[s]->nodes);
    }
  }
  for (auto& side : sides) side->finish();
  return std::nullopt;
}

// One round of the pool row: both instances started (one request pinned to each: game 0 and
// game 1 go to different workers), then every position submitted at once and every answer
// awaited. An error message ends the run.
std::optional<std::string> pool_round(const Options& o, const std::vector<Position>& positions, Row& row) {
  auto reqs = requests(positions, row.nodes, uci::NewGame::Keep);
  using Result = epdd::Expected<uci::Analysis, uci::EngineError>;
  uci::EnginePool pool({engine_config(o, 2)});
  {
    std::vector<std::future<Result>> warm;
    for (const std::uint64_t game : {0, 1}) {
      uci::AnalysisRequest r = reqs.front();
      r.limits.nodes = 1;
      r.game = game;
      warm.push_back(pool.submit(std::move(r)));
    }
    for (auto& f : warm)
      if (auto a = f.get(); !a) return fmt::format("{}: {}", row.name, a.error().to_string());
  }
  std::vector<std::future<Result>> futures;
  futures.reserve(reqs.size());
  std::size_t done = 0;
  const auto start = Clock::now();
  const double cpu_start = cpu_seconds(RUSAGE_SELF);
  for (auto& r : reqs) futures.push_back(pool.submit(std::move(r)));
  for (auto& f : futures) {
    if (auto a = f.get()) {
      ++done;
    } else {
      ++row.failed;
      if (row.first_error.empty()) row.first_error = a.error().to_string();
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  const double cpu = cpu_seconds(RUSAGE_SELF) - cpu_start;
  if (seconds < row.seconds) row.seconds = row.round_seconds = seconds, row.cpu = cpu, row.done = done;
  return std::nullopt;
}

// ---- printing ----

double per_second(std::size_t done, double seconds) {
  return seconds > 0 && seconds < 1e300 ? static_cast<double>(done) / seconds : 0;
}
double rate(const Row& r) { return per_second(r.done, r.seconds); }
// Positions per second in the row's best whole round: what the pool's single pass is compared
// with (its best round against theirs, like for like).
double round_rate(const Row& r) { return per_second(r.done, r.round_seconds); }

const Row& find(const std::vector<Row>& rows, Kind kind, std::uint64_t nodes) {
  return *std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.kind == kind && r.nodes == nodes; });
}

// A row's target: its ratio, the threshold, and what the ratio is taken against.
struct Target {
  double ratio;
  double threshold;
  const char* against;
};

std::optional<Target> target_of(const std::vector<Row>& rows, const Row& row, const Options& o) {
  const double raw = rate(find(rows, Kind::Raw, row.nodes));
  switch (row.kind) {
    case Kind::SessionKeep:
      return Target{raw > 0 ? rate(row) / raw : 0, row.nodes == o.nodes_low ? kSessionLowTarget : kSessionHighTarget,
                    "raw"};
    case Kind::Pool: {
      const double one = round_rate(find(rows, Kind::SessionKeep, row.nodes));
      return Target{one > 0 ? rate(row) / one : 0, kPoolTarget, "session"};
    }
    default: return std::nullopt;
  }
}

void print_table(const std::vector<Row>& rows, const Options& o) {
  fmt::print("\n{:<14} {:>6} {:>9} {:>8} {:>8} {:>7} {:>8} {:>6}  {:<16} {}\n", "row", "nodes", "positions",
             "seconds", "pos/s", "vs raw", "cpu us/p", "failed", "target", "result");
  for (const Row& r : rows) {
    const Row& raw_row = find(rows, Kind::Raw, r.nodes);
    const double raw = r.kind == Kind::Pool ? round_rate(raw_row) : rate(raw_row);
    std::string target = r.kind == Kind::SessionClear ? "(information)" : "";
    std::string result;
    if (const auto t = target_of(rows, r, o)) {
      target = fmt::format(">= {:.2f}{} {}", t->threshold, r.kind == Kind::Pool ? "x" : "", t->against);
      const bool met = t->ratio >= t->threshold && r.failed == 0 && r.done == o.positions;
      result = fmt::format("{:.3f} {}{}", t->ratio, met ? "met" : "NOT met", r.failed > 0 ? " (failures)" : "");
      // Two engines cannot do more than twice the work of one: above that, the machine's load
      // changed between the rows, and the figure says nothing.
      if (r.kind == Kind::Pool && t->ratio > 2.0 * kImpossibleMargin)
        result = fmt::format("{:.3f} INVALID: above 2x, the load changed between the rows", t->ratio);
    }
    const double cpu_per_position = r.done > 0 ? r.cpu / static_cast<double>(r.done) * 1e6 : 0;
    fmt::print("{:<14} {:>6} {:>9} {:>8.3f} {:>8.0f} {:>7.3f} {:>8.1f} {:>6}  {:<16} {}\n", r.name, r.nodes, r.done,
               r.seconds, rate(r), raw > 0 ? rate(r) / raw : 0, cpu_per_position,
               r.kind == Kind::Raw ? "-" : std::to_string(r.failed), target, result);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const auto options = parse_args(argc, argv);
  if (!options) return print_usage(), 2;
  const Options& o = *options;
  uci::ignore_sigpipe();

  if (o.stockfish.find('/') != std::string::npos && ::access(o.stockfish.c_str(), X_OK) != 0) {
    fmt::print(stderr, "uci_bench: cannot run Stockfish at {} (install Debian's stockfish or pass --stockfish PATH)\n",
               o.stockfish);
    return 2;
  }
  std::string error;
  const auto positions = read_positions(o.file, o.positions, error);
  if (!positions) return fmt::print(stderr, "uci_bench: {}\n", error), 2;

  double load[3] = {0, 0, 0};
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  if (getloadavg(load, 3) == 3) {
    fmt::print("load average {:.2f} {:.2f} {:.2f} on {} cores", load[0], load[1], load[2], cores);
    if (load[0] >= kQuietLoad)
      fmt::print(": the machine is LOADED, or was within the last minute (other work, or a run that just\n"
                 "ended): the figures below may be lower and noisier than on a quiet machine, and the ratios\n"
                 "between rows less reliable\n");
    else
      fmt::print(": quiet\n");
  }
  if (cores < 2) fmt::print("only {} core: the pool row cannot reach its target here\n", cores);
  fmt::print("{} positions of {}; {} (Threads 1, Hash 16); best of {} rounds, rows interleaved in blocks of {}\n",
             positions->size(), o.file, o.stockfish, o.repeat, kBlock);

  std::vector<Row> rows;
  rows.reserve(7);
  for (const std::uint64_t nodes : {o.nodes_low, o.nodes_high}) {
    rows.emplace_back(Kind::Raw, nodes, "raw pipe");
    rows.emplace_back(Kind::SessionKeep, nodes, "session keep");
    rows.emplace_back(Kind::SessionClear, nodes, "session clear");
  }
  rows.emplace_back(Kind::Pool, o.nodes_high, "pool x2 keep");

  for (int round = 0; round < o.repeat; ++round) {
    fmt::print("round {}/{}:", round + 1, o.repeat);
    std::fflush(stdout);
    const auto started = Clock::now();
    // Steps 0 and 1 are the single-engine rows at nodes-low and nodes-high, step 2 the pool; every
    // other round runs them backwards, so that the pool and the session it is compared with run
    // next to each other in time, in both orders.
    for (int k = 0; k < 3; ++k) {
      const int step = round % 2 == 0 ? k : 2 - k;
      std::optional<std::string> e;
      if (step < 2) {
        const std::size_t first = 3 * static_cast<std::size_t>(step);
        e = single_round(o, *positions, {&rows[first], &rows[first + 1], &rows[first + 2]});
      } else {
        e = pool_round(o, *positions, rows[6]);
      }
      if (e) return fmt::print("\n"), fmt::print(stderr, "uci_bench: {}\n", *e), 2;
      if (step < 2) fmt::print(" nodes {} done;", rows[3 * static_cast<std::size_t>(step)].nodes);
      else fmt::print(" pool done;");
      std::fflush(stdout);
    }
    fmt::print(" {:.0f} s\n", std::chrono::duration<double>(Clock::now() - started).count());
  }

  print_table(rows, o);
  std::size_t failures = 0;
  for (const Row& r : rows) {
    failures += r.failed;
    if (!r.first_error.empty()) fmt::print("\n{} (nodes {}), first failure:\n{}\n", r.name, r.nodes, r.first_error);
  }
  fmt::print("\nfailed analyses (session and pool rows, all rounds): {}\n", failures);
  const Row& keep_high = rows[4];
  fmt::print(
      "seconds: wall clock, engine start-up not counted; for the single-engine rows the sum over the\n"
      "{}-position blocks of each block's best of {} rounds (best whole round: raw {:.3f} s, session keep\n"
      "{:.3f} s at nodes {}), for the pool its best round. vs raw: positions/s over the raw pipe's at the\n"
      "same nodes (the pool: over the raw pipe's best whole round). cpu us/p: CPU time of this process\n"
      "(not Stockfish's) per position. The pool's target is its positions/s over the session keep row's\n"
      "best whole round. session clear sends ucinewgame + isready before every position: information.\n",
      kBlock, o.repeat, rows[3].round_seconds, keep_high.round_seconds, keep_high.nodes);
  return 0;
}
