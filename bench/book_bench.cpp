// book_bench: the opening book's DAG built from PGN text and backsolved, beside epdd's PGN reader
// reading the same text without building anything, in one run (issue 17, point 4).
//
// Two inputs, each handled by its own child process so that its peak resident size (wait4's
// ru_maxrss) is that of one build and backsolve:
//   1. real games: twic0920.pgn, tcec-engine-comments.pgn and books/2moves_v2.pgn, concatenated
//      and repeated in memory to --megabytes. Repeating the same games adds no node: this input
//      measures the build where nearly every ply finds its position already in the book.
//   2. generated games: --games random legal games from a seeded generator (core's move
//      generator), written as PGN text in memory, with a side variation in some. At each
//      position the legal moves are ordered by a hash of the position and the move (the same
//      order in every game that reaches it) and the k-th is played with probability 2^-(k+1),
//      so games share their openings, transpose, repeat positions (cycles) and then spread:
//      more than a million nodes, nearly every ply a new position.
// Leaves get values from a seeded generator: most centipawns, some mates, some unvalued.
//
// Rows: the PGN reader alone (full trees, the reader the book uses), reading and building the
// DAG, each the best of --repeat passes, as plies/s; nodes, edges, leaves; the backsolve's time
// (its strongly connected components included); the heap the DAG and the backsolve's result
// hold (mallinfo2, exact), and the child's peak resident size. Targets: build >= 2 M plies/s,
// backsolve of >= 1 M nodes in < 2 s and < 500 MB peak.
//
//   book_bench [--megabytes N] [--games N] [--seed N] [--repeat N] [--only real|generated]
//              [--check-plain]
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>

#include "book/backsolve.hpp"
#include "book/dag.hpp"
#include "book/epd_output.hpp"
#include "book/leaf_import.hpp"
#include "book/pgn_output.hpp"
#include "book/polyglot.hpp"
#include "core/board.hpp"
#include "pgn/reader.hpp"
#include "pgn/writer.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace book = epdd::book;
namespace core = epdd::core;
namespace pgn = epdd::pgn;

constexpr double kBuildTarget = 2e6;         // plies/s
constexpr double kBacksolveSeconds = 2.0;    // for >= kMillion nodes
constexpr double kPeakMegabytes = 500.0;
constexpr std::size_t kMillion = 1'000'000;
constexpr int kOpeningPlies = 12;  // see Generator::pick

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Bytes the heap holds right now (single thread: the main arena and mmapped blocks).
std::size_t heap_bytes() {
  const struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
}

double mb(std::size_t bytes) { return bytes / 1048576.0; }

std::size_t plies_in(const pgn::Variation& v) {
  std::size_t n = v.moves.size();
  for (const auto& node : v.moves)
    for (const auto& a : node.after)
      if (a.kind == pgn::Annotation::Kind::Variation) n += plies_in(a.variation.front());
  return n;
}

pgn::ReadOptions read_options() {
  pgn::ReadOptions o;
  o.verify_check_marks = false;
  return o;
}

struct Pass {
  double seconds = 1e300;
  std::size_t games = 0;
  std::size_t plies = 0;
  std::size_t errors = 0;
};

// Every game of the text read (full tree, moves played on a board) and, with a DAG, added to
// it as it is read.
Pass read_pass(const std::string& text, book::Dag* dag) {
  pgn::Diagnostics diags;
  pgn::GameReader reader(text, diags, read_options());
  Pass p;
  const auto start = Clock::now();
  for (pgn::Game g; reader.next(g);) {
    ++p.games;
    p.plies += plies_in(g.main);
    if (dag) dag->add_game(g);
  }
  p.seconds = seconds_since(start);
  p.errors = diags.count(pgn::Severity::Error);
  return p;
}

