// The command-line definition of `epdd book`.
#include <iostream>

#include "cli_analysis.hpp"

namespace epdd::cli::detail {

using namespace daemon;  // the commands call into the daemon library

void add_book(CLI::App& app, BookOptions& o, int& status) {
  auto* book = app.add_subcommand("book", "Opening books: backsolve a book of positions to its root");
  book->require_subcommand(1);
  auto* cmd = book->add_subcommand(
      "backsolve", "Build a book from PGN, Polyglot and EPD files, analyse its leaves, backsolve every position");
  cmd->add_option("inputs", o.inputs,
                  "The book's files, any mix: .pgn (games: main lines and variations), .bin (Polyglot),\n"
                  ".epd (records: each a position)")
      ->required();
  add_common(cmd, o.analysis, "", false);
  cmd->add_option("-o,--output", o.output, "Write the book as EPD here (atomically). Default: stdout");
  cmd->add_option("--json", o.json, "Also write the report as JSON here");
  add_kind_flags(cmd, o.analysis.spec, find_kind("book"));
  add_kind_options(cmd, o.analysis.spec, find_kind("book"));
  cmd->footer(
      "The model. A book is a graph of positions, not a tree of move paths: a position reached by two\n"
      "move orders (a transposition) is one position with one value. Its moves are the moves of the input:\n"
      "every move of the games' main lines and variations (--max-ply, --min-games), every entry of the\n"
      "Polyglot books walked from the start position, and with --link-epd the legal moves between EPD\n"
      "records. A leaf is a position without a book move: the engine analyses it (through the store, as\n"
      "'epdd analyse': a rerun resumes, and a leaf any earlier job analysed is not searched again). A\n"
      "checkmate, stalemate or position without mating material is valued by the rules, without a search.\n"
      "Backsolving: every other position is worth its best move's value (negamax), from the side to move\n"
      "as EPD ce: centipawns, or 32767-N for mate in N plies, one ply longer per level back. A move back\n"
      "into a position already on the line (a repetition inside the book) counts as a draw, 0, so the\n"
      "result does not depend on the order of the input. A leaf without a value (the engine failed) is\n"
      "never taken as 0: the positions above it are valued over their other moves and marked incomplete.\n"
      "The EPD (-o): one record per position, the start first, then by ply: ce, bm (the best moves), pv (the\n"
      "best line through the book, continued by the leaf's engine line), acd/acn/acs on analysed leaves,\n"
      "id (the first move path from the start, \"1. e4 c5 2. Nf3\"), c0 (leaf, interior, terminal,\n"
      "unvalued or incomplete). --polyglot: a .bin whose best moves have the highest weight. The report on\n"
      "stderr (and --json): positions, moves, leaves analysed and unvalued, the root's value.\n"
      "Exit status: 0 done, 1 some leaves could not be analysed (the rest is written), 2 bad arguments,\n"
      "input, configuration or store, 3 the engine could not be started, 130 interrupted (rerun the same\n"
      "command to resume: nothing analysed is analysed again).\n\n"
      "Examples:\n"
      "  epdd book backsolve repertoire.pgn --max-ply 16 --nodes 1000000 -o book.epd --polyglot book.bin\n"
      "  epdd book backsolve 2moves.pgn gm2001.bin --depth 20 --concurrency 2 -o book.epd --ce-for-white\n"
      "  epdd book backsolve games.pgn --min-games 5 --max-ply 20 --movetime 500 -o book.epd --json report.json");
  cmd->callback([&o, &status] {
    default_limit(o.analysis.spec.limits);
    status = run_book_backsolve(o, std::cout, std::cerr);
  });
}

}  // namespace epdd::cli::detail
