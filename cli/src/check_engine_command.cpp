#include "cli/check_engine_command.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "cli/engine_options.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"
#include "daemon/analysis_run.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/logging.hpp"
#include "uci/engine_session.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

using uci::AnalysisRequest;
using uci::Analysis;
using uci::EngineSession;

constexpr const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
constexpr const char* kMateIn1 = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";  // Rd8#
constexpr const char* kScholar = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";  // Qxf7#
constexpr const char* kCheckmated = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
constexpr const char* kStalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";

// Said under a step whose engine searched past its limit and was stopped by epdd.
constexpr const char* kLimitStopNote =
    "epdd stops such a search itself once the engine's reports pass the limit, so runs with this limit "
    "finish; the counts then pass the limit and differ from run to run";

constexpr const char* kLimitShortNote =
    "the engine answers go nodes far below the limit on its own: runs with --nodes get weaker results than "
    "they ask for (epdd warns once per engine); give it --movetime or --depth instead";

// The milliseconds since t0.
std::chrono::milliseconds::rep ms_since(uci::Clock::time_point t0) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(uci::Clock::now() - t0).count();
}

// One step's verdict: empty means pass, else why it failed.
using Verdict = std::string;

class Runner {
 public:
  Runner(uci::EngineConfig config, uci::LogSink log, std::ostream& out)
      : config_(std::move(config)), log_(std::move(log)), out_(out) {}

  bool start() {
    const auto t0 = uci::Clock::now();
    auto s = EngineSession::start(config_, log_);
    const auto ms = ms_since(t0);
    if (!s) {
      report("handshake (uci, options, isready)", s.error().to_string());
      return false;
    }
    session_ = std::move(*s);
    report("handshake (uci, options, isready)", "",
           fmt::format("'{}' by {}, {} options, {} ms", session_->identity().name,
                       session_->identity().author.empty() ? "?" : session_->identity().author,
                       session_->identity().options.size(), ms));
    // What the engine was told, checked against what it declared: the configuration's options
    // and --option, in the engine's spelling and in sending order.
    for (const std::string& command : session_->handshake_options()) fmt::print(out_, "     {:<40} sent: {}\n", "", command);
    if (session_->handshake_options().empty()) fmt::print(out_, "     {:<40} sent: no setoption\n", "");
    return true;
  }

  // Runs one step on a live session; a step that killed the engine is followed by a restart
  // so that later steps still say something.
  void step(const std::string& name, const std::function<Verdict(EngineSession&, std::string&)>& body) {
    if (!session_ || session_->state() == uci::SessionState::Dead) {
      auto s = EngineSession::start(config_, log_);
      if (!s) {
        report(name, "could not restart the engine: " + s.error().to_string());
        return;
      }
      session_ = std::move(*s);
      detail_note_ = "after a restart";
    }
    std::string detail;
    const Verdict v = body(*session_, detail);
    if (!detail_note_.empty()) detail += (detail.empty() ? "" : "; ") + std::exchange(detail_note_, std::string());
    report(name, v, detail);
    for (const auto& n : std::exchange(notes_, {})) fmt::print(out_, "     {:<40} note: {}\n", "", n);
  }

  void finish() {
    if (!session_) return;
    const auto t0 = uci::Clock::now();
    session_->shutdown();
    const auto ms = ms_since(t0);
    const std::string status = session_->exit_status();
    report("quit", status == "exited with status 0" ? "" : "the engine did not end cleanly: " + status,
           fmt::format("{}, {} ms", status, ms));
  }

  // A line that informs without passing or failing.
  void note(const std::string& text) { notes_.push_back(text); }

  // What the engine said about itself in the handshake (empty before a successful start).
  uci::EngineIdentity identity() const { return session_ ? session_->identity() : uci::EngineIdentity{}; }

  int failures() const { return failures_; }
  int steps() const { return steps_; }

 private:
  void report(const std::string& name, const Verdict& v, const std::string& detail = "") {
    ++steps_;
    if (!v.empty()) ++failures_;
    fmt::print(out_, "{} {:<40} {}\n", v.empty() ? "PASS" : "FAIL", name, v.empty() ? detail : v);
    if (!v.empty() && !detail.empty()) fmt::print(out_, "     {:<40} {}\n", "", detail);
  }

