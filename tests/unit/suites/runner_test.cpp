// The threaded runner: every task analysed and reported once, whatever the concurrency; the
// stop flag; exceptions of the sink (and of the analyser) come back to the caller.
#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "suites/runner.hpp"

using namespace epdd;
using namespace epdd::suites;

namespace {

// Answers each request with an analysis that names it: the engine field is the request's fen,
// the nodes its number. Requests whose fen starts with "fail" fail; "throw" throws.
class FakeAnalyser : public uci::Analyser {
 public:
  Expected<uci::Analysis, uci::EngineError> analyse(const uci::AnalysisRequest& request) override {
    {
      std::lock_guard lock(mutex_);
      seen_.push_back(request.fen);
      threads_.insert(std::this_thread::get_id());
    }
    // Give the other threads a chance to interleave.
    std::this_thread::yield();
    if (request.fen.rfind("throw", 0) == 0) throw std::logic_error("analyser broke on " + request.fen);
    if (request.fen.rfind("fail", 0) == 0) {
      uci::EngineError e;
      e.kind = uci::EngineErrorKind::Timeout;
      e.message = "no answer for " + request.fen;
      return unexpected(std::move(e));
    }
    uci::Analysis a;
    a.engine = request.fen;
    a.nodes = request.limits.nodes.value_or(0);
    a.bestmove = "e2e4";
    return a;
  }
  std::vector<std::string> seen() const {
    std::lock_guard lock(mutex_);
    return seen_;
  }
  std::size_t threads() const {
    std::lock_guard lock(mutex_);
    return threads_.size();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> seen_;
  std::set<std::thread::id> threads_;
};

// Records what it is given; checks that calls never overlap.
class RecordingSink : public Sink {
 public:
  void done(std::size_t task, const Expected<uci::Analysis, uci::EngineError>& result) override {
    if (inside_.exchange(true)) overlapped_ = true;
    struct Leave {
      std::atomic<bool>& inside;
      ~Leave() { inside = false; }
    } leave{inside_};
    calls_.emplace_back(task, result ? result->engine : "error: " + result.error().message);
    if (result) nodes_[task] = result->nodes;
    after(calls_.size());
  }
  virtual void after(std::size_t /*calls*/) {}
  const std::vector<std::pair<std::size_t, std::string>>& calls() const { return calls_; }
  std::uint64_t nodes(std::size_t task) const { return nodes_.at(task); }
  bool overlapped() const { return overlapped_; }

