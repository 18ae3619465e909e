// pgc_bench: PGC (the PGN standard's binary game coding) read and write throughput beside the
// PGN reader and writer, in one run, on twic0920.pgn repeated to about 100 MB, and the size of
// the PGC beside the PGN's.
//
//   PGN read:   GameReader (full tree) and MainlineReader over the repeated PGN text
//   PGC write:  append_pgc of the source's games (read once), repeated as often as the text is
//   PGC read:   PgcReader over the PGC of the repeated file, every game into one reused Game
//   PGN write:  append_game (export format) of the same games, for comparison
//   reduced:    the same games with the Seven Tag Roster only, PGC as 0x01 records (written and
//               read) beside the PGN reduced export, so that the sizes compare like for like
//
// Targets (issue 19): PGC read and write >= 5 M plies/s; PGC at most a third of the PGN's size.
//
//   pgc_bench [--file GAMES.pgn] [--megabytes N]
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "pgn/pgc.hpp"
#include "pgn/reader.hpp"
#include "pgn/tags.hpp"
#include "pgn/writer.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Result {
  double seconds = 0;
  double cpu_seconds = 0;  // the process's CPU time: less at the mercy of a shared machine's load
  std::size_t games = 0;
  std::size_t plies = 0;
  std::size_t bytes = 0;
};

// Plies are counted on main lines in every row (twic0920 has no variations; with a file that
// has, every row still counts the same plies).
double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

Result pgn_full(const std::string& text) {
  epdd::pgn::Diagnostics d;
  d.keep_per_kind(10);
  epdd::pgn::ReadOptions o;
  o.verify_check_marks = false;
  epdd::pgn::GameReader reader(text, d, o);
  Result r;
  r.bytes = text.size();
  const auto start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  for (epdd::pgn::Game g; reader.next(g);) {
    ++r.games;
    r.plies += g.main.moves.size();
  }
  r.seconds = since(start);
  r.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  return r;
}

Result pgn_mainline(const std::string& text) {
  epdd::pgn::Diagnostics d;
  d.keep_per_kind(10);
  epdd::pgn::MainlineReader reader(text, d);
  Result r;
  r.bytes = text.size();
  const auto start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  for (epdd::pgn::MainlineGame g; reader.next(g);) {
    ++r.games;
    r.plies += g.moves.size();
  }
  r.seconds = since(start);
  r.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  return r;
}

// The games written `times` times into `out` (cleared first).
template <class Append>
Result write_all(const std::vector<epdd::pgn::Game>& games, std::size_t times, std::string& out, Append append) {
  out.clear();
  out.reserve(out.capacity() + 1);  // as large as the last run's output: no growing inside the timing
  Result r;
  const auto start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  for (std::size_t t = 0; t < times; ++t)
    for (const auto& g : games) {
      append(out, g);
      ++r.games;
      r.plies += g.main.moves.size();
    }
  r.seconds = since(start);
  r.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  r.bytes = out.size();
  return r;
}

Result pgc_read(const std::string& pgc) {
  epdd::pgn::PgcReader reader(pgc);
  Result r;
  r.bytes = pgc.size();
  epdd::pgn::Game g;
  const auto start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  for (;;) {
    auto more = reader.next(g);
    if (!more) {
      fmt::print("PGC read failed: {}\n", epdd::pgn::to_string(more.error()));
      std::exit(1);
    }
    if (!*more) break;
    ++r.games;
    r.plies += g.main.moves.size();
  }
  r.seconds = since(start);
  r.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  return r;
}

// For scale: every position's legal moves listed, each move played. Not a floor: the PGC code
// lists only the moves of one group and counts the groups before it.
Result generate_and_play(const std::vector<epdd::pgn::Game>& games, std::size_t times) {
  Result r;
  std::size_t total = 0;
  const auto start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  for (std::size_t t = 0; t < times; ++t)
    for (const auto& g : games) {
      epdd::core::Board b = g.start;
      for (const auto& node : g.main.moves) {
        epdd::core::MoveList list;
        b.generate_legal(list);
        total += list.size();
        b.make_move(node.move);
      }
      ++r.games;
      r.plies += g.main.moves.size();
    }
  r.seconds = since(start);
  r.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  if (total == 0) std::exit(1);
  return r;
}

