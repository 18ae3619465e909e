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


// The engines of one configuration: a pool, the identity of each engine that started, and the
// workers that serve them.
class Engines {
 public:
  Engines(const DaemonConfig& config, const std::string& store) {
    std::vector<uci::EngineConfig> engines = config.engines;
    for (auto& e : engines) e.log_transcript = config.logging.transcripts;
    pool_ = std::make_unique<uci::EnginePool>(engines, engine_log_sink());
    for (const auto& e : engines) {
      names_.push_back(e.name);
      auto id = pool_->identify(e.name);
      if (!id) {
        spdlog::error("engine {}: cannot be started, its jobs wait: {}", e.name, id.error().to_string());
        continue;
      }
      const std::string identity = engine_identity_for(e, *id);
      spdlog::info("engine {}: {} ({} instance{})", e.name, core::escaped(identity), e.instances,
                   e.instances == 1 ? "" : "s");
      slots_.push_back(EngineSlot{e.name, identity, e.instances});
    }
    if (slots_.empty()) return;
    WorkerSettings ws;
    ws.store = store;
    ws.lease_ms = config.daemon.lease_ms;
    ws.poll_ms = config.daemon.poll_ms;
    ws.retries = config.daemon.retries;
    ws.on_full_disk = store::OnFullDisk::Wait;
    workers_ = std::make_unique<Workers>(ws, *pool_, slots_, [](const ItemOutcome& o) {
      if (o.error) spdlog::warn("job {} item {}: {}", o.job, o.index, headline(*o.error));
      else spdlog::debug("job {} item {}: {}", o.job, o.index, o.source == ItemOutcome::Source::Cache ? "from the cache" : "searched");
    });
  }
  ~Engines() { stop(0); }
  Engines(const Engines&) = delete;
  Engines& operator=(const Engines&) = delete;

  bool any() const { return !slots_.empty(); }
  const std::vector<std::string>& names() const { return names_; }
  const EngineSlot* slot(const std::string& name) const {
    for (const auto& s : slots_)
      if (s.name == name) return &s;
    return nullptr;
  }
  void wake() {
    if (workers_) workers_->wake();
  }
  bool failed() const { return workers_ && workers_->failed(); }

  // No new work; searches in flight may finish within `deadline_ms`, then they are stopped and
  // their positions put back; engines quit. Idempotent.
  void stop(std::int64_t deadline_ms) {
    if (workers_) {
      workers_->stop_claiming();
      const auto deadline = Clock::now() + std::chrono::milliseconds(deadline_ms);
      if (workers_->in_flight() > 0)
        spdlog::info("waiting up to {} s for {} search(es) in flight", deadline_ms / 1000.0, workers_->in_flight());
      while (workers_->in_flight() > 0 && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (workers_->in_flight() > 0) {
        spdlog::info("deadline passed: stopping {} search(es); their positions go back to the queue",
                     workers_->in_flight());
        workers_->cancel_in_flight();
      }
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
  std::unique_ptr<uci::EnginePool> pool_;
  std::vector<std::string> names_;
  std::vector<EngineSlot> slots_;
  std::unique_ptr<Workers> workers_;
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

// SIGHUP: the configuration read again; engines restarted with it, the spool and logging set
// anew. A broken file is logged with its place and the configuration in use is kept.
void reload(const ServeOptions& o, store::Store& store, DaemonConfig& config, std::optional<Spool>& spool,
            std::unique_ptr<Engines>& engines) {
  auto fresh = read_daemon_config(o.config);
  if (!fresh) {
    spdlog::error("SIGHUP: {}; keeping the configuration in use", fresh.error().to_string());
    return;
  }
  spdlog::info("SIGHUP: reloading {}", o.config);
  if (fresh->daemon.store != config.daemon.store)
    spdlog::warn("the store cannot change while running ({} stays in use until a restart)", store.path());
  engines->stop(fresh->daemon.stop_deadline_ms);
  engines.reset();
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
  engines = std::make_unique<Engines>(config, store.location());
  if (!engines->any()) spdlog::error("no engine of {} could be started; jobs wait", o.config);
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
      if (g_reload.exchange(false)) reload(o, store, *config, spool, engines);
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
