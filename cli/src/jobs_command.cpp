#include "cli/jobs_command.hpp"
#include "daemon/job_kind.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>

#include "daemon/analysis_run.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/files.hpp"
#include "core/text.hpp"
#include "daemon/jobs.hpp"
#include "daemon/logging.hpp"
#include "cli/progress.hpp"
#include "store/location.hpp"
#include "store/store.hpp"
#include "daemon/workers.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

namespace fs = std::filesystem;

Expected<std::string, std::string> store_path(const StoreChoice& where) {
  if (where.store) return *where.store;
  if (where.config) {
    auto config = read_daemon_config(*where.config);
    if (!config) return unexpected(config.error().to_string());
    return config->daemon.store;
  }
  return std::string("epdd.db");
}

}  // namespace

Expected<std::unique_ptr<store::Store>, std::string> open_chosen_store(const StoreChoice& where, StoreUse use) {
  auto path = store_path(where);
  if (!path) return unexpected(path.error());
  // (A path that cannot be looked at is not "not there": Store::open then says why.)
  std::error_code ec;
  if (use == StoreUse::Existing && !store::is_postgresql_location(*path) && !fs::exists(*path, ec) && !ec)
    return unexpected(fmt::format("{}: no store there (give the one --store or --config names; epdd submit makes it)",
                                  core::escaped(*path)));
  return store::Store::open(*path);
}

namespace {

// ("-", standard input, stays "-": the job is its bytes, in the store.)
std::string absolute(const std::string& path) {
  return is_stdio(path) || path.empty() ? path : fs::absolute(path).lexically_normal().string();
}

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

int run_submit(SubmitOptions o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& message) {
    fmt::print(err, "epdd submit: {}\n", safe_lines(message));
    return kExitBadInput;
  };
  JobSpec& spec = o.spec;
  // Engines run only from a daemon's configuration: a job names one, it never brings a program.
  if (o.where.config) {
    auto config = read_daemon_config(*o.where.config);
    if (!config) return fail(config.error().to_string());
    if (spec.engine.empty()) spec.engine = config->engines.front().name;
    const auto& e = config->engines;
    if (std::none_of(e.begin(), e.end(), [&](const auto& c) { return c.name == spec.engine; }))
      return fail(fmt::format("no engine {} in {}", core::quoted_escaped(spec.engine), core::escaped(*o.where.config)));
  }
  if (auto why = engine_name_problem(spec.engine)) return fail("--engine: " + *why);
  for (const auto& [key, value] : spec.options)
    if (!kind_of(spec).option(key)) return fail(fmt::format("{} is not a setting of a {} job", key, spec.kind));
  // A daemon writes the job's outputs, long after this command has gone: not to its stdout.
  for (const auto& [path, name] : output_paths(spec))
    if (is_stdio(path))
      return fail(fmt::format("'-' (standard output) is this command's, and a daemon writes the job's {}: give a "
                              "file, or 'epdd results JOB ... -' once it is done",
                              name));
  if (auto once = check_stdio_once(input_paths(spec), {}); !once) return fail(once.error());
  auto bytes = kind_of(spec).read_input(spec.input, spec);
  if (!bytes) return fail(bytes.error());
  AnalysisRun run = kind_of(spec).start(*bytes, spec);
  if (auto why = kind_of(spec).nothing_to_do(spec.input, run, spec)) return fail(*why);
  for (auto* path : {&spec.output, &spec.report, &spec.json})
    if (*path) **path = absolute(**path);
  // The daemon may run elsewhere: every file the job names is absolute.
  for (auto& more : spec.more_inputs) more = absolute(more);
  for (auto& [key, value] : spec.options)
    if (const KindOption* option = kind_of(spec).option(key); option && option->type == KindOption::Type::Path)
      value = absolute(value);
  // Its files are written on this host only, by a daemon here (or by `epdd results` anywhere);
  // the input files its settings name go into the store with it: no daemon opens their paths.
  spec.host = this_host();
  auto files = read_input_files(spec);
  if (!files) return fail(files.error());
  auto store = open_chosen_store(o.where, StoreUse::Create);
  if (!store) return fail(store.error());
  try {
    store::NewJob n;
    n.files = std::move(*files);
    n.delivery_host = delivery_host(spec);
    n.kind = spec.kind;
    n.input = absolute(spec.input);
    n.spec = spec_to_json(spec);
    n.identity = fmt::format("submit|{}|{}|{}", n.input, content_hash(*bytes), n.spec);
    n.settings = fmt::format("engine {}; {}", spec.engine.empty() ? "(the first configured)" : spec.engine,
                             describe_limits(spec.limits, spec.multipv));
    n.source = std::move(*bytes);
    const store::JobRow job = (*store)->find_or_create_job(n);
    fmt::print(out, "{}\n", job.id);
    if (job.created_ms != job.updated_ms || job.state != store::JobState::Queued)
      fmt::print(err, "epdd submit: the same job was submitted before: job {} ({})\n", job.id, to_string(job.state));
  } catch (const store::StoreError& e) {
    return fail(e.what());
  }
  return kExitOk;
}

