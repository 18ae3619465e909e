// Runs a workflow's analysis requests through an Analyser on several threads, handing each
// result to a sink as it arrives. The Analyser may be anything (a pool, a cache in front of one):
// the workflow neither knows nor cares (ARCHITECTURE.md: the wiring happens in daemon/).
#pragma once

#include <atomic>
#include <cstddef>
#include <vector>

#include "core/expected.hpp"
#include "uci/analysis.hpp"

namespace epdd::suites {

// Where finished requests go. Calls come one at a time (the runner serializes them), in the
// order the results arrive.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void done(std::size_t task, const Expected<uci::Analysis, uci::EngineError>& result) = 0;
};

// Analyses tasks[i] for every i on `concurrency` threads, calling sink.done(i, result) for each.
// Stops taking new tasks once `stop` is set (tasks in flight still finish and are reported);
// returns how many were reported. An exception thrown by the sink or the analyser (engines fail
// as values; a throw is a programmer error or bad_alloc) ends the run and is rethrown here once
// the threads are joined; no result reaches the sink after the sink has thrown.
std::size_t run_tasks(const std::vector<uci::AnalysisRequest>& tasks, uci::Analyser& analyser, Sink& sink,
                      int concurrency, const std::atomic<bool>* stop = nullptr);

}  // namespace epdd::suites
