#include "daemon/serve.hpp"
#include "daemon/job_kind.hpp"

#include <signal.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "core/text.hpp"
#include "daemon/analysis_run.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/files.hpp"
#include "daemon/jobs.hpp"
#include "daemon/logging.hpp"
#include "daemon/signals.hpp"
#include "daemon/spool.hpp"
#include "store/store.hpp"
#include "daemon/workers.hpp"
#include "uci/program_hash.hpp"

namespace epdd::daemon {

namespace {

using Clock = std::chrono::steady_clock;

std::atomic<bool> g_stop{false};
std::atomic<bool> g_reload{false};

extern "C" void on_serve_signal(int signal) {
  if (signal == SIGHUP) {
    g_reload = true;
  } else {
    g_stop = true;
    store::set_waits_interrupted(true);  // a store waiting for space or its database gives up
  }
}


// Whether two configurations of an engine run it the same way: equal in every field, where an
// option was written (its origin) aside, since a line added above it moves it.
bool same_engine(uci::EngineConfig a, uci::EngineConfig b) {
  for (auto* config : {&a, &b})
    for (uci::OptionSetting& option : config->options) option.origin.clear();
  return a == b;
}

// One engine of the configuration: its pool, its identity if it started, and the workers that
// serve it. Each engine has its own, so that SIGHUP restarts only the engines it changes.
class EngineRun {
 public:
  EngineRun(const uci::EngineConfig& config, const WorkerSettings& ws)
      : config_(config), program_(uci::program_identity(config.process)) {
    pool_ = std::make_unique<uci::EnginePool>(std::vector<uci::EngineConfig>{config}, engine_log_sink());
    auto id = pool_->identify(config.name);
    if (!id) {
      spdlog::error("engine {}: cannot be started, its jobs wait: {}", config.name, id.error().to_string());
      return;
    }
    const std::string identity = engine_identity_for(config, *id);
    spdlog::info("engine {}: {} ({} instance{})", config.name, core::escaped(identity), config.instances,
                 config.instances == 1 ? "" : "s");
    slot_ = EngineSlot{config.name, identity, config.instances};
    workers_ = std::make_unique<Workers>(ws, *pool_, std::vector<EngineSlot>{*slot_}, [](const ItemOutcome& o) {
      if (o.error) spdlog::warn("job {} item {}: {}", o.job, o.index, headline(*o.error));
      else spdlog::debug("job {} item {}: {}", o.job, o.index, o.source == ItemOutcome::Source::Cache ? "from the cache" : "searched");
    });
  }
  ~EngineRun() { finish(); }
  EngineRun(const EngineRun&) = delete;
  EngineRun& operator=(const EngineRun&) = delete;

  // Whether it runs as `config` would have it run: started and serving, the same configuration,
  // the same program file (an engine upgraded in place is another engine: its identity differs).
  bool runs_as(const uci::EngineConfig& config) const {
    return slot_ && workers_ && !workers_->failed() && same_engine(config, config_) &&
           uci::program_identity(config.process) == program_;
  }
  const uci::EngineConfig& config() const { return config_; }
  const EngineSlot* slot() const { return slot_ ? &*slot_ : nullptr; }
  Workers* workers() { return workers_.get(); }
  // Waits for the workers (after stop_claiming, and cancel_in_flight past a deadline), then
  // quits the engines. Idempotent.
  void finish() {
    if (workers_) {
      try {
        workers_->join();
      } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
      }
      workers_.reset();
    }
    if (pool_) pool_->shutdown();
  }

 private:
  uci::EngineConfig config_;
  std::string program_;  // uci::program_identity of its program when it started
  std::unique_ptr<uci::EnginePool> pool_;
  std::optional<EngineSlot> slot_;
  std::unique_ptr<Workers> workers_;
};

// The engines of one configuration, each an EngineRun.
class Engines {
 public:
  Engines(const DaemonConfig& config, const std::string& store) : store_(store) { reconfigure(config, 0); }
  ~Engines() { stop(0); }
  Engines(const Engines&) = delete;
  Engines& operator=(const Engines&) = delete;