namespace {

// "35 s", "12 min", "3 h", "2 days": how long ago, for status notes.
std::string ago(std::int64_t ms) {
  const std::int64_t s = std::max<std::int64_t>(ms, 0) / 1000;
  if (s < 120) return fmt::format("{} s", s);
  if (s < 7200) return fmt::format("{} min", s / 60);
  if (s < 172800) return fmt::format("{} h", s / 3600);
  return fmt::format("{} days", s / 86400);
}

// Why no live process works on a running job, or nothing when one does (or may: another
// machine's live lease). A daemon stopped or killed leaves its jobs "running" in the store:
// status must not show them progressing.
std::optional<std::string> not_held(const store::JobRow& j, const std::vector<store::Lease>& leases, std::int64_t now) {
  if (j.state != store::JobState::Running || j.complete()) return std::nullopt;
  std::vector<std::string> why;
  for (const store::Lease& l : leases) {
    const OwnerState owner = owner_state(l.owner);
    if (owner == OwnerState::Gone) why.push_back(fmt::format("{} no longer runs", core::escaped(l.owner)));
    else if (l.expiry_ms < now)
      why.push_back(fmt::format("the lease of {} expired {} ago", core::escaped(l.owner), ago(now - l.expiry_ms)));
    else return std::nullopt;
  }
  if (why.empty()) {
    // No lease: between two claims of a live process, or nobody left.
    if (j.runner.empty()) return std::nullopt;  // not claimed yet: it waits for a daemon, and says so by its rate
    switch (owner_state(j.runner)) {
      case OwnerState::Running: return std::nullopt;
      case OwnerState::Gone:
        why.push_back(fmt::format("{}, which worked on it last, no longer runs", core::escaped(j.runner)));
        break;
      case OwnerState::Elsewhere:
        why.push_back(fmt::format("no lease on its positions ({} of another machine worked on it last)",
                                  core::escaped(j.runner)));
        break;
    }
  }
  std::string text = "no live daemon holds it: ";
  for (std::size_t i = 0; i < why.size(); ++i) text += (i ? "; " : "") + why[i];
  return text;
}

// RATE/MIN and ETA: positions answered per minute since the job's first claim (not since it was
// queued), up to now while a live process works on it, else up to its last change.
std::pair<std::string, std::string> rate_and_eta(const store::JobRow& j, bool live, std::int64_t now) {
  const std::int64_t handled = j.done + j.failed;
  if (handled == 0 || !j.started_ms) return {"-", "-"};
  const bool running = j.state == store::JobState::Running && live && !j.complete();
  const double minutes = static_cast<double>((running ? now : j.updated_ms) - *j.started_ms) / 60000.0;
  if (minutes <= 0) return {"-", "-"};
  const double per_minute = static_cast<double>(handled) / minutes;
  std::string eta = "-";
  if (running && j.total > handled) eta = Progress::clock(static_cast<double>(j.total - handled) / per_minute * 60.0);
  return {fmt::format("{:.1f}", per_minute), eta};
}

// The host whose daemon a complete job waits for to write its files (Store::claim_delivery
// leaves it to a daemon there), or nothing when any daemon delivers it or it was delivered.
std::optional<std::string> awaited_host(const store::JobRow& j) {
  if (!j.complete() || j.delivered || j.state == store::JobState::Cancelled || j.state == store::JobState::Failed)
    return std::nullopt;
  auto spec = spec_from_json(j.spec);
  if (!spec) return std::nullopt;
  const std::string host = delivery_host(*spec);
  return host.empty() ? std::nullopt : std::optional(host);
}

// One job's lines. Text from the store is outside text: names escaped, messages made safe.
void print_job(std::ostream& out, store::Store& store, const store::JobRow& j, bool details, std::int64_t now) {
  const auto unheld = not_held(j, store.job_leases(j.id), now);
  const auto [rate, eta] = rate_and_eta(j, !unheld, now);
  const std::string total = j.planned ? std::to_string(j.total) : "?";
  fmt::print(out, "{:>5}  {:<8} {:<10} {:>15} {:>7} {:>9} {:>8}  {}\n", j.id, one_line(j.kind), to_string(j.state),
             fmt::format("{}/{}", j.done, total), j.failed, rate, eta, core::escaped(j.input));
  if (!j.message.empty()) fmt::print(out, "       {}\n", one_line(j.message));
  if (unheld) fmt::print(out, "       {}\n", *unheld);
  if (const auto host = awaited_host(j))
    fmt::print(out, "       finished: outputs wait for a daemon on host {}; `epdd results {}` writes them anywhere\n",
               core::escaped(*host), j.id);
  if (!details) return;
  fmt::print(out, "       engine: {}\n       settings: {}\n       {} searched, {} from the cache\n",
             j.engine.empty() ? "(not planned yet)" : core::escaped(j.engine), one_line(j.settings), j.searches,
             j.cache_hits);
  for (const auto& item : store.items(j.id))
    if (item.state == store::ItemState::Failed) fmt::print(out, "       item {}: {}\n", item.index, one_line(item.error));
}

}  // namespace

