#include "suites/runner.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

namespace epdd::suites {

std::size_t run_tasks(const std::vector<uci::AnalysisRequest>& tasks, uci::Analyser& analyser, Sink& sink,
                      int concurrency, const std::atomic<bool>* stop) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex sink_mutex;
  std::exception_ptr error;
  std::size_t reported = 0;
  const auto work = [&] {
    for (;;) {
      if (failed || (stop && stop->load())) return;
      const std::size_t i = next.fetch_add(1);
      if (i >= tasks.size()) return;
      // Engines fail as values; what is thrown (by the sink or the analyser: a programmer error,
      // bad_alloc) ends the run. Left to escape, it would std::terminate from a worker thread, or
      // unwind past joinable threads from this one.
      const auto fail = [&] {
        if (!error) error = std::current_exception();
        failed = true;
      };
      std::optional<Expected<uci::Analysis, uci::EngineError>> result;
      try {
        result.emplace(analyser.analyse(tasks[i]));
      } catch (...) {
        std::lock_guard lock(sink_mutex);
        fail();
        return;
      }
      std::lock_guard lock(sink_mutex);
      if (failed) return;
      try {
        sink.done(i, *result);
        ++reported;
      } catch (...) {
        fail();  // still holding the lock: no other result reaches the sink after this one
        return;
      }
    }
  };
  const int n = std::clamp<int>(concurrency, 1, static_cast<int>(std::max<std::size_t>(tasks.size(), 1)));
  std::vector<std::thread> threads;
  for (int t = 1; t < n; ++t) {
    // Out of threads: the ones running take the rest (a throw here would leave them joinable).
    try {
      threads.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  return reported;
}

}  // namespace epdd::suites
