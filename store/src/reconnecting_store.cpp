// The store that waits for its database (reconnecting_store.hpp): one run() that every operation
// goes through.
#include "reconnecting_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <type_traits>
#include <utility>
#include <thread>

namespace epdd::store {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

std::atomic<bool> g_waits_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

// Sleeps `pause` in slices of 50 ms; false as soon as the waits are interrupted.
bool sleep_unless_interrupted(std::chrono::milliseconds pause) {
  const auto until = Clock::now() + pause;
  while (!g_waits_interrupted.load()) {
    const auto now = Clock::now();
    if (now >= until) return true;
    std::this_thread::sleep_for(std::min<Clock::duration>(until - now, std::chrono::milliseconds(50)));
  }
  return false;
}

}  // namespace

void set_waits_interrupted(bool interrupted) noexcept { g_waits_interrupted.store(interrupted); }

ReconnectingStore::ReconnectingStore(std::unique_ptr<Store> first, Opener reopen, std::chrono::milliseconds patience)
    : store_(std::move(first)), reopen_(std::move(reopen)), patience_(patience) {
  path_ = store_->path();
  location_ = store_->location();
}

void ReconnectingStore::reconnect(const std::string& lost, Clock::time_point since, Backoff& backoff) {
  if (backoff.full_since) {
    // The file opens at once on a full disk: the pause between runs of the operation grows
    // instead, and the wait is told once.
    if (backoff.tries == 0)
      notice(fmt::format("{}; waiting for space on the store's disk (trying again for up to {} s)", lost,
                         patience_.count() / 1000));
  } else {
    notice(fmt::format("{}; the database does not answer or refused for now: trying again (for up to {} s)", lost,
                       patience_.count() / 1000));
  }
  std::string last = lost;
  for (int attempt = 1;; ++attempt) {
    if (Clock::now() + backoff.pause - since > patience_) {
      const double waited = seconds(Clock::now() - since);
      if (backoff.full_since)
        throw StoreFull(fmt::format("{}: the disk stayed full for {:.0f} s; giving up: {}", path_, waited, last));
      throw StoreUnavailable(
          fmt::format("{}: the database did not answer for {:.0f} s; giving up: {}", path_, waited, last));
    }
    if (!sleep_unless_interrupted(backoff.pause)) {
      const std::string why = fmt::format("{}: stopped waiting, the process is stopping: {}", path_, last);
      if (backoff.full_since) throw StoreFull(why);
      throw StoreUnavailable(why);
    }
    backoff.pause = std::min(backoff.pause * 2, std::chrono::milliseconds(5000));
    ++backoff.tries;
    auto opened = reopen_();
    if (opened) {
      store_ = std::move(*opened);
      if (!backoff.full_since)
        notice(fmt::format("{}: reconnected after {:.1f} s ({} attempts)", path_, seconds(Clock::now() - since),
                           attempt));
      return;
    }
    last = opened.error();
  }
}

template <class Operation>
auto ReconnectingStore::run(Operation&& operation, bool once) -> decltype(operation(std::declval<Store&>())) {
  const auto since = Clock::now();
  Backoff backoff;
  for (;;) {
    std::string lost;
    try {
      if (!store_) reconnect("not connected", since, backoff);
      auto done = [&] {
        if (backoff.full_since)
          notice(fmt::format("{}: written after the disk was full for {:.1f} s", path_,
                             seconds(Clock::now() - *backoff.full_since)));
      };
      if constexpr (std::is_void_v<decltype(operation(*store_))>) {
        operation(*store_);
        return done();
      } else {
        auto result = operation(*store_);
        done();
        return result;
      }
    } catch (const StoreFull& e) {
      lost = e.what();
      if (!backoff.full_since) backoff.full_since = Clock::now();
    } catch (const StoreUnavailable& e) {
      lost = e.what();
      backoff.full_since.reset();
    }
    store_.reset();
    reconnect(lost, since, backoff);
    if (once) throw StoreUnavailable(fmt::format("{} (reconnected; the operation was not done again)", lost));
  }
}