int run_status(const StoreChoice& where, std::optional<std::int64_t> id, std::ostream& out, std::ostream& err) {
  auto store = open_chosen_store(where, StoreUse::Existing);
  if (!store) {
    fmt::print(err, "epdd status: {}\n", safe_lines(store.error()));
    return kExitBadInput;
  }
  try {
    std::vector<store::JobRow> jobs;
    if (id) jobs.push_back((*store)->job(*id));
    else jobs = (*store)->jobs();
    if (jobs.empty()) {
      fmt::print(out, "no jobs in {}\n", core::escaped((*store)->path()));
      return kExitOk;
    }
    fmt::print(out, "{:>5}  {:<8} {:<10} {:>15} {:>7} {:>9} {:>8}  {}\n", "JOB", "KIND", "STATE", "DONE/TOTAL", "FAILED",
               "RATE/MIN", "ETA", "INPUT");
    const std::int64_t now = now_ms();
    for (const store::JobRow& j : jobs) print_job(out, **store, j, id.has_value(), now);
  } catch (const store::StoreError& e) {
    fmt::print(err, "epdd status: {}\n", safe_lines(e.what()));
    return kExitBadInput;
  }
  return kExitOk;
}

int run_cancel(const StoreChoice& where, std::int64_t id, std::ostream& out, std::ostream& err) {
  auto store = open_chosen_store(where, StoreUse::Existing);
  if (!store) {
    fmt::print(err, "epdd cancel: {}\n", safe_lines(store.error()));
    return kExitBadInput;
  }
  try {
    if ((*store)->cancel_job(id, "cancelled by epdd cancel")) {
      fmt::print(out, "job {} cancelled\n", id);
      return kExitOk;
    }
    fmt::print(err, "epdd cancel: job {} is {} already\n", id, to_string((*store)->job(id).state));
    return kExitRecordsFailed;
  } catch (const store::StoreError& e) {
    fmt::print(err, "epdd cancel: {}\n", safe_lines(e.what()));
    return kExitBadInput;
  }
}

Expected<std::string, std::string> job_report_json(const StoreChoice& where, std::int64_t id) {
  auto store = open_chosen_store(where, StoreUse::Existing);
  if (!store) return unexpected(store.error());
  try {
    const store::JobRow job = (*store)->job(id);
    if (!job.complete() || job.state == store::JobState::Cancelled || job.state == store::JobState::Failed)
      return unexpected(fmt::format("job {} is {} ({}/{} done): no report yet", job.id, to_string(job.state), job.done,
                                    job.planned ? job.total : 0));
    auto spec = spec_from_json(job.spec);
    if (!spec) return unexpected(spec.error());
    auto run = load_run(**store, job);
    if (!run) return unexpected(run.error());
    const JobKind& kind = kind_of(*spec);
    auto texts = kind.render(*run, *spec);
    if (!texts.count("json")) return unexpected(fmt::format("job {} is a {} job, which has no JSON report", id, kind.name()));
    return std::move(texts.at("json"));
  } catch (const store::StoreError& e) {
    return unexpected(std::string(e.what()));
  }
}

