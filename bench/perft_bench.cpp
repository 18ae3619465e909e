// perft_bench: our perft speed beside Stockfish's own `go perft` on the same positions, in one
// run, single thread each. Both count with bulk counting at the last ply. Stockfish runs as one
// long-lived child process; its time per position is the wall time from sending `go perft` to
// reading "Nodes searched", so process start-up is not counted against it.
//
//   perft_bench [--stockfish PATH] [--no-stockfish] [--repeat N] [--file PERFT.epd --max-depth N]
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "core/fen.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Position {
  std::string name;
  std::string fen;
  int depth;
};

const std::vector<Position> kDefaultPositions = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5},
    {"cpw-3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6},
    {"cpw-4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5},
    {"cpw-5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5},
    {"cpw-6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5},
};

// A UCI engine on two pipes. Reads are buffered so that no byte after a line is lost.
class Engine {
 public:
  bool start(const std::string& path) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return false;
    pid_ = fork();
    if (pid_ < 0) return false;
    if (pid_ == 0) {
      dup2(to_child[0], STDIN_FILENO);
      dup2(from_child[1], STDOUT_FILENO);
      close(to_child[1]);
      close(from_child[0]);
      execl(path.c_str(), path.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
    send("uci");
    if (!wait_for("uciok")) return false;
    send("setoption name Threads value 1");
    send("setoption name UCI_Chess960 value true");
    send("isready");
    return wait_for("readyok");
  }

  void send(const std::string& line) {
    const std::string text = line + "\n";
    if (write(in_, text.data(), text.size()) < 0) std::perror("write to engine");
  }

  std::optional<std::string> read_line() {
    for (;;) {
      const auto nl = buffer_.find('\n');
      if (nl != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        return line;
      }
      char chunk[4096];
      const ssize_t n = read(out_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }

  bool wait_for(const std::string& prefix) {
    while (auto line = read_line())
      if (line->rfind(prefix, 0) == 0) return true;
    return false;
  }

  // Nodes and seconds of `go perft depth`, or nullopt if the engine stopped answering.
  std::optional<std::pair<std::uint64_t, double>> perft(const std::string& fen, int depth) {
    send("position fen " + fen);
    send("isready");
    if (!wait_for("readyok")) return std::nullopt;
    const auto start = Clock::now();
    send("go perft " + std::to_string(depth));
    while (auto line = read_line()) {
      if (line->rfind("Nodes searched:", 0) == 0) {
        const double s = std::chrono::duration<double>(Clock::now() - start).count();
        return std::pair{std::stoull(line->substr(15)), s};
      }
    }
    return std::nullopt;
  }

  ~Engine() {
    if (pid_ <= 0) return;
    send("quit");
    close(in_);
    close(out_);
    waitpid(pid_, nullptr, 0);
  }

 private:
  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  std::string buffer_;
};

std::vector<Position> positions_from_file(const std::string& path, int max_depth) {
  std::vector<Position> result;
  std::ifstream in(path);
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    const auto semi = line.find(';');
    if (semi == std::string::npos) continue;
    int depth = 0;
    for (std::size_t p = semi; (p = line.find(";D", p)) != std::string::npos; ++p) {
      const int d = std::atoi(line.c_str() + p + 2);
      if (d <= max_depth) depth = std::max(depth, d);
    }
    std::string fen = line.substr(0, semi);
    while (!fen.empty() && fen.back() == ' ') fen.pop_back();
    if (depth > 0) result.push_back({"line " + std::to_string(line_number), fen, depth});
  }
  return result;
}

double mnps(std::uint64_t nodes, double seconds) { return seconds > 0 ? nodes / seconds / 1e6 : 0; }

}  // namespace

int main(int argc, char** argv) {
  std::string stockfish = "/usr/games/stockfish";
  bool use_stockfish = true;
  int repeat = 3;
  std::string file;
  int max_depth = 5;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        fmt::print(stderr, "perft_bench: {} needs a value\n", a);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--stockfish") stockfish = value();
    else if (a == "--no-stockfish") use_stockfish = false;
    else if (a == "--repeat") repeat = std::max(1, std::stoi(value()));
    else if (a == "--file") file = value();
    else if (a == "--max-depth") max_depth = std::stoi(value());
    else {
      fmt::print(stderr,
                 "usage: perft_bench [--stockfish PATH] [--no-stockfish] [--repeat N] "
                 "[--file PERFT.epd --max-depth N]\n");
      return 2;
    }
  }
  signal(SIGPIPE, SIG_IGN);
  const std::vector<Position> positions = file.empty() ? kDefaultPositions : positions_from_file(file, max_depth);

  Engine engine;
  if (use_stockfish && (access(stockfish.c_str(), X_OK) != 0 || !engine.start(stockfish))) {
    fmt::print(stderr, "perft_bench: cannot run Stockfish at {} (install Debian's stockfish, or --no-stockfish)\n",
               stockfish);
    return 2;
  }
  fmt::print("perft, single thread, best of {} runs each{}\n\n", repeat, use_stockfish ? ", beside " + stockfish : "");
  fmt::print("{:<10} {:>5} {:>13} | {:>9} {:>10} | {:>9} {:>10} | {:>6}\n", "position", "depth", "nodes", "epdd s",
             "epdd Mn/s", "sf s", "sf Mn/s", "ratio");
  double our_total = 0, sf_total = 0;
  std::uint64_t node_total = 0;
  for (const Position& p : positions) {
    auto board = epdd::core::parse_fen(p.fen, {epdd::core::FenFields::FourOrSix, false, false});
    if (!board) {
      fmt::print(stderr, "perft_bench: {}: {}\n", p.name, board.error().message);
      return 2;
    }
    std::uint64_t nodes = 0;
    double ours = 1e30;
    for (int r = 0; r < repeat; ++r) {
      const auto start = Clock::now();
      nodes = board->perft(p.depth);
      ours = std::min(ours, std::chrono::duration<double>(Clock::now() - start).count());
    }
    double theirs = 0;
    if (use_stockfish) {
      theirs = 1e30;
      for (int r = 0; r < repeat; ++r) {
        const auto result = engine.perft(p.fen, p.depth);
        if (!result) {
          fmt::print(stderr, "perft_bench: Stockfish stopped answering\n");
          return 2;
        }
        if (result->first != nodes) {
          fmt::print("{:<10} MISMATCH: epdd {} nodes, Stockfish {}\n", p.name, nodes, result->first);
          return 1;
        }
        theirs = std::min(theirs, result->second);
      }
    }
    our_total += ours;
    sf_total += theirs;
    node_total += nodes;
    fmt::print("{:<10} {:>5} {:>13} | {:>9.3f} {:>10.1f} | {:>9.3f} {:>10.1f} | {:>6.2f}\n", p.name, p.depth, nodes,
               ours, mnps(nodes, ours), theirs, mnps(nodes, theirs), use_stockfish ? theirs / ours : 0.0);
    std::fflush(stdout);
  }
  fmt::print("{:<10} {:>5} {:>13} | {:>9.3f} {:>10.1f} | {:>9.3f} {:>10.1f} | {:>6.2f}\n", "total", "", node_total,
             our_total, mnps(node_total, our_total), sf_total, mnps(node_total, sf_total),
             use_stockfish ? sf_total / our_total : 0.0);
  if (use_stockfish)
    fmt::print("\nratio = Stockfish time / epdd time (above 1: epdd is faster). Target: epdd at least half "
               "of Stockfish's speed (ratio >= 0.5): {}\n",
               sf_total / our_total >= 0.5 ? "met" : "NOT met");
  return 0;
}
