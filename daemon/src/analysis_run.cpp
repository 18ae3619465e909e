#include "daemon/analysis_run.hpp"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <ostream>

#include <fmt/core.h>
#include <fmt/ostream.h>

#include "core/fen.hpp"
#include "daemon/analysis_json.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/files.hpp"
#include "daemon/logging.hpp"
#include "daemon/progress.hpp"
#include "daemon/store.hpp"
#include "suites/runner.hpp"
#include "suites/write_back.hpp"
#include "uci/engine_pool.hpp"

namespace epdd::daemon {

std::atomic<bool>& stop_requested() {
  static std::atomic<bool> flag{false};
  return flag;
}

namespace {

extern "C" void on_stop_signal(int) {
  // The first signal asks the run to stop taking work (searches in flight finish and are
  // committed); a second one means "now".
  if (stop_requested().exchange(true)) std::_Exit(kExitInterrupted);
}

// SIGINT and SIGTERM handled for the lifetime of the object, the previous handlers restored.
class StopSignals {
 public:
  StopSignals() {
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

void set_option(uci::EngineConfig& c, const std::string& name, const std::string& value) {
  for (auto& o : c.options)
    if (uci::equal_ignoring_case(o.name, name)) {
      o.value = value;
      return;
    }
  c.options.push_back({name, value});
}

Expected<uci::EngineConfig, std::string> choose_engine(const AnalysisSettings& s) {
  uci::EngineConfig c;
  if (s.config) {
    auto found = find_engine_config(*s.config, s.engine);
    if (!found) return unexpected(found.error());
    c = std::move(*found);
  } else {
    c = default_engine_config();
    if (!s.engine.empty()) {
      // Without a configuration file, --engine is a program.
      c.name = std::filesystem::path(s.engine).filename().string();
      c.process.program = s.engine;
    }
  }
  if (s.threads) set_option(c, "Threads", std::to_string(*s.threads));
  if (s.hash) set_option(c, "Hash", std::to_string(*s.hash));
  c.instances = s.concurrency;
  c.timeouts.scale *= s.timeout_scale;
  return c;
}

// 64-bit FNV-1a: which bytes the input had (a changed file is a new job, not a resumed one).
std::string content_hash(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

std::string options_text(const uci::EngineConfig& c) {
  std::map<std::string, std::string> sorted;
  for (const auto& o : c.options) sorted[o.name] = o.value;
  std::string out;
  for (const auto& [name, value] : sorted) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", name, value);
  return out.empty() ? "the engine's default options" : out;
}

}  // namespace

std::string describe_limits(const uci::SearchLimits& l, int multipv) {
  std::string out;
  const auto add = [&](std::string part) { out += (out.empty() ? "" : ", ") + part; };
  if (l.depth) add(fmt::format("depth {}", *l.depth));
  if (l.nodes) add(fmt::format("nodes {}", *l.nodes));
  if (l.movetime_ms) add(fmt::format("movetime {}", *l.movetime_ms));
  if (l.mate) add(fmt::format("mate {}", *l.mate));
  if (l.stop_after_ms) add(fmt::format("stop after {}", *l.stop_after_ms));
  if (multipv != 1) add(fmt::format("multipv {}", multipv));
  return out.empty() ? "no limit" : out;
}

std::string cache_key(const uci::AnalysisRequest& r, const std::string& engine_identity) {
  std::string moves, searchmoves;
  for (const auto& m : r.moves) moves += m + ' ';
  for (const auto& m : r.searchmoves) searchmoves += m + ' ';
  return fmt::format("v1|engine {}|fen {}|960 {}|moves {}|{}|searchmoves {}", engine_identity, r.fen,
                     r.chess960 ? 1 : 0, moves, describe_limits(r.limits, r.multipv), searchmoves);
}

namespace {

// One distinct request and the document lines that wait for its answer (a position that occurs
// twice in a file is analysed once).
struct Work {
  uci::AnalysisRequest request;
  std::string key;
  std::vector<std::size_t> lines;
};

// The first line of an engine error, for a record's report (the whole of it, with the
// transcript, goes to stderr as it happens).
std::string headline(const uci::EngineError& e) {
  std::string s = fmt::format("{} during {}: {}", uci::to_string(e.kind), e.step.empty() ? "request" : e.step, e.message);
  if (!e.exit_status.empty()) s += fmt::format(" ({})", e.exit_status);
  return s;
}

// Commits each result as it arrives, then counts it (progress).
class CommitSink : public suites::Sink {
 public:
  CommitSink(Store& store, std::int64_t job, const std::vector<Work>& work, std::string engine_identity,
             AnalysisRun& run, Progress& progress, const SolvedCheck& solved, std::ostream& err, std::string input)
      : store_(store), job_(job), work_(work), identity_(std::move(engine_identity)), run_(run),
        progress_(progress), solved_(solved), err_(err), input_(std::move(input)) {}

  void done(std::size_t task, const Expected<uci::Analysis, uci::EngineError>& result) override {
    const Work& w = work_[task];
    if (result) {
      const std::string json = analysis_to_json(*result);
      for (std::size_t k = 0; k < w.lines.size(); ++k) {
        const auto line = static_cast<std::int64_t>(w.lines[k]);
        if (k == 0) store_.commit_analysis(job_, line, w.key, identity_, json);
        else store_.commit_cached(job_, line, w.key, json);
        run_.analyses[w.lines[k]] = *result;
        progress_.advance(solved_ && solved_(run_.doc, w.lines[k], *result));
      }
      ++run_.searches;
      return;
    }
    const std::string why = headline(result.error());
    for (std::size_t line : w.lines) {
      progress_.clear();
      fmt::print(err_, "{}:{}: not analysed: {}\n", input_, run_.doc.doc.lines[line].record->line(),
                 result.error().to_string());
      store_.commit_failure(job_, static_cast<std::int64_t>(line), why);
      run_.errors[line] = why;
      progress_.advance(false, true);
    }
  }

 private:
  Store& store_;
  std::int64_t job_;
  const std::vector<Work>& work_;
  std::string identity_;
  AnalysisRun& run_;
  Progress& progress_;
  const SolvedCheck& solved_;
  std::ostream& err_;
  std::string input_;
};

// The request for a record's position.
uci::AnalysisRequest request_for(const core::Board& board, const AnalysisSettings& s, const std::string& engine) {
  uci::AnalysisRequest r;
  r.fen = core::to_fen(board);
  r.chess960 = board.chess960();
  r.limits = s.limits;
  r.multipv = s.multipv;
  r.new_game = s.new_game;
  r.engine = engine;
  return r;
}

// Answers what the store has (results of an interrupted run, the cache), analyses the rest.
void execute(const AnalysisSettings& s, const SolvedCheck& solved, std::ostream& err, AnalysisRun& run, Store& store,
             std::int64_t job, const std::map<std::size_t, uci::AnalysisRequest>& requests, uci::EnginePool& pool,
             const std::string& identity) {
  std::vector<Work> work;
  std::map<std::string, std::size_t> work_of_key;
  std::size_t already = 0;
  const auto rows = store.items(job);
  for (const auto& row : rows) {
    const auto line = static_cast<std::size_t>(row.index);
    if (row.state == ItemState::Done) {
      if (auto a = analysis_from_json(row.result)) {
        run.analyses[line] = std::move(*a);
        ++run.resumed;
        ++already;
        continue;
      }
    }
    if (auto hit = store.cached(row.key)) {
      if (auto a = analysis_from_json(*hit)) {
        store.commit_cached(job, row.index, row.key, *hit);
        run.analyses[line] = std::move(*a);
        ++run.cache_hits;
        ++already;
        continue;
      }
    }
    auto [it, fresh] = work_of_key.emplace(row.key, work.size());
    if (fresh) work.push_back(Work{requests.at(line), row.key, {}});
    work[it->second].lines.push_back(line);
  }
  Progress progress(stderr, rows.size(), already, s.quiet, static_cast<bool>(solved));
  CommitSink sink(store, job, work, identity, run, progress, solved, err, s.input);
  std::vector<uci::AnalysisRequest> tasks;
  for (const auto& w : work) tasks.push_back(w.request);
  {
    StopSignals signals;
    suites::run_tasks(tasks, pool, sink, s.concurrency, &stop_requested());
    run.interrupted = stop_requested().load();
  }
  pool.shutdown();
  progress.finish(run.interrupted ? "interrupted: finished results are kept; run the same command again to resume" : "");
  store.set_job_state(job, run.interrupted ? JobState::Queued : JobState::Finished);
}

// The records to analyse and their requests, by document line. Records whose position is not
// legal get their error instead (with the checker's message); --keep-existing skips analysed ones.
std::map<std::size_t, uci::AnalysisRequest> plan(const AnalysisSettings& s, AnalysisRun& run,
                                                 const std::string& engine_name) {
  std::map<std::size_t, uci::AnalysisRequest> requests;
  for (std::size_t i = 0; i < run.doc.doc.lines.size(); ++i) {
    const auto& line = run.doc.doc.lines[i];
    if (!line.record) continue;
    const auto& board = run.doc.checked[i].board;
    if (!board) {
      std::string why = "illegal position";
      for (const auto& d : run.doc.diags.items())
        if (d.line == line.record->line() && d.severity == epd::Severity::Error) {
          why = fmt::format("illegal position: {} (column {})", d.message, d.column);
          break;
        }
      run.errors[i] = why;
      continue;
    }
    if (s.keep_existing && suites::has_analysis(*line.record)) continue;
    requests.emplace(i, request_for(*board, s, engine_name));
  }
  return requests;
}

}  // namespace

AnalysisOutcome run_analysis(const std::string& kind, const AnalysisSettings& s, const SolvedCheck& solved,
                             std::ostream& err) {
  AnalysisOutcome out;
  AnalysisRun& run = out.run;
  const auto fail = [&](int status, const std::string& message) {
    fmt::print(err, "epdd {}: {}\n", kind, message);
    out.status = status;
    return std::move(out);
  };
  setup_logging(s.verbose ? Verbosity::Verbose : s.quiet ? Verbosity::Quiet : Verbosity::Normal);
  auto bytes = read_whole_file(s.input);
  if (!bytes) return fail(kExitBadInput, bytes.error());
  epd::CheckOptions check;
  check.chess960 = s.chess960;
  check.moves = false;
  run.doc = epd::check_document(*bytes, check);
  run.analyses.resize(run.doc.doc.lines.size());
  run.errors.resize(run.doc.doc.lines.size());

  auto config = choose_engine(s);
  if (!config) return fail(kExitBadInput, config.error());
  auto store = Store::open(s.store);
  if (!store) return fail(kExitBadInput, store.error());
  uci::EnginePool pool({*config}, engine_log_sink());
  auto id = pool.identify();
  if (!id) return fail(kExitEngine, id.error().to_string());
  run.engine = id->name;
  run.engine_settings = options_text(*config);
  const std::string identity = fmt::format("{} ({})", id->name, run.engine_settings);

  const auto requests = plan(s, run, config->name);
  const std::string settings =
      fmt::format("engine {}; {}; new game {}; keep existing {}; chess960 {}", identity,
                  describe_limits(s.limits, s.multipv), s.new_game == uci::NewGame::Clear ? "clear" : "keep",
                  s.keep_existing, s.chess960);
  const std::string input = std::filesystem::absolute(s.input).lexically_normal().string();
  try {
    const auto job = (*store)->find_or_create_job(
        kind, input, fmt::format("{}|{}|{}|{}", kind, input, content_hash(*bytes), settings), settings);
    std::vector<std::pair<std::int64_t, std::string>> items;
    for (const auto& [line, request] : requests)
      items.emplace_back(static_cast<std::int64_t>(line), cache_key(request, identity));
    (*store)->add_items(job.id, items);
    (*store)->reset_failed(job.id);
    (*store)->set_job_state(job.id, JobState::Running);
    execute(s, solved, err, run, **store, job.id, requests, pool, identity);
  } catch (const StoreError& e) {
    return fail(kExitBadInput, e.what());
  }
  return out;
}

}  // namespace epdd::daemon