int run_results(const ResultsOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](int status, const std::string& message) {
    fmt::print(err, "epdd results: {}\n", safe_lines(message));
    return status;
  };
  auto store = open_chosen_store(o.where, StoreUse::Existing);
  if (!store) return fail(kExitBadInput, store.error());
  try {
    const store::JobRow job = (*store)->job(o.job);
    const bool whole = job.complete() && job.state != store::JobState::Cancelled && job.state != store::JobState::Failed;
    const std::string stands = fmt::format("job {} is {} ({}/{} done){}", job.id, to_string(job.state), job.done,
                                           job.planned ? job.total : 0,
                                           job.message.empty() ? "" : ": " + job.message);
    if (!whole && !o.partial)
      return fail(kExitRecordsFailed, stands + ": no results yet (--partial writes what was done)");
    auto spec = spec_from_json(job.spec);
    if (!spec) return fail(kExitBadInput, spec.error());
    auto run = load_run(**store, job);
    if (!run) return fail(kExitBadInput, run.error());
    if (!whole) {
      // A job cancelled before it was planned has no items: all its records are missing.
      const std::int64_t total = job.planned ? job.total : static_cast<std::int64_t>(kind_of(*spec).plan(*spec, *run).size());
      const std::int64_t missing = total - (job.planned ? job.done + job.failed : 0);
      fmt::print(err, "epdd results: {}: {} of {} records missing (written unchanged)\n", one_line(stands), missing,
                 total);
    }
    const JobKind& kind = kind_of(*spec);
    // An output the job was made without (book: --pgn, --polyglot) is rendered when asked for
    // now: its option names where it goes, as it would have at submit.
    for (const auto& [name, path] : o.more)
      for (const KindOutput& output : kind.more_outputs())
        if (output.name == name) spec->options[std::string(output.option_key)] = path;
    const auto texts = kind.render(*run, *spec);
    // Each output to the file its option names; the kind's main text on stdout unless its file
    // is named.
    const std::pair<const std::optional<std::string>&, const char*> files[] = {{o.output, "output"}, {o.json, "json"}};
    for (const auto& [path, name] : files)
      if (path && !texts.count(name)) return fail(kExitBadInput, fmt::format("a {} job has no {} output", kind.name(), name));
    for (const auto& [name, path] : o.more)
      if (!texts.count(name)) return fail(kExitBadInput, fmt::format("a {} job has no {} output", kind.name(), name));
    std::vector<std::pair<std::string, std::string>> writes;  // (path, output name)
    for (const auto& [path, name] : files)
      if (path) writes.emplace_back(*path, name);
    for (const auto& [name, path] : o.more) writes.emplace_back(path, name);
    // One output on standard output at most (the main one counts when no -o names its file);
    // a report printed beside an output there goes to stderr, as with 'epdd suite --json -'.
    const std::string printed(kind.printed_output());
    const bool printed_is_output = printed == "output";
    std::vector<std::optional<std::string>> outputs;
    for (const auto& [path, name] : writes) outputs.emplace_back(path);
    const bool output_on_stdout = any_on_stdout(outputs);  // (the files written, not the text printed)
    if (printed_is_output && !o.output) outputs.emplace_back(std::string(kStdio));
    if (auto once = check_stdio_once({}, outputs); !once) return fail(kExitBadInput, once.error());
    for (const auto& [path, name] : writes)
      if (auto w = write_file_atomically(path, texts.at(name)); !w) {
        fmt::print(err, "epdd results: {}\n", safe_lines(w.error()));
        return kExitBadInput;
      }
    if (!(printed_is_output && o.output)) (output_on_stdout ? err : out) << texts.at(printed) << std::flush;
    // Always said, as by the one-shot command: operations of the input are gone or keys differ.
    if (const std::string note = changes_note(texts); !note.empty()) fmt::print(err, "epdd results: {}\n", note);
    // As the one-shot command: failed items, and what of the input the kind could not use.
    return job.failed || kind.failures(*run) ? kExitRecordsFailed : kExitOk;
  } catch (const store::StoreError& e) {
    return fail(kExitBadInput, e.what());
  }
}

}  // namespace epdd::cli
