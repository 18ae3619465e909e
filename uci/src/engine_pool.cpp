#include "uci/engine_pool.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>

#include "uci/engine_session.hpp"

namespace epdd::uci {

namespace {

// A failure decided by the pool itself (no transcript or exit status to tell).
EngineError pool_error(EngineErrorKind kind, std::string engine, std::string message) {
  EngineError e;
  e.kind = kind;
  e.engine = std::move(engine);
  e.message = std::move(message);
  return e;
}

}  // namespace

struct EnginePool::Worker {
  std::size_t engine = 0;  // index into engines_
  std::deque<Job> own;     // requests of games kept on this worker
  std::unique_ptr<EngineSession> session;
  std::vector<Clock::time_point> restarts;  // within the budget window
  std::optional<Clock::time_point> last_answered;  // for SearchTiming::engine_idle
  EngineHealth health;
  std::thread thread;
  // The engine refused the options it is configured with (BadRequest at the handshake): no
  // restart can change that, so every later start fails at once with the same error.
  std::optional<EngineError> refused;
  // The failure of the last start an identify job made (warm_up's, identify()'s), when no session
  // has run since: the next identify job answers with it instead of starting the engine again
  // (warm_up's start and the identify() after it are one attempt: a program that never says
  // uciok fails in one handshake timeout, not two). Taken by the identify that reports it, so
  // that a later one tries again.
  std::optional<EngineError> start_failure;
};

EnginePool::EnginePool(std::vector<EngineConfig> engines, LogSink log)
    : engines_(std::move(engines)), log_(std::move(log)), shared_(engines_.size()),
      limit_stops_logged_(engines_.size()) {
  ignore_sigpipe();
  for (std::size_t e = 0; e < engines_.size(); ++e) {
    for (int i = 0; i < std::max(1, engines_[e].instances); ++i) {
      auto w = std::make_unique<Worker>();
      w->engine = e;
      w->health.engine = engines_[e].name;
      w->health.instance = i;
      workers_.push_back(std::move(w));
    }
  }
  for (auto& w : workers_) w->thread = std::thread([this, worker = w.get()] { run(*worker); });
}

EnginePool::~EnginePool() { shutdown(); }

std::future<Expected<Analysis, EngineError>> EnginePool::submit(AnalysisRequest request) {
  Job job{std::move(request), {}, {}, Clock::now()};
  auto future = job.promise.get_future();
  std::unique_lock lock(mutex_);
  submit_locked(std::move(job), lock, /*front=*/false);
  return future;
}

std::optional<EngineError> EnginePool::submit_locked(Job job, std::unique_lock<std::mutex>& lock, bool front) {
  const auto refuse = [&](EngineErrorKind kind, std::string message) {
    EngineError e = pool_error(kind, job.request.engine, std::move(message));
    if (job.identify) job.identify->set_value(unexpected(e));
    else job.promise.set_value(unexpected(e));
    return std::optional<EngineError>(std::move(e));
  };
  std::size_t engine = 0;
  if (!job.request.engine.empty()) {
    auto it = std::find_if(engines_.begin(), engines_.end(),
                           [&](const EngineConfig& c) { return c.name == job.request.engine; });
    if (it == engines_.end()) return refuse(EngineErrorKind::BadRequest, "no engine of that name in the pool");
    engine = static_cast<std::size_t>(it - engines_.begin());
  }
  if (stopping_ || engines_.empty()) {
    return refuse(EngineErrorKind::ShutDown, engines_.empty() ? "the pool has no engines" : "the pool is shutting down");
  }
  std::deque<Job>* queue = &shared_[engine];
  if (job.request.game) {
    std::vector<Worker*> mine;
    for (auto& w : workers_)
      if (w->engine == engine) mine.push_back(w.get());
    queue = &mine[*job.request.game % mine.size()]->own;
  }
  if (front) queue->push_front(std::move(job));
  else queue->push_back(std::move(job));
  lock.unlock();
  wake_.notify_all();
  return std::nullopt;
}

Expected<Analysis, EngineError> EnginePool::analyse(const AnalysisRequest& request) {
  return submit(request).get();
}

Expected<EngineIdentity, EngineError> EnginePool::identify(const std::string& engine) {
  auto promise = std::make_shared<std::promise<Expected<EngineIdentity, EngineError>>>();
  auto answer = promise->get_future();
  AnalysisRequest request;
  request.engine = engine;
  std::unique_lock lock(mutex_);
  // Queued like a request (so that it is answered by whichever instance is free), but in front.
  auto failed = submit_locked(Job{std::move(request), {}, promise, Clock::now()}, lock, /*front=*/true);
  if (failed) return unexpected(std::move(*failed));
  return answer.get();
}

void EnginePool::warm_up(const std::string& engine) {
  std::unique_lock lock(mutex_);
  if (stopping_) return;
  for (auto& w : workers_) {
    if (engines_[w->engine].name != engine && !(engine.empty() && w->engine == 0)) continue;
    // An identify job on the worker's own queue: it starts the session; nobody waits for the answer.
    AnalysisRequest request;
    request.engine = engines_[w->engine].name;
    w->own.push_back(Job{std::move(request), {}, std::make_shared<std::promise<Expected<EngineIdentity, EngineError>>>(),
                         Clock::now()});
  }
  lock.unlock();
  wake_.notify_all();
}

void EnginePool::run(Worker& worker) {
  for (;;) {
    std::unique_lock lock(mutex_);
    // An unhealthy worker leaves shared requests to healthy siblings while there are any.
    const auto may_take_shared = [&] {
      if (!worker.health.unhealthy) return true;
      return std::all_of(workers_.begin(), workers_.end(), [&](const auto& w) {
        return w->engine != worker.engine || w->health.unhealthy;
      });
    };
    wake_.wait(lock, [&] {
      return stopping_ || !worker.own.empty() || (!shared_[worker.engine].empty() && may_take_shared());
    });
    if (stopping_) break;
    std::deque<Job>& from = !worker.own.empty() ? worker.own : shared_[worker.engine];
    Job job = std::move(from.front());
    from.pop_front();
    lock.unlock();
    if (job.identify) {
      if (!worker.session && worker.start_failure) {
        job.identify->set_value(unexpected(std::move(*worker.start_failure)));
        worker.start_failure.reset();
        continue;
      }
      auto started = ensure_session(worker);
      if (started) {
        job.identify->set_value(worker.session->identity());
      } else {
        worker.start_failure = started.error();
        job.identify->set_value(unexpected(std::move(started.error())));
      }
      continue;
    }
    const auto taken = Clock::now();
    Expected<Analysis, EngineError> result = unexpected(EngineError{});
    try {
      result = serve(worker, job.request);
      if (result) {
        const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
        result->timing.queued = ms(taken - job.submitted);
        result->timing.engine_idle = worker.last_answered ? ms(taken - *worker.last_answered) : 0;
      }
    } catch (const std::exception& e) {
      // Nothing may end the worker: the request fails, and the session (whatever state it was
      // left in) is replaced.
      result = unexpected(
          pool_error(EngineErrorKind::Crash, engines_[worker.engine].name, std::string("internal error: ") + e.what()));
      try {
        if (worker.session) worker.session->shutdown();
      } catch (...) {
      }
      worker.session.reset();
    }
    worker.last_answered = Clock::now();
    job.promise.set_value(std::move(result));
  }
  if (worker.session) worker.session->shutdown();
}

Expected<void, EngineError> EnginePool::ensure_session(Worker& worker) {
  const EngineConfig& config = engines_[worker.engine];
  const auto count = [&](auto&& update) {
    std::lock_guard lock(mutex_);
    update(worker.health);
  };
  if (worker.health.unhealthy) return unexpected(pool_error(EngineErrorKind::Unhealthy, config.name, worker.health.reason));
  if (worker.refused) return unexpected(*worker.refused);
  if (!worker.session) {
    if (worker.health.starts > 0) {
      // A restart: within the budget, or the instance gives up (contract point 6).
      const auto now = Clock::now();
      std::erase_if(worker.restarts, [&](auto t) { return now - t > config.restarts.window; });
      if (static_cast<int>(worker.restarts.size()) >= config.restarts.max_restarts) {
        const std::string reason =
            fmt::format("{} restarts within {} s; not restarted again", worker.restarts.size(),
                        config.restarts.window.count());
        count([&](EngineHealth& h) {
          h.unhealthy = true;
          h.reason = reason;
        });
        if (log_) log_(LogLevel::Error, config.name, "unhealthy: " + reason);
        wake_.notify_all();  // siblings may now take shared requests in its place
        return unexpected(pool_error(EngineErrorKind::Unhealthy, config.name, reason));
      }
      worker.restarts.push_back(now);
      count([](EngineHealth& h) { ++h.restarts; });
      if (log_) log_(LogLevel::Warn, config.name, fmt::format("restarting instance {}", worker.health.instance));
    }
    count([](EngineHealth& h) { ++h.starts; });
    auto session = EngineSession::start(config, log_);
    if (!session) {
      count([](EngineHealth& h) { ++h.start_failures; });
      if (session.error().kind == EngineErrorKind::BadRequest) worker.refused = session.error();
      return unexpected(session.error());
    }
    worker.start_failure.reset();
    worker.session = std::move(*session);
  }
  return {};
}

Expected<Analysis, EngineError> EnginePool::serve(Worker& worker, const AnalysisRequest& request) {
  const auto count = [&](auto&& update) {
    std::lock_guard lock(mutex_);
    update(worker.health);
  };
  count([](EngineHealth& h) { ++h.requests; });
  if (auto started = ensure_session(worker); !started) return unexpected(std::move(started.error()));
  auto result = worker.session->analyse(request);
  if (result) {
    count([](EngineHealth& h) { ++h.succeeded; });
    if (!result->limit_stop.empty())
      note_limit_stop(worker, result->limit_stop,
                      "said once; epdd stops every such search once the engine's reports pass the limit");
    if (!result->limit_short.empty())
      note_limit_stop(worker, result->limit_short,
                      "said once; its results are weaker than the limit asks: a --movetime or --depth run, or "
                      "'epdd check-engine', shows what it does");
    return result;
  }
  count([&](EngineHealth& h) {
    switch (result.error().kind) {
      case EngineErrorKind::Timeout: ++h.timeouts; break;
      case EngineErrorKind::Crash: ++h.crashes; break;
      case EngineErrorKind::ProtocolViolation: ++h.protocol_violations; break;
      case EngineErrorKind::IllegalOutput: ++h.illegal_outputs; break;
      case EngineErrorKind::WriteFailed: ++h.write_failures; break;
      case EngineErrorKind::BadRequest: ++h.bad_requests; break;
      default: break;
    }
  });
  // Keep the engine when the request was at fault, or when a search that ran out of time or was
  // cancelled was stopped cleanly (the engine is Ready and in step). An engine that died, broke the protocol
  // or printed an illegal move is replaced by a fresh one for the next request.
  const EngineErrorKind kind = result.error().kind;
  const bool keep = worker.session->state() == SessionState::Ready &&
                    (kind == EngineErrorKind::BadRequest || kind == EngineErrorKind::Timeout ||
                     kind == EngineErrorKind::Cancelled);
  if (!keep) {
    worker.session->shutdown();
    worker.session.reset();
  }
  return result;
}

void EnginePool::note_limit_stop(const Worker& worker, const std::string& limit_stop, std::string_view why) {
  // The kind is the text before the figures: "engine ignores go nodes", "engine searched past go depth 8".
  std::string kind = limit_stop.substr(0, limit_stop.find(':'));
  while (!kind.empty() && (std::isdigit(static_cast<unsigned char>(kind.back())) || kind.back() == ' ')) kind.pop_back();
  {
    std::lock_guard lock(mutex_);
    auto& logged = limit_stops_logged_[worker.engine];
    if (std::find(logged.begin(), logged.end(), kind) != logged.end()) return;
    logged.push_back(kind);
  }
  if (log_)
    log_(LogLevel::Warn, engines_[worker.engine].name,
         fmt::format("{} ({})", limit_stop, why));
}

std::vector<EngineHealth> EnginePool::health() const {
  std::lock_guard lock(mutex_);
  std::vector<EngineHealth> out;
  for (const auto& w : workers_) out.push_back(w->health);
  return out;
}

void EnginePool::shutdown() {
  // Callable from several threads and more than once; the threads are joined once.
  std::lock_guard once(shutdown_mutex_);
  std::vector<Job> abandoned;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& q : shared_)
      for (auto& job : q) abandoned.push_back(std::move(job));
    for (auto& q : shared_) q.clear();
    for (auto& w : workers_) {
      for (auto& job : w->own) abandoned.push_back(std::move(job));
      w->own.clear();
    }
  }
  wake_.notify_all();
  for (auto& job : abandoned) {
    auto e = pool_error(EngineErrorKind::ShutDown, job.request.engine, "the pool shut down before this request ran");
    if (job.identify) job.identify->set_value(unexpected(std::move(e)));
    else job.promise.set_value(unexpected(std::move(e)));
  }
  for (auto& w : workers_)
    if (w->thread.joinable()) w->thread.join();
}

}  // namespace epdd::uci