void row(const char* what, const Result& r) {
  fmt::print("{:<36} {:>8} {:>11} {:>8.2f} {:>10.2f} {:>9.2f} {:>9.1f} {:>10.1f}\n", what, r.games, r.plies, r.seconds,
             r.plies / r.seconds / 1e6, r.plies / r.cpu_seconds / 1e6, r.bytes / 1e6 / r.seconds, r.bytes / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  std::string source = std::string(EPDD_SHARED_DATA) + "/pgn/twic0920.pgn";
  std::size_t megabytes = 100;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--file" && i + 1 < argc) {
      source = argv[++i];
    } else if (a == "--megabytes" && i + 1 < argc) {
      megabytes = std::strtoul(argv[++i], nullptr, 10);
    } else {
      fmt::print("usage: pgc_bench [--file GAMES.pgn] [--megabytes N]\n"
                 "  e.g. build/bench/pgc_bench --megabytes 20\n");
      return a == "--help" ? 0 : 2;
    }
  }
  std::ifstream in(source, std::ios::binary);
  if (!in) {
    fmt::print("cannot read {}\n", source);
    return 2;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string one = ss.str() + "\n";
  const std::size_t times = std::max<std::size_t>(1, megabytes * 1000000 / one.size());
  std::string text;
  text.reserve(one.size() * times);
  for (std::size_t t = 0; t < times; ++t) text += one;

  epdd::pgn::Diagnostics d;
  d.keep_per_kind(10);
  const std::vector<epdd::pgn::Game> games = epdd::pgn::read_games(one, d);
  fmt::print("{}: {} games, repeated {} times to {:.1f} MB\n\n", source, games.size(), times, text.size() / 1e6);

  std::string pgc;
  const epdd::pgn::PgcWriteOptions lossy{.lossy = true};
  std::size_t left_out = 0;
  const Result w = write_all(games, times, pgc, [&](std::string& out, const epdd::pgn::Game& g) {
    if (auto r = epdd::pgn::append_pgc(out, g, lossy)) left_out += r->comments + r->characters + r->result_marks;
  });
  std::string exported;
  const Result pw = write_all(games, times, exported,
                              [](std::string& out, const epdd::pgn::Game& g) { epdd::pgn::append_game(out, g); });
  const Result full = pgn_full(text);
  const Result main_line = pgn_mainline(text);
  const Result r = pgc_read(pgc);
  const Result floor = generate_and_play(games, times);

  // The reduced form: the same games with the Seven Tag Roster only, so that PGC writes them as
  // 0x01 records, beside the PGN reduced export of the same games (a like-for-like size).
  std::vector<epdd::pgn::Game> reduced_games = games;
  for (auto& g : reduced_games)
    std::erase_if(g.tags, [](const epdd::pgn::Tag& t) { return !epdd::pgn::is_str_tag(t.name); });
  std::size_t reduced_records = 0;
  std::string reduced_pgc, reduced_pgn;
  const Result rw = write_all(reduced_games, times, reduced_pgc, [&](std::string& out, const epdd::pgn::Game& g) {
    if (auto r = epdd::pgn::append_pgc(out, g, lossy)) reduced_records += r->reduced;
  });
  const Result rr = pgc_read(reduced_pgc);
  const Result rpw = write_all(reduced_games, times, reduced_pgn, [](std::string& out, const epdd::pgn::Game& g) {
    epdd::pgn::append_game(out, g, {.reduced = true});
  });

  fmt::print("{:<36} {:>8} {:>11} {:>8} {:>10} {:>9} {:>9} {:>10}\n", "", "games", "plies", "seconds", "M plies/s",
             "(CPU)", "MB/s", "MB");
  row("PGN read, full tree (GameReader)", full);
  row("PGN read, main lines (MainlineReader)", main_line);
  row("PGC read (PgcReader)", r);
  row("PGN write, export format", pw);
  row("PGC write (append_pgc)", w);
  row("PGN write, reduced export", rpw);
  row("PGC write, reduced (0x01 records)", rw);
  row("PGC read, reduced (0x01 records)", rr);
  row("all legal moves listed + played", floor);
  const auto ratio = [](std::size_t a, std::size_t b) { return static_cast<double>(a) / static_cast<double>(b); };
  fmt::print("\nsize, full: PGN {:.1f} MB (as read; export {:.1f} MB), PGC {:.1f} MB: PGC is {:.3f} of the PGN "
             "(target at most 0.333)\n",
             text.size() / 1e6, exported.size() / 1e6, pgc.size() / 1e6, ratio(pgc.size(), text.size()));
  fmt::print("size, reduced (Seven Tag Roster only, {} of {} games as 0x01): PGN reduced export {:.1f} MB, PGC "
             "{:.1f} MB: PGC is {:.3f} of the PGN\n",
             reduced_records, rw.games, reduced_pgn.size() / 1e6, reduced_pgc.size() / 1e6,
             ratio(reduced_pgc.size(), reduced_pgn.size()));
  if (left_out) fmt::print("lossy writing left out {} comments, characters or result marks\n", left_out);
  const double read_rate = r.plies / r.seconds / 1e6, write_rate = w.plies / w.seconds / 1e6;
  const double read_cpu = r.plies / r.cpu_seconds / 1e6, write_cpu = w.plies / w.cpu_seconds / 1e6;
  fmt::print("targets: PGC read {:.2f} M plies/s {} (CPU time: {:.2f}), PGC write {:.2f} M plies/s {} (CPU time: "
             "{:.2f}) (>= 5, wall clock); size {}\n",
             read_rate, read_rate >= 5 ? "met" : "NOT met", read_cpu, write_rate, write_rate >= 5 ? "met" : "NOT met",
             write_cpu, pgc.size() * 3 <= text.size() ? "met" : "NOT met");
  // The machine's load while measuring: the rows are wall-clock times.
  if (std::ifstream load("/proc/loadavg"); load) {
    std::string avg;
    std::getline(load, avg);
    fmt::print("load average (1, 5, 15 min; running/total; last pid): {}\n", avg);
  }
  if (r.games != w.games || r.plies != w.plies || rr.games != rw.games || rr.plies != rw.plies) {
    fmt::print("MISMATCH: PGC read {} games {} plies, written {} games {} plies (reduced: read {} {}, written {} {})\n",
               r.games, r.plies, w.games, w.plies, rr.games, rr.plies, rw.games, rw.plies);
    return 1;
  }
  return 0;
}
