// Internal: the command-line definitions of the analysis commands (analyse, suite), kept apart
// from cli.cpp so that each file stays readable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/analyse_command.hpp"
#include "cli/annotate_command.hpp"
#include "cli/book_command.hpp"
#include "daemon/job_kind.hpp"
#include "daemon/job_spec.hpp"
#include "cli/suite_command.hpp"

namespace epdd::cli::detail {

// --depth --nodes --movetime --mate --multipv.
void add_limits(CLI::App* cmd, uci::SearchLimits& limits, int& multipv);
// --new-game clear|keep.
void add_new_game(CLI::App* cmd, std::optional<uci::NewGame>& new_game);
// --counters keep|ops: FEN counters after the fields kept, or written as hmvc/fmvn; the default is
// the value `as_operations` holds when the option is added.
void add_counters(CLI::App* cmd, bool& as_operations);
// The settings every job kind has: limits, --new-game, and for EPD input --chess960 and --counters
// (the one parser of a JobSpec from the command line, for analyse, suite, annotate and submit).
void add_job_settings(CLI::App* cmd, daemon::JobSpec& spec, bool epd_input = true);
// The flags of a job kind (JobKind::flags), as the kind describes them; all kinds' for nullptr.
void add_kind_flags(CLI::App* cmd, daemon::JobSpec& spec, const daemon::JobKind* kind);
// The options with a value of a job kind (JobKind::options), checked by the kind; all kinds'
// for nullptr.
void add_kind_options(CLI::App* cmd, daemon::JobSpec& spec, const daemon::JobKind* kind);

// --option NAME=VALUE and --engine-arg ARG (repeatable), into `group` (the commands' "Engine"
// options); `extra_help` ends the help of --option (what it overrides).
void add_engine_settings(CLI::App* group, std::vector<uci::OptionSetting>& options, std::vector<std::string>& args,
                         const std::string& extra_help);

// The options analyse, suite, annotate and book share: the input (none when input_help is
// empty), engine, limits, store, run.
void add_common(CLI::App* cmd, daemon::AnalysisSettings& s, const std::string& input_help, bool epd_input);

void add_analyse(CLI::App& app, AnalyseOptions& o, int& status);
void add_suite(CLI::App& app, SuiteOptions& o, std::vector<std::string>& compare_files, int& status);
// annotate (cli_annotate.cpp).
void add_annotate(CLI::App& app, AnnotateOptions& o, int& status);
// book backsolve (cli_book.cpp).
void add_book(CLI::App& app, BookOptions& o, BookOptions& grow, BookLeavesOptions& leaves, int& status);

// serve, submit, status, cancel, results (cli_jobs.cpp).
void add_daemon_commands(CLI::App& app, int& status);

}  // namespace epdd::cli::detail
