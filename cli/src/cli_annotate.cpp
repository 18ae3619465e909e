// The command-line definition of `epdd annotate`.
#include <iostream>

#include "cli_analysis.hpp"

namespace epdd::cli::detail {

using namespace daemon;  // the commands call into the daemon library

void add_annotate(CLI::App& app, AnnotateOptions& o, int& status) {
  auto* cmd = app.add_subcommand(
      "annotate", "Annotate the games of a PGN file: [%eval], judgement NAGs and comments, engine lines");
  add_common(cmd, o.analysis,
             "The PGN file (read laxly: missing tags, move numbers or results are fine); or PGC (.pgc) or a\n"
             "ChessLive! move file (.clm), by suffix or content: annotated as the PGN 'epdd convert' gives;\n"
             "'-': standard input",
             false);
  cmd->add_option("-o,--output", o.output, "Write the annotated PGN here (atomically; may be the input; '-': stdout). Default: stdout");
  cmd->add_option("--json", o.json, "Also write the summary as JSON here (per game, side and player; '-': stdout, with -o FILE)");
  cmd->add_option("--html", o.html, "Also write the report as one self-contained HTML page here (as 'epdd report' makes it\n"
                  "from the JSON; '-': stdout)");
  add_kind_options(cmd, o.analysis.spec, find_kind("annotate"));
  cmd->footer(
      "Every position of every game's main line is analysed (the start position and the position after each\n"
      "move; a final checkmate or stalemate is scored without the engine). Within a game the engine keeps\n"
      "its hash (ucinewgame once per game; --new-game clear: before every position); --concurrency N\n"
      "annotates N games at once. Positions any earlier game or run already has come from the analysis cache.\n"
      "Written in PGN export format, every tag, comment, NAG and variation of the input kept:\n"
      "  [%eval 0.35,20] after each move (pawns from White's view, depth; #3 White mates in 3, #-3 Black\n"
      "  does), the start position's before move 1; an existing [%eval] is replaced, [%clk] and the rest\n"
      "  are kept. A judged move gets $6 inaccuracy (?!), $2 mistake (?) or $4 blunder (?\?) (not over a\n"
      "  human's $1-$6 unless --replace-nags), lichess's comment \"(0.36 -> -0.36) Inaccuracy. Nf3 was\n"
      "  best.\", and the engine's line from before the move as a variation (--variation-plies).\n"
      "  An engine's judgement already there (a lichess export's, an earlier run's: those words, the\n"
      "  move's NAG and the line they name) is one thing: kept whole, ours beside it as \"epdd: ...\" and\n"
      "  our line, no second NAG (a note counts them); --replace-analysis replaces it whole with ours.\n"
      "  The Annotator tag names epdd, the engine and the limits (after the earlier annotator's name,\n"
      "  unless --replace-analysis left nothing of its judgements).\n"
      "The output is written a game at a time once every position is analysed (-o: into a temporary\n"
      "file beside it, renamed into place after the last game: the file appears whole or not at all).\n"
      "A game the reader cannot fully read (an illegal move) is written back byte for byte and reported\n"
      "with its line. The summary (stderr, --json): per game and side the inaccuracies, mistakes and\n"
      "blunders and the average centipawn loss (scores capped at +-10.00, as lichess); per player over\n"
      "the file.\n"
      "PGC and ChessLive! input is converted to PGN first (the output is PGN; a move file's Depth/Score/Time\n"
      "are its [%eval] and [%clk], replaced or kept as above); a damaged one is refused with its byte or line.\n"
      "Exit status: 0 done, 1 some games were written back unchanged or positions failed, 2 bad arguments,\n"
      "input, configuration or store, 3 the engine could not be started, 130 interrupted (rerun the same\n"
      "command to resume: a game interrupted in the middle is annotated again from its start).\n\n"
      "Examples:\n"
      "  epdd annotate games.pgn -o annotated.pgn --nodes 1000000\n"
      "  epdd annotate twic.pgn -o twic-annotated.pgn --movetime 200 --concurrency 2 --json summary.json\n"
      "  epdd annotate my-games.pgn -o out.pgn --depth 18 --player \"Carlsen, Magnus\" --book gm2001.bin\n"
      "  epdd annotate games.pgn --nodes 200000 --judge cp:50,100,300 --from-ply 16 > annotated.pgn\n"
      "  epdd annotate games.pgn -o out.pgn --depth 16 --only-moves --position-nags --replace-nags\n"
      "  epdd annotate twic.pgc -o twic-annotated.pgn --nodes 200000\n"
      "  epdd submit annotate games.pgn --config /etc/epdd/epdd.toml --depth 20 -o out.pgn   (a daemon)");
  cmd->callback([&o, &status] {
    default_limit(o.analysis.spec.limits);
    status = run_annotate(o, std::cout, std::cerr);
  });
}

}  // namespace epdd::cli::detail
