// N sessions of one or several engines behind one Analyser: requests queued, each session on
// its own thread, a game's positions kept on one session when the request names the game,
// crashed engines restarted within a budget, and health counters for reports.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/expected.hpp"
#include "uci/analysis.hpp"
#include "uci/engine_config.hpp"
#include "uci/engine_error.hpp"
#include "uci/engine_session.hpp"

namespace epdd::uci {

// What happened to one engine instance so far.
struct EngineHealth {
  std::string engine;  // configured name
  int instance = 0;
  std::uint64_t requests = 0, succeeded = 0;
  std::uint64_t timeouts = 0, crashes = 0, protocol_violations = 0, illegal_outputs = 0, write_failures = 0,
                start_failures = 0, bad_requests = 0;
  std::uint64_t starts = 0, restarts = 0;
  bool unhealthy = false;
  std::string reason;  // why it is unhealthy
};

class EnginePool : public Analyser {
 public:
  // Starts `instances` worker threads per engine; engines are spawned on first use.
  explicit EnginePool(std::vector<EngineConfig> engines, LogSink log = {});
  ~EnginePool() override;
  EnginePool(const EnginePool&) = delete;
  EnginePool& operator=(const EnginePool&) = delete;

  // Queues a request. Requests with the same `game` go to the same session, in order.
  std::future<Expected<Analysis, EngineError>> submit(AnalysisRequest request);
  // submit() and wait.
  Expected<Analysis, EngineError> analyse(const AnalysisRequest& request) override;

  // What the engine of this name (empty: the first) says about itself, from a running instance
  // (one is started if none is; it then serves the requests that follow). Caches key their
  // entries by it: `id name` carries the version.
  Expected<EngineIdentity, EngineError> identify(const std::string& engine = {});

  // Starts every instance of the engine of this name (empty: the first) now, each on its own
  // thread, rather than on its first request: a run's instances start side by side instead of
  // one after the other while the first is already searching. Returns at once; a start that
  // fails is counted and reported by the request that follows.
  void warm_up(const std::string& engine = {});

  std::vector<EngineHealth> health() const;
  // Fails what is still queued (ShutDown), lets running searches finish, ends every engine.
  void shutdown();

 private:
  struct Job {
    AnalysisRequest request;
    std::promise<Expected<Analysis, EngineError>> promise;
    // Set for identify(): start the session if needed and answer with its identity instead.
    std::shared_ptr<std::promise<Expected<EngineIdentity, EngineError>>> identify;
    Clock::time_point submitted;
  };
  struct Worker;
  void run(Worker& worker);
  Expected<Analysis, EngineError> serve(Worker& worker, const AnalysisRequest& request);
  // Queues a job (mutex_ held by `lock`, released here); an error when it is refused at once
  // (its promise is then already set).
  std::optional<EngineError> submit_locked(Job job, std::unique_lock<std::mutex>& lock, bool front);
  // A running session for the worker: the one it has, or a new one within the restart budget.
  Expected<void, EngineError> ensure_session(Worker& worker);
  // Logs an Analysis::limit_stop or limit_short the first time this engine has one of its kind,
  // with `why` in parentheses after it.
  void note_limit_stop(const Worker& worker, const std::string& limit_stop, std::string_view why);

  std::vector<EngineConfig> engines_;
  LogSink log_;
  mutable std::mutex mutex_;
  std::mutex shutdown_mutex_;
  std::condition_variable wake_;
  std::vector<std::deque<Job>> shared_;  // per engine
  // Per engine, the kinds of limit_stop already logged ("engine ignores go nodes"): said once per
  // engine, not once per search.
  std::vector<std::vector<std::string>> limit_stops_logged_;
  std::vector<std::unique_ptr<Worker>> workers_;
  bool stopping_ = false;
};

}  // namespace epdd::uci
