#include "daemon/cli.hpp"

#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>

#include "daemon/perft_command.hpp"

namespace epdd::daemon {

namespace {

constexpr const char* kVersion = "epdd 0.1.0";

void add_perft(CLI::App& app, PerftOptions& o, int& status) {
  auto* cmd = app.add_subcommand("perft", "Check move generation against perft counts");
  cmd->add_option("files", o.files,
                  "Perft files: one position a line (FEN, or EPD's four fields) followed by\n"
                  "';D1 20 ;D2 400 ...' counts. Blank lines and '#' comments are skipped.\n"
                  "Without files and --fen: the built-in suite (8 positions, depth 5).");
  cmd->add_option("--fen", o.fen, "Count one position (FEN, or EPD's four fields) instead");
  cmd->add_option("--depth", o.depth, "With --fen: the depth to count")->check(CLI::Range(1, 20));
  cmd->add_option("--max-depth", o.max_depth, "With files: check only counts up to this depth")
      ->check(CLI::Range(1, 20));
  cmd->add_option("-j,--jobs", o.jobs,
                  "Positions counted at once (default 1; 0: one per core)")
      ->check(CLI::Range(0u, 1024u));
  cmd->add_flag("--chess960", o.chess960,
                "Read KQkq castling letters as X-FEN (the outermost rooks). Shredder-FEN\n"
                "letters (HFhf) are always Chess960.");
  cmd->add_flag("--divide", o.divide, "With --fen: print the count below each legal move (UCI)");
  cmd->footer(
      "Exit status: 0 all counts match, 1 a mismatch or malformed line, 2 unreadable input.\n\n"
      "Examples:\n"
      "  epdd perft                                   the built-in suite\n"
      "  epdd perft ../shared/data/perft/standard.epd --max-depth 5\n"
      "  epdd perft ../shared/data/perft/chess960.epd --max-depth 4 --jobs 0\n"
      "  epdd perft --fen 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1' --depth 3 --divide");
  cmd->callback([&o, &status, cmd] {
    if (o.fen && !o.files.empty()) throw CLI::ValidationError("--fen", "give either files or --fen, not both");
    if (o.fen && o.depth == 0) throw CLI::RequiredError("--depth (with --fen)");
    if (!o.fen && o.divide) throw CLI::ValidationError("--divide", "needs --fen");
    if (!o.fen && cmd->count("--depth")) throw CLI::ValidationError("--depth", "goes with --fen; use --max-depth with files");
    if (o.jobs == 0) o.jobs = std::max(1u, std::thread::hardware_concurrency());
    status = run_perft(o, std::cout, std::cerr);
  });
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app("epdd: an analysis bridge between chess engines and EPD, PGN and opening books.", "epdd");
  app.set_version_flag("--version", kVersion);
  app.require_subcommand(1);
  app.footer("Run 'epdd COMMAND --help' for a command's options and examples.");
  int status = 0;
  PerftOptions perft;
  add_perft(app, perft, status);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return status;
}

}  // namespace epdd::daemon
