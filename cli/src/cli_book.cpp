// The command-line definition of `epdd book`.
#include <iostream>

#include "cli_analysis.hpp"

namespace epdd::cli::detail {

using namespace daemon;  // the commands call into the daemon library

namespace {

void add_leaves(CLI::App* book, BookLeavesOptions& o, int& status) {
  auto* cmd = book->add_subcommand("leaves", "Write the leaves of a book as EPD, for an analyst to fill in (BOOKUP's round trip)");
  cmd->add_option("inputs", o.inputs, "The book's files, as 'epdd book backsolve' reads them ('-': standard input)")->required();
  cmd->add_option("-o,--output", o.output, "Write the leaves here (atomically; '-': stdout). Default: stdout");
  cmd->add_option("--max-ply", o.max_ply, "As 'epdd book backsolve'")->check(CLI::Range(1, 1000));
  cmd->add_option("--min-games", o.min_games, "As 'epdd book backsolve'")->check(CLI::Range(1, 1'000'000'000));
  cmd->add_flag("--link-epd", o.link_epd, "As 'epdd book backsolve'");
  cmd->add_flag("--chess960", o.chess960, "EPD input: read KQkq castling letters as X-FEN (the outermost rooks)");
  cmd->footer(
      "One record per leaf of the book (a position without a book move that the rules do not decide), in\n"
      "the order 'epdd book backsolve' writes the book: the four fields, id (the first move path from the\n"
      "start, \"1. e4 c5 2. Nf3\") and c0 \"leaf\". Fill in ce (from the side to move), acd, pv with any\n"
      "engine or by hand, and give the file back: 'epdd book backsolve ... --import filled.epd' takes those\n"
      "values for the leaves (--merge replace: instead of searching them; deeper: the deeper of the two).\n"
      "The same inputs and --max-ply/--min-games/--link-epd must be given to both commands.\n"
      "Exit status: 0 written, 1 some of the input could not be used (each said on stderr with its\n"
      "file and line; the rest is written), 2 bad arguments or input.\n\n"
      "Examples:\n"
      "  epdd book leaves repertoire.pgn --max-ply 16 -o leaves.epd\n"
      "  epdd analyse leaves.epd --depth 30 -o leaves.epd       # or any tool that writes ce/acd/pv\n"
      "  epdd book backsolve repertoire.pgn --max-ply 16 --import leaves.epd -o book.epd --pgn book.pgn");
  cmd->callback([&o, &status] { status = run_book_leaves(o, std::cout, std::cerr); });
}

// What book backsolve and book grow share: the engine and store, the outputs, the kind's settings.
void add_book_job_options(CLI::App* cmd, BookOptions& o, const char* kind, const char* what) {
  add_common(cmd, o.analysis, "", false);
  cmd->add_option("-o,--output", o.output, fmt::format("Write {} as EPD here (atomically; '-': stdout). Default: stdout", what));
  cmd->add_option("--json", o.json, "Also write the report as JSON here ('-': stdout, with -o FILE)");
  cmd->add_option("--html", o.html, "Also write the report as one self-contained HTML page here (as 'epdd report' makes it\n"
                  "from the JSON; '-': stdout)");
  cmd->add_flag("--chess960", o.analysis.spec.chess960, "EPD input: read KQkq castling letters as X-FEN (the outermost rooks)");
  add_kind_flags(cmd, o.analysis.spec, find_kind(kind));
  add_kind_options(cmd, o.analysis.spec, find_kind(kind));
}

void add_grow(CLI::App* book, BookOptions& o, int& status) {
  auto* cmd = book->add_subcommand(
      "grow", "Grow a book where it matters: expand, round after round, the leaf nearest the best line (drop-out expansion)");
  cmd->add_option("inputs", o.inputs,
                  "The book to grow, as 'epdd book backsolve' reads it (.pgn, .bin, .epd); none: the start position");
  add_book_job_options(cmd, o, "book-grow", "the grown book");
  cmd->footer(
      "Growing. The book's leaves are searched and the book backsolved as 'epdd book backsolve' does it.\n"
      "Then every position gets, beside its value, an expansion priority: a leaf 0; any other position the\n"
      "least, over its moves, of  alpha * (its value - the move's value) + the child's priority + 1,\n"
      "values as expected scores from 0 (lost) to 1 (won) by lichess's winning chances, so that a loss of\n"
      "0.1 weighs the same at +0.2 as at +5. From the root, the move of least priority is followed to a\n"
      "leaf (on a tie, the first move in the book's order), that leaf is expanded (--width), its new\n"
      "positions are searched, the book is backsolved again, and so on. A transposition joins the position\n"
      "already in the book; a checkmate, stalemate or dead position is valued by the rules.\n"
      "Choosing alpha: at 50 (the default) a move 0.02 worse than the best (about 20 centipawns near\n"
      "equality) costs as much as one ply deeper on the best line; 200 follows the main line far and keeps\n"
      "the book narrow; 5 or less grows it wide over every playable move.\n"
      "Stopping: --positions, --expansions, --time (whichever comes first; Ctrl-C too). The growth is a\n"
      "function of the input, the settings and the answers: run the same command again after an\n"
      "interruption or a kill and it goes on where it was (nothing searched is searched again); again with\n"
      "a larger --positions, --expansions or --time and the same book grows further. Progress shows each\n"
      "expansion with the root's value and best line; the report lists the expansions where they moved.\n"
      "Several machines: 'epdd submit book-grow ...' to daemons on one PostgreSQL store; each position is\n"
      "searched once. The outputs and exit statuses are backsolve's.\n\n"
      "Examples:\n"
      "  epdd book grow --nodes 200000 --positions 2000 -o book.epd --pgn book.pgn --polyglot book.bin\n"
      "  epdd book grow repertoire.pgn --book-side white --width 4 --depth 20 --time 8h -o repertoire.epd\n"
      "  epdd book grow --alpha 200 --width 3 --movetime 1000 --expansions 100 --concurrency 2 -o main-line.epd");
  cmd->callback([&o, &status] {
    default_limit(o.analysis.spec.limits);
    status = run_book_grow(o, std::cout, std::cerr);
  });
}

}  // namespace

void add_book(CLI::App& app, BookOptions& o, BookOptions& grow, BookLeavesOptions& leaves, int& status) {
  auto* book = app.add_subcommand("book", "Opening books: backsolve a book of positions to its root, grow it, write its leaves");
  book->require_subcommand(1);
  add_leaves(book, leaves, status);
  add_grow(book, grow, status);
  auto* cmd = book->add_subcommand(
      "backsolve", "Build a book from PGN, Polyglot and EPD files, analyse its leaves, backsolve every position");
  cmd->add_option("inputs", o.inputs,
                  "The book's files, any mix: .pgn (games: main lines and variations), .bin (Polyglot),\n"
                  ".epd (records: each a position); '-': standard input, its type by its content")
      ->required();
  add_book_job_options(cmd, o, "book", "the book");
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
      "into a position already on the line (a repetition inside the book) counts as a draw, 0; cycles are\n"
      "found as strongly connected components, so the result does not depend on the order of the input.\n"
      "A leaf without a value (the engine failed, or gave no score) is never taken as 0: the positions\n"
      "above it are valued over their other moves and marked incomplete, and the leaf is reported.\n"
      "The EPD (-o): one record per position, the start first, then by ply: ce, bm (the best moves), pv (the\n"
      "best line through the book, continued by the leaf's engine line), acd/acn/acs on analysed leaves,\n"
      "id (the first move path from the start, \"1. e4 c5 2. Nf3\"), c0 (leaf, interior, terminal,\n"
      "unvalued or incomplete). --pgn: one game per root (the start; a FEN start or EPD record of its\n"
      "own), the best line as main line and every other book move a variation; after each move the\n"
      "position NAG of its value ($10 equal below 0.30, $14/$15 slight below 0.70, $16/$17 moderate below\n"
      "2.00, $18/$19 decisive, as 'epdd annotate --position-nags'), $6/$2/$4 on a move losing 0.1/0.2/0.3\n"
      "winning chances against the position's best (annotate's rule), [%eval] and the games' results.\n"
      "--polyglot: a .bin whose best moves have the highest weight. The report on stderr (and --json):\n"
      "positions, moves, leaves analysed, imported and without a value (each named), the root's value,\n"
      "and the contradictions: moves of at least 10 games whose score there (55% or more for the mover,\n"
      "or 45% or less) contradicts their value (-0.50 or worse for him, or +0.50 or better), worst first.\n"
      "Exit status: 0 done, 1 some leaves have no value (the engine failed on them) or some of the input\n"
      "could not be used (each said; the rest is written), 2 bad arguments, input, configuration or\n"
      "store, 3 the engine could not be started, 130 interrupted (rerun the same command to resume:\n"
      "nothing analysed is analysed again).\n\n"
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