// Seeded leaf values: 8% unvalued, 3% mates (either side, 1 to 40 plies), the rest centipawns
// in [-400, 400]. Terminal leaves are left out (the rules value them).
book::LeafValues leaf_values(const book::Dag& dag, std::uint64_t seed, std::size_t& unvalued, std::size_t& mates) {
  book::LeafValues values;
  unvalued = mates = 0;
  for (book::NodeId n = 0; n < dag.node_count(); ++n) {
    if (!dag.is_leaf(n) || dag.node(n).terminal != book::Terminal::None || !dag.key(n)) continue;
    // Drawn from the seed and the position (not the node's number: a book renumbered gets the
    // same values).
    std::mt19937_64 rng(seed ^ dag.key(n)->hash);
    const int roll = static_cast<int>(rng() % 100);
    if (roll < 8) {
      ++unvalued;
    } else if (roll < 11) {
      ++mates;
      const int plies = 1 + static_cast<int>(rng() % 40);
      values.emplace(n, roll % 2 ? core::Score::mate_in_plies(plies) : core::Score::mate_in_plies(-plies));
    } else {
      values.emplace(n, core::Score::centipawns(static_cast<int>(rng() % 801) - 400));
    }
  }
  return values;
}

// What a child reports to the parent through a pipe.
struct Verdict {
  double build_plies_per_second = 0;
  double backsolve_seconds = 0;
  std::size_t nodes = 0;
};

// The reader alone and the reader building the DAG, each the best of `repeat` passes: their
// rows, and the DAG of the last pass with the heap it holds.
struct Built {
  book::Dag dag;
  std::size_t bytes = 0;
  double plies_per_second = 0;
};
Built build_rows(const std::string& text, int repeat) {
  Pass reader;
  for (int i = 0; i < repeat; ++i) {
    const Pass p = read_pass(text, nullptr);
    if (p.seconds < reader.seconds) reader = p;
  }
  fmt::print("  {} games, {} plies (variations included), {} errors\n\n", reader.games, reader.plies, reader.errors);
  fmt::print("  {:<44} {:>9} {:>12}\n", "", "seconds", "M plies/s");
  fmt::print("  {:<44} {:>9.3f} {:>12.2f}\n", "PGN reader alone (full trees)", reader.seconds,
             reader.plies / reader.seconds / 1e6);
  const std::size_t heap_before = heap_bytes();
  Built out;
  Pass build;
  for (int i = 0; i < repeat; ++i) {
    book::Dag fresh;
    const Pass p = read_pass(text, &fresh);
    if (p.seconds < build.seconds) build = p;
    if (i + 1 == repeat) out.dag = std::move(fresh);
  }
  out.bytes = heap_bytes() - heap_before;
  out.plies_per_second = build.plies / build.seconds;
  fmt::print("  {:<44} {:>9.3f} {:>12.2f}   {}\n", "PGN reader + DAG build", build.seconds, out.plies_per_second / 1e6,
             out.plies_per_second >= kBuildTarget ? "target met (>= 2)" : "TARGET MISSED (>= 2)");
  fmt::print("  {:<44} {:>9.3f} {:>12}   ({:.0f}% of the reader's speed)\n", "  of which the build (difference)",
             build.seconds - reader.seconds, "", 100.0 * reader.seconds / build.seconds);
  const book::Dag& dag = out.dag;
  fmt::print("  DAG: {} nodes, {} edges, {} leaves; heap {:.1f} MB ({:.0f} bytes a node)\n", dag.node_count(),
             dag.edge_count(), dag.leaf_count(), mb(out.bytes), static_cast<double>(out.bytes) / dag.node_count());
  std::size_t joins = 0, wide = 0;
  for (book::NodeId n = 0; n < dag.node_count(); ++n) {
    joins += dag.node(n).parents > 1;
    std::size_t children = 0;
    for ([[maybe_unused]] book::EdgeId e : dag.edges_of(n)) ++children;
    wide += children > 1;
  }
  fmt::print("  {} nodes reached by several moves (transpositions, repetitions), {} with several moves out\n", joins,
             wide);
  return out;
}

