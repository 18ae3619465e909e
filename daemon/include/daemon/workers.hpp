// The worker side of the shared queue (ARCHITECTURE.md, "Store and daemon"): threads that claim
// positions from the store under a lease, answer them from the cache or an engine of the pool,
// and commit each result before anyone hears of it. The one-shot commands run them on their own
// job; `epdd serve` on every job its engines can serve. Several processes may run workers on one
// store: a position is claimed by one of them at a time.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/expected.hpp"
#include "store/store.hpp"
#include "uci/engine_pool.hpp"

namespace epdd::daemon {

// This machine's name in the store: $EPDD_HOST when set (containers that share a host name, or
// one machine standing in for several in a test), else the host name; characters other than
// letters, digits, '.', '-' and '_' become '_'. Two daemons on one store must not share it unless
// they run on one machine: a lease owner of this host whose process is gone is released at once.
const std::string& this_host();
// The lease owner name of this process: "HOST/PID/START" (START: the process's start time in
// clock ticks since boot, so a reused pid is another owner).
const std::string& this_process_owner();
// What this machine can tell of a lease owner: a process of its own that runs, one that no
// longer runs (its leases can be released at once instead of waiting for them to expire), or
// another machine's (only its leases' expiry tells).
enum class OwnerState : std::uint8_t { Running, Gone, Elsewhere };
OwnerState owner_state(const std::string& owner);
// owner_state(owner) == Gone.
bool owner_is_gone(const std::string& owner);

// The first line of an engine error, as an item's stored error ("timeout during search: ...").
std::string headline(const uci::EngineError& error);

// One engine the workers may use: its name in the pool and its identity (the jobs' `engine`).
struct EngineSlot {
  std::string name;
  std::string identity;
  int instances = 1;
};

// What became of one item.
struct ItemOutcome {
  std::int64_t job = 0;
  std::int64_t index = 0;
  enum class Source { Search, Cache } source = Source::Search;
  const uci::Analysis* analysis = nullptr;  // set when it was answered
  const uci::EngineError* error = nullptr;  // set when the engine failed on it
};

struct WorkerSettings {
  std::string store;               // the store file
  std::string owner = this_process_owner();
  std::int64_t lease_ms = 60000;   // renewed every third of it while searching
  std::int64_t poll_ms = 1000;     // how often an idle worker looks for work
  std::optional<std::int64_t> only_job;  // the one-shot commands: their job only
  // A search the engine failed (crashed, hung, answered what breaks the protocol or an illegal
  // move) is asked again up to this many times (the pool restarts a crashed instance, or the
  // next free one takes it) before its items fail, with the reason of every attempt.
  int retries = 2;
  // Whether join() gives back every lease of `owner` (a claim whose answer was lost, say): true
  // when these workers are the owner's only ones (a one-shot command); the daemon runs workers
  // for each engine under one owner, and gives them back itself when it stops.
  bool release_owner_at_join = true;
  // A full store disk: a command fails (its rerun resumes), a daemon waits for space.
  store::OnFullDisk on_full_disk = store::OnFullDisk::Fail;
  bool operator==(const WorkerSettings&) const = default;
};

class Workers {
 public:
  // Called on the worker's thread after the item's outcome is committed; calls may come from
  // several threads at once, so the callback must lock what it shares.
  using OnOutcome = std::function<void(const ItemOutcome&)>;

  // Starts one thread per engine instance, and one that renews leases and releases those of
  // processes gone from this machine.
  Workers(WorkerSettings settings, uci::EnginePool& pool, std::vector<EngineSlot> engines, OnOutcome on_outcome);
  // Stops claiming, cancels searches in flight (their items are released) and joins.
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  // Look for work now rather than at the next poll.
  void wake();
  // No new claims; searches in flight go on and are committed (an item claimed ahead and still
  // waiting behind one of them is given back).
  void stop_claiming();
  // Searches in flight are stopped (within about 100 ms) and their items released unanswered.
  // (A search whose jobs are all cancelled is stopped the same way, on its own, within a poll.)
  void cancel_in_flight();
  // Items being worked on now.
  int in_flight() const { return in_flight_.load(); }
  // Waits for the threads to end (after stop_claiming); rethrows the first StoreError (or other
  // exception) a thread met. Idempotent.
  void join();
  // The first exception a thread met, if any (the threads then stop claiming).
  bool failed() const { return failed_.load(); }