 private:
  std::atomic<bool> inside_{false};
  bool overlapped_ = false;
  std::vector<std::pair<std::size_t, std::string>> calls_;
  std::map<std::size_t, std::uint64_t> nodes_;
};

std::vector<uci::AnalysisRequest> make_tasks(std::size_t n) {
  std::vector<uci::AnalysisRequest> tasks(n);
  for (std::size_t i = 0; i < n; ++i) {
    tasks[i].fen = (i % 7 == 3 ? "fail " : "task ") + std::to_string(i);
    tasks[i].limits.nodes = 1000 + i;
  }
  return tasks;
}

std::string expected_text(std::size_t i) {
  return i % 7 == 3 ? "error: no answer for fail " + std::to_string(i) : "task " + std::to_string(i);
}

}  // namespace

TEST_CASE("run_tasks: every task is analysed and reported exactly once", "[suites][runner]") {
  const int concurrency = GENERATE(1, 3, 8, 64, 0, -2);
  const auto tasks = make_tasks(20);
  FakeAnalyser analyser;
  RecordingSink sink;
  INFO("concurrency " << concurrency);
  CHECK(run_tasks(tasks, analyser, sink, concurrency) == tasks.size());
  CHECK_FALSE(sink.overlapped());
  REQUIRE(sink.calls().size() == tasks.size());
  std::vector<std::size_t> reported;
  for (const auto& [task, text] : sink.calls()) {
    reported.push_back(task);
    // The result given with a task is that task's.
    CHECK(text == expected_text(task));
    if (task % 7 != 3) CHECK(sink.nodes(task) == 1000 + task);
  }
  std::sort(reported.begin(), reported.end());
  for (std::size_t i = 0; i < reported.size(); ++i) CHECK(reported[i] == i);
  auto seen = analyser.seen();
  CHECK(seen.size() == tasks.size());
  std::sort(seen.begin(), seen.end());
  CHECK(std::adjacent_find(seen.begin(), seen.end()) == seen.end());
  CHECK(analyser.threads() >= 1);
  CHECK(analyser.threads() <= static_cast<std::size_t>(std::max(concurrency, 1)));
  if (concurrency <= 1) {
    // One thread: in order.
    for (std::size_t i = 0; i < sink.calls().size(); ++i) CHECK(sink.calls()[i].first == i);
  }
}

TEST_CASE("run_tasks: no tasks, no calls", "[suites][runner]") {
  FakeAnalyser analyser;
  RecordingSink sink;
  CHECK(run_tasks({}, analyser, sink, 4) == 0);
  CHECK(sink.calls().empty());
  CHECK(analyser.seen().empty());
}

TEST_CASE("run_tasks: the stop flag stops taking new tasks", "[suites][runner]") {
  const int concurrency = GENERATE(1, 3);
  const auto tasks = make_tasks(40);
  std::atomic<bool> stop{false};
  struct StoppingSink : RecordingSink {
    std::atomic<bool>* stop = nullptr;
    void after(std::size_t calls) override {
      if (calls == 5) *stop = true;
    }
  } sink;
  sink.stop = &stop;
  FakeAnalyser analyser;
  INFO("concurrency " << concurrency);
  const std::size_t reported = run_tasks(tasks, analyser, sink, concurrency, &stop);
  CHECK(reported == sink.calls().size());
  // Tasks in flight when the flag was set still finish and are reported: at most one per other
  // thread.
  CHECK(reported >= 5);
  CHECK(reported <= 5 + static_cast<std::size_t>(concurrency - 1));
  CHECK(analyser.seen().size() == reported);
  if (concurrency == 1) {
    REQUIRE(reported == 5);
    CHECK(analyser.seen() == std::vector<std::string>{"task 0", "task 1", "task 2", "fail 3", "task 4"});
  }
  std::set<std::size_t> distinct;
  for (const auto& call : sink.calls()) distinct.insert(call.first);
  CHECK(distinct.size() == reported);
}

TEST_CASE("run_tasks: a stop flag set before the start runs nothing", "[suites][runner]") {
  const std::atomic<bool> stop{true};
  FakeAnalyser analyser;
  RecordingSink sink;
  CHECK(run_tasks(make_tasks(5), analyser, sink, 2, &stop) == 0);
  CHECK(analyser.seen().empty());
}

TEST_CASE("run_tasks: an exception from the sink is rethrown once the threads are joined", "[suites][runner]") {
  const int concurrency = GENERATE(1, 4);
  const auto tasks = make_tasks(30);
  struct ThrowingSink : RecordingSink {
    void after(std::size_t calls) override {
      if (calls == 3) throw std::runtime_error("sink full");
    }
  } sink;
  FakeAnalyser analyser;
  INFO("concurrency " << concurrency);
  CHECK_THROWS_WITH(run_tasks(tasks, analyser, sink, concurrency), "sink full");
  // Nothing is handed to the sink after it threw; the run stopped taking tasks.
  CHECK(sink.calls().size() == 3);
  CHECK_FALSE(sink.overlapped());
  CHECK(analyser.seen().size() <= 3 + static_cast<std::size_t>(concurrency));
}

TEST_CASE("run_tasks: an exception from the analyser is rethrown once the threads are joined", "[suites][runner]") {
  const int concurrency = GENERATE(1, 4);
  auto tasks = make_tasks(30);
  tasks[6].fen = "throw 6";
  FakeAnalyser analyser;
  RecordingSink sink;
  INFO("concurrency " << concurrency);
  CHECK_THROWS_WITH(run_tasks(tasks, analyser, sink, concurrency), "analyser broke on throw 6");
  // Other threads may report tasks after 6 until it throws; then nothing new is taken: at most
  // one task per thread was analysed and not reported.
  CHECK(sink.calls().size() < tasks.size());
  CHECK(analyser.seen().size() <= sink.calls().size() + static_cast<std::size_t>(concurrency));
  for (const auto& call : sink.calls()) CHECK(call.first != 6);
  CHECK_FALSE(sink.overlapped());
}
