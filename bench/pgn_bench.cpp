// pgn_bench: PGN parse-and-replay throughput beside pgn-extract, in one run, on twic0920.pgn
// repeated to about 100 MB. Every game is read and every move played on a board: the main-line
// reader (tags and main line), and the full-tree reader (comments, NAGs, variations). Memory is
// the process's peak resident size after each reader, at two file sizes, to show it does not
// grow with the file.
//
//   pgn_bench [--file GAMES.pgn] [--megabytes N] [--pgn-extract PATH] [--no-pgn-extract]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/core.h>

#include "pgn/reader.hpp"

namespace {

using Clock = std::chrono::steady_clock;

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

struct Result {
  double seconds = 0;
  std::size_t games = 0;
  std::size_t plies = 0;
  long peak_kb = 0;
};

std::size_t plies_in(const epdd::pgn::Variation& v) {
  std::size_t n = v.moves.size();
  for (const auto& node : v.moves)
    for (const auto& a : node.after)
      if (a.kind == epdd::pgn::Annotation::Kind::Variation) n += plies_in(a.variation.front());
  return n;
}

Result mainline(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  epdd::pgn::Diagnostics d;
  epdd::pgn::MainlineReader reader(in, d);
  Result r;
  const auto start = Clock::now();
  for (epdd::pgn::MainlineGame g; reader.next(g);) {
    ++r.games;
    r.plies += g.moves.size();
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.peak_kb = peak_rss_kb();
  return r;
}

Result full_tree(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  epdd::pgn::Diagnostics d;
  epdd::pgn::ReadOptions o;
  o.verify_check_marks = false;
  epdd::pgn::GameReader reader(in, d, o);
  Result r;
  const auto start = Clock::now();
  for (epdd::pgn::Game g; reader.next(g);) {
    ++r.games;
    r.plies += plies_in(g.main);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.peak_kb = peak_rss_kb();
  return r;
}

// Wall time of `pgn-extract -s -o /dev/null FILE` (it reads and replays every game).
double run_pgn_extract(const std::string& tool, const std::string& path) {
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    std::freopen("/dev/null", "w", stderr);
    execl(tool.c_str(), tool.c_str(), "-s", "-o", "/dev/null", path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) return -1;
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Writes `source` repeated until the file reaches `megabytes`, without holding it in memory.
std::string build_file(const std::string& source_path, std::size_t megabytes, const std::string& name) {
  std::ifstream in(source_path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string source = ss.str();
  if (!source.empty() && source.back() != '\n') source += '\n';
  source += '\n';
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream out(path, std::ios::binary);
  for (std::size_t written = 0; written < megabytes * 1000000; written += source.size()) out << source;
  return path;
}

void row(const char* what, double mb, const Result& r) {
  fmt::print("{:<34} {:>8.2f} {:>12.2f} {:>9.1f} {:>11.0f} MB\n", what, r.seconds, r.plies / r.seconds / 1e6,
             mb / r.seconds, r.peak_kb / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string source = std::string(EPDD_SHARED_DATA) + "/pgn/twic0920.pgn";
  std::size_t megabytes = 100;
  std::string tool = "/usr/games/pgn-extract";
  bool peer = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--file" && i + 1 < argc) source = argv[++i];
    else if (a == "--megabytes" && i + 1 < argc) megabytes = std::stoul(argv[++i]);
    else if (a == "--pgn-extract" && i + 1 < argc) tool = argv[++i];
    else if (a == "--no-pgn-extract") peer = false;
    else {
      fmt::print(stderr, "usage: pgn_bench [--file GAMES.pgn] [--megabytes N] [--pgn-extract PATH] [--no-pgn-extract]\n");
      return 2;
    }
  }
  if (!std::filesystem::exists(source)) {
    fmt::print(stderr, "pgn_bench: {} not found\n", source);
    return 2;
  }
  const std::string small = build_file(source, megabytes / 10, "epdd-pgn-bench-small.pgn");
  const std::string large = build_file(source, megabytes, "epdd-pgn-bench-large.pgn");
  const double small_mb = std::filesystem::file_size(small) / 1e6;
  const double large_mb = std::filesystem::file_size(large) / 1e6;
  fmt::print("PGN parse and replay: {} repeated to {:.0f} MB (and {:.0f} MB), single thread\n\n", source, large_mb,
             small_mb);
  fmt::print("{:<34} {:>8} {:>12} {:>9} {:>14}\n", "", "seconds", "M plies/s", "MB/s", "peak memory");

  const long baseline = peak_rss_kb();
  const Result main_small = mainline(small);
  row(fmt::format("epdd main lines, {:.0f} MB", small_mb).c_str(), small_mb, main_small);
  const Result main_large = mainline(large);
  row(fmt::format("epdd main lines, {:.0f} MB", large_mb).c_str(), large_mb, main_large);
  const Result tree_large = full_tree(large);
  row(fmt::format("epdd full trees, {:.0f} MB", large_mb).c_str(), large_mb, tree_large);

  double peer_seconds = -1;
  if (peer) {
    peer_seconds = run_pgn_extract(tool, large);
    if (peer_seconds < 0) {
      fmt::print("pgn-extract: could not run {} (install Debian's pgn-extract, or --no-pgn-extract)\n", tool);
    } else {
      Result p;
      p.seconds = peer_seconds;
      p.plies = main_large.plies;
      fmt::print("{:<34} {:>8.2f} {:>12.2f} {:>9.1f} {:>14}\n", "pgn-extract -s -o /dev/null", p.seconds,
                 p.plies / p.seconds / 1e6, large_mb / p.seconds, "(own process)");
    }
  }
  fmt::print("\n{} games, {} main-line plies ({} with variations) in the large file.\n", main_large.games,
             main_large.plies, tree_large.plies);
  fmt::print("Memory: {:.0f} MB before reading; peak {:.0f} MB after {:.0f} MB and {:.0f} MB after {:.0f} MB.\n",
             baseline / 1024.0, main_small.peak_kb / 1024.0, small_mb, main_large.peak_kb / 1024.0, large_mb);
  const double rate = main_large.plies / main_large.seconds;
  const std::string versus =
      peer_seconds > 0 ? fmt::format(", {:.1f}x pgn-extract", peer_seconds / main_large.seconds) : std::string();
  fmt::print("Target: 5 M plies/s single thread: {} ({:.2f} M plies/s{})\n", rate >= 5e6 ? "met" : "NOT met",
             rate / 1e6, versus);
  std::filesystem::remove(small);
  std::filesystem::remove(large);
  return 0;
}
