// The machinery `epdd analyse` and `epdd suite` share: the engine from the command line or a
// configuration file, the EPD file read and checked, a job in the store with one work item per
// record, answers from the analysis cache, the rest analysed by an engine pool with each result
// committed as it arrives, progress, and Ctrl-C. Rerunning an interrupted command resumes it:
// what was committed is not analysed again.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "daemon/job_spec.hpp"
#include "epd/check.hpp"
#include "store/store.hpp"
#include "uci/analysis.hpp"
#include "uci/engine_config.hpp"
#include "uci/engine_identity.hpp"

namespace epdd::daemon {

// Exit statuses of the analysis commands.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRecordsFailed = 1;   // the run finished, some records could not be analysed
inline constexpr int kExitBadInput = 2;        // arguments, configuration, input or store unusable
inline constexpr int kExitEngine = 3;          // the engine could not be started
inline constexpr int kExitMinSolved = 13;      // suite: fewer solved than --min-solved (as Qapla)
inline constexpr int kExitInterrupted = 130;   // Ctrl-C / SIGTERM: rerun to resume

// The engine settings of a command line, on top of the engine's configuration: --threads,
// --hash, --option NAME=VALUE (each with origin "--option") and --engine-arg.
struct EngineOverrides {
  std::optional<int> threads, hash;
  std::vector<uci::OptionSetting> options;
  std::vector<std::string> args;
};

// Puts `overrides` on `config`: an option replaces the configuration's value of that name
// (ignoring case; its origin becomes the command line's, so the engine's verdict on it points
// there), or comes after the configuration's options; the arguments come after the
// configuration's. One option set twice on the command line (--threads 2 --option Threads=4, or
// --option twice) is an error: which one was meant is a guess, and the two may be far apart.
Expected<void, std::string> apply_engine_overrides(uci::EngineConfig& config, const EngineOverrides& overrides);

// A one-shot run: the job it is (one JobSpec, filled by the command line's one parser) and how
// this process runs it.
struct AnalysisSettings {
  JobSpec spec;  // kind, input, engine (a name in --config, or a program path), limits, options
  std::string store = "epdd.db";
  std::optional<std::string> config;  // engines TOML
  int concurrency = 1;
  EngineOverrides engine;             // the command line's engine options and arguments
  bool quiet = false;
  bool verbose = false;
  double timeout_scale = 1.0;
};

// An input read a part at a time (the store's copy of a job's input): its size, and its bytes
// [offset, offset + length) cut at its end.
struct InputSource {
  std::size_t size = 0;
  std::function<std::string(std::size_t offset, std::size_t length)> read;
};

// What a kind other than the EPD ones keeps of its input in a run (annotate: its games).
struct KindData {
  virtual ~KindData() = default;
};

// What a run produced, per work item: for the EPD kinds an item is a line of the input
// document; other kinds number their items themselves (annotate: the positions of its games).
struct AnalysisRun {
  epd::CheckedDocument doc;            // the EPD kinds' input
  std::shared_ptr<KindData> data;      // the other kinds' input, as the kind reads it
  std::string engine;  // id name
  std::string engine_settings;  // the options that make the engine's identity, in words
  // Per item (document line): the analysis (records analysed now or before), or why the record has
  // none (an error message), or neither (not a record, or skipped by --keep-existing).
  std::vector<std::optional<uci::Analysis>> analyses;
  std::map<std::size_t, std::string> errors;  // only the items that have one
  std::size_t item_count = 0;  // items are numbered 0 .. item_count - 1 (EPD: the document's lines)
  // The error of item i, or nullptr.
  const std::string* error(std::size_t i) const {
    const auto it = errors.find(i);
    return it == errors.end() ? nullptr : &it->second;
  }
  // Kinds that render from the store (JobKind::renders_from_store) leave `analyses` empty: this
  // reads the items with first <= index < last as they are rendered (one game at a time), so a
  // run's memory does not grow with its results; `errors` is filled as the render meets them.
  // Set by load_run; the store must stay open until the run is rendered.
  std::function<std::vector<store::ItemRow>(std::size_t first, std::size_t last)> items;
  // A kind whose items grow (JobKind::grows) reads the answers so far through `items` too (set by
  // load_run and by whoever plans its job). Planned with `extend` false (a render), it only
  // replays what the store holds; true (the one-shot run, a daemon, when every item is answered),
  // it plans the next items too.
  bool extend = false;
  // The bytes of the job's input file kept in the store under this name (JobKind::stored_inputs:
  // annotate's "book"), or nothing. Set by load_run: a run never opens a path its job names.
  std::function<std::optional<std::string>(const std::string& name)> input_file;
  // Where a kind that can (annotate) writes its main output as it renders it, a part at a time,
  // instead of returning it as the text "output". Unset: the text is returned.
  std::function<void(std::string_view)> write_output;
  // The same for its reports (JobKind::has_reports): the JSON and the text a terminal shows, where
  // a kind that can (annotate) writes them a game at a time. Unset: returned as "json", "report".
  std::function<void(std::string_view)> write_json, write_report;
  // The same for its other outputs (JobKind::more_outputs, by name: book's "pgn", "polyglot"):
  // where a kind that can writes each as it makes it. A name not here is returned as its text.
  std::map<std::string, std::function<void(std::string_view)>, std::less<>> write_more;
  // False from a caller that takes no JSON (a one-shot run without --json or --html): the kind
  // does not make it.
  bool json_wanted = true;
  // Where the report's lines about input left as it was go when a quiet run shows them though
  // it holds the rest of the report back (annotate: "FILE:LINE: kept unchanged: ..."). Unset:
  // they are part of the report.
  std::function<void(std::string_view)> write_problem;
  std::uint64_t searches = 0, cache_hits = 0, resumed = 0;  // this run
  bool interrupted = false;
};

// How a one-shot run shows that it goes on (cli/'s Progress: a bar on a terminal). Calls come
// one at a time.
class RunProgress {
 public:
  virtual ~RunProgress() = default;
  // `total` items, `already` of them done before this run; `solved` counts are shown.
  virtual void start(std::size_t total, std::size_t already, bool show_solved) = 0;
  // One more item done.
  virtual void advance(bool solved, bool failed) = 0;
  // The items come in groups (`name`: "games"): `total` of them, `already` done before this run;
  // then group_done() for each one finished. Not called for kinds without groups.
  virtual void groups(std::string_view name, std::size_t total, std::size_t already) = 0;
  virtual void group_done() = 0;
  // The job's items grew to `total` (a growing kind's next round, JobKind::grows); `status` says
  // how it stands (may be empty).
  virtual void more_items(std::size_t total, const std::string& status) = 0;
  // Before a message goes to the same terminal.
  virtual void clear() = 0;
  virtual void finish(const std::string& last_words) = 0;
};

// Called for each record (by document line) as its analysis arrives, one call at a time;
// progress counts what it returns as solved.
using SolvedCheck = std::function<bool(const epd::CheckedDocument&, std::size_t line_index, const uci::Analysis&)>;

// Runs the analysis of every record of the input. Returns an exit status on failure to start
// (bad input, configuration, store or engine) after printing why on `err`.
struct AnalysisOutcome {
  int status = kExitOk;
  // Lines of an EPD input that are not records (fewer than four fields: a FEN cut short, a bare
  // placement, binary noise): said on stderr with their place as the run starts, written back as
  // they are, not analysed; the command then exits with kExitRecordsFailed.
  std::size_t unread_lines = 0;
  AnalysisRun run;
  JobSpec spec;  // the settings of this run as a job spec (what its output is rendered with)
  std::unique_ptr<store::Store> store;  // open: the run may read its results as it is rendered
};
AnalysisOutcome run_analysis(const std::string& kind, const AnalysisSettings& settings, const SolvedCheck& solved,
                             RunProgress& progress, std::ostream& err);

// The identity of an engine as jobs and cache keys name it: its `id name`, its options, and
// its program's content and argument vector ("Stockfish 15.1 (Hash=16, Threads=1; program
// xxh64 0123456789abcdef, args [])"): wrapper scripts, other builds with the same name and
// other arguments are other engines (issue 14). The options are named as the engine, whose
// handshake `id` gave, is told them: another spelling of one setting is the same engine.
std::string engine_identity_for(const uci::EngineConfig& config, const uci::EngineIdentity& id);

// The cache key of a request to an engine of this identity: everything that decides the
// answer (position with the moves the engine is told, engine id and options, limits, multipv).
std::string cache_key(const uci::AnalysisRequest& request, const std::string& engine_identity);

// The limits in words: "nodes 50000", "depth 12, multipv 3".
std::string describe_limits(const uci::SearchLimits& limits, int multipv);

// Set by SIGINT/SIGTERM while a run is under way (a second signal ends the process at once).
std::atomic<bool>& stop_requested();

}  // namespace epdd::daemon
