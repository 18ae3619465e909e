#include "suites/runner.hpp"

#include <algorithm>
#include <exception>
#include <mutex>
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
      auto result = analyser.analyse(tasks[i]);
      std::lock_guard lock(sink_mutex);
      if (failed) return;
      try {
        sink.done(i, result);
        ++reported;
      } catch (...) {
        error = std::current_exception();
        failed = true;
      }
    }
  };
  const int n = std::clamp<int>(concurrency, 1, static_cast<int>(std::max<std::size_t>(tasks.size(), 1)));
  std::vector<std::thread> threads;
  for (int t = 1; t < n; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
  return reported;
}

}  // namespace epdd::suites