namespace {

// False at an operation's first run, true when run() runs it again (after a lost answer): an
// operation asks it to look first whether its first run was committed.
class Rerun {
 public:
  bool operator()() { return std::exchange(seen_, true); }

 private:
  bool seen_ = false;
};

// Whether the item is `state` holding `text` (its result when Done, its error when Failed).
bool holds(Store& s, std::int64_t job, std::int64_t index, ItemState state, const std::string& text) {
  const auto rows = s.items(job, index, index + 1);
  if (rows.empty() || rows.front().state != state) return false;
  return (state == ItemState::Done ? rows.front().result : rows.front().error) == text;
}

}  // namespace

JobRow ReconnectingStore::find_or_create_job(const NewJob& job) {
  return run([&](Store& s) { return s.find_or_create_job(job); }, static_cast<bool>(job.read_source));
}
std::string ReconnectingStore::job_source(std::int64_t job) {
  return run([&](Store& s) { return s.job_source(job); });
}
void ReconnectingStore::read_job_source(std::int64_t job, const SourcePart& part) {
  run([&](Store& s) { s.read_job_source(job, part); });  // again from offset 0 after a reconnection
}

std::optional<std::string> ReconnectingStore::job_file(std::int64_t job, const std::string& name) {
  return run([&](Store& s) { return s.job_file(job, name); });
}
std::vector<std::int64_t> ReconnectingStore::add_items(std::int64_t job, const ItemSource& items,
                                                       const std::string& engine) {
  return run([&](Store& s) { return s.add_items(job, items, engine); }, /*once=*/true);
}
std::vector<ItemRow> ReconnectingStore::items(std::int64_t job) {
  return run([&](Store& s) { return s.items(job); });
}
std::vector<ItemRow> ReconnectingStore::items(std::int64_t job, std::int64_t first, std::int64_t last) {
  return run([&](Store& s) { return s.items(job, first, last); });
}
std::vector<GroupCount> ReconnectingStore::group_counts(std::int64_t job) {
  return run([&](Store& s) { return s.group_counts(job); });
}
std::optional<std::string> ReconnectingStore::cached(const std::string& key) {
  return run([&](Store& s) { return s.cached(key); });
}
void ReconnectingStore::commit_analysis(std::int64_t job, std::int64_t index, const std::string& key,
                                        const std::string& engine, const std::string& analysis_json) {
  Rerun again;
  run([&](Store& s) {
    if (again() && holds(s, job, index, ItemState::Done, analysis_json)) return;
    s.commit_analysis(job, index, key, engine, analysis_json);
  });
}
void ReconnectingStore::commit_cached(std::int64_t job, std::int64_t index, const std::string& key,
                                      const std::string& analysis_json) {
  Rerun again;
  run([&](Store& s) {
    if (again() && holds(s, job, index, ItemState::Done, analysis_json)) return;
    s.commit_cached(job, index, key, analysis_json);
  });
}
void ReconnectingStore::commit_failure(std::int64_t job, std::int64_t index, const std::string& error) {
  Rerun again;
  run([&](Store& s) {
    if (again() && holds(s, job, index, ItemState::Failed, error)) return;
    s.commit_failure(job, index, error);
  });
}
void ReconnectingStore::commit_outcomes(const std::string& engine, const std::vector<PositionOutcome>& outcomes) {
  // Every item holding its outcome: the batch was committed (one item alone could have been
  // committed by another process, with the same cached analysis).
  const auto all_held = [&](Store& s) {
    for (const PositionOutcome& o : outcomes)
      for (const auto& [job, index] : o.items)
        if (!(o.kind == PositionOutcome::Kind::Failed ? holds(s, job, index, ItemState::Failed, o.error)
                                                      : holds(s, job, index, ItemState::Done, o.analysis_json)))
          return false;
    return !outcomes.empty();
  };
  Rerun again;
  run([&](Store& s) {
    if (again() && all_held(s)) return;
    s.commit_outcomes(engine, outcomes);
  });
}
void ReconnectingStore::reset_failed(std::int64_t job) {
  run([&](Store& s) { s.reset_failed(job); });
}
void ReconnectingStore::set_job_state(std::int64_t job, JobState state, const std::string& message) {
  run([&](Store& s) { s.set_job_state(job, state, message); });
}
JobRow ReconnectingStore::job(std::int64_t id) {
  return run([&](Store& s) { return s.job(id); });
}
std::vector<JobRow> ReconnectingStore::jobs() {
  return run([&](Store& s) { return s.jobs(); });
}
std::vector<JobRow> ReconnectingStore::jobs_updated_since(std::int64_t since_ms) {
  return run([&](Store& s) { return s.jobs_updated_since(since_ms); });
}
std::vector<JobRow> ReconnectingStore::jobs_to_plan() {
  return run([&](Store& s) { return s.jobs_to_plan(); });
}
bool ReconnectingStore::cancel_job(std::int64_t job, const std::string& message) {
  Rerun again;
  return run([&](Store& s) {
    // Run again after a lost answer: a job cancelled with this very message was cancelled by us.
    if (again()) {
      const JobRow row = s.job(job);
      if (row.state == JobState::Cancelled && row.message == message) return true;
    }
    return s.cancel_job(job, message);
  });
}
void ReconnectingStore::reopen_job(std::int64_t job, const std::string& input) {
  run([&](Store& s) { s.reopen_job(job, input); });
}
std::optional<Claim> ReconnectingStore::claim(const std::string& owner, const std::vector<std::string>& engines,
                                              std::int64_t lease_ms, std::optional<std::int64_t> only_job) {
  return run([&](Store& s) { return s.claim(owner, engines, lease_ms, only_job); });
}
std::int64_t ReconnectingStore::renew_leases(const std::string& owner, std::int64_t lease_ms, const std::vector<std::string>& keys) {
  return run([&](Store& s) { return s.renew_leases(owner, lease_ms, keys); });
}
std::int64_t ReconnectingStore::release_leases(const std::string& owner, const std::string* key) {
  return run([&](Store& s) { return s.release_leases(owner, key); });
}
std::vector<std::string> ReconnectingStore::lease_owners() {
  return run([&](Store& s) { return s.lease_owners(); });
}
std::optional<JobRow> ReconnectingStore::claim_delivery(const std::string& owner, std::int64_t lease_ms,
                                                       const std::string& host) {
  return run([&](Store& s) { return s.claim_delivery(owner, lease_ms, host); });
}
void ReconnectingStore::mark_delivered(std::int64_t job, JobState state, const std::string& message,
                                       const std::string& input) {
  run([&](Store& s) { s.mark_delivered(job, state, message, input); });
}
void ReconnectingStore::release_delivery(std::int64_t job, const std::string& owner) {
  run([&](Store& s) { s.release_delivery(job, owner); });
}
std::vector<Lease> ReconnectingStore::job_leases(std::int64_t job) {
  return run([&](Store& s) { return s.job_leases(job); });
}
std::vector<std::pair<std::string, std::int64_t>> ReconnectingStore::abandoned_leases(const std::string& owner) {
  return run([&](Store& s) { return s.abandoned_leases(owner); });
}
PurgeResult ReconnectingStore::purge(const PurgeRequest& request) {
  return run([&](Store& s) { return s.purge(request); });
}
void ReconnectingStore::vacuum() {
  run([&](Store& s) { s.vacuum(); });
}
CacheStats ReconnectingStore::cache_stats() {
  return run([&](Store& s) { return s.cache_stats(); });
}
std::uint64_t ReconnectingStore::searches(const std::string& key) {
  return run([&](Store& s) { return s.searches(key); });
}

}  // namespace epdd::store
