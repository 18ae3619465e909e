#include "daemon/workers.hpp"

#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "daemon/analysis_json.hpp"
#include "daemon/job_spec.hpp"
#include "daemon/store.hpp"

namespace epdd::daemon {

namespace {

std::string host_name() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof buffer - 1) != 0) return "localhost";
  return buffer;
}

// Field 22 of /proc/PID/stat: the start time in clock ticks since boot; empty if it is gone.
std::string start_time(long pid) {
  std::ifstream stat(fmt::format("/proc/{}/stat", pid));
  std::string line;
  if (!std::getline(stat, line)) return {};
  const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
  if (close == std::string::npos) return {};
  std::istringstream rest(line.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
  }
  return field;
}

}  // namespace

const std::string& this_process_owner() {
  static const std::string owner = fmt::format("{}/{}/{}", host_name(), getpid(), start_time(getpid()));
  return owner;
}

OwnerState owner_state(const std::string& owner) {
  const auto a = owner.find('/');
  const auto b = owner.find('/', a == std::string::npos ? a : a + 1);
  if (a == std::string::npos || b == std::string::npos) return OwnerState::Elsewhere;
  static const std::string host = host_name();
  if (owner.compare(0, a, host) != 0) return OwnerState::Elsewhere;  // another machine's: wait for expiry
  long pid = 0;
  try {
    pid = std::stol(owner.substr(a + 1, b - a - 1));
  } catch (const std::exception&) {
    return OwnerState::Elsewhere;
  }
  if (pid <= 0) return OwnerState::Elsewhere;
  return start_time(pid) == owner.substr(b + 1) ? OwnerState::Running : OwnerState::Gone;
}

bool owner_is_gone(const std::string& owner) { return owner_state(owner) == OwnerState::Gone; }

std::string headline(const uci::EngineError& e) {
  std::string s = fmt::format("{} during {}: {}", uci::to_string(e.kind), e.step.empty() ? "request" : e.step, e.message);
  if (!e.exit_status.empty()) s += fmt::format(" ({})", e.exit_status);
  return s;
}

// Registered with the workers for its scope: cancel_in_flight() stops every search,
// stop_abandoned() this one alone.
class Workers::InFlight {
 public:
  InFlight(Workers& workers, std::string key) : workers_(workers), key_(std::move(key)) {
    std::lock_guard lock(workers_.mutex_);
    cancel_ = workers_.cancel_.load();
    workers_.flights_.push_back(this);
  }
  ~InFlight() {
    std::lock_guard lock(workers_.mutex_);
    std::erase(workers_.flights_, this);
  }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

  const std::atomic<bool>* flag() const { return &cancel_; }
  const std::string& key() const { return key_; }
  // Under the workers' mutex.
  bool stop() { return !cancel_.exchange(true); }

 private:
  Workers& workers_;
  std::string key_;
  std::atomic<bool> cancel_{false};
};

Workers::Workers(WorkerSettings settings, uci::EnginePool& pool, std::vector<EngineSlot> engines,
                 OnOutcome on_outcome)
    : settings_(std::move(settings)), pool_(pool), engines_(std::move(engines)), on_outcome_(std::move(on_outcome)) {
  for (const auto& engine : engines_)
    for (int i = 0; i < engine.instances; ++i) threads_.emplace_back([this, &engine] { work(engine); });
  heartbeat_ = std::thread([this] { heartbeat(); });
}

Workers::~Workers() {
  stop_claiming();
  cancel_in_flight();
  try {
    join();
  } catch (const std::exception& e) {
    spdlog::error("workers: {}", e.what());
  }
}

void Workers::wake() {
  {
    std::lock_guard lock(mutex_);
    ++wakes_;
  }
  wake_.notify_all();
}

void Workers::stop_claiming() {
  stop_ = true;
  wake();
}

void Workers::cancel_in_flight() {
  std::lock_guard lock(mutex_);
  cancel_ = true;
  for (InFlight* flight : flights_) flight->stop();
}

void Workers::stop_abandoned(Store& store) {
  {
    std::lock_guard lock(mutex_);
    if (flights_.empty()) return;
  }
  const auto abandoned = store.abandoned_leases(settings_.owner);
  if (abandoned.empty()) return;
  std::lock_guard lock(mutex_);
  for (InFlight* flight : flights_) {
    std::string jobs;
    for (const auto& [key, job] : abandoned)
      if (key == flight->key()) jobs += fmt::format("{}{}", jobs.empty() ? "" : ", ", job);
    // The search's result would be counted by nobody: it is stopped, not committed or cached.
    if (!jobs.empty() && flight->stop())
      spdlog::info("job {}: cancelled: stopping the search in flight for its position", jobs);
  }
}