// The same backsolve with the plain search only (no alpha-beta), compared node by node.
void check_plain_row(const book::Dag& dag, const book::LeafValues& values, const book::Backsolved& solved) {
  book::BacksolveOptions plain;
  plain.plain_steps = plain.max_component_steps;
  const auto start = Clock::now();
  const book::Backsolved slow = book::backsolve(dag, values, plain);
  const double seconds = seconds_since(start);
  std::size_t differ = 0;
  for (std::size_t n = 0; n < solved.nodes.size(); ++n) {
    const book::NodeValue &a = solved.nodes[n], &b = slow.nodes[n];
    differ += a.ce != b.ce || a.incomplete != b.incomplete || !std::ranges::equal(a.best_moves, b.best_moves);
  }
  fmt::print("  {:<44} {:>9.3f}   {} nodes differ, {} components unsolved\n", "backsolve, plain search only",
             seconds, differ, slow.components_unsolved);
}

// Leaf values, then the backsolve: its rows. Returns its time.
double backsolve_rows(const book::Dag& dag, std::size_t dag_bytes, std::uint64_t seed, bool check_plain) {
  std::size_t unvalued = 0, mates = 0;
  const std::size_t heap_before_values = heap_bytes();
  const book::LeafValues values = leaf_values(dag, seed, unvalued, mates);
  const std::size_t values_bytes = heap_bytes() - heap_before_values;
  fmt::print("  leaf values: {} given ({} mates), {} unvalued; heap {:.1f} MB\n", values.size(), mates, unvalued,
             mb(values_bytes));
  auto start = Clock::now();
  const book::Components comps = book::strongly_connected_components(dag);
  const double scc_seconds = seconds_since(start);
  const std::size_t heap_before_solve = heap_bytes();
  start = Clock::now();
  const book::Backsolved solved = book::backsolve(dag, values);
  const double solve_seconds = seconds_since(start);
  const std::size_t solved_bytes = heap_bytes() - heap_before_solve;
  std::size_t incomplete = 0, valued = 0;
  for (const book::NodeValue& v : solved.nodes) {
    incomplete += v.incomplete;
    valued += v.ce.has_value();
  }
  fmt::print("  {:<44} {:>9.3f} {:>12}   {}\n", "backsolve (components included)", solve_seconds, "",
             dag.node_count() < kMillion               ? "(target is for >= 1 M nodes)"
             : solve_seconds < kBacksolveSeconds ? "target met (< 2 s)"
                                                 : "TARGET MISSED (< 2 s)");
  fmt::print("  {:<44} {:>9.3f}\n", "  strongly connected components alone", scc_seconds);
  std::uint32_t largest = 0;
  for (std::size_t c = 0; c < comps.count(); ++c) largest = std::max(largest, comps.begin[c + 1] - comps.begin[c]);
  fmt::print("  {} components, {} with cycles (the largest {} nodes, {} unsolved); {} nodes valued, {} incomplete; "
             "root ce {}\n",
             comps.count(), solved.components_with_cycles, largest, solved.components_unsolved, valued, incomplete,
             solved.nodes[0].ce ? std::to_string(*solved.nodes[0].ce) : "none");
  if (check_plain) check_plain_row(dag, values, solved);
  fmt::print("  heap held: DAG {:.1f} MB + leaf values {:.1f} MB + backsolved result {:.1f} MB = {:.1f} MB\n",
             mb(dag_bytes), mb(values_bytes), mb(solved_bytes), mb(dag_bytes + values_bytes + solved_bytes));
  return solve_seconds;
}

// Reads, builds and backsolves `text`: the table's rows for one input.
Verdict measure(const std::string& title, const std::string& text, int repeat, std::uint64_t seed,
                bool check_plain) {
  fmt::print("\n{}\n  {:.1f} MB of PGN in memory\n", title, text.size() / 1e6);
  const Built built = build_rows(text, repeat);
  const double solve_seconds = backsolve_rows(built.dag, built.bytes, seed, check_plain);
  return {built.plies_per_second, solve_seconds, built.dag.node_count()};
}

// Plays one random game of `plies` plies from the start position (fewer when it ends), with a
// side variation of up to 8 plies at some moves. See the file's comment for the move choice.
struct Generator {
  std::mt19937_64 rng;