  // The engines of `config`: an engine whose configuration (and the workers' settings) did not
  // change keeps running, searches and all; the others are stopped (their searches may finish
  // within `deadline_ms`, then they are stopped and their positions put back) and started anew.
  void reconfigure(const DaemonConfig& config, std::int64_t deadline_ms) {
    const WorkerSettings ws = worker_settings(config);
    const bool same_settings = settings_ == ws;
    std::vector<std::unique_ptr<EngineRun>> kept(config.engines.size());
    std::vector<std::unique_ptr<EngineRun>> gone;
    for (auto& run : runs_) {
      const auto same = std::find_if(config.engines.begin(), config.engines.end(), [&](const uci::EngineConfig& e) {
        return same_settings && run->runs_as(with_transcripts(e, config));
      });
      if (same != config.engines.end()) {
        spdlog::info("engine {}: unchanged, kept running", run->config().name);
        kept[static_cast<std::size_t>(same - config.engines.begin())] = std::move(run);
      } else {
        gone.push_back(std::move(run));
      }
    }
    stop(gone, deadline_ms);
    gone.clear();
    settings_ = ws;
    runs_.clear();
    names_.clear();
    for (std::size_t i = 0; i < config.engines.size(); ++i) {
      if (!kept[i]) kept[i] = std::make_unique<EngineRun>(with_transcripts(config.engines[i], config), ws);
      names_.push_back(config.engines[i].name);
      runs_.push_back(std::move(kept[i]));
    }
  }

  bool any() const {
    return std::any_of(runs_.begin(), runs_.end(), [](const auto& r) { return r->slot() != nullptr; });
  }
  const std::vector<std::string>& names() const { return names_; }
  const EngineSlot* slot(const std::string& name) const {
    for (const auto& r : runs_)
      if (r->slot() && r->slot()->name == name) return r->slot();
    return nullptr;
  }
  void wake() {
    for (auto& r : runs_)
      if (r->workers()) r->workers()->wake();
  }
  bool failed() const {
    return std::any_of(runs_.begin(), runs_.end(), [](const auto& r) { return r->workers() && r->workers()->failed(); });
  }

  // No new work; searches in flight may finish within `deadline_ms`, then they are stopped and
  // their positions put back; engines quit. Idempotent.
  void stop(std::int64_t deadline_ms) { stop(runs_, deadline_ms); }

