#include "cli/cli.hpp"

#include <iostream>
#include <map>
#include <thread>

#include <CLI/CLI.hpp>

#include "cli_analysis.hpp"
#include "cli_help.hpp"
#include "version_text.hpp"
#include "cli/check_engine_command.hpp"
#include "cli/epd_command.hpp"
#include "cli/perft_command.hpp"
#include "cli/convert_command.hpp"
#include "cli/pgn_command.hpp"
#include "cli/report_command.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

// --all and --severity of the check commands (epd check, pgn check), each with its format's
// own Severity.
template <class Severity>
void add_report_choice(CLI::App* cmd, bool& all, Severity& min_severity) {
  cmd->add_flag("--all", all, "Print every diagnostic (default: the first 5 of each kind per file)");
  // Read as a word and checked by name, so that a wrong one is told in words ("bogus not in
  // {note,warning,error}"), not as the enum's internals.
  cmd->add_option_function<std::string>(
         "--severity",
         [&min_severity](const std::string& v) {
           min_severity = v == "error" ? Severity::Error : v == "warning" ? Severity::Warning : Severity::Note;
         },
         "Least severity printed: note, warning or error")
      ->transform(CLI::IsMember({"note", "warning", "error"}, CLI::ignore_case))
      ->type_name("note|warning|error");
}

