#include "daemon/jobs_command.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>

#include "daemon/analysis_run.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/files.hpp"
#include "daemon/jobs.hpp"
#include "daemon/progress.hpp"
#include "daemon/store.hpp"

namespace epdd::daemon {

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

Expected<std::unique_ptr<Store>, std::string> open_store(const StoreChoice& where) {
  auto path = store_path(where);
  if (!path) return unexpected(path.error());
  return Store::open(*path);
}

std::string absolute(const std::string& path) { return fs::absolute(path).lexically_normal().string(); }

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

int run_submit(SubmitOptions o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& message) {
    fmt::print(err, "epdd submit: {}\n", message);
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
      return fail(fmt::format("no engine '{}' in {}", spec.engine, *o.where.config));
  }
  if (spec.engine.find('/') != std::string::npos)
    return fail(fmt::format("--engine '{}': a job names an engine of the daemon's configuration, not a program",
                            spec.engine));
  auto bytes = read_whole_file(spec.input);
  if (!bytes) return fail(bytes.error());
  AnalysisRun run = start_run(*bytes, spec);
  if (auto why = nothing_to_analyse(spec.input, run, spec)) return fail(*why);
  for (auto* path : {&spec.output, &spec.report, &spec.json})
    if (*path) **path = absolute(**path);
  auto store = open_store(o.where);
  if (!store) return fail(store.error());
  try {
    NewJob n;
    n.kind = spec.kind;
    n.input = absolute(spec.input);
    n.spec = spec_to_json(spec);
    n.identity = fmt::format("submit|{}|{}|{}", n.input, content_hash(*bytes), n.spec);
    n.settings = fmt::format("engine {}; {}", spec.engine.empty() ? "(the first configured)" : spec.engine,
                             describe_limits(spec.limits, spec.multipv));
    n.source = std::move(*bytes);
    const JobRow job = (*store)->find_or_create_job(n);
    fmt::print(out, "{}\n", job.id);
    if (job.created_ms != job.updated_ms || job.state != JobState::Queued)
      fmt::print(err, "epdd submit: the same job was submitted before: job {} ({})\n", job.id, to_string(job.state));
  } catch (const StoreError& e) {
    return fail(e.what());
  }
  return kExitOk;
}

int run_status(const StoreChoice& where, std::optional<std::int64_t> id, std::ostream& out, std::ostream& err) {
  auto store = open_store(where);
  if (!store) {
    fmt::print(err, "epdd status: {}\n", store.error());
    return kExitBadInput;
  }
  try {
    std::vector<JobRow> jobs;
    if (id) jobs.push_back((*store)->job(*id));
    else jobs = (*store)->jobs();
    if (jobs.empty()) {
      fmt::print(out, "no jobs in {}\n", (*store)->path());
      return kExitOk;
    }
    fmt::print(out, "{:>5}  {:<8} {:<10} {:>15} {:>7} {:>9} {:>8}  {}\n", "JOB", "KIND", "STATE", "DONE/TOTAL", "FAILED",
               "RATE/MIN", "ETA", "INPUT");
    const std::int64_t now = now_ms();
    for (const JobRow& j : jobs) {
      const std::int64_t handled = j.done + j.failed;
      std::string rate = "-", eta = "-";
      const double minutes = static_cast<double>((j.state == JobState::Running ? now : j.updated_ms) - j.created_ms) / 60000.0;
      if (handled > 0 && minutes > 0) {
        const double per_minute = static_cast<double>(handled) / minutes;
        rate = fmt::format("{:.1f}", per_minute);
        if (j.state == JobState::Running && j.total > handled)
          eta = Progress::clock(static_cast<double>(j.total - handled) / per_minute * 60.0);
      }
      const std::string total = j.planned ? std::to_string(j.total) : "?";
      fmt::print(out, "{:>5}  {:<8} {:<10} {:>15} {:>7} {:>9} {:>8}  {}\n", j.id, j.kind, to_string(j.state),
                 fmt::format("{}/{}", j.done, total), j.failed, rate, eta, j.input);
      if (!j.message.empty()) fmt::print(out, "       {}\n", j.message);
      if (id) {
        fmt::print(out, "       engine: {}\n       settings: {}\n       {} searched, {} from the cache\n",
                   j.engine.empty() ? "(not planned yet)" : j.engine, j.settings, j.searches, j.cache_hits);
        for (const auto& item : (*store)->items(j.id))
          if (item.state == ItemState::Failed) fmt::print(out, "       item {}: {}\n", item.index, item.error);
      }
    }
  } catch (const StoreError& e) {
    fmt::print(err, "epdd status: {}\n", e.what());
    return kExitBadInput;
  }
  return kExitOk;
}

int run_cancel(const StoreChoice& where, std::int64_t id, std::ostream& out, std::ostream& err) {
  auto store = open_store(where);
  if (!store) {
    fmt::print(err, "epdd cancel: {}\n", store.error());
    return kExitBadInput;
  }
  try {
    if ((*store)->cancel_job(id, "cancelled by epdd cancel")) {
      fmt::print(out, "job {} cancelled\n", id);
      return kExitOk;
    }
    fmt::print(err, "epdd cancel: job {} is {} already\n", id, to_string((*store)->job(id).state));
    return kExitRecordsFailed;
  } catch (const StoreError& e) {
    fmt::print(err, "epdd cancel: {}\n", e.what());
    return kExitBadInput;
  }
}

int run_results(const ResultsOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](int status, const std::string& message) {
    fmt::print(err, "epdd results: {}\n", message);
    return status;
  };
  auto store = open_store(o.where);
  if (!store) return fail(kExitBadInput, store.error());
  try {
    const JobRow job = (*store)->job(o.job);
    if (!job.complete() || job.state == JobState::Cancelled || job.state == JobState::Failed)
      return fail(kExitRecordsFailed, fmt::format("job {} is {} ({}/{} done){}: no results yet", job.id,
                                                  to_string(job.state), job.done, job.planned ? job.total : 0,
                                                  job.message.empty() ? "" : ": " + job.message));
    auto spec = spec_from_json(job.spec);
    if (!spec) return fail(kExitBadInput, spec.error());
    auto texts = render_job(**store, job, *spec);
    if (!texts) return fail(kExitBadInput, texts.error());
    const auto write = [&](const std::string& path, const std::string& text) {
      auto w = write_file_atomically(path, text);
      if (!w) fmt::print(err, "epdd results: {}\n", w.error());
      return static_cast<bool>(w);
    };
    if (spec->kind == "suite") {
      out << texts->at("report") << std::flush;
      if (o.output && !write(*o.output, texts->at("epd"))) return kExitBadInput;
      if (o.json && !write(*o.json, texts->at("json"))) return kExitBadInput;
    } else {
      if (o.json) return fail(kExitBadInput, "--json is for suite jobs");
      if (o.output) {
        if (!write(*o.output, texts->at("epd"))) return kExitBadInput;
      } else {
        out << texts->at("epd") << std::flush;
      }
    }
    return job.failed ? kExitRecordsFailed : kExitOk;
  } catch (const StoreError& e) {
    return fail(kExitBadInput, e.what());
  }
}

}  // namespace epdd::daemon