 private:
  static void stop(std::vector<std::unique_ptr<EngineRun>>& runs, std::int64_t deadline_ms) {
    for (auto& r : runs)
      if (r->workers()) r->workers()->stop_claiming();
    const auto count = [&] {
      int n = 0;
      for (auto& r : runs) n += r->workers() ? r->workers()->in_flight() : 0;
      return n;
    };
    const auto deadline = Clock::now() + std::chrono::milliseconds(deadline_ms);
    if (const int n = count(); n > 0) spdlog::info("waiting up to {} s for {} search(es) in flight", deadline_ms / 1000.0, n);
    while (count() > 0 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (count() > 0) {
      spdlog::info("deadline passed: stopping {} search(es); their positions go back to the queue", count());
      for (auto& r : runs)
        if (r->workers()) r->workers()->cancel_in_flight();
    }
    for (auto& r : runs) r->finish();
  }
  WorkerSettings worker_settings(const DaemonConfig& config) const {
    WorkerSettings ws;
    ws.store = store_;
    ws.lease_ms = config.daemon.lease_ms;
    ws.poll_ms = config.daemon.poll_ms;
    ws.retries = config.daemon.retries;
    ws.on_full_disk = store::OnFullDisk::Wait;
    // Several workers share this process's lease owner: stopping one engine's must not give
    // back what another's hold (the daemon gives back all of them when it stops).
    ws.release_owner_at_join = false;
    return ws;
  }
  static uci::EngineConfig with_transcripts(uci::EngineConfig e, const DaemonConfig& config) {
    e.log_transcript = config.logging.transcripts;
    return e;
  }

  std::string store_;
  std::optional<WorkerSettings> settings_;
  std::vector<std::unique_ptr<EngineRun>> runs_;  // in the configuration's order
  std::vector<std::string> names_;
};

// Plans the jobs that have no items yet and run on one of our engines.
void plan_jobs(store::Store& store, Engines& engines) {
  for (const store::JobRow& job : store.jobs_to_plan()) {
    auto spec = spec_from_json(job.spec).and_then([](JobSpec s) -> Expected<JobSpec, std::string> {
      if (auto why = engine_name_problem(s.engine)) return unexpected("job spec: " + *why);  // never a program
      return s;
    });
    if (!spec) {
      store.set_job_state(job.id, store::JobState::Failed, spec.error());
      spdlog::error("job {}: failed: {}", job.id, spec.error());
      continue;
    }
    const std::string name = spec->engine.empty() && !engines.names().empty() ? engines.names().front() : spec->engine;
    const JobKind& kind = kind_of(*spec);
    const EngineSlot* slot = engines.slot(name);
    // A job that searches nothing (annotate --evals-from-input only) needs no engine of its name.
    if (!slot && !kind.needs_engine(*spec) && !engines.names().empty()) slot = engines.slot(engines.names().front());
    if (!slot) continue;  // another daemon's engine, or one that did not start: it waits
    AnalysisRun run = kind.start_from(job_input(store, job.id), *spec);  // the input read in parts
    run.input_file = job_files(store, job.id);
    PlannedItems planned;
    try {
      planned = add_planned_items(store, job.id, *spec, run, slot->identity);
    } catch (const store::StoreUnavailable& e) {
      // The database went away while the items were added (and is back): nothing of them was
      // kept, or all; either way the job is planned again, or found planned, at the next poll.
      spdlog::warn("job {}: planning interrupted: {}", job.id, e.what());
      return;
    }
    spdlog::info("job {}: running: {} {} on {}, {} positions ({} from the cache), {}", job.id, spec->kind,
                 core::escaped(spec->input), core::escaped(slot->identity), planned.count, planned.answered.size(),
                 describe_limits(spec->limits, spec->multipv));
    engines.wake();
  }
}

// The runs of the growing jobs (JobKind::grows) this daemon has planned a round of, by job: the
// next round reads only the answers it has not read (another daemon's rounds are replayed from
// the store, the same as its own).
using GrowingRuns = std::map<std::int64_t, AnalysisRun>;

// A complete job whose kind grows is given its next round; true when it got one (it is then not
// delivered: its claim is given back, and whoever finds it complete next grows or delivers it).
bool grew(store::Store& store, const store::JobRow& job, const JobSpec& spec, GrowingRuns& growing, Engines& engines) {
  const JobKind& kind = kind_of(spec);
  if (!kind.grows()) return false;
  AnalysisRun& run = growing[job.id];
  if (!run.data) {
    run = kind.start_from(job_input(store, job.id), spec);
    run.input_file = job_files(store, job.id);
  }
  const auto more = grow_job(store, job.id, spec, run, job.engine);
  if (!more) {  // it has grown
    growing.erase(job.id);
    return false;
  }
  store.release_delivery(job.id, this_process_owner());
  spdlog::info("job {}: {} more positions ({} from the cache); {}", job.id, more->planned.count,
               more->planned.answered.size(), kind.growth_status(run));
  engines.wake();
  return true;
}

// Writes the outputs of jobs that are done (or moves spool files of failed and cancelled ones):
// the jobs of this host, and those that write no file. A job made on another host whose outputs
// are files there is left to a daemon of that host (`epdd results` writes them anywhere). A
// growing job that is complete gets its next round instead, while it grows.
void deliver_jobs(store::Store& store, std::int64_t lease_ms, GrowingRuns& growing, Engines& engines) {
  const std::string& owner = this_process_owner();
  while (auto job = store.claim_delivery(owner, lease_ms, this_host())) {
    auto spec = spec_from_json(job->spec);
    const bool complete = job->state == store::JobState::Queued || job->state == store::JobState::Running;
    if (complete && spec && grew(store, *job, *spec, growing, engines)) continue;
    growing.erase(job->id);  // (delivered below, or failed or cancelled: its run is not needed)
    const store::JobState final_state = complete ? store::JobState::Finished : job->state;
    std::string message = complete ? (job->failed ? fmt::format("{} records failed", job->failed) : "") : job->message;
    if (spec && spec->spool)
      if (auto writable = spool_writable(spec->spool->dir); !writable) {
        // Not a failure of the job: its lease expires and the delivery is tried again.
        spdlog::warn("job {}: cannot deliver to the spool now ({}); the input stays in inbox/, trying again in {} s",
                     job->id, writable.error(), lease_ms / 1000);
        continue;
      }
    Expected<void, std::string> delivered;
    std::string note;      // what the job changed of its input's operations (analyse)
    std::string input_now;  // a spool input's place after delivery: done/ or failed/
    if (!spec) {
      delivered = unexpected(spec.error());
    } else if (spec->spool) {
      auto moved = deliver_spool_job(store, *job, *spec, complete, message.empty() ? to_string(final_state) : message, &note);
      if (moved) input_now = *moved;
      else delivered = unexpected(moved.error());
    } else if (complete) {
      auto written = write_job_outputs(store, *job, *spec, &note);
      if (!written) delivered = unexpected(written.error());
      else
        for (const auto& f : *written) spdlog::info("job {}: wrote {}", job->id, core::escaped(f));
      for (const auto& [path, name] : output_paths(*spec))
        if (is_stdio(path))
          spdlog::warn("job {}: its {} went to the standard output of the command that started it, which has gone; "
                       "'epdd results {} ... -' writes it",
                       job->id, name, job->id);
    }
    if (!delivered) {
      spdlog::error("job {}: failed: {}", job->id, delivered.error());
      store.mark_delivered(job->id, store::JobState::Failed, delivered.error());
      continue;
    }
    // Said as the one-shot command says it (status shows the message, the log has it).
    if (!note.empty()) message += (message.empty() ? "" : "; ") + note;
    store.mark_delivered(job->id, final_state, message, input_now);
    spdlog::info("job {}: {}{}{} ({}/{} done, {} failed, {} searched, {} from the cache)", job->id,
                 to_string(final_state), message.empty() ? "" : ": ", message, job->done, job->total, job->failed,
                 job->searches, job->cache_hits);
  }
}

// One info line per job state change seen in the store (whoever made it). Each poll reads only
// the jobs changed since a little before the newest change it saw (Store::jobs_updated_since):
// an idle daemon of a store that ran thousands of jobs reads none of them.
class StateLog {
 public:
  void update(store::Store& store) {
    for (const store::JobRow& job : store.jobs_updated_since(since_ms_)) {
      newest_ms_ = std::max(newest_ms_, job.updated_ms);
      auto [it, fresh] = states_.emplace(job.id, job.state);
      if (!fresh && it->second == job.state) continue;
      if (!fresh || job.state == store::JobState::Queued)
        spdlog::info("job {}: {} {} is {}", job.id, job.kind, core::escaped(job.input), to_string(job.state));
      it->second = job.state;
    }
    // A change is stamped before its transaction commits, and commits may finish out of order:
    // the next read goes back a margin longer than any of the store's transactions takes.
    if (newest_ms_ > 0) since_ms_ = newest_ms_ - kMarginMs;
  }