void add_perft(CLI::App& app, PerftOptions& o, int& status) {
  auto* cmd = app.add_subcommand("perft", "Check move generation against perft counts");
  cmd->add_option("files", o.files,
                  "Perft files: one position a line (FEN, or EPD's four fields) followed by\n"
                  "';D1 20 ;D2 400 ...' counts. Blank lines and '#' comments are skipped ('-':\n"
                  "standard input).\n"
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

void add_epd(CLI::App& app, EpdCheckOptions& check, EpdFormatOptions& format, int& status) {
  auto* epd = app.add_subcommand("epd", "Check and rewrite EPD files");
  epd->require_subcommand(1);
  epd->footer("Run 'epdd epd check --help' or 'epdd epd format --help' for details.");

  auto* c = epd->add_subcommand("check", "Report every problem of EPD files, with file:line:column");
  c->add_option("files", check.files, "EPD files ('-': standard input, named '-' in messages)")->required();
  c->add_flag("--chess960", check.chess960, "Read KQkq castling letters as X-FEN (the outermost rooks)");
  c->add_flag("!--no-moves", check.moves, "Do not check move operands (am, bm, pm, pv, sm)");
  add_report_choice(c, check.all, check.min_severity);
  c->footer(
      "Each problem is printed as FILE:LINE:COLUMN: SEVERITY: MESSAGE [KIND], followed by a summary per file\n"
      "that counts every kind. Errors: the record or operation cannot be used as written (illegal\n"
      "position or move, wrong operand type). Warnings: usable but not as the standard says. Notes:\n"
      "harmless departures (spacing, long algebraic moves, operation order).\n"
      "Exit status: 0 no errors, 1 errors, 2 a file could not be read.\n\n"
      "Examples:\n"
      "  epdd epd check ../shared/data/suites/wac.epd\n"
      "  epdd epd check --severity warning --all suite.epd");
  c->callback([&] { status = run_epd_check(check, std::cout, std::cerr); });

  auto* f = epd->add_subcommand("format", "Rewrite an EPD file canonically (moves in SAN, single spaces)");
  f->add_option("file", format.file, "EPD file ('-': standard input)")->required();
  f->add_option("-o,--output", format.output, "Write here (atomically; may be the input file; '-': stdout). Default: stdout");
  f->add_flag("--sort-ops", format.sort_ops, "Put operations in ASCII order of their opcodes");
  f->add_flag("--chess960", format.chess960, "Read KQkq castling letters as X-FEN (the outermost rooks)");
  detail::add_counters(f, format.counters_as_operations);
  f->footer(
      "Canonical form: the four position fields exactly as written; each operation as 'opcode operand...;'\n"
      "with single spaces; moves (am bm pm pv sm) in SAN, am/bm in ASCII order; strings quoted; FEN\n"
      "counters after the fields become hmvc/fmvn; ce mate forms like +M3 become numbers. Blank lines,\n"
      "comments and line endings are kept. Operations with errors are kept as written (and reported).\n"
      "Formatting a formatted file changes nothing.\n"
      "Exit status: 0 clean, 1 some operations kept as written because of errors, 2 unreadable/unwritable.\n\n"
      "Examples:\n"
      "  epdd epd format ../shared/data/suites/mate_in_2.epd -o mate_in_2.epd\n"
      "  epdd epd format suite.epd --sort-ops > sorted.epd");
  f->callback([&] { status = run_epd_format(format, std::cout, std::cerr); });
}

void add_pgn(CLI::App& app, PgnCheckOptions& check, PgnWriteOptions& write, int& status) {
  auto* pgn = app.add_subcommand("pgn", "Check, export, sort and convert PGN files");
  pgn->require_subcommand(1);
  pgn->footer("Run 'epdd pgn COMMAND --help' for details.");

  auto* c = pgn->add_subcommand("check", "Report every problem of PGN files, with file:line:column and game");
  c->add_option("files", check.files, "PGN files (or PGC, ChessLive! move files: .pgc, .clm, or by content;\n'-': standard input, named '-' in messages)")
      ->required();
  add_report_choice(c, check.all, check.min_severity);
  c->add_option("--from", check.from, "pgn, pgc or clm: the files' format, whatever their names or first bytes say")
      ->check(CLI::IsMember({"pgn", "pgc", "clm"}));
  c->footer(
      "Each problem is printed as FILE:LINE:COLUMN: SEVERITY: game N: MESSAGE [KIND], then a summary per file.\n"
      "An illegal move ends its game (or its variation): the moves before it are kept and the next game is\n"
      "read as if nothing happened. The file is read as a stream; its size does not matter.\n"
      "PGC (the standard's binary games) and ChessLive! move files are read too: by suffix (.pgc, .clm), else\n"
      "by their first bytes. A damaged PGC file is one error with its byte offset (FILE: error: byte N, game G:\n"
      "...), and reading stops there; a move file's error says its line and column.\n"
      "Exit status: 0 no errors, 1 errors, 2 a file could not be read.\n\n"
      "Examples:\n"
      "  epdd pgn check ../shared/data/pgn/twic0920.pgn\n"
      "  epdd pgn check twic.pgc live.clm\n"
      "  epdd pgn check --severity warning --all games.pgn");
  c->callback([&] { status = run_pgn_check(check, std::cout, std::cerr); });

  // export, sort and to-epd: one input file, -o, and run_pgn_write doing ACTION.
  auto add_writer = [&](const char* name, const char* description, PgnAction action) {
    auto* cmd = pgn->add_subcommand(name, description);
    cmd->add_option("file", write.file, "PGN file (or PGC, or a ChessLive! move file, as 'pgn check' reads them;\n'-': standard input, read a game at a time)")
        ->required();
    cmd->add_option("-o,--output", write.output,
                    "Write here (atomically; may be the input file; '-': stdout, a game at a time). Default: stdout");
    cmd->add_option("--from", write.from, "pgn, pgc or clm: the input's format, whatever its name or first bytes say")
        ->check(CLI::IsMember({"pgn", "pgc", "clm"}));
    cmd->callback([&write, &status, action] {
      write.action = action;
      status = run_pgn_write(write, std::cout, std::cerr);
    });
    return cmd;
  };
  auto* e = add_writer("export", "Write PGN export format, byte for byte as the standard says", PgnAction::Export);
  e->add_flag("--reduced", write.reduced, "Reduced export format: the Seven Tag Roster only (SetUp, FEN and\n"
                                          "Variant kept where present), no comments, variations or NAGs");
  e->footer(
      "Export format: the Seven Tag Roster first ('?' where missing), other tags in ASCII order, one per line;\n"
      "a blank line; movetext in lines under 80 characters; move numbers before White moves and before a Black\n"
      "move only at the start of a line of play or after a comment or variation; suffix annotations as NAGs\n"
      "($1 for !); comments and variations kept; the result last; LF line endings.\n"
      "Exit status: 0 clean, 1 games with errors (written up to the error), 2 unreadable/unwritable.\n\n"
      "Examples:\n"
      "  epdd pgn export games.pgn -o clean.pgn\n"
      "  epdd pgn export --reduced games.pgn > reduced.pgn\n"
      "  zcat games.pgn.gz | epdd pgn export - -o - | less     (a filter: a game at a time)");
  auto* s = add_writer("sort", "Sort games into the standard's collation order, in export format", PgnAction::Sort);
  s->footer(
      "Order: Date (unknown digits as 0), Event, Site, Round (numeric; ? before - before numbers), White,\n"
      "Black, Result, then the movetext. Equal games keep their order. The whole file is held in memory.\n\n"
      "Example:\n"
      "  epdd pgn sort games.pgn -o sorted.pgn");
  auto* t = add_writer("to-epd", "Write every position of every game's main line as EPD", PgnAction::ToEpd);
  t->add_flag("--comments", write.comments, "Put the comments after each move into c0 of its record");
  t->footer(
      "One record per position: before each move with sm (the move played), and the final position; with\n"
      "hmvc, fmvn, id \"game N ply P\", eco from the ECO tag, v0 from Opening and v1 from Variation.\n"
      "Chess960 games are written with Shredder-FEN castling (HAha), so their rights survive any reader.\n\n"
      "Example:\n"
      "  epdd pgn to-epd games.pgn -o positions.epd");
}

void add_convert(CLI::App& app, ConvertOptions& o, int& status) {
  auto* cmd = app.add_subcommand(
      "convert", "Convert games between PGN, PGC (the standard's binary coding) and ChessLive! move files, or to EPD");
  cmd->add_option("file", o.input, "A .pgn, .pgc or .clm file (another suffix, or '-' for standard input: its first bytes tell)")->required();
  cmd->add_option("-o,--output", o.output,
                  "Write here, atomically: .pgn, .pgc, .clm or .epd says the format. Default: stdout");
  cmd->add_option("--to", o.to, "pgn, pgc, clm or epd: the output's format, whatever its name says (default:\n"
                                "its suffix's; PGN on stdout)")
      ->check(CLI::IsMember({"pgn", "pgc", "clm", "epd"}, CLI::ignore_case))
      ->type_name("pgn|pgc|clm|epd");
  cmd->add_flag("--lossy", o.lossy, "PGC and move files: write games that hold what the format cannot (PGC:\n"
                                    "comments, text beyond Latin-1; move files: comments, NAGs, variations, a\n"
                                    "set-up start), leaving it out; what was left out is counted on stderr");
  cmd->add_flag("--reduced", o.reduced, "The reduced export format: the Seven Tag Roster (and SetUp, FEN, Variant)\n"
                                        "and the main line only, no comments, NAGs or variations. PGC: written as\n"
                                        "its reduced-game records (twic0920: a fifth of the PGN's size)");
  cmd->add_option("--from", o.from, "pgn, pgc or clm: the input's format, whatever its name or first bytes say")
      ->check(CLI::IsMember({"pgn", "pgc", "clm"}));
  cmd->add_flag("--no-santags", o.no_santags, "Move files: write Move/Depth/Score/Time without the fifth field, the\n"
                                              "SANtag (the reader takes both forms and keeps neither)");
  cmd->add_option("--start", o.start, "ChessLive! input: the FEN its moves start from (a move file cannot say;\n"
                                      "default: the standard start; an X-FEN or Shredder-FEN for Chess960)");
  cmd->footer(
      "A game at a time: the file's size does not matter. PGN is read as 'epdd pgn check' reads it (its errors\n"
      "are said with file:line:column; a game with an illegal move is written up to it) and written in export\n"
      "format; EPD is every position of every game, as 'epdd pgn to-epd' writes it. PGC holds tags, moves, NAGs\n"
      "and variations, strings in Latin-1, but no comments: a game that has any is named and nothing is written,\n"
      "unless --lossy. A damaged PGC file is an error with its byte offset.\n"
      "A ChessLive! move file (.clm) holds one game: its players, its moves as square steps (e1:g1:h1:f1), each\n"
      "with Depth/Score/Time if the engine gave them ([%eval] and [%clk] in PGN, Score in centipawns from\n"
      "White's point of view, Time in seconds), and the result with its reason (a comment in PGN). Other tags\n"
      "have no place in it and are counted when left out; several games go to OUT-1.clm, OUT-2.clm ...\n"
      "Exit status: 0 every game converted; 1 PGN games with errors (written up to the error), or games the\n"
      "output cannot hold without --lossy (then nothing is written); 2 bad options, an unreadable input, an\n"
      "unwritable output, a damaged PGC input or a move file against its grammar (the error says line and\n"
      "column; with -o nothing is written, on stdout the games before it are).\n\n"
      "Examples:\n"
      "  epdd convert ../shared/data/pgn/twic0920.pgn -o twic.pgc\n"
      "  epdd convert twic.pgc -o twic.pgn\n"
      "  epdd convert ../shared/data/pgn/heavily-annotated.pgn -o annotated.pgc --lossy\n"
      "  epdd convert games.pgc --to epd > positions.epd\n"
      "  epdd convert live.clm -o live.pgn\n"
      "  epdd convert twic.pgc -o rounds/twic.clm     (twic-0001.clm, twic-0002.clm ...)");
  cmd->callback([&o, &status] { status = run_convert(o, std::cout, std::cerr); });
}

void add_report(CLI::App& app, ReportOptions& o, int& status) {
  auto* cmd = app.add_subcommand("report", "One self-contained HTML page from suite runs, an annotation or a book");
  cmd->add_option("results", o.results,
                  "JSON reports (--json of suite, annotate, book backsolve; '-': standard input) or job ids of the store")
      ->required();
  cmd->add_option("-o,--output", o.output, "Write the page here, atomically ('-': stdout). Default: stdout");
  cmd->add_option("--store", o.where.store, "The store of the job ids (an SQLite file or a PostgreSQL URL; default\n"
                                            "./epdd.db, or the [store] of --config)");
  cmd->add_option("--config", o.where.config, "The daemon's configuration file, for its store");
  cmd->footer(
      "The page is one file: styles and charts (SVG) inline, nothing fetched, no script; it opens from disk or a\n"
      "mail attachment, and its tables read without a browser's help. Which page comes from the JSON's \"format\":\n"
      "every result given is of one kind. Several suite runs make one page with the runs side by side.\n"
      "Exit status: 0 written, 2 a result that cannot be read or has no page, results of different kinds, an\n"
      "unwritable output, a job that is not finished.\n\n"
      "Examples:\n"
      "  epdd suite ../shared/data/suites/wac.epd --nodes 100000 --json sf.json\n"
      "  epdd report sf.json -o wac.html\n"
      "  epdd report sf.json eth.json -o compare.html\n"
      "  epdd report 12 --store epdd.db -o job12.html");
  cmd->callback([&o, &status] { status = run_report(o, std::cout, std::cerr); });
}

void add_check_engine(CLI::App& app, CheckEngineOptions& o, int& status) {
  auto* cmd = app.add_subcommand("check-engine", "Run a UCI compliance check on an engine, step by step");
  cmd->add_option("--config", o.config, "Engines file (TOML) to take the engine from");
  cmd->add_option("--engine", o.engine, "The engine: its name in --config (default: its first engine), or\n"
                                        "(without --config) the path of a UCI program, as for every command");
  cmd->add_option("--timeout-scale", o.timeout_scale, "Multiply every timeout (slow machines)")
      ->check(CLI::Range(0.01, 1000.0));
  detail::add_engine_settings(cmd, o.options, o.engine_args,
                              "It overrides the option of that name in the --config file. The options sent\n"
                              "are printed under the handshake; a refused one fails it (status 1) and says why\n"
                              "(the closest declared names for a misspelt one)");
  cmd->add_flag("-v,--verbose", o.verbose, "Log what the engine prints on stderr and every problem as it happens");
  cmd->add_option("command", o.command, "After --: the engine's program and arguments");
  cmd->footer(
      "Steps: handshake (uci, options, isready), isready, go depth, go nodes, go movetime, go mate, go infinite\n"
      "then stop, multipv 3, position with moves, a mate in 1, bestmove in checkmate and stalemate, quit.\n"
      "Each prints PASS or FAIL with what was seen; the engine's output is checked (legal bestmove and PV,\n"
      "scores, the limits kept). An engine that dies in a step is restarted for the next one.\n"
      "Without --config or a command: Debian's Stockfish (/usr/games/stockfish). The engine is sent what the\n"
      "other commands send it: Threads=1 and Hash=16 where it declares them, then every --option.\n"
      "Exit status: 0 every step passed, 1 a step failed, 2 bad arguments or configuration.\n\n"
      "Examples:\n"
      "  epdd check-engine\n"
      "  epdd check-engine --config engines.toml --engine ethereal\n"
      "  epdd check-engine -- /usr/games/ethereal-chess\n"
      "  epdd check-engine -- /usr/games/fairy-stockfish\n"
      "  epdd check-engine --option \"Move Overhead=30\" --option UCI_ShowWDL=true");
  cmd->callback([&o, &status] { status = run_check_engine(o, std::cout, std::cerr); });
}

}  // namespace

// Option values outlive parsing: the commands' callbacks read them.
struct CommandLine::Options {
  int status = 0;
  PerftOptions perft;
  EpdCheckOptions epd_check;
  EpdFormatOptions epd_format;
  PgnCheckOptions pgn_check;
  PgnWriteOptions pgn_write;
  ConvertOptions convert;
  ReportOptions report;
  CheckEngineOptions check_engine;
  AnalyseOptions analyse;
  SuiteOptions suite;
  std::vector<std::string> compare_files;
  AnnotateOptions annotate;
  BookOptions book;
  BookOptions book_grow;
  BookLeavesOptions book_leaves;
};

CommandLine::CommandLine()
    : options_(std::make_unique<Options>()),
      app_(std::make_unique<CLI::App>("epdd: an analysis bridge between chess engines and EPD, PGN and opening books.",
                                      "epdd")) {
  CLI::App& app = *app_;
  Options& o = *options_;
  int& status = o.status;
  app.set_version_flag("--version", detail::version_text);
  app.require_subcommand(1);
  app.footer("Run 'epdd COMMAND --help' for a command's options and examples.");
  // Before the commands are added: each takes the formatter over from the app.
  app.formatter(std::make_shared<detail::HelpFormatter>());
  add_perft(app, o.perft, status);
  add_epd(app, o.epd_check, o.epd_format, status);
  add_pgn(app, o.pgn_check, o.pgn_write, status);
  add_convert(app, o.convert, status);
  add_report(app, o.report, status);
  add_check_engine(app, o.check_engine, status);
  detail::add_analyse(app, o.analyse, status);
  detail::add_suite(app, o.suite, o.compare_files, status);
  detail::add_annotate(app, o.annotate, status);
  detail::add_book(app, o.book, o.book_grow, o.book_leaves, status);
  detail::add_daemon_commands(app, status);
}

CommandLine::~CommandLine() = default;

CLI::App& CommandLine::app() { return *app_; }

int CommandLine::status() const { return options_->status; }

int run_cli(int argc, char** argv) {
  CommandLine command_line;
  CLI::App& app = command_line.app();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return command_line.status();
}

}  // namespace epdd::cli