  core::Move pick(const core::Board& b, int ply) {
    core::MoveList list;
    b.generate_legal(list);
    if (list.empty()) return core::Move::none();
    std::vector<std::pair<std::uint64_t, core::Move>> order;
    for (core::Move m : list) {
      // In the opening the order ignores the position, so that games play the same moves in
      // other orders (transpositions); later it is the position's own.
      const std::uint64_t where = ply < kOpeningPlies ? static_cast<std::uint64_t>(b.side_to_move()) : b.repetition_key();
      std::uint64_t h = where ^ (m.raw() * 0x9E3779B97F4A7C15ULL);
      h ^= h >> 31;
      h *= 0xBF58476D1CE4E5B9ULL;
      order.emplace_back(h ^ (h >> 29), m);
    }
    std::size_t k = 0;
    while (k + 1 < order.size() && (rng() & 1)) ++k;
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    return order[k].second;
  }

  void line(core::Board b, int ply, pgn::Variation& out, int plies, bool branch) {
    for (int i = 0; i < plies; ++i) {
      const core::Move m = pick(b, ply + i);
      if (m.is_none()) return;
      pgn::MoveNode node;
      node.move = m;
      if (branch && rng() % 16 == 0) {
        pgn::Annotation a;
        a.kind = pgn::Annotation::Kind::Variation;
        a.variation.emplace_back();
        line(b.detached(), ply + i, a.variation.front(), 1 + static_cast<int>(rng() % 8), false);
        if (!a.variation.front().moves.empty() && a.variation.front().moves.front().move != m)
          node.after.push_back(std::move(a));
      }
      b.make_move(m);
      out.moves.push_back(std::move(node));
    }
  }
};

// The generated games' PGN, a game at a time, to `sink`.
void generate_games(std::size_t games, std::uint64_t seed, const std::function<void(std::string_view)>& sink) {
  Generator gen{std::mt19937_64(seed)};
  static const char* results[] = {"1-0", "1/2-1/2", "0-1", "1/2-1/2"};
  std::string text;
  for (std::size_t i = 0; i < games; ++i) {
    pgn::Game g;
    g.result = results[gen.rng() % 4];
    g.set_tag("Event", "book_bench");
    g.set_tag("Round", std::to_string(i + 1));
    g.set_tag("Result", g.result);
    gen.line(g.start, 0, g.main, 40 + static_cast<int>(gen.rng() % 61), true);
    text.clear();
    pgn::append_game(text, g);
    sink(text);
  }
}

std::string generated_text(std::size_t games, std::uint64_t seed) {
  std::string text;
  generate_games(games, seed, [&text](std::string_view game) { text += game; });
  return text;
}

std::string real_text(const std::vector<std::string>& files, std::size_t megabytes) {
  std::string source;
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    source += s.str();
    source += "\n\n";
  }
  std::string text;
  text.reserve(megabytes * 1000000 + source.size());
  while (text.size() < megabytes * 1000000) text += source;
  return text;
}

// --- Scale (issue 36): a book of 1 M or 10 M positions built from a file, its leaf values
// imported from EPD text, backsolved and written (EPD, PGN, Polyglot), each phase timed. ---

constexpr double kScaleSeconds = 60.0;      // epdd's own time, every phase but the generation
constexpr double kScalePeakMegabytes = 2048.0;
constexpr double kScaleBuildTarget = 3e6;  // plies/s
constexpr std::size_t kGamesPerMillion = 14'400;  // generated games per million positions (measured)

struct ScaleVerdict {
  double epdd_seconds = 0;
  double build_plies_per_second = 0;
  std::size_t nodes = 0;
};

// The process's CPU time (user + system) so far: a phase's own time, whatever else the machine
// runs (a loaded machine stretches the wall clock, not this).
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// A phase's row: its time, and what it made.
void phase_row(std::string_view what, double seconds, const std::string& made) {
  fmt::print("  {:<40} {:>9.3f}   {}\n", what, seconds, made);
}

// Counts what an output writer hands on (nothing is kept).
struct CountingSink {
  std::size_t bytes = 0;
  std::function<void(std::string_view)> sink() {
    return [this](std::string_view part) { bytes += part.size(); };
  }
};