 private:
  static constexpr std::int64_t kMarginMs = 60000;
  std::map<std::int64_t, store::JobState> states_;
  std::int64_t newest_ms_ = 0;
  std::int64_t since_ms_ = 0;
};

// SIGHUP: the configuration read again; the engines it changes (or adds) restarted with it, the
// others left running; the spool and logging set anew. A broken file is logged with its place
// and the configuration in use is kept.
void reload(const ServeOptions& o, store::Store& store, DaemonConfig& config, std::optional<Spool>& spool,
            Engines& engines) {
  auto fresh = read_daemon_config(o.config);
  if (!fresh) {
    spdlog::error("SIGHUP: {}; keeping the configuration in use", fresh.error().to_string());
    return;
  }
  spdlog::info("SIGHUP: reloading {}", o.config);
  if (fresh->daemon.store != config.daemon.store)
    spdlog::warn("the store cannot change while running ({} stays in use until a restart)", store.path());
  fresh->daemon.store = config.daemon.store;
  config = std::move(*fresh);
  if (auto logged = setup_daemon_logging(config.logging, o.verbose); !logged) spdlog::error("{}", logged.error());
  if (config.spool) {
    if (!spool) spool.emplace(*config.spool);
    else spool->reconfigure(*config.spool);
    if (auto ready = spool->prepare(); !ready) spdlog::error("{}", ready.error());
  } else {
    spool.reset();
  }
  engines.reconfigure(config, config.daemon.stop_deadline_ms);
  if (!engines.any()) spdlog::error("no engine of {} could be started; jobs wait", o.config);
}

}  // namespace

int run_serve(const ServeOptions& o) {
  auto config = read_daemon_config(o.config);
  if (!config) {
    fmt::print(stderr, "epdd serve: {}\n", config.error().to_string());
    return kExitBadInput;
  }
  if (auto logged = setup_daemon_logging(config->logging, o.verbose); !logged) {
    fmt::print(stderr, "epdd serve: {}\n", logged.error());
    return kExitBadInput;
  }
  auto opened = store::Store::open(config->daemon.store, store::OnFullDisk::Wait);
  if (!opened) {
    spdlog::error("{}", opened.error());
    return kExitBadInput;
  }
  store::Store& store = **opened;
  std::optional<Spool> spool;
  if (config->spool) {
    spool.emplace(*config->spool);
    if (auto ready = spool->prepare(); !ready) {
      spdlog::error("{}", ready.error());
      return kExitBadInput;
    }
  }
  g_stop = false;
  g_reload = false;
  store::set_waits_interrupted(false);
  ScopedSignals signals({SIGINT, SIGTERM, SIGHUP}, on_serve_signal);
  spdlog::info("epdd serve: pid {}, store {}, configuration {}{}", getpid(), store.path(), o.config,
               spool ? ", spool " + spool->settings().directory : "");
  auto engines = std::make_unique<Engines>(*config, store.location());
  if (!engines->any()) {
    spdlog::error("no engine of {} could be started", o.config);
    return kExitEngine;
  }
  StateLog states;
  GrowingRuns growing;
  int status = kExitOk;
  try {
    while (!g_stop) {
      if (g_reload.exchange(false)) reload(o, store, *config, spool, *engines);
      if (spool && !spool->scan(store, engines->names()).empty()) engines->wake();
      plan_jobs(store, *engines);
      deliver_jobs(store, config->daemon.lease_ms, growing, *engines);
      states.update(store);
      if (engines->failed()) {
        status = 1;
        break;
      }
      const auto until = Clock::now() + std::chrono::milliseconds(config->daemon.poll_ms);
      while (!g_stop && !g_reload && Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  } catch (const store::StoreError& e) {
    spdlog::error("{}", e.what());
    status = 1;
  }
  spdlog::info("stopping");
  engines->stop(config->daemon.stop_deadline_ms);
  engines.reset();
  try {
    store.release_leases(this_process_owner());
    states.update(store);
  } catch (const store::StoreError& e) {
    spdlog::error("{}", e.what());
  }
  spdlog::info("stopped");
  return status;
}

}  // namespace epdd::daemon