  uci::EngineConfig config_;
  uci::LogSink log_;
  std::ostream& out_;
  std::unique_ptr<EngineSession> session_;
  std::string detail_note_;
  std::vector<std::string> notes_;
  int failures_ = 0, steps_ = 0;
};

double g_timeout_scale = 1.0;

AnalysisRequest request(const char* fen, uci::SearchLimits limits) {
  AnalysisRequest r;
  r.fen = fen;
  r.limits = limits;
  // A limit the engine ignores must not hang the check: 10 s is plenty for every step.
  r.timeout_ms = static_cast<std::uint64_t>(10000 * g_timeout_scale);
  return r;
}

// Search limits with one limit set: one_limit(&uci::SearchLimits::depth, 6).
template <class T>
uci::SearchLimits one_limit(std::optional<T> uci::SearchLimits::*limit, std::type_identity_t<T> value) {
  uci::SearchLimits l;
  l.*limit = value;
  return l;
}

// The search ran and its output passed our checks; its problems are failures of this step.
Verdict checked(const Expected<Analysis, uci::EngineError>& a) {
  if (!a) return a.error().to_string();
  if (!a->problems.empty()) {
    std::string all;
    for (const auto& p : a->problems) all += (all.empty() ? "" : "; ") + p;
    return all;
  }
  return {};
}

std::string summary(const Analysis& a) {
  std::string s = fmt::format("bestmove {}", a.bestmove.empty() ? "(none)" : a.bestmove);
  if (!a.lines.empty())
    s += fmt::format(", depth {}, score {}, {} nodes", a.lines[0].depth, a.lines[0].score.to_uci_string(), a.nodes);
  return s;
}

// A search that epdd stopped once the engine's reports passed its limit fails the step, with a
// note on why epdd stops such searches; empty when the engine kept to the limit.
Verdict limit_stopped(Runner& run, const Analysis& a) {
  if (a.limit_stop.empty()) return {};
  run.note(kLimitStopNote);
  return a.limit_stop;
}

// One search, checked: its analysis, or why the step fails. The detail becomes its summary.
Expected<Analysis, Verdict> search(EngineSession& s, const AnalysisRequest& r, std::string& d) {
  auto a = s.analyse(r);
  if (auto v = checked(a); !v.empty()) return unexpected(v);
  d = summary(*a);
  return std::move(*a);
}

// The steps: each runs on a live session, fills the detail shown beside a pass and returns its
// verdict.

Verdict isready(Runner&, EngineSession& s, std::string&) {
  auto ok = s.sync();
  return ok ? Verdict() : ok.error().to_string();
}

Verdict go_depth(Runner& run, EngineSession& s, std::string& d) {
  auto a = search(s, request(kKiwipete, one_limit(&uci::SearchLimits::depth, 6)), d);
  if (!a) return a.error();
  if (auto v = limit_stopped(run, *a); !v.empty()) return v;
  if (a->lines.empty()) return "no exact score reported";
  if (a->depth < 6) return fmt::format("stopped at depth {}", a->depth);
  return {};
}

Verdict go_nodes(Runner& run, EngineSession& s, std::string& d) {
  auto a = search(s, request(kKiwipete, one_limit(&uci::SearchLimits::nodes, 10000)), d);
  if (!a) return a.error();
  // An engine that searches on regardless (Toga II) is stopped by epdd once its reports pass
  // the limit: runs finish, but the step fails, because the node counts are not the ones asked
  // for and a fixed-nodes run of it is not reproducible.
  if (auto v = limit_stopped(run, *a); !v.empty()) return v;
  // An engine that answers on its own far below the limit (Ethereal 12.75: 21 nodes at depth 1)
  // gives weak results to every --nodes run.
  if (!a->limit_short.empty()) {
    run.note(kLimitShortNote);
    return a->limit_short;
  }
  // Engines check the limit every few thousand nodes; far beyond it, they ignore it.
  if (a->nodes > 10000 * 3) return fmt::format("searched {} nodes: the node limit is ignored", a->nodes);
  return {};
}

