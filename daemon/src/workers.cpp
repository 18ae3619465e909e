#include "daemon/workers.hpp"

#include <signal.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "store/analysis_json.hpp"
#include "daemon/job_spec.hpp"
#include "daemon/job_kind.hpp"
#include "store/store.hpp"

namespace epdd::daemon {

namespace {

std::string host_name() {
  std::string name;
  if (const char* forced = std::getenv("EPDD_HOST"); forced && *forced) {
    name = forced;
  } else {
    char buffer[256] = {};
    name = gethostname(buffer, sizeof buffer - 1) == 0 && buffer[0] ? buffer : "localhost";
  }
  // An owner is "HOST/PID/START": a host name never holds the separator (nor anything odd).
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  return name;
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

const std::string& this_host() {
  static const std::string host = host_name();
  return host;
}

const std::string& this_process_owner() {
  static const std::string owner = fmt::format("{}/{}/{}", this_host(), getpid(), start_time(getpid()));
  return owner;
}

OwnerState owner_state(const std::string& owner) {
  const auto a = owner.find('/');
  const auto b = owner.find('/', a == std::string::npos ? a : a + 1);
  if (a == std::string::npos || b == std::string::npos) return OwnerState::Elsewhere;
  const std::string& host = this_host();
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

// An answer without a score where the rules do not decide the position (a bestmove with no
// info score line): it is never cached (issue 37).
bool scoreless(const uci::Analysis& a) { return a.lines.empty() && a.status == core::GameStatus::Ongoing; }

// What an item that needs a value gets for such an answer.
uci::EngineError no_score_error(const std::string& engine) {
  return {uci::EngineErrorKind::ProtocolViolation, engine, "search",
          "the engine gave no score (bestmove without an info score line)", "", ""};
}

namespace {

// Whether the engine, not the request, failed: another attempt may answer.
bool engine_fault(uci::EngineErrorKind kind) {
  using K = uci::EngineErrorKind;
  return kind == K::Timeout || kind == K::Crash || kind == K::ProtocolViolation || kind == K::IllegalOutput ||
         kind == K::WriteFailed;
}

// Why an item failed: the last error's headline; after retries, every attempt's (said once when
// they are all the same).
std::string failure_reason(const uci::EngineError& last, const std::vector<std::string>& faults) {
  const std::string reason = headline(last);
  if (faults.empty()) return reason;
  const std::size_t attempts = faults.size() + 1;
  if (std::all_of(faults.begin(), faults.end(), [&](const std::string& f) { return f == reason; }))
    return fmt::format("{} (all {} attempts)", reason, attempts);
  std::string why;
  for (std::size_t i = 0; i < faults.size(); ++i) why += fmt::format("attempt {} of {}: {}; ", i + 1, attempts, faults[i]);
  return why + fmt::format("attempt {} of {}: {}", attempts, attempts, reason);
}

}  // namespace

std::string headline(const uci::EngineError& e) {
  std::string s = fmt::format("{} during {}: {}", uci::to_string(e.kind), e.step.empty() ? "request" : e.step, e.message);
  if (!e.exit_status.empty()) s += fmt::format(" ({})", e.exit_status);
  return s;
}

Workers::Workers(WorkerSettings settings, uci::EnginePool& pool, std::vector<EngineSlot> engines,
                 OnOutcome on_outcome)
    : settings_(std::move(settings)), pool_(pool), engines_(std::move(engines)), on_outcome_(std::move(on_outcome)) {
  for (const auto& engine : engines_)
    for (int i = 0; i < engine.instances; ++i)
      threads_.emplace_back([this, &engine, i] { work(engine, static_cast<std::uint64_t>(i)); });
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
  {
    // Searches claimed ahead and queued behind a running one are given back now.
    std::lock_guard lock(mutex_);
    for (auto& f : flags_)
      if (f.queued) *f.flag = true;
  }
  wake();
}

void Workers::cancel_in_flight() {
  cancel_ = true;
  std::lock_guard lock(mutex_);
  for (auto& f : flags_) *f.flag = true;
}

void Workers::stop_abandoned(store::Store& store) {
  {
    std::lock_guard lock(mutex_);
    if (flags_.empty()) return;
  }
  const auto abandoned = store.abandoned_leases(settings_.owner);
  if (abandoned.empty()) return;
  std::lock_guard lock(mutex_);
  for (const Flight& f : flags_) {
    std::string jobs;
    for (const auto& [key, job] : abandoned)
      if (key == f.key) jobs += fmt::format("{}{}", jobs.empty() ? "" : ", ", job);
    // The search's result would be counted by nobody: it is stopped, not committed or cached.
    if (!jobs.empty() && !f.flag->exchange(true))
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
  // Anything still leased by the owner is put back (a claim whose answer was lost), when these
  // workers are its only ones.
  if (settings_.release_owner_at_join) {
    if (auto store = store::Store::open(settings_.store)) {
      try {
        (*store)->release_leases(settings_.owner);
      } catch (const store::StoreError& e) {
        spdlog::warn("{}", e.what());
      }
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

std::optional<Workers::Search> Workers::start_search(store::Store& store, const EngineSlot& engine,
                                                     std::atomic<bool>& cancel, bool queued, std::uint64_t session) {
  const std::vector<std::string> engines{engine.identity};
  while (!stop_) {
    const auto started = uci::Clock::now();
    auto claim = store.claim(settings_.owner, engines, settings_.lease_ms, settings_.only_job);
    if (!claim) return std::nullopt;
    const auto claimed = uci::Clock::now();
    if (claim->group) {
      run_group(store, engine, *claim, cancel, session);
      continue;
    }
    // Answered meanwhile (by another process, or an earlier claim of ours)?
    if (auto hit = store.cached(claim->key)) {
      if (auto a = store::analysis_from_json(*hit)) {
        for (const auto& [job, index] : claim->items) {
          store.commit_cached(job, index, claim->key, *hit);
          if (on_outcome_) on_outcome_({job, index, ItemOutcome::Source::Cache, &*a, nullptr});
        }
        continue;
      }
    }
    auto request = request_from_json(claim->request);
    if (!request) {
      for (const auto& [job, index] : claim->items) store.commit_failure(job, index, request.error());
      continue;
    }
    cancel = cancel_.load();
    {
      std::lock_guard lock(mutex_);
      flags_.push_back({&cancel, queued, claim->key, {claim->key}});
    }
    ++in_flight_;
    request->engine = engine.name;
    request->cancel = &cancel;
    Search search{std::move(*claim), &cancel, *request, pool_.submit(*request), claimed - started, claimed};
    // A stop that came while it was being handed over would have missed its flag.
    if (queued && stop_) cancel = true;
    return search;
  }
  return std::nullopt;
}

void Workers::forget_flag(std::atomic<bool>* flag) {
  std::lock_guard lock(mutex_);
  std::erase_if(flags_, [&](const Flight& f) { return f.flag == flag; });
}

// A search (or a group) registered in flight, with its cancel flag: when it is over, however it
// ends, the flag is forgotten and the count goes down.
struct Workers::InFlight {
  Workers& workers;
  std::atomic<bool>* flag;
  InFlight(Workers& w, std::atomic<bool>* f) : workers(w), flag(f) {}
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;
  ~InFlight() {
    workers.forget_flag(flag);
    --workers.in_flight_;
  }
};

bool Workers::needs_value(store::Store& store, std::int64_t job) {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = needs_value_.find(job); it != needs_value_.end()) return it->second;
  }
  const auto spec = spec_from_json(store.job(job).spec);
  const bool needs = !spec || kind_of(*spec).needs_value();
  std::lock_guard lock(mutex_);
  needs_value_[job] = needs;
  return needs;
}

std::vector<store::PositionOutcome> Workers::split_scoreless(store::Store& store, store::PositionOutcome answer,
                                                            const std::string& why) {
  store::PositionOutcome failed{store::PositionOutcome::Kind::Failed, answer.key, {}, "", why};
  std::erase_if(answer.items, [&](const std::pair<std::int64_t, std::int64_t>& item) {
    const bool needs = needs_value(store, item.first);
    if (needs) failed.items.push_back(item);
    return needs;
  });
  std::vector<store::PositionOutcome> parts;
  for (auto* part : {&answer, &failed})
    if (!part->items.empty()) parts.push_back(std::move(*part));
  return parts;
}

void Workers::commit_scoreless(store::Store& store, const EngineSlot& engine, const store::Claim& claim,
                               const uci::Analysis& result, const std::string& json) {
  const uci::EngineError error = no_score_error(engine.name);
  const auto outcomes = split_scoreless(
      store, {store::PositionOutcome::Kind::Uncached, claim.key, claim.items, json, ""}, headline(error));
  store.commit_outcomes(engine.identity, outcomes);  // (one transaction; the first item the search)
  if (!on_outcome_) return;
  for (const auto& o : outcomes) {
    const bool answer = o.kind == store::PositionOutcome::Kind::Uncached;
    bool first = true;
    for (const auto& [job, index] : o.items) {
      on_outcome_({job, index, first || !answer ? ItemOutcome::Source::Search : ItemOutcome::Source::Cache,
                   answer ? &result : nullptr, answer ? nullptr : &error});
      first = false;
    }
  }
}

void Workers::finish_search(store::Store& store, const EngineSlot& engine, Search& search) {
  const InFlight done{*this, search.cancel};
  const store::Claim& claim = search.claim;
  std::vector<std::string> faults;
  const auto result = asked_again(search.result.get(), search.request, faults);
  const auto answered = uci::Clock::now();
  if (!result && (result.error().kind == uci::EngineErrorKind::Cancelled ||
                  result.error().kind == uci::EngineErrorKind::ShutDown)) {
    store.release_leases(settings_.owner, &claim.key);
    return;
  }
  if (result && scoreless(*result)) {
    commit_scoreless(store, engine, claim, *result, store::analysis_to_json(*result));
  } else if (result) {
    const std::string json = store::analysis_to_json(*result);
    bool first = true;
    for (const auto& [job, index] : claim.items) {
      if (first) store.commit_analysis(job, index, claim.key, engine.identity, json);
      else store.commit_cached(job, index, claim.key, json);
      if (on_outcome_)
        on_outcome_({job, index, first ? ItemOutcome::Source::Search : ItemOutcome::Source::Cache, &*result, nullptr});
      first = false;
    }
    log_timing(claim.items.front(), *result, search.claim_time, answered - search.claimed, uci::Clock::now() - answered);
  } else {
    const std::string why = failure_reason(result.error(), faults);
    for (const auto& [job, index] : claim.items) {
      store.commit_failure(job, index, why);
      if (on_outcome_) on_outcome_({job, index, ItemOutcome::Source::Search, nullptr, &result.error()});
    }
  }
}

namespace {

// One position of a claimed group, as the claim lists it.
struct GroupPosition {
  const std::string* key;
  const std::string* request;
  const std::vector<std::pair<std::int64_t, std::int64_t>>* items;
};

std::vector<GroupPosition> positions_of(const store::Claim& claim) {
  std::vector<GroupPosition> out{{&claim.key, &claim.request, &claim.items}};
  for (const auto& p : claim.rest) out.push_back({&p.key, &p.request, &p.items});
  return out;
}

}  // namespace

// What became of one position of a group: its outcome for the store, and for on_outcome the
// analysis or the error.
struct Workers::GroupAnswer {
  store::PositionOutcome outcome;
  std::optional<uci::Analysis> analysis;
  std::optional<uci::EngineError> error;
};

std::optional<Workers::GroupAnswer> Workers::answer_in_group(store::Store& store, const EngineSlot& engine,
                                                             const std::string& key, const std::string& request_json,
                                                             std::atomic<bool>& cancel, std::uint64_t session,
                                                             bool first_search) {
  GroupAnswer a;
  a.outcome.key = key;
  if (auto hit = store.cached(key))
    if (auto cached = store::analysis_from_json(*hit)) {
      a.outcome.kind = store::PositionOutcome::Kind::Cached;
      a.outcome.analysis_json = *hit;
      a.analysis = std::move(*cached);
      return a;
    }
  auto request = request_from_json(request_json);
  if (!request) {
    a.outcome.kind = store::PositionOutcome::Kind::Failed;
    a.outcome.error = request.error();
    a.error = uci::EngineError{uci::EngineErrorKind::BadRequest, engine.name, "request", request.error(), "", ""};
    return a;
  }
  request->engine = engine.name;
  request->cancel = &cancel;
  request->game = session;                                   // one engine session for the whole game
  if (first_search) request->new_game = uci::NewGame::Clear;  // ucinewgame once per game
  {
    std::lock_guard lock(mutex_);
    for (auto& f : flags_)
      if (f.flag == &cancel) f.key = key;
  }
  std::vector<std::string> faults;
  auto result = asked_again(pool_.submit(*request).get(), *request, faults);
  if (!result && (result.error().kind == uci::EngineErrorKind::Cancelled ||
                  result.error().kind == uci::EngineErrorKind::ShutDown))
    return std::nullopt;
  if (result) {  // (an answer without a score: Uncached, split by run_group)
    a.outcome.kind = scoreless(*result) ? store::PositionOutcome::Kind::Uncached : store::PositionOutcome::Kind::Searched;
    a.outcome.analysis_json = store::analysis_to_json(*result);
    a.analysis = std::move(*result);
  } else {
    a.outcome.kind = store::PositionOutcome::Kind::Failed;
    a.outcome.error = failure_reason(result.error(), faults);
    a.error = std::move(result.error());
  }
  return a;
}

Expected<uci::Analysis, uci::EngineError> Workers::asked_again(Expected<uci::Analysis, uci::EngineError> result,
                                                               const uci::AnalysisRequest& request,
                                                               std::vector<std::string>& faults) {
  while (!result && engine_fault(result.error().kind) && faults.size() < static_cast<std::size_t>(settings_.retries) &&
         !(request.cancel && request.cancel->load()) && !stop_) {
    faults.push_back(headline(result.error()));
    spdlog::warn("engine {}: {}; asking again ({} of {} retries)", request.engine, faults.back(), faults.size(),
                 settings_.retries);
    result = pool_.submit(request).get();
  }
  return result;
}

void Workers::run_group(store::Store& store, const EngineSlot& engine, const store::Claim& claim,
                        std::atomic<bool>& cancel, std::uint64_t session) {
  const auto positions = positions_of(claim);
  cancel = cancel_.load() || stop_.load();
  {
    // Registered as queued: a stop gives the group back at once (its results are committed
    // together or not at all, and half a game is worth nothing to a rerun).
    std::lock_guard lock(mutex_);
    std::vector<std::string> held;
    for (const auto& p : positions) held.push_back(*p.key);
    flags_.push_back({&cancel, /*queued=*/true, claim.key, std::move(held)});
  }
  ++in_flight_;
  const InFlight done{*this, &cancel};
  std::vector<GroupAnswer> answers;
  bool searched = false;
  for (const auto& p : positions) {
    std::optional<GroupAnswer> a;
    if (!cancel && !stop_) a = answer_in_group(store, engine, *p.key, *p.request, cancel, session, !searched);
    if (!a) {
      for (const auto& q : positions) store.release_leases(settings_.owner, q.key);
      return;
    }
    // Once an engine has been asked, the hash belongs to this game.
    searched = searched || a->outcome.kind == store::PositionOutcome::Kind::Searched ||
               (a->error && a->error->kind != uci::EngineErrorKind::BadRequest);
    a->outcome.items = *p.items;
    answers.push_back(std::move(*a));
  }
  // An answer without a score fails the items whose jobs need the value (a position of their
  // own), and answers the others uncached.
  const uci::EngineError no_score = no_score_error(engine.name);
  std::vector<store::PositionOutcome> outcomes;
  std::vector<const GroupAnswer*> answer_of;  // by outcome
  for (const auto& a : answers) {
    if (a.outcome.kind != store::PositionOutcome::Kind::Uncached) {
      outcomes.push_back(a.outcome);
      answer_of.push_back(&a);
      continue;
    }
    for (auto& part : split_scoreless(store, a.outcome, headline(no_score))) {
      answer_of.push_back(part.kind == store::PositionOutcome::Kind::Failed ? nullptr : &a);
      outcomes.push_back(std::move(part));
    }
  }
  store.commit_outcomes(engine.identity, outcomes);
  if (!on_outcome_) return;
  for (std::size_t o = 0; o < outcomes.size(); ++o) {
    const GroupAnswer* a = answer_of[o];
    bool first = outcomes[o].kind == store::PositionOutcome::Kind::Searched ||
                 outcomes[o].kind == store::PositionOutcome::Kind::Uncached;
    for (const auto& [job, index] : outcomes[o].items) {
      const auto source = first ? ItemOutcome::Source::Search : ItemOutcome::Source::Cache;
      if (!a) on_outcome_({job, index, source, nullptr, &no_score});
      else on_outcome_({job, index, source, a->analysis ? &*a->analysis : nullptr, a->error ? &*a->error : nullptr});
      first = false;
    }
  }
}

void Workers::work(const EngineSlot& engine, std::uint64_t session) {
  // Two cancel flags, for the search running and the one queued behind it; they outlive every
  // request that points to them (the drain below waits for those still with the pool).
  std::atomic<bool> flags[2] = {false, false};
  std::optional<Search> current, next;
  const auto drain = [&] {
    for (auto* s : {&current, &next})
      if (*s && (*s)->result.valid()) {
        *(*s)->cancel = true;
        (*s)->result.wait();
        forget_flag((*s)->cancel);
        --in_flight_;
      }
  };
  try {
    auto opened = store::Store::open(settings_.store, settings_.on_full_disk);
    if (!opened) throw store::StoreError(opened.error());
    store::Store& store = **opened;
    const auto free_flag = [&]() -> std::atomic<bool>& {
      return current && current->cancel == &flags[0] ? flags[1] : flags[0];
    };
    for (;;) {
      if (!current) {
        if (stop_) break;
        std::uint64_t seen;
        {
          std::lock_guard lock(mutex_);
          seen = wakes_;
        }
        current = start_search(store, engine, free_flag(), /*queued=*/false, session);
        if (!current) {
          std::unique_lock lock(mutex_);
          wake_.wait_for(lock, std::chrono::milliseconds(settings_.poll_ms), [&] { return stop_ || wakes_ != seen; });
          continue;
        }
      }
      // The next item is claimed and queued behind this search while it runs.
      if (!next && !stop_) next = start_search(store, engine, free_flag(), /*queued=*/true, session);
      finish_search(store, engine, *current);
      current = std::move(next);
      next.reset();
      if (current) {
        // No longer ahead of its turn: it is the search in flight now, which a stop lets finish.
        std::lock_guard lock(mutex_);
        for (auto& f : flags_)
          if (f.flag == current->cancel) f.queued = false;
      }
    }
  } catch (...) {
    drain();
    fail(std::current_exception());
  }
}

void Workers::log_timing(std::pair<std::int64_t, std::int64_t> item, const uci::Analysis& a,
                         uci::Clock::duration claim, uci::Clock::duration to_answer, uci::Clock::duration commit) {
  if (!spdlog::should_log(spdlog::level::debug)) return;
  const auto ms = [](uci::Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  const uci::SearchTiming& t = a.timing;
  // One line per search, key=milliseconds, in the form bench/suite_bench.sh reads.
  spdlog::debug(
      "timing job {} item {}: claim={:.3f} answer={:.3f} queued={:.3f} idle={:.3f} prepare={:.3f} first_info={:.3f} "
      "search={:.3f} engine={} after={:.3f} commit={:.3f}",
      item.first, item.second, ms(claim), ms(to_answer), t.queued, t.engine_idle, t.prepare, t.go_to_first_info,
      t.go_to_bestmove, a.time_ms, t.after_bestmove, ms(commit));
}

std::vector<std::string> Workers::held_keys() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> keys;
  for (const Flight& f : flags_) keys.insert(keys.end(), f.held.begin(), f.held.end());
  return keys;
}

void Workers::heartbeat() {
  try {
    auto opened = store::Store::open(settings_.store, settings_.on_full_disk);
    if (!opened) throw store::StoreError(opened.error());
    store::Store& store = **opened;
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
        // Only the positions searched here: a lease of ours that no search holds (a claim whose
        // answer was lost) runs out, and another worker claims it.
        if (in_flight_ > 0) store.renew_leases(settings_.owner, settings_.lease_ms, held_keys());
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