 private:
  // A claimed item whose request is with the pool. Each worker thread keeps up to two: the one
  // searching and the next, queued behind it, so that an engine goes from one search to the
  // next without waiting for the store's claim and commit (issue 13, defect 10).
  struct Search {
    store::Claim claim;
    std::atomic<bool>* cancel = nullptr;  // one of the thread's two flags, while in use
    uci::AnalysisRequest request;         // as it went to the pool (asked again after an engine's fault)
    std::future<Expected<uci::Analysis, uci::EngineError>> result;
    uci::Clock::duration claim_time{};
    uci::Clock::time_point claimed;
  };
  // Claims items until one is handed to the pool (answering cache hits and unreadable requests
  // on the way); nothing when there is no work. `queued`: a search claimed ahead, which
  // stop_claiming() gives back.
  // A claimed group is run at once (run_group) and claiming goes on. `session`: the worker's
  // engine session in the pool, for groups.
  std::optional<Search> start_search(store::Store& store, const EngineSlot& engine, std::atomic<bool>& cancel, bool queued,
                                     std::uint64_t session);
  // Waits for the search's answer and commits it (or gives the item back when it was cancelled).
  void finish_search(store::Store& store, const EngineSlot& engine, Search& search);
  void forget_flag(std::atomic<bool>* flag);
  struct InFlight;
  // With debug logging: where one search's time went (claim, engine, commit), for benchmarks.
  void log_timing(std::pair<std::int64_t, std::int64_t> item, const uci::Analysis& a, uci::Clock::duration claim,
                  uci::Clock::duration to_answer, uci::Clock::duration commit);
  // A claimed group (the positions of one game): searched in order on one engine session
  // (`session` picks it in the pool: ucinewgame before the first search, then each request's own
  // new_game, so the hash is kept through the game), answered from the cache where it can be,
  // and committed in one transaction at the end. A stop, a cancellation or a shut-down pool
  // gives the whole group back uncommitted: a rerun searches the game again from its start, so
  // its results never depend on where a run was interrupted.
  void run_group(store::Store& store, const EngineSlot& engine, const store::Claim& claim, std::atomic<bool>& cancel,
                 std::uint64_t session);
  // One position of a group: from the cache, or searched (ucinewgame first when
  // `first_search`); nothing when the search was cancelled or the pool shut down.
  struct GroupAnswer;
  std::optional<GroupAnswer> answer_in_group(store::Store& store, const EngineSlot& engine, const std::string& key,
                                             const std::string& request_json, std::atomic<bool>& cancel,
                                             std::uint64_t session, bool first_search);
  void work(const EngineSlot& engine, std::uint64_t session);
  // `result`, or while it is an engine's fault and settings_.retries allow, the answer to
  // `request` asked again (not once its cancel flag is set, nor after stop_claiming: a stopping
  // daemon starts no new search); `faults` gets each failed attempt's headline.
  Expected<uci::Analysis, uci::EngineError> asked_again(Expected<uci::Analysis, uci::EngineError> result,
                                                        const uci::AnalysisRequest& request,
                                                        std::vector<std::string>& faults);
  // Whether the items of `job` need the engine's score (JobKind::needs_value), read from the
  // store once a job; true when its spec cannot be read (the answer then fails, never cached).
  bool needs_value(store::Store& store, std::int64_t job);
  // An Uncached outcome (an answer without a score) split: the items whose jobs need the value
  // go to a Failed outcome (`why`) of their own; a part without items is left out.
  std::vector<store::PositionOutcome> split_scoreless(store::Store& store, store::PositionOutcome answer,
                                                      const std::string& why);
  // An answer without a score (not a position the rules decide): committed without a cache
  // entry, each item Done where its job can use it and Failed where it needs the value.
  void commit_scoreless(store::Store& store, const EngineSlot& engine, const store::Claim& claim,
                        const uci::Analysis& result, const std::string& json);
  void heartbeat();
  // Stops the searches in flight whose positions no active job waits for any more (epdd cancel).
  void stop_abandoned(store::Store& store);
  void fail(std::exception_ptr e);

  WorkerSettings settings_;
  uci::EnginePool& pool_;
  std::vector<EngineSlot> engines_;
  OnOutcome on_outcome_;
  std::atomic<bool> stop_{false}, cancel_{false}, failed_{false};
  std::atomic<int> in_flight_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::uint64_t wakes_ = 0;
  std::exception_ptr error_;
  std::vector<std::thread> threads_;
  std::thread heartbeat_;
  bool heartbeat_stop_ = false;  // under mutex_
  bool joined_ = false;
  // Under mutex_: the flag of each search with the pool, whether it is queued behind another,
  // its position's key (to stop it alone when only cancelled jobs wait for it), and the
  // positions whose leases it holds (a group's every one), which the heartbeat renews.
  struct Flight {
    std::atomic<bool>* flag;
    bool queued;
    std::string key;
    std::vector<std::string> held;
  };
  // The positions of every search in flight (the keys the heartbeat renews).
  std::vector<std::string> held_keys();
  std::vector<Flight> flags_;
  std::unordered_map<std::int64_t, bool> needs_value_;  // under mutex_: by job
};

}  // namespace epdd::daemon
