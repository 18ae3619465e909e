// pgn_bench: PGN parse-and-replay throughput beside pgn-extract, in one run, on twic0920.pgn
// repeated to about 100 MB. Every game is read and every move played on a board: the main-line
// reader (tags and main line), and the full-tree reader (comments, NAGs, variations). Memory is
// the process's peak resident size after each reader, at two file sizes, to show it does not
// grow with the file.
//
// Then `epdd pgn check` beside `pgn-extract -r`, each its own process (wall time and peak
// memory from wait4), on tagless copies (every tag but Result removed): of the large file, and
// of an opening book repeated to about 200,000 games, six "tag missing" warnings per game.
// Memory must not grow with the number of diagnostics.
//
//   pgn_bench [--file GAMES.pgn] [--megabytes N] [--book BOOK.pgn] [--book-megabytes N]
//             [--epdd PATH] [--pgn-extract PATH] [--no-pgn-extract]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

struct ChildResult {
  double seconds = -1;  // -1: could not be run
  long peak_kb = 0;
  int status = 0;
};

// Runs `argv` with stdout on `out` and stderr on /dev/null; its wall time and peak resident
// size.
ChildResult run_child(const std::vector<std::string>& argv, const std::string& out = "/dev/null") {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);  // or the child would write our buffered output again
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int out_fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null_fd = open("/dev/null", O_WRONLY);
    if (out_fd < 0 || null_fd < 0) _exit(127);
    dup2(out_fd, 1);
    dup2(null_fd, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  rusage u{};
  wait4(pid, &status, 0, &u);
  ChildResult r;
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) return r;
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.peak_kb = u.ru_maxrss;
  r.status = WEXITSTATUS(status);
  return r;
}

// The source's text; with `tagless`, every tag line but Result's removed.
std::string source_text(const std::string& source_path, bool tagless) {
  std::ifstream in(source_path, std::ios::binary);
  std::string out;
  for (std::string line; std::getline(in, line);)
    if (!tagless || line.rfind('[', 0) != 0 || line.rfind("[Result ", 0) == 0) out += line + '\n';
  return out + '\n';
}

// Writes the source (tagless or not) repeated until the file reaches `megabytes`.
std::string build_file(const std::string& source_path, std::size_t megabytes, const std::string& name,
                       bool tagless = false) {
  const std::string source = source_text(source_path, tagless);
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream out(path, std::ios::binary);
  for (std::size_t written = 0; written < megabytes * 1000000; written += source.size()) out << source;
  return path;
}

// The line of `path` that holds `needle`, or "".
std::string line_with(const std::string& path, const std::string& needle) {
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

void check_row(const std::string& what, double mb, const ChildResult& r) {
  if (r.seconds < 0) {
    fmt::print("  {:<40} {:>8} (could not be run)\n", what, "-");
    return;
  }
  fmt::print("  {:<40} {:>8.2f} {:>9.1f} {:>11.1f} MB\n", what, r.seconds, mb / r.seconds, r.peak_kb / 1024.0);
}

// `epdd pgn check` (and with --all, its output to /dev/null) beside `pgn-extract -r` on one
// file, each its own process. Returns false when epdd could not check the file.
bool check_rows(const std::string& title, const std::string& path, const std::string& epdd, const std::string& tool,
                bool peer) {
  const double mb = std::filesystem::file_size(path) / 1e6;
  fmt::print("\n{} ({:.1f} MB)\n", title, mb);
  fmt::print("  {:<40} {:>8} {:>9} {:>14}\n", "", "seconds", "MB/s", "peak memory");
  const std::string report = path + ".check.txt";
  const ChildResult ours = run_child({epdd, "pgn", "check", path}, report);
  check_row("epdd pgn check", mb, ours);
  const ChildResult all = run_child({epdd, "pgn", "check", "--all", path});
  check_row("epdd pgn check --all (to /dev/null)", mb, all);
  ChildResult theirs;
  if (peer) {
    theirs = run_child({tool, "-r", path});
    check_row("pgn-extract -r", mb, theirs);
  }
  const std::string summary = line_with(report, " games, ");
  std::filesystem::remove(report);
  if (ours.seconds < 0 || ours.status == 2 || summary.empty()) {
    fmt::print("  epdd could not check the file (run {} pgn check {})\n", epdd, path);
    return false;
  }
  fmt::print("  {}\n", summary.substr(summary.find(": ") + 2));
  if (theirs.seconds > 0)
    fmt::print("  epdd: {:.2f}x pgn-extract's speed, {:.1f}x its peak memory\n", theirs.seconds / ours.seconds,
               static_cast<double>(ours.peak_kb) / theirs.peak_kb);
  return true;
}

void row(const char* what, double mb, const Result& r) {
  fmt::print("{:<34} {:>8.2f} {:>12.2f} {:>9.1f} {:>11.0f} MB\n", what, r.seconds, r.plies / r.seconds / 1e6,
             mb / r.seconds, r.peak_kb / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string source = std::string(EPDD_SHARED_DATA) + "/pgn/twic0920.pgn";
  std::size_t megabytes = 100;
  std::string book = std::string(EPDD_SHARED_DATA) + "/books/2moves_v2.pgn";
  std::size_t book_megabytes = 8;
  std::string epdd = EPDD_EXECUTABLE;
  std::string tool = "/usr/games/pgn-extract";
  bool peer = true;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--file" && i + 1 < argc) source = argv[++i];
    else if (a == "--megabytes" && i + 1 < argc) megabytes = std::stoul(argv[++i]);
    else if (a == "--book" && i + 1 < argc) book = argv[++i];
    else if (a == "--book-megabytes" && i + 1 < argc) book_megabytes = std::stoul(argv[++i]);
    else if (a == "--epdd" && i + 1 < argc) epdd = argv[++i];
    else if (a == "--pgn-extract" && i + 1 < argc) tool = argv[++i];
    else if (a == "--no-pgn-extract") peer = false;
    else {
      fmt::print(stderr,
                 "usage: pgn_bench [--file GAMES.pgn] [--megabytes N] [--book BOOK.pgn] [--book-megabytes N]\n"
                 "                 [--epdd PATH] [--pgn-extract PATH] [--no-pgn-extract]\n");
      return 2;
    }
  }
  for (const std::string& input : {source, book})
    if (!std::filesystem::exists(input)) {
      fmt::print(stderr, "pgn_bench: {} not found\n", input);
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
    peer_seconds = run_child({tool, "-s", "-o", "/dev/null", large}).seconds;
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

  // Diagnostics by the million: games with only a Result tag (six roster tags missing each).
  fmt::print("\nepdd pgn check beside pgn-extract -r, each its own process, on files with every tag but Result removed:\n");
  const std::string tagless = build_file(source, megabytes, "epdd-pgn-bench-tagless.pgn", true);
  bool checked = check_rows(fmt::format("{}, tagless, repeated", source), tagless, epdd, tool, peer);
  std::filesystem::remove(tagless);
  const std::string tagless_book = build_file(book, book_megabytes, "epdd-pgn-bench-tagless-book.pgn", true);
  checked = check_rows(fmt::format("{}, tagless, repeated", book), tagless_book, epdd, tool, peer) && checked;
  std::filesystem::remove(tagless_book);
  fmt::print("\nTarget: epdd pgn check's peak memory flat (about the same for every file above, --all too)\n");
  return checked ? 0 : 2;
}
