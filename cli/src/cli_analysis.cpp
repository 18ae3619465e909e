#include "cli_analysis.hpp"

#include <iostream>
#include <map>

#include "cli/engine_options.hpp"

namespace epdd::cli::detail {

using namespace daemon;  // the commands call into the daemon library

void add_limits(CLI::App* cmd, uci::SearchLimits& l, int& multipv) {
  auto* limits = cmd->add_option_group("Limits (default: --movetime 1000)");
  limits->add_option("--depth", l.depth, "Search to this depth (plies)")->check(CLI::Range(1, 1000));
  limits->add_option("--nodes", l.nodes, "Search this many nodes")->check(CLI::Range(1ull, 1ull << 50));
  limits->add_option("--movetime", l.movetime_ms, "Search this many milliseconds")
      ->check(CLI::Range(1ull, 1ull << 40));
  limits->add_option("--mate", l.mate, "Search for a mate in this many moves")->check(CLI::Range(1, 500));
  limits->add_option("--multipv", multipv, "Lines searched (the first is written back; default 1)")
      ->check(CLI::Range(1, 500));
}

void add_new_game(CLI::App* cmd, std::optional<uci::NewGame>& new_game) {
  cmd->add_option_function<std::string>(
         "--new-game", [&new_game](const std::string& v) { new_game = v == "keep" ? uci::NewGame::Keep : uci::NewGame::Clear; },
         "clear: the engine's hash is cleared (ucinewgame) before each position; keep: it is kept.\n"
         "Default: clear for analyse, suite and book (the positions are unrelated, and results do\n"
         "not depend on their order); for annotate, kept within a game and cleared once per game")
      ->check(CLI::IsMember({"clear", "keep"}))
      ->type_name("clear|keep");
}

void add_counters(CLI::App* cmd, bool& as_operations) {
  // The default is what `as_operations` holds: keep for analyse, suite and submit, ops for format.
  const std::string help =
      as_operations ? "FEN counters after the four fields (`... w - - 0 1`): ops (default) writes them as hmvc/fmvn\n"
                      "operations, the standard's EPD; keep leaves them as written"
                    : "FEN counters after the four fields (`... w - - 0 1`): keep them as written (default), or\n"
                      "ops: write them as hmvc/fmvn operations, the standard's EPD, which python-chess reads";
  cmd->add_option_function<std::string>(
         "--counters", [&as_operations](const std::string& v) { as_operations = v == "ops"; }, help)
      ->check(CLI::IsMember({"keep", "ops"}))
      ->type_name(as_operations ? "ops|keep" : "keep|ops");
}

void add_job_settings(CLI::App* cmd, JobSpec& spec, bool epd_input) {
  add_limits(cmd, spec.limits, spec.multipv);
  add_new_game(cmd, spec.new_game);
  if (!epd_input) return;
  cmd->add_flag("--chess960", spec.chess960, "Read KQkq castling letters as X-FEN (the outermost rooks)");
  add_counters(cmd, spec.counters_as_operations);
}

void add_kind_flags(CLI::App* cmd, JobSpec& spec, const JobKind* kind) {
  const auto add = [&](const KindFlag& flag) { cmd->add_flag(std::string(flag.option), spec.*flag.field, std::string(flag.help)); };
  if (kind) {
    for (const KindFlag& flag : kind->flags()) add(flag);
  } else {
    for (const KindFlag& flag : all_kind_flags()) add(flag);
  }
}

void add_kind_options(CLI::App* cmd, JobSpec& spec, const JobKind* kind) {
  const auto add = [&](const KindOption& option) {
    if (option.type == KindOption::Type::Flag) {
      cmd->add_flag_callback(
          std::string(option.option), [&spec, key = std::string(option.key)] { spec.options[key] = "true"; },
          std::string(option.help));
      return;
    }
    auto* o = cmd->add_option_function<std::string>(
        std::string(option.option), [&spec, key = std::string(option.key)](const std::string& v) { spec.options[key] = v; },
        std::string(option.help));
    o->type_name(std::string(option.type_name));
    o->check([check = option.check](const std::string& v) { return check(v).value_or(std::string()); });
  };
  if (kind) {
    for (const KindOption& option : kind->options()) add(option);
  } else {
    for (const KindOption& option : all_kind_options()) add(option);
  }
}

void add_engine_settings(CLI::App* group, std::vector<uci::OptionSetting>& options, std::vector<std::string>& args,
                         const std::string& extra_help) {
  // One value per occurrence (a vector option would take the input file after it as well).
  group
      ->add_option_function<std::vector<std::string>>(
          "--option",
          [&options](const std::vector<std::string>& texts) {
            for (const auto& text : texts) {
              auto setting = parse_option_setting(text);
              if (!setting) throw CLI::ValidationError(setting.error());
              options.push_back(std::move(*setting));
            }
          },
          "A UCI option for the engine, sent after its uciok; repeatable. Split at the first '=',\n"
          "so names may hold spaces: --option \"Skill Level=5\" --option \"Clear Hash=true\".\n"
          "Checked against what the engine declares (type, range, choices) before any search.\n" +
              extra_help)
      ->type_name("NAME=VALUE")
      ->type_size(1)
      ->allow_extra_args(false);
  group
      ->add_option("--engine-arg", args,
                   "An argument for the engine's program, after those of its configuration; repeatable.\n"
                   "One that starts with '-' is written with '=': --engine-arg=--uci")
      ->type_name("ARG")
      ->type_size(1)
      ->allow_extra_args(false);
}

void add_common(CLI::App* cmd, AnalysisSettings& s, const std::string& input_help, bool epd_input) {
  // Required by analyse and annotate; checked in suite's callback (`epdd suite compare` has no
  // input); none without a help text (book backsolve reads several files, its own option).
  if (!input_help.empty()) {
    auto* input = cmd->add_option("input", s.spec.input, input_help);
    if (cmd->get_name() != "suite") input->required();
  }
  auto* engines = cmd->add_option_group("Engine");
  engines->add_option("--engine", s.spec.engine,
                      "The engine: its name in --config, or (without --config) the path of a UCI\n"
                      "program. Default: Debian's Stockfish, /usr/games/stockfish");
  engines->add_option("--config", s.config, "Engines file (TOML; see 'epdd check-engine --help')");
  engines->add_option("--threads", s.engine.threads, "UCI option Threads (default 1: node limits are then deterministic)")
      ->check(CLI::Range(1, 1024));
  engines->add_option("--hash", s.engine.hash, "UCI option Hash in MB (default 16)")->check(CLI::Range(1, 1 << 20));
  add_engine_settings(engines, s.engine.options, s.engine.args,
                      "A misspelt name or a bad value stops the command with status 2 and says why (the\n"
                      "closest declared names for a misspelt one). It overrides the option of that name in\n"
                      "the --config file; --threads N is --option Threads=N (giving both is an error), --hash\n"
                      "likewise");
  engines->add_option("-c,--concurrency", s.concurrency, "Engine instances analysing at once (default 1)")
      ->check(CLI::Range(1, 256));
  engines->add_option("--timeout-scale", s.timeout_scale, "Multiply every engine timeout (slow machines)")
      ->check(CLI::Range(0.01, 1000.0));
  add_job_settings(cmd, s.spec, epd_input);
  cmd->add_option("--store", s.store,
                  "The store that keeps jobs, results and the analysis cache: an SQLite file (default ./epdd.db)\n"
                  "or a PostgreSQL URL shared with other hosts (postgresql://user@host/db?sslmode=require;\n"
                  "the password from PGPASSWORD or ~/.pgpass, never shown).\n"
                  "Every result is committed as it arrives: rerun an interrupted command to resume it")
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", s.quiet, "No progress and no summary on stderr (errors still)");
  cmd->add_flag("-v,--verbose", s.verbose, "Log engine stderr, restarts and problems as they happen");
}

void add_analyse(CLI::App& app, AnalyseOptions& o, int& status) {
  auto* cmd = app.add_subcommand("analyse", "Analyse every record of an EPD file and write the results back");
  cmd->alias("analyze");
  add_common(cmd, o.analysis, "The EPD file ('-': standard input)", true);
  cmd->add_option("-o,--output", o.output, "Write the EPD here (atomically; may be the input; '-': stdout). Default: stdout");
  cmd->add_flag("--keep-existing", o.analysis.spec.keep_existing,
                "Skip records that already carry analysis (acd, acn, acs, ce, pm or pv); by default\n"
                "their analysis opcodes are replaced");
  add_kind_flags(cmd, o.analysis.spec, find_kind("analyse"));
  cmd->footer(
      "Writes into each record acd (depth), acn (nodes), acs (seconds), ce (centipawns from the side to move;\n"
      "mate in N plies is 32767-N), pm and bm (the engine's move, SAN), pv (its line, SAN), and dm N when it\n"
      "found a forced mate in N (--keep-keys: bm, am and dm stay as they are). The four position fields\n"
      "and every other operation stay byte for byte, text that is not an operation included; a bm, am or\n"
      "dm changed or removed is counted in the summary. A record that cannot be analysed (illegal\n"
      "position, engine failure) is kept unchanged and reported.\n"
      "A checkmate or stalemate on the board is written without a search (ce -32767 or 0).\n"
      "Exit status: 0 done, 1 some records failed, 2 bad arguments, input, configuration or store, 3 the engine\n"
      "could not be started, 130 interrupted (rerun the same command to resume; nothing is analysed twice).\n\n"
      "Examples:\n"
      "  epdd analyse positions.epd -o analysed.epd --depth 20\n"
      "  epdd analyse suite.epd --nodes 1000000 --concurrency 2 --threads 1 > analysed.epd\n"
      "  epdd analyse book-leaves.epd -o out.epd --movetime 5000 --ce-for-white\n"
      "  epdd analyse suite.epd -o suite.epd --keep-keys --keep-existing   (in place: the key stays)\n"
      "  epdd analyse in.epd -o in.epd --engine /usr/games/ethereal-chess --keep-keys --counters ops\n"
      "  epdd analyse in.epd -o weak.epd --depth 12 --option \"Skill Level=5\" --option Hash=64");
  cmd->callback([&o, &status] {
    if (o.analysis.spec.input.empty()) throw CLI::RequiredError("input");
    default_limit(o.analysis.spec.limits);
    status = run_analyse(o, std::cout, std::cerr);
  });
}

void add_suite(CLI::App& app, SuiteOptions& o, std::vector<std::string>& compare_files, int& status) {
  auto* cmd = app.add_subcommand("suite", "Run a test suite: score an engine by bm, am, dm and STS points");
  cmd->require_subcommand(0, 1);
  cmd->fallthrough(false);
  add_common(cmd, o.analysis, "The EPD file ('-': standard input)", true);
  cmd->add_option("-o,--output", o.output, "Also write the EPD with the analysis (acd acn acs ce pm pv) here ('-': stdout)");
  cmd->add_option("--json", o.json, "Also write the run as JSON here (for 'epdd suite compare' and scripts; '-': stdout)");
  cmd->add_option("--html", o.html, "Also write the report as one self-contained HTML page here (as 'epdd report' makes it\n"
                  "from the JSON; '-': stdout)");
  cmd->add_option("--min-solved", o.min_solved, "Exit with status 13 when fewer records are solved (as Qapla)");
  cmd->footer(
      "Scoring: a record with dm N is solved by any mate no longer than N (with a PV that ends in mate where it\n"
      "reaches that far); otherwise bm (the engine's move is one of them) and am (it is none of them). STS\n"
      "records (c0 \"move=points, ...\" or c7/c8) also score points, with the STS rating estimate\n"
      "44.523 x score% - 242.85 and a row per theme. Records with none of these are listed as unscored.\n"
      "Matetrack records (bm #N: the side to move mates in N moves; bm #-N: it is mated in N) are scored as\n"
      "matetrack's matecheck.py reports an engine, from its final score and PV: found mates (a mate for that\n"
      "side), best (of length N), better (shorter: the key is wrong; listed), wrong (a mate for the other\n"
      "side) and bad PVs (played out, the PV does not end in exactly that mate; listed). Solved: best or better.\n"
      "Time, depth and nodes to solution: where the solving move became the PV's first move and stayed.\n"
      "The written EPD keeps bm/am/dm (they are the key) and adds the analysis opcodes.\n"
      "Exit status: 0 done, 1 some records failed, 2 bad arguments, input or store, 3 the engine could not be\n"
      "started, 13 fewer solved than --min-solved, 130 interrupted (rerun the same command to resume).\n"
      "FILE '-' is standard input (read whole; the same bytes resume the same job) or standard output (one\n"
      "output at most); with an output on stdout, the text report goes to stderr.\n\n"
      "Examples:\n"
      "  epdd suite wac.epd --movetime 1000 --concurrency 2\n"
      "  epdd suite wac.epd --nodes 100000 --json sf.json --min-solved 280\n"
      "  epdd suite sts.epd --movetime 200 --engine ethereal --config engines.toml --json eth.json\n"
      "  epdd suite wac.epd --nodes 100000 --option \"Move Overhead=0\" --json sf-mo0.json\n"
      "  epdd suite compare sf.json eth.json\n"
      "  epdd suite matetrack.epd --nodes 1000000 --concurrency 2 --json mates.json\n"
      "  cat wac.epd | epdd suite - --nodes 1000 --json - | jq .summary.solved");
  auto* compare = cmd->add_subcommand("compare", "Runs side by side from their --json reports");
  compare->add_option("reports", compare_files, "JSON files written by 'epdd suite --json' ('-': standard input, once)")->required();
  compare->footer(
      "One column per run: solved, STS points and rating, matetrack counts, time and nodes, then every\n"
      "record some runs solved and others did not. Runs of different suites are said so and compared on\n"
      "the positions they share.\n"
      "Exit status: 0 done, 2 a report could not be read.\n\n"
      "Examples:\n"
      "  epdd suite wac.epd --nodes 100000 --json sf.json\n"
      "  epdd suite wac.epd --nodes 100000 --engine /usr/games/ethereal-chess --json eth.json\n"
      "  epdd suite compare sf.json eth.json");
  compare->callback([&compare_files, &status] { status = run_suite_compare(compare_files, std::cout, std::cerr); });
  cmd->callback([&o, &status, cmd] {
    if (cmd->got_subcommand("compare")) return;
    if (o.analysis.spec.input.empty()) throw CLI::RequiredError("input");
    default_limit(o.analysis.spec.limits);
    status = run_suite(o, std::cout, std::cerr);
  });
}

}  // namespace epdd::cli::detail
