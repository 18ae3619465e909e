// The command-line definitions of the daemon and its queue: serve, submit, status, cancel,
// results.
#include <iostream>
#include <memory>
#include <set>

#include <fmt/format.h>

#include "cli_analysis.hpp"
#include "cli/jobs_command.hpp"
#include "cli/purge_command.hpp"
#include "daemon/serve.hpp"

namespace epdd::cli::detail {

using namespace daemon;  // the commands call into the daemon library

namespace {

void add_store_choice(CLI::App* cmd, StoreChoice& where) {
  cmd->add_option("--store", where.store, "The store: an SQLite file or a postgresql:// URL (default: the [store] location of --config,\n"
                  "else ./epdd.db)");
  cmd->add_option("--config", where.config, "The daemon's configuration file, to find its store (and engines)");
}

// Option values outlive parsing: they are read in the callbacks.
struct DaemonCommandOptions {
  ServeOptions serve;
  SubmitOptions submit;
  StoreChoice status_where;
  std::optional<std::int64_t> status_job;
  StoreChoice cancel_where;
  std::int64_t cancel_job = 0;
  ResultsOptions results;
  PurgeOptions purge;
};

// serve: the daemon itself.
void add_serve(CLI::App& app, const std::shared_ptr<DaemonCommandOptions>& options, int& status) {
  auto& o = *options;
  auto* serve = app.add_subcommand("serve", "Run the daemon: work through the store's jobs and the spool directory");
  serve->add_option("--config", o.serve.config, "The configuration file (TOML): engines, [store], [daemon], [spool], [logging]")
      ->required();
  serve->add_flag("-v,--verbose", o.serve.verbose, "Log at debug level whatever the file says");
  serve->footer(
      "Runs until SIGTERM or SIGINT: no new work is taken, searches in flight may finish within\n"
      "[daemon] stop_deadline_seconds, then they are stopped and their positions put back; engines quit;\n"
      "exit 0. SIGHUP re-reads the configuration: the engines it changes or adds are (re)started, the\n"
      "others keep running; queued work stays; a configuration with an error is refused (logged with\n"
      "file:line) and the old one kept. A search an engine crashed, hung on or answered garbage to is\n"
      "asked again up to [daemon] retries times (default 2) before its records fail.\n"
      "Several daemons may share one store, on one machine (an SQLite file) or on many ([store] location =\n"
      "\"postgresql://user@host/db\": one queue and one analysis cache; docs/scaling.md): each position is\n"
      "claimed under a lease by one of them; the leases of a daemon killed with SIGKILL expire ([daemon]\n"
      "lease_seconds, by the database's clock) or, on the same machine, are taken over at once. Machines\n"
      "are told apart by host name (EPDD_HOST=name overrides it: containers sharing one). A PostgreSQL\n"
      "server that restarts is waited for (EPDD_STORE_PATIENCE_SECONDS, default 600) and the work goes on.\n"
      "A job names an engine of the configuration by its name, never a program: a daemon without that\n"
      "engine leaves the job waiting for one that has it (it neither runs nor fails it); a job whose spec\n"
      "names a program, or carries a key epdd does not write (such as \"command\"), is failed when read.\n"
      "Engine options and arguments are per engine in the configuration ([engine.options] and args of its\n"
      "[[engine]]), so there is no --option or --engine-arg here: every job on that engine gets the same ones\n"
      "(the one-shot commands' --option \"Skill Level=5\" sets them for one run).\n"
      "The input files a job names (annotate's --book, book's --import) are kept in the store: no daemon\n"
      "opens a path from a job. A job's output files (and a spool's moves) are written only by a daemon\n"
      "on the host it was submitted on; until one runs there, 'epdd results JOB -o FILE' writes them\n"
      "anywhere. Jobs that write no file are delivered by any daemon.\n"
      "The configuration format is described in daemon/include/daemon/engine_config_file.hpp and\n"
      "examples/epdd.toml; the spool rules in daemon/include/daemon/spool.hpp: a file is taken from inbox/\n"
      "once unchanged for settle_seconds (or at once when renamed in from a .part/.tmp/dot name after\n"
      "that time); results go to outbox/, the input to done/, or to failed/ with NAME.error.\n"
      "Exit status: 0 stopped by a signal, 1 the store failed, 2 bad configuration or store, 3 no engine\n"
      "could be started.\n\n"
      "Examples:\n"
      "  epdd serve --config /etc/epdd/epdd.toml\n"
      "  epdd serve --config ~/epdd/epdd.toml -v     (a copy of examples/epdd.toml)\n"
      "  PGPASSFILE=/etc/epdd/pgpass epdd serve --config /etc/epdd/shared.toml   (a PostgreSQL [store])\n"
      "  kill -HUP $(pidof epdd)        # reload the configuration");
  serve->callback([&status, options] { status = run_serve(options->serve); });
}

// submit KIND FILE: a job queued in the store.
void add_submit(CLI::App& app, const std::shared_ptr<DaemonCommandOptions>& options, int& status) {
  auto& o = *options;
  auto* submit = app.add_subcommand("submit", "Queue a job in the store for a daemon; prints its id");
  std::vector<std::string> kinds;
  for (const JobKind* kind : job_kinds()) kinds.emplace_back(kind->name());
  submit->add_option("kind", o.submit.spec.kind, kind_names())->required()->check(CLI::IsMember(kinds));
  submit->add_option("files", o.submit.files,
                     "The input: an EPD file, a PGN file for annotate, for book any number of .pgn, .bin\n"
                     "and .epd files (read now: later changes do not affect the job; '-': standard input, once);\n"
                     "book-grow without a file grows from the start position");
  add_store_choice(submit, o.submit.where);
  submit->add_option("--engine", o.submit.spec.engine,
                     "The engine's name in the daemon's configuration (default: its first engine).\n"
                     "Never a program: engines run only from the configuration");
  add_job_settings(submit, o.submit.spec);
  submit->add_flag("--keep-existing", o.submit.spec.keep_existing, "analyse: skip records that carry analysis");
  add_kind_flags(submit, o.submit.spec, nullptr);
  add_kind_options(submit, o.submit.spec, nullptr);
  submit->add_option("-o,--output", o.submit.spec.output,
                     "When done, the daemon writes the EPD with the analysis (annotate: the annotated PGN) here");
  submit->add_option("--report", o.submit.spec.report, "suite, annotate: when done, the text report (summary) here");
  submit->add_option("--json", o.submit.spec.json, "suite, annotate: when done, the JSON report (summary) here");
  submit->footer(
      "The job goes into the store; a daemon on that store runs it (now, or when one starts). Submitting\n"
      "the same file with the same settings again gives the same job. 'epdd results JOB' writes the\n"
      "output of a finished job at any time. The input and the files its options read (--book, --import)\n"
      "go into the store now; -o/--report/--json (and --pgn, --polyglot) are written on this host, by a\n"
      "daemon here.\n"
      "Exit status: 0 queued (the id on stdout), 2 bad arguments, input, configuration or store.\n\n"
      "Examples:\n"
      "  epdd submit suite wac.epd --config /etc/epdd/epdd.toml --movetime 1000 --report wac.txt\n"
      "  id=$(epdd submit analyse leaves.epd --store epdd.db --depth 20 -o leaves-analysed.epd)");
  submit->callback([&status, options] {
    auto& s = options->submit;
    default_limit(s.spec.limits);
    if (s.files.empty() && kind_of(s.spec).needs_input())
      throw CLI::ValidationError("files", fmt::format("a {} job needs its input file", s.spec.kind));
    s.spec.input = s.files.empty() ? std::string() : s.files.front();
    if (!s.files.empty()) s.spec.more_inputs.assign(s.files.begin() + 1, s.files.end());
    if (!s.spec.more_inputs.empty() && !kind_of(s.spec).many_inputs())
      throw CLI::ValidationError("files", fmt::format("a {} job reads one file", s.spec.kind));
    if (!kind_of(s.spec).has_reports() && (s.spec.report || s.spec.json))
      throw CLI::ValidationError("--report/--json", fmt::format("a {} job writes no report", s.spec.kind));
    status = run_submit(s, std::cout, std::cerr);
  });
}

// status [JOB]: the jobs of a store.
void add_status(CLI::App& app, const std::shared_ptr<DaemonCommandOptions>& options, int& status) {
  auto& o = *options;
  auto* st = app.add_subcommand("status", "Show jobs: state, done/total, failures, rate and ETA");
  st->add_option("job", o.status_job, "One job, with its engine, settings and failed items");
  add_store_choice(st, o.status_where);
  st->footer(
      "States: queued (waiting for a daemon with its engine), running, finished, failed, cancelled.\n"
      "RATE/MIN counts positions answered per minute since the job's first position was taken up (not\n"
      "since it was queued); ETA is shown while a live process works on it. A running job that no live\n"
      "daemon holds (it was stopped or killed: its leases expired, or its process is gone) says so on the\n"
      "line below, and shows no ETA. A finished job whose output files wait for a daemon on the host it\n"
      "was submitted on says which host ('epdd results JOB' writes them anywhere).\n\n"
      "Examples:\n"
      "  epdd status --config /etc/epdd/epdd.toml\n"
      "  epdd status 12 --store epdd.db");
  st->callback([&status, options] { status = run_status(options->status_where, options->status_job, std::cout, std::cerr); });
}

// cancel JOB.
void add_cancel(CLI::App& app, const std::shared_ptr<DaemonCommandOptions>& options, int& status) {
  auto& o = *options;
  auto* cancel = app.add_subcommand("cancel", "Cancel a queued or running job");
  cancel->add_option("job", o.cancel_job, "The job's id")->required();
  add_store_choice(cancel, o.cancel_where);
  cancel->footer(
      "Its positions are no longer given out, and the daemon (or one-shot command) that runs it stops its\n"
      "searches in flight within its poll interval ([daemon] poll_ms): a stopped search is neither\n"
      "counted nor cached (it is not complete). A search that another running job also waits for goes on;\n"
      "one that had finished on its own is kept like any result. 'epdd results JOB --partial' writes what\n"
      "was done. A job from the spool moves to failed/ with NAME.error.\n"
      "Exit status: 0 cancelled, 1 it had ended already, 2 no such job or bad store.\n\n"
      "Example:\n"
      "  epdd cancel 12 --config /etc/epdd/epdd.toml");
  cancel->callback([&status, options] { status = run_cancel(options->cancel_where, options->cancel_job, std::cout, std::cerr); });
}

// results JOB: a job's output written.
void add_results(CLI::App& app, const std::shared_ptr<DaemonCommandOptions>& options, int& status) {
  auto& o = *options;
  auto* results = app.add_subcommand("results", "Write a finished job's output");
  results->add_option("job", o.results.job, "The job's id")->required();
  add_store_choice(results, o.results.where);
  results->add_option("-o,--output", o.results.output,
                      "analyse: the EPD here (default stdout); suite: the EPD with analysis here ('-': stdout)");
  results->add_option("--json", o.results.json, "suite, annotate, book: the JSON report here");
  // Every kind's more outputs (book: --pgn, --polyglot), each once.
  std::set<std::string> more;
  for (const JobKind* kind : job_kinds())
    for (const KindOutput& output : kind->more_outputs())
      if (more.insert(std::string(output.name)).second)
        results
            ->add_option_function<std::string>(
                "--" + std::string(output.name),
                [options, name = std::string(output.name)](const std::string& path) { options->results.more[name] = path; },
                fmt::format("{}: its {} output here", kind->name(), output.name))
            ->type_name("FILE");
  results->add_flag("--partial", o.results.partial,
                    "Also for a job that is not finished (cancelled, failed, running): what was done,\n"
                    "the other records unchanged; how many are missing is said on stderr");
  results->footer(
      "analyse jobs: the EPD with the analysis, as 'epdd analyse' writes it. suite jobs: the report on stdout,\n"
      "as 'epdd suite' prints it (with --partial, the records not analysed yet are counted as missing, not\n"
      "failed). annotate jobs: the annotated PGN.\n"
      "book jobs: the backsolved book as EPD (--pgn, --polyglot: as PGN and Polyglot too). Works for jobs\n"
      "of the one-shot commands too.\n"
      "Exit status: 0 written, 1 the job is not finished and --partial was not given (nothing written), or\n"
      "some records failed, 2 bad store or job.\n\n"
      "Examples:\n"
      "  epdd results 12 --config /etc/epdd/epdd.toml -o analysed.epd\n"
      "  epdd results 13 --store epdd.db --json run.json > report.txt\n"
      "  epdd results 14 --store epdd.db --partial -o so-far.epd    # a cancelled job\n"
      "  epdd results 15 --store epdd.db -o book.epd --polyglot book.bin   # a book job");
  results->callback([&status, options] { status = run_results(options->results, std::cout, std::cerr); });
}

// purge: old jobs and unused cache entries removed.
void add_purge(CLI::App& app, const std::shared_ptr<DaemonCommandOptions>& options, int& status) {
  auto& o = *options;
  auto* purge = app.add_subcommand("purge", "Remove old finished jobs (and unused cache entries) from the store");
  add_store_choice(purge, o.purge.where);
  purge->add_option("--before", o.purge.before,
                    "Jobs that ended (finished, failed, cancelled) before this date:\n"
                    "2026-10-01 (local midnight), 2026-10-01T12:30")
      ->type_name("DATE");
  purge->add_option("--older-than", o.purge.older_than, "Or: jobs that ended longer ago than this: 30d, 12h, 2w")
      ->type_name("AGE");
  purge->add_option("--cache-unused-since", o.purge.cache_unused_since,
                    "Also the cache entries not used (searched or answered from) since this date or age")
      ->type_name("DATE|AGE");
  purge->add_flag("--dry-run", o.purge.dry_run, "List what would go; remove nothing");
  purge->footer(
      "A job goes with its input (the bytes kept in the store) and its results; its output files stay where\n"
      "they were written. Queued and running jobs are never removed, nor a job or a cache entry that a\n"
      "live daemon is working with. The file is then compacted (VACUUM), which needs free disk space about\n"
      "the store's size and waits for the daemons' writes. Without a cache limit the cache is kept: a\n"
      "position analysed once is still not analysed again.\n"
      "Exit status: 0 done (also when nothing was old enough), 1 removed but not compacted (the store was\n"
      "busy: run it again), 2 bad arguments or store.\n\n"
      "Examples:\n"
      "  epdd purge --store epdd.db --older-than 30d --dry-run\n"
      "  epdd purge --config /etc/epdd/epdd.toml --before 2026-10-01 --cache-unused-since 90d");
  purge->callback([&status, options] { status = run_purge(options->purge, std::cout, std::cerr); });
}

}  // namespace

void add_daemon_commands(CLI::App& app, int& status) {
  auto options = std::make_shared<DaemonCommandOptions>();
  add_serve(app, options, status);
  add_submit(app, options, status);
  add_status(app, options, status);
  add_cancel(app, options, status);
  add_results(app, options, status);
  add_purge(app, options, status);
}

}  // namespace epdd::cli::detail