ScaleVerdict scale_run(std::size_t millions, std::uint64_t seed, const std::string& folder,
                       std::optional<std::size_t> pv_plies) {
  const std::size_t games = millions * kGamesPerMillion;
  const std::string path = fmt::format("{}/book_bench_{}m.pgn", folder, millions);
  {
    std::ofstream file(path, std::ios::binary);
    generate_games(games, seed, [&file](std::string_view game) { file.write(game.data(), static_cast<std::streamsize>(game.size())); });
  }
  fmt::print("\n{} M positions wanted: {} generated games (seed {}), {:.1f} MB of PGN in {}\n", millions, games, seed,
             std::filesystem::file_size(path) / 1e6, path);
  fmt::print("  {:<40} {:>9}\n", "phase (epdd's own work)", "CPU s");
  ScaleVerdict v;
  // Read from the file as the command reads it (streamed, never held whole), the DAG built.
  // The reader runs a thread ahead of the build, as in the command (pgn::read_ahead): the rate is
  // the wall clock's (what the user waits for; the target's), the CPU time both threads' sum.
  double start = cpu_seconds();
  const auto wall_start = Clock::now();
  book::Dag dag;
  std::size_t plies = 0;
  {
    std::ifstream in(path, std::ios::binary);
    pgn::Diagnostics diags;
    pgn::GameReader reader(in, diags, read_options());
    pgn::read_ahead(reader, [&](pgn::Game& g) {
      plies += plies_in(g.main);
      dag.add_game(g);
    });
  }
  double seconds = cpu_seconds() - start;
  const double wall = std::chrono::duration<double>(Clock::now() - wall_start).count();
  std::filesystem::remove(path);
  v.epdd_seconds += seconds;
  v.build_plies_per_second = plies / wall;
  v.nodes = dag.node_count();
  phase_row("read the PGN file, build the DAG", seconds,
            fmt::format("{} plies in {:.3f} s wall: {:.2f} M plies/s (target >= 3), {:.2f} M a CPU second; {} positions, "
                        "{} moves, {} leaves",
                        plies, wall, v.build_plies_per_second / 1e6, plies / seconds / 1e6, dag.node_count(),
                        dag.edge_count(), dag.leaf_count()));
  // Numbered in the outputs' order, as build_book leaves every book.
  start = cpu_seconds();
  dag.renumber(book::output_order(dag));
  seconds = cpu_seconds() - start;
  v.epdd_seconds += seconds;
  phase_row("number in the outputs' order", seconds, "");
  // The leaves' values as an EPD file would give them (the seeded values written as records),
  // imported as --import reads them.
  std::size_t unvalued = 0, mates = 0;
  const book::LeafValues given = leaf_values(dag, seed, unvalued, mates);
  std::string epd;
  for (const auto& [n, score] : given) epd += fmt::format("{} ce {};\n", dag.epd(n), score.to_ce());
  start = cpu_seconds();
  book::LeafValues values;
  book::LeafAnalyses analyses;
  const book::ImportReport imported = book::import_leaf_values(dag, epd, "leaves.epd", {}, values, analyses);
  seconds = cpu_seconds() - start;
  v.epdd_seconds += seconds;
  phase_row("import the leaves' values (EPD)", seconds,
            fmt::format("{} records ({:.1f} MB), {} leaves valued, {} unvalued", imported.records, epd.size() / 1e6,
                        values.size(), unvalued));
  std::string().swap(epd);
  start = cpu_seconds();
  const book::Backsolved solved = book::backsolve(dag, values);
  seconds = cpu_seconds() - start;
  v.epdd_seconds += seconds;
  phase_row("backsolve", seconds,
            fmt::format("root ce {}, {} cycle groups", solved.nodes[0].ce ? std::to_string(*solved.nodes[0].ce) : "none",
                        solved.components_with_cycles));
  const auto output = [&](std::string_view what, const std::function<void(const std::function<void(std::string_view)>&)>& write) {
    CountingSink counted;
    const auto out_start = cpu_seconds();
    write(counted.sink());
    const double out_seconds = cpu_seconds() - out_start;
    v.epdd_seconds += out_seconds;
    phase_row(what, out_seconds, fmt::format("{:.1f} MB", counted.bytes / 1e6));
  };
  // The first paths (which positions the outputs write, and their names), made once for both
  // text outputs as the command makes them.
  start = cpu_seconds();
  const book::FirstPaths paths = book::first_paths(dag);
  seconds = cpu_seconds() - start;
  v.epdd_seconds += seconds;
  phase_row("first paths (the outputs' order, names)", seconds, "");
  book::EpdOutputOptions epd_options;
  epd_options.pv_plies = pv_plies;
  output(pv_plies ? fmt::format("write the EPD (--pv-plies {})", *pv_plies) : "write the EPD",
         [&](const auto& sink) { book::write_book_epd(dag, solved, analyses, epd_options, sink, &paths); });
  output("write the PGN", [&](const auto& sink) { book::write_book_pgn(dag, solved, {}, sink, &paths); });
  output("write the Polyglot book", [&](const auto& sink) { book::write_polyglot(dag, solved, {}, sink); });
  fmt::print("  {:<40} {:>9.3f}   {}\n", "epdd's time, all phases", v.epdd_seconds,
             v.epdd_seconds <= kScaleSeconds ? "target met (<= 60 s)" : "TARGET MISSED (<= 60 s)");
  const std::size_t nodes = dag.node_count(), edges = dag.edge_count();
  const std::size_t position_bytes = dag.bytes() - dag.edge_bytes();
  fmt::print("  bytes a position: {:.0f} in the DAG (node, key, index) + {:.0f} backsolved; bytes a move: {:.0f}\n",
             static_cast<double>(position_bytes) / nodes, static_cast<double>(solved.bytes()) / nodes,
             static_cast<double>(dag.edge_bytes()) / edges);
  return v;
}