void Workers::join() {
  if (joined_) return;
  stop_claiming();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  // Leases are renewed until the last search in flight is committed.
  {
    std::lock_guard lock(mutex_);
    heartbeat_stop_ = true;
  }
  wake_.notify_all();
  if (heartbeat_.joinable()) heartbeat_.join();
  joined_ = true;
  // Anything still leased by us is put back (a claim whose search was cancelled).
  if (auto store = Store::open(settings_.store)) {
    try {
      (*store)->release_leases(settings_.owner);
    } catch (const StoreError& e) {
      spdlog::warn("{}", e.what());
    }
  }
  if (error_) std::rethrow_exception(error_);
}

void Workers::fail(std::exception_ptr e) {
  {
    std::lock_guard lock(mutex_);
    if (!error_) error_ = e;
  }
  failed_ = true;
  stop_claiming();
}

void Workers::work(const EngineSlot& engine) {
  try {
    auto opened = Store::open(settings_.store);
    if (!opened) throw StoreError(opened.error());
    Store& store = **opened;
    const std::vector<std::string> engines{engine.identity};
    while (!stop_) {
      std::uint64_t seen;
      {
        std::lock_guard lock(mutex_);
        seen = wakes_;
      }
      auto claim = store.claim(settings_.owner, engines, settings_.lease_ms, settings_.only_job);
      if (!claim) {
        std::unique_lock lock(mutex_);
        wake_.wait_for(lock, std::chrono::milliseconds(settings_.poll_ms), [&] { return stop_ || wakes_ != seen; });
        continue;
      }
      ++in_flight_;
      struct Done {
        std::atomic<int>& n;
        ~Done() { --n; }
      } done{in_flight_};
      const auto report = [&](const ItemOutcome& outcome) {
        if (on_outcome_) on_outcome_(outcome);
      };
      // Answered meanwhile (by another process, or an earlier claim of ours)?
      if (auto hit = store.cached(claim->key)) {
        if (auto a = analysis_from_json(*hit)) {
          for (const auto& [job, index] : claim->items) {
            store.commit_cached(job, index, claim->key, *hit);
            report({job, index, ItemOutcome::Source::Cache, &*a, nullptr});
          }
          continue;
        }
      }
      auto request = request_from_json(claim->request);
      if (!request) {
        for (const auto& [job, index] : claim->items) store.commit_failure(job, index, request.error());
        continue;
      }
      request->engine = engine.name;
      InFlight flight(*this, claim->key);
      request->cancel = flight.flag();
      const auto result = pool_.analyse(*request);
      if (!result && (result.error().kind == uci::EngineErrorKind::Cancelled ||
                      result.error().kind == uci::EngineErrorKind::ShutDown)) {
        store.release_leases(settings_.owner, &claim->key);
        continue;
      }
      if (result) {
        const std::string json = analysis_to_json(*result);
        bool first = true;
        for (const auto& [job, index] : claim->items) {
          if (first) store.commit_analysis(job, index, claim->key, engine.identity, json);
          else store.commit_cached(job, index, claim->key, json);
          report({job, index, first ? ItemOutcome::Source::Search : ItemOutcome::Source::Cache, &*result, nullptr});
          first = false;
        }
      } else {
        const std::string why = headline(result.error());
        for (const auto& [job, index] : claim->items) {
          store.commit_failure(job, index, why);
          report({job, index, ItemOutcome::Source::Search, nullptr, &result.error()});
        }
      }
    }
  } catch (...) {
    fail(std::current_exception());
  }
}

void Workers::heartbeat() {
  try {
    auto opened = Store::open(settings_.store);
    if (!opened) throw StoreError(opened.error());
    Store& store = **opened;
    using Clock = std::chrono::steady_clock;
    const auto period = std::chrono::milliseconds(std::max<std::int64_t>(settings_.lease_ms / 3, 50));
    // Cancelled jobs are looked for as often as an idle worker looks for work.
    const auto tick = std::min(period, std::chrono::milliseconds(std::max<std::int64_t>(settings_.poll_ms, 50)));
    auto next_renewal = Clock::now();
    for (;;) {
      if (Clock::now() >= next_renewal) {
        // Leases of processes of this machine that are gone (killed) are released at once: a
        // restarted daemon or a rerun command goes on without waiting for them to expire.
        for (const auto& owner : store.lease_owners())
          if (owner != settings_.owner && owner_is_gone(owner)) {
            const auto n = store.release_leases(owner);
            spdlog::info("released {} items leased by {}, which no longer runs", n, owner);
            wake();
          }
        if (in_flight_ > 0) store.renew_leases(settings_.owner, settings_.lease_ms);
        next_renewal = Clock::now() + period;
      }
      stop_abandoned(store);
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, tick, [&] { return heartbeat_stop_; })) break;
    }
  } catch (...) {
    fail(std::current_exception());
  }
}

}  // namespace epdd::daemon