Verdict go_movetime(Runner&, EngineSession& s, std::string& d) {
  const auto t0 = uci::Clock::now();
  auto a = search(s, request(kKiwipete, one_limit(&uci::SearchLimits::movetime_ms, 300)), d);
  const auto ms = ms_since(t0);
  if (!a) return a.error();
  d += fmt::format(", {} ms", ms);
  if (ms < 250 || ms > 1000) return fmt::format("took {} ms for movetime 300", ms);
  return {};
}

Verdict go_mate(Runner&, EngineSession& s, std::string& d) {
  auto a = search(s, request(kScholar, one_limit(&uci::SearchLimits::mate, 2)), d);
  if (!a) return a.error();
  if (a->bestmove != "h5f7") return fmt::format("bestmove {} does not mate (h5f7 does)", a->bestmove);
  return {};
}

Verdict go_infinite_then_stop(Runner&, EngineSession& s, std::string& d) {
  const auto t0 = uci::Clock::now();
  auto a = search(s, request(kKiwipete, one_limit(&uci::SearchLimits::stop_after_ms, 300)), d);
  const auto ms = ms_since(t0);
  if (!a) return a.error();
  d += fmt::format(", bestmove {} ms after go", ms);
  return {};
}

Verdict multipv(Runner&, EngineSession& s, std::string& d) {
  AnalysisRequest r = request(kKiwipete, one_limit(&uci::SearchLimits::depth, 6));
  r.multipv = 3;
  auto a = search(s, r, d);
  if (!a) return a.error();
  d = fmt::format("{} lines", a->lines.size());
  if (a->lines.size() != 3) return fmt::format("{} lines instead of 3", a->lines.size());
  if (a->lines[0].pv.empty() || a->lines[1].pv.empty() || a->lines[0].pv[0] == a->lines[1].pv[0])
    return "lines 1 and 2 do not start with different moves";
  if (a->lines[0].score < a->lines[1].score || a->lines[1].score < a->lines[2].score)
    return "lines not in order of their scores";
  return {};
}

Verdict startpos_moves(Runner&, EngineSession& s, std::string& d) {
  AnalysisRequest r = request("", one_limit(&uci::SearchLimits::depth, 5));
  r.moves = {"e2e4", "e7e5"};
  auto a = search(s, r, d);
  return a ? Verdict() : a.error();
}

Verdict mate_in_1(Runner&, EngineSession& s, std::string& d) {
  auto a = search(s, request(kMateIn1, one_limit(&uci::SearchLimits::depth, 4)), d);
  if (!a) return a.error();
  if (a->bestmove != "d1d8") return "did not play the mate d1d8";
  if (a->lines.empty() || a->lines[0].score != core::Score::from_uci_mate(1)) return "score is not mate 1";
  return {};
}

// epdd answers positions without a legal move itself (ARCHITECTURE.md: never sent to an
// engine). The step checks that; what the engine would say is shown as a note, because
// engines differ there ((none), 0000, a1a1, or even a stale move) and it cannot hurt a run.
Verdict answered_without_search(Runner& run, EngineSession& s, std::string& d, const char* fen,
                                core::GameStatus status) {
  const AnalysisRequest r = request(fen, one_limit(&uci::SearchLimits::depth, 3));
  auto a = s.analyse(r);
  if (!a) return a.error().to_string();
  if (a->status != status) return "the position was sent to the engine";
  d = "not sent to the engine";
  auto probe = s.analyse(r, /*search_terminal=*/true);
  run.note(probe ? "the engine says: " + summary(*probe) : "the engine, asked anyway: " + probe.error().message);
  return {};
}

Verdict checkmate(Runner& run, EngineSession& s, std::string& d) {
  return answered_without_search(run, s, d, kCheckmated, core::GameStatus::Checkmate);
}

Verdict stalemate(Runner& run, EngineSession& s, std::string& d) {
  return answered_without_search(run, s, d, kStalemate, core::GameStatus::Stalemate);
}