// Runs `work` in a child process; its verdict, and its peak resident size in KB (-1: failed).
template <class V>
long in_child(const std::function<V()>& work, V& verdict) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const V v = work();
    std::fflush(nullptr);
    const bool sent = write(fds[1], &v, sizeof v) == static_cast<ssize_t>(sizeof v);
    _exit(sent ? 0 : 1);
  }
  close(fds[1]);
  const bool got = read(fds[0], &verdict, sizeof verdict) == static_cast<ssize_t>(sizeof verdict);
  close(fds[0]);
  int status = 0;
  rusage u{};
  wait4(pid, &status, 0, &u);
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return u.ru_maxrss;
}

int usage() {
  fmt::print(stderr,
             "usage: book_bench [--megabytes N] [--games N] [--seed N] [--repeat N] [--only real|generated]\n"
             "                  [--check-plain]\n"
             "       book_bench --scale M[,M...] [--seed N] [--pv-plies N]\n"
             "  --megabytes N  real games repeated in memory to N MB (default 40)\n"
             "  --games N      generated games (default 16000: about 1.1 M nodes)\n"
             "  --seed N       the generator's seed, for games and leaf values (default 17)\n"
             "  --repeat N     passes of the reader and of the build, the best kept (default 3)\n"
             "  --check-plain  backsolve again with the plain search only and compare every node\n"
             "  --scale M,...  instead: books of about M million positions (e.g. 1,10) from generated games\n"
             "                 in a temporary file, built, leaf values imported, backsolved, written;\n"
             "                 each phase timed, bytes a position and a move, peak memory (issue 36)\n"
             "  --pv-plies N   with --scale: the EPD's pv at most N plies (as the command's option)\n"
             "example: build/bench/book_bench --games 2000 --megabytes 5 --repeat 1\n"
             "         build/bench/book_bench --scale 1,10\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t megabytes = 40, games = 16000;
  std::uint64_t seed = 17;
  int repeat = 3;
  bool check_plain = false;
  std::string only;
  std::vector<std::size_t> scale;  // millions of positions
  std::optional<std::size_t> pv_plies;  // the EPD's --pv-plies
  const std::string data = EPDD_SHARED_DATA;
  const std::vector<std::string> files = {data + "/pgn/twic0920.pgn", data + "/pgn/tcec-engine-comments.pgn",
                                          data + "/books/2moves_v2.pgn"};
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--megabytes" && i + 1 < argc) megabytes = std::stoul(argv[++i]);
      else if (a == "--games" && i + 1 < argc) games = std::stoul(argv[++i]);
      else if (a == "--seed" && i + 1 < argc) seed = std::stoull(argv[++i]);
      else if (a == "--check-plain") check_plain = true;
      else if (a == "--pv-plies" && i + 1 < argc) pv_plies = std::stoul(argv[++i]);
      else if (a == "--scale" && i + 1 < argc) {
        std::stringstream list(argv[++i]);
        for (std::string m; std::getline(list, m, ',');) scale.push_back(std::stoul(m));
        if (scale.empty() || std::find(scale.begin(), scale.end(), 0) != scale.end()) return usage();
      }
      else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::stoi(argv[++i]));
      else if (a == "--only" && i + 1 < argc && (std::string(argv[i + 1]) == "real" || std::string(argv[i + 1]) == "generated"))
        only = argv[++i];
      else return usage();
    }
  } catch (const std::exception&) {
    return usage();
  }
  for (const std::string& f : files)
    if (!std::filesystem::exists(f)) {
      fmt::print(stderr, "book_bench: {} not found\n", f);
      return 2;
    }
  double load = 0;
  getloadavg(&load, 1);
  // The bench runs one thread: the machine's other load takes from it once it needs every other
  // processor and more (on 2 cores, a load over 1.5).
  const double free_cores = std::max(1u, std::thread::hardware_concurrency()) - 1.0;
  fmt::print("book_bench: DAG build and backsolve beside the PGN reader, single thread; load average {:.2f}{}\n",
             load, load > free_cores + 0.5 ? " (the machine is loaded: figures are the machine's share, not its speed)" : "");

  bool met = true;
  if (!scale.empty()) {
    const std::string folder = std::filesystem::temp_directory_path().string();
    for (const std::size_t millions : scale) {
      ScaleVerdict v;
      const long peak_kb = in_child(std::function<ScaleVerdict()>([&] { return scale_run(millions, seed, folder, pv_plies); }), v);
      if (peak_kb < 0) {
        fmt::print("  the child process failed\n");
        met = false;
        continue;
      }
      const double peak_mb = peak_kb / 1024.0;
      fmt::print("  peak resident size of the process: {:.1f} MB ({:.0f} bytes a position)   {}\n", peak_mb,
                 peak_kb * 1024.0 / static_cast<double>(v.nodes),
                 peak_mb <= kScalePeakMegabytes ? "target met (<= 2 GB)" : "TARGET MISSED (<= 2 GB)");
      met = met && peak_mb <= kScalePeakMegabytes && v.epdd_seconds <= kScaleSeconds &&
            v.build_plies_per_second >= kScaleBuildTarget;
    }
    fmt::print("\n{}\n", met ? "all targets met" : "a target was missed");
    return met ? 0 : 1;
  }
  auto section = [&](const std::string& what, const std::function<Verdict()>& work) {
    Verdict v;
    const long peak_kb = in_child(work, v);
    if (peak_kb < 0) {
      fmt::print("  {}: the child process failed\n", what);
      met = false;
      return;
    }
    const double peak_mb = peak_kb / 1024.0;
    const bool large = v.nodes >= kMillion;
    fmt::print("  peak resident size of the process (text, DAG, values, backsolve): {:.1f} MB   {}\n", peak_mb,
               !large ? "(target is for >= 1 M nodes)"
                      : peak_mb < kPeakMegabytes ? "target met (< 500 MB)" : "TARGET MISSED (< 500 MB)");
    met = met && v.build_plies_per_second >= kBuildTarget;
    if (large) met = met && v.backsolve_seconds < kBacksolveSeconds && peak_mb < kPeakMegabytes;
  };
  if (only != "generated")
    section("real", [&] {
      return measure(fmt::format("Real games: twic0920, tcec-engine-comments, 2moves_v2 repeated to {} MB", megabytes),
                     real_text(files, megabytes), repeat, seed, check_plain);
    });
  if (only != "real")
    section("generated", [&] {
      return measure(fmt::format("Generated games: {} random legal games, seed {}", games, seed),
                     generated_text(games, seed), repeat, seed, check_plain);
    });
  fmt::print("\n{}\n", met ? "all targets met" : "a target was missed");
  return met ? 0 : 1;
}