// The steps between the handshake and quit, in the order they run and are printed.
constexpr std::pair<const char*, Verdict (*)(Runner&, EngineSession&, std::string&)> kSteps[] = {
    {"isready", isready},
    {"go depth 6", go_depth},
    {"go nodes 10000", go_nodes},
    {"go movetime 300", go_movetime},
    {"go mate 2", go_mate},
    {"go infinite, stop after 300 ms", go_infinite_then_stop},
    {"multipv 3", multipv},
    {"position startpos moves e2e4 e7e5", startpos_moves},
    {"mate in 1 found", mate_in_1},
    {"checkmate: answered without a search", checkmate},
    {"stalemate: answered without a search", stalemate},
};

void run_steps(Runner& run) {
  for (const auto& [name, body] : kSteps)
    run.step(name, [&run, body = body](EngineSession& s, std::string& d) { return body(run, s, d); });
}

// The engine to check: a command after --, or the engine --config and --engine name as for
// every other command (without --config, --engine is a program), with --option and
// --engine-arg on top; or why the arguments do not name one. It is sent what the other commands
// send: epdd's defaults (Threads=1, Hash=16) where it declares them, for a command too.
Expected<uci::EngineConfig, std::string> engine_to_check(const CheckEngineOptions& options) {
  uci::EngineConfig config;
  if (!options.command.empty()) {
    if (options.engine || options.config) return unexpected(std::string("give --engine/--config or a command after --, not both"));
    config = default_engine_config();
    config.name = options.command.front();
    config.process.program = options.command.front();
    config.process.args.assign(options.command.begin() + 1, options.command.end());
  } else {
    auto chosen = chosen_engine_config(options.config, options.engine.value_or(""));
    if (!chosen) return unexpected(chosen.error());
    config = std::move(*chosen);
  }
  EngineOverrides overrides;
  overrides.options = options.options;
  overrides.args = options.engine_args;
  if (auto applied = apply_engine_overrides(config, overrides); !applied) return unexpected(applied.error());
  config.timeouts.scale *= options.timeout_scale;
  return config;
}

// The command line that runs, and the options asked for with where each was set, before the
// engine says which it declares (the handshake then shows what was sent).
void print_what_runs(std::ostream& out, const uci::EngineConfig& config) {
  fmt::print(out, "Checking engine '{}': {}", config.name, shown_argument(config.process.program));
  for (const auto& a : config.process.args) fmt::print(out, " {}", shown_argument(a));
  std::vector<std::string> asked;
  for (const auto& o : config.options)
    asked.push_back(fmt::format("{}={}{}", o.name, o.value,
                                o.if_declared       ? std::string(" (epdd's default, if declared)")
                                : o.origin.empty() ? std::string()
                                                   : " (" + o.origin + ")"));
  fmt::print(out, "\nOptions: {}\n\n",
             asked.empty() ? std::string("none (the engine's defaults)") : fmt::format("{}", fmt::join(asked, ", ")));
}

}  // namespace

int run_check_engine(const CheckEngineOptions& options, std::ostream& out, std::ostream& err) {
  auto chosen = engine_to_check(options);
  if (!chosen) {
    fmt::print(err, "epdd check-engine: {}\n", chosen.error());
    return 2;
  }
  const uci::EngineConfig& config = *chosen;
  g_timeout_scale = config.timeouts.scale;
  print_what_runs(out, config);

  uci::LogSink log;
  if (options.verbose) {
    setup_logging(Verbosity::Verbose);
    log = engine_log_sink();
  }
  Runner run(config, log, out);
  if (run.start()) {
    // What the analysis cache knows this engine by (with -v: it is long).
    if (options.verbose) fmt::print(out, "     {:<40} identity: {}\n", "", engine_identity_for(config, run.identity()));
    run_steps(run);
    run.finish();
  }
  fmt::print(out, "\n{} of {} steps passed\n", run.steps() - run.failures(), run.steps());
  return run.failures() == 0 ? 0 : 1;
}

}  // namespace epdd::cli
