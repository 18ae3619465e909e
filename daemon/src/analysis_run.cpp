#include "daemon/analysis_run.hpp"
#include "daemon/job_kind.hpp"

#include <malloc.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <utility>
#include <ostream>

#include <fmt/core.h>
#include <fmt/ostream.h>

#include "core/fen.hpp"
#include "core/text.hpp"
#include "store/analysis_json.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/files.hpp"
#include "daemon/logging.hpp"
#include "daemon/signals.hpp"
#include "daemon/jobs.hpp"
#include "store/store.hpp"
#include "daemon/workers.hpp"
#include "uci/engine_pool.hpp"
#include "uci/program_hash.hpp"

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

void set_option(uci::EngineConfig& c, const uci::OptionSetting& setting) {
  for (auto& o : c.options)
    if (uci::equal_ignoring_case(o.name, setting.name)) {
      // The configuration's spelling of the name stays: the identity is the same as with the
      // value written there.
      o.value = setting.value;
      o.origin = setting.origin;
      o.if_declared = setting.if_declared;  // the user's value now: sent, or refused
      return;
    }
  c.options.push_back(setting);
}

Expected<uci::EngineConfig, std::string> choose_engine(const AnalysisSettings& s) {
  auto chosen = chosen_engine_config(s.config, s.spec.engine);
  if (!chosen) return unexpected(chosen.error());
  uci::EngineConfig c = std::move(*chosen);
  if (auto applied = apply_engine_overrides(c, s.engine); !applied) return unexpected(applied.error());
  c.instances = s.concurrency;
  c.timeouts.scale *= s.timeout_scale;
  return c;
}

// One malloc arena for the process, set before the pool and the workers start their threads:
// glibc gives each allocating thread an arena of its own, and what those keep after free made a
// run's peak memory grow with its length (annotate: 2000 games of twic0920.pgn peaked 2.9 MB
// above 100 games; with one arena 0.6 to 0.9 MB). The threads spend their time waiting for
// engines, not in malloc.
void use_one_malloc_arena() { mallopt(M_ARENA_MAX, 1); }

// The input of a run: read whole (its kind's read_input), or, for a kind that renders from the
// store and a regular file it stores as it is (JobKind::stores_as_is), only hashed here, a chunk at a time, and copied into the store as
// the job is made: a file of thousands of games is never held whole.
struct RunInput {
  std::string path;
  bool streamed = false;             // read in parts (else its kind started the run from `bytes`)
  std::optional<std::string> bytes;  // read whole
  std::size_t size = 0;              // streamed: its size when hashed
  std::string hash;                  // content_hash
};

// (`hashed`: false for a run that makes no job, JobKind::needs_store: a streamed file is not read.)
Expected<RunInput, std::string> read_input(const JobKind& kind, const std::string& path, const JobSpec& spec, bool hashed) {
  RunInput in;
  in.path = path;
  std::error_code ec;
  // (Standard input is read whole, even where a file named "-" is there.)
  if (is_stdio(path) || !kind.stores_as_is(path) || kind.many_inputs() || !std::filesystem::is_regular_file(path, ec)) {
    auto bytes = kind.read_input(path, spec);
    if (!bytes) return unexpected(bytes.error());
    in.hash = content_hash(*bytes);
    in.bytes = std::move(*bytes);
    return in;
  }
  if (auto readable = check_readable_file(path); !readable) return unexpected(readable.error());
  in.streamed = true;
  if (!hashed) {
    in.size = static_cast<std::size_t>(std::filesystem::file_size(path, ec));
    if (ec) return unexpected(core::escaped(path) + ": " + ec.message());
    return in;
  }
  std::ifstream file(path, std::ios::binary);
  ContentHash hash;
  std::string chunk(std::size_t{1} << 16, '\0');
  while (file) {
    file.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(file.gcount());
    hash.add(std::string_view(chunk).substr(0, got));
    in.size += got;
  }
  if (file.bad()) return unexpected(core::escaped(path) + ": read error");
  in.hash = hash.hex();
  return in;
}

// Bytes as an input source; they must outlive it.
InputSource source_of(std::string_view bytes) {
  return {bytes.size(), [bytes](std::size_t offset, std::size_t length) {
            return std::string(bytes.substr(std::min(offset, bytes.size()), length));
          }};
}

// The input as its kind's refuse_input reads it: the bytes read whole, or the file again.
InputSource source_of(const RunInput& in) {
  if (!in.streamed) return source_of(std::string_view(*in.bytes));
  // Read as the size was taken: a file that grows or shrinks meanwhile is an error, never a
  // game cut at a chunk's end or games left out.
  auto file = std::make_shared<std::ifstream>(in.path, std::ios::binary);
  return {in.size, [file, size = in.size, path = in.path](std::size_t offset, std::size_t length) {
            length = offset < size ? std::min(length, size - offset) : 0;
            std::string out(length, '\0');
            file->clear();
            file->seekg(static_cast<std::streamoff>(offset));
            file->read(out.data(), static_cast<std::streamsize>(length));
            if (static_cast<std::size_t>(std::max<std::streamsize>(file->gcount(), 0)) != length)
              throw std::runtime_error(fmt::format("{}: changed while it was read (it had {} bytes): nothing written",
                                                   core::escaped(path), size));
            return out;
          }};
}

// The job's source: the bytes read whole (moved: nothing keeps them after), or the file read
// again a chunk at a time as the store writes it (it fails if the file changed meanwhile).
void give_source(store::NewJob& n, RunInput& in) {
  if (!in.streamed) {
    n.source = std::move(*in.bytes);
    in.bytes.reset();
    return;
  }
  n.source_size = in.size;
  n.read_source = [file = std::make_shared<std::ifstream>(in.path, std::ios::binary), path = in.path](
                      char* buffer, std::size_t capacity) -> std::size_t {
    file->read(buffer, static_cast<std::streamsize>(capacity));
    if (file->bad()) throw store::StoreError(core::escaped(path) + ": read error");
    return static_cast<std::size_t>(file->gcount());
  };
}

}  // namespace

Expected<void, std::string> apply_engine_overrides(uci::EngineConfig& config, const EngineOverrides& o) {
  std::vector<uci::OptionSetting> settings;
  if (o.threads) settings.push_back({"Threads", std::to_string(*o.threads), "--threads"});
  if (o.hash) settings.push_back({"Hash", std::to_string(*o.hash), "--hash"});
  // "--threads 2", "--option 'Threads=4'": the setting as the command line gave it.
  const auto as_given = [](const uci::OptionSetting& s) {
    return s.origin == "--option" ? "--option " + core::quoted_escaped(s.name + "=" + s.value) : s.origin + " " + s.value;
  };
  // Options the session sets itself before each search: a value given here would be replaced
  // without a word (and would make another engine identity for the same searches).
  // (UCI_Chess960 only where the configuration has epdd set it: chess960_when_needed.)
  std::vector<std::pair<std::string_view, std::string_view>> set_per_search = {{"MultiPV", "for each search, from --multipv"}};
  if (config.chess960_when_needed) set_per_search.emplace_back("UCI_Chess960", "for each position (true for a Chess960 one)");
  for (const uci::OptionSetting& setting : o.options) {
    for (const auto& [name, when] : set_per_search)
      if (uci::equal_ignoring_case(setting.name, name))
        return unexpected(fmt::format("{}: epdd sets {} itself {}", as_given(setting), name, when));
    const auto same = std::find_if(settings.begin(), settings.end(), [&](const uci::OptionSetting& earlier) {
      return uci::equal_ignoring_case(earlier.name, setting.name);
    });
    if (same != settings.end())
      return unexpected(fmt::format("{} and {} both set {}: give one of them{}", as_given(*same), as_given(setting),
                                    same->name, same->origin == "--option" ? " (option names ignore case)" : ""));
    settings.push_back(setting);
  }
  for (const uci::OptionSetting& setting : settings) set_option(config, setting);
  config.process.args.insert(config.process.args.end(), o.args.begin(), o.args.end());
  return {};
}

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

std::string engine_identity_for(const uci::EngineConfig& config, const uci::EngineIdentity& id) {
  return engine_identity(id.name, engine_options_text(config, id.options) + "; " + uci::program_identity(config.process));
}

std::string cache_key(const uci::AnalysisRequest& r, const std::string& engine_identity) {
  std::string moves, searchmoves;
  for (const auto& m : r.moves) moves += m + ' ';
  for (const auto& m : r.searchmoves) searchmoves += m + ' ';
  // v2: the engine identity has its program's content and arguments (v1 entries knew only the
  // `id name` and options, and are never served again).
  return fmt::format("v2|engine {}|fen {}|960 {}|moves {}|{}|searchmoves {}", engine_identity, r.fen,
                     r.chess960 ? 1 : 0, moves, describe_limits(r.limits, r.multipv), searchmoves);
}

namespace {

// The items the store answered from the cache as the job was planned (`answered`, by index) are
// this run's cache hits: counted, and shown as progress (solved ones as solved).
void count_answered(const std::vector<std::int64_t>& answered, const SolvedCheck& solved, RunProgress& progress,
                    AnalysisRun& run, store::Store& store, const store::JobRow& job) {
  run.cache_hits += answered.size();
  if (answered.empty()) return;  // nothing to read back (a suite's first run)
  if (!solved) {
    for (std::size_t i = 0; i < answered.size(); ++i) progress.advance(false, false);
    return;
  }
  const std::set<std::int64_t> mine(answered.begin(), answered.end());
  for (const auto& item : store.items(job.id)) {
    if (!mine.count(item.index)) continue;
    const auto a = store::analysis_from_json(item.result);
    progress.advance(a && solved(run.doc, static_cast<std::size_t>(item.index), *a), false);
  }
}

// Runs the job's items on the pool until the job is complete (or a stop is asked for):
// answers from the cache, the rest searched, each result committed before it is counted.
// For a kind whose items come in groups (annotate: games): tells the progress how many there
// are and how many an earlier run finished, and returns each unfinished one's pending items. A
// group the cache finished as the job was planned (`answered`) is this run's.
std::map<std::int64_t, std::int64_t> pending_groups(const JobKind& kind, RunProgress& progress, const AnalysisRun& run,
                                                   store::Store& store, const store::JobRow& job,
                                                   const std::vector<std::int64_t>& answered) {
  std::map<std::int64_t, std::int64_t> pending;
  if (kind.group_name().empty()) return pending;
  std::set<std::int64_t> answered_groups;
  for (const std::int64_t i : answered)
    if (const auto group = kind.group_of(run, static_cast<std::size_t>(i))) answered_groups.insert(*group);
  const auto counts = store.group_counts(job.id);
  std::size_t already = 0, now = 0;
  for (const store::GroupCount& g : counts) {
    if (g.pending > 0) pending[g.group] = g.pending;
    else (answered_groups.count(g.group) ? now : already) += 1;
  }
  progress.groups(kind.group_name(), counts.size(), already);
  for (std::size_t i = 0; i < now; ++i) progress.group_done();
  return pending;
}

void execute(const AnalysisSettings& s, const SolvedCheck& solved, RunProgress& progress, std::ostream& err,
             AnalysisRun& run, store::Store& store, const store::JobRow& job, uci::EnginePool& pool,
             const EngineSlot& engine, const JobSpec& spec, const std::vector<std::int64_t>& answered) {
  const JobKind& kind = kind_of(spec);
  const auto already = static_cast<std::size_t>(job.done) - answered.size();
  run.resumed = already;
  progress.start(static_cast<std::size_t>(job.total), already, static_cast<bool>(solved));
  auto pending = pending_groups(kind, progress, run, store, job, answered);
  count_answered(answered, solved, progress, run, store, job);
  std::mutex mutex;  // progress, run, err
  WorkerSettings ws;
  ws.store = store.location();
  ws.only_job = job.id;
  ws.poll_ms = 200;
  bool cancelled = false;
  {
    ScopedSignals signals({SIGINT, SIGTERM}, on_stop_signal);
    Workers workers(ws, pool, {engine}, [&](const ItemOutcome& o) {
      // A claim answers every job waiting for its position; only ours are lines of our file.
      if (o.job != job.id) return;
      std::lock_guard lock(mutex);
      const auto line = static_cast<std::size_t>(o.index);
      // The group (a game) first, so that the line drawn for its last position counts it.
      if (const auto group = kind.group_of(run, line))
        if (const auto it = pending.find(*group); it != pending.end() && --it->second == 0) progress.group_done();
      if (o.analysis) {
        (o.source == ItemOutcome::Source::Search ? run.searches : run.cache_hits) += 1;
        progress.advance(solved && solved(run.doc, line, *o.analysis), false);
      } else {
        progress.clear();
        fmt::print(err, "{}: not analysed: {}\n", kind.locate(run, line, s.spec.input), safe_lines(o.error->to_string()));
        progress.advance(false, true);
      }
    });
    // The job may also be worked on by other processes (a daemon on the same store): done is
    // when the store says every item is answered. `epdd cancel` from another shell ends it too.
    while (!stop_requested() && !workers.failed()) {
      const store::JobRow now = store.job(job.id);
      cancelled = now.state == store::JobState::Cancelled;
      if (cancelled || now.state == store::JobState::Finished) break;
      if (now.complete()) {
        // A growing job's next items, once every item is answered (none: it has grown).
        if (!kind.grows()) break;
        {
          std::lock_guard lock(mutex);
          const auto more = grow_job(store, job.id, spec, run, engine.identity);
          if (!more) break;
          if (more->planned.count == 0) continue;  // (another process's round: waited for)
          progress.more_items(more->total, kind.growth_status(run));
          count_answered(more->planned.answered, solved, progress, run, store, job);
        }
        workers.wake();
        continue;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    workers.stop_claiming();
    workers.join();
    run.interrupted = stop_requested().load() || cancelled;
  }
  pool.shutdown();
  progress.finish(run.interrupted ? "interrupted: finished results are kept; run the same command again to resume" : "");
  if (cancelled) fmt::print(err, "epdd {}: job {} was cancelled (epdd cancel)\n", job.kind, job.id);
  if (!run.interrupted) store.mark_delivered(job.id, store::JobState::Finished);
}

// The settings of a one-shot run in words, as its job's identity has them: the same command
// again (same input bytes too) is the same job, resumed.
std::string settings_text(const JobSpec& spec, const std::string& identity) {
  std::string settings =
      fmt::format("engine {}; {}; new game {}; keep existing {}; chess960 {}", identity,
                  describe_limits(spec.limits, spec.multipv), to_string(new_game_of(spec)), spec.keep_existing, spec.chess960);
  // The kind's own settings decide its items too (annotate's from_ply, book's max_ply): other
  // settings, another job. (Left out when there are none: the jobs of analyse and suite keep
  // the identity they had.) Where its outputs go is no setting of the job.
  const JobKind& kind = kind_of(spec);
  const auto outputs = kind.more_outputs();
  for (const auto& [key, value] : spec.options) {
    const KindOption* option = kind.option(key);
    // [&key = key]: clang 14 (the fuzz build) cannot capture a structured binding itself.
    if (option && option->in_job_identity &&
        std::none_of(outputs.begin(), outputs.end(), [&key = key](const KindOutput& o) { return o.option_key == key; }))
      settings += fmt::format("; {} {}", key, value);
  }
  for (const auto& more : spec.more_inputs)
    settings += "; and " + std::filesystem::absolute(more).lexically_normal().string();
  return settings;
}

// The job of a one-shot run as the store keeps it: the same command again (same input bytes,
// same settings) finds it again.
store::NewJob one_shot_job(const JobSpec& spec, const std::string& engine_name, RunInput& input,
                           const std::string& settings, std::vector<std::pair<std::string, std::string>> files) {
  // Standard input has no place: its bytes (input.hash) say which job it is, from any folder.
  const std::string absolute =
      is_stdio(spec.input) || spec.input.empty() ? spec.input : std::filesystem::absolute(spec.input).lexically_normal().string();
  store::NewJob n;
  n.kind = spec.kind;
  n.input = absolute;
  n.identity = fmt::format("{}|{}|{}|{}", spec.kind, absolute, input.hash, settings);
  n.settings = settings;
  // The engine by its name (a program's, without --config): a daemon that finishes the job
  // finds its own engine of that name, and never runs a program a job names.
  JobSpec stored = spec;
  stored.engine = engine_name;
  // Its outputs are the command's, written by the command (run again, it finds the job done and
  // writes them): a daemon that finishes the job of a killed run leaves them in the store for
  // `epdd results`, and writes no file (or standard output) the run named.
  for (const KindOutput& more : kind_of(spec).more_outputs()) stored.options.erase(std::string(more.option_key));
  n.spec = spec_to_json(stored);
  give_source(n, input);
  n.files = std::move(files);
  n.delivery_host = delivery_host(stored);
  return n;
}

// What reading an EPD input left aside or read leniently, whatever the verbosity: a position
// read leniently (a castling right or en passant square dropped, KQkq read as X-FEN) is analysed
// as read; a line that is not a record is not analysed, said with its place (the first ten) and
// counted. Returns how many lines are not records.
std::size_t say_how_read(const std::string& kind, const std::string& input, const epd::Diagnostics& diags,
                         std::ostream& err) {
  constexpr std::size_t kUnreadShown = 10;
  std::size_t unread = 0;
  for (const auto& d : diags.items()) {
    const bool not_a_record = d.problem == epd::Problem::NotARecord;
    if (not_a_record && ++unread > kUnreadShown) continue;
    if (!not_a_record && d.problem != epd::Problem::PositionTolerated && d.problem != epd::Problem::XFenCastling) continue;
    fmt::print(err, "{}:{}:{}: {}: {}\n", core::escaped(input), d.line, d.column, epd::to_string(d.severity),
               not_a_record ? "not a record, not analysed (" + one_line(d.message) + ")" : one_line(d.message));
  }
  if (unread > 0)
    fmt::print(err, "epdd {}: {}: {} {} not records: not analysed, written back as they are{}\n", kind,
               core::escaped(input), core::counted(unread, "line", "lines"), unread == 1 ? "is" : "are",
               unread > kUnreadShown ? fmt::format(" ({} shown above; 'epdd epd check' lists them all)", kUnreadShown) : "");
  return unread;
}

// Starts the run's engine and names it in `run` and `identity`; on failure the exit status and
// the message.
std::optional<std::pair<int, std::string>> start_engine(uci::EnginePool& pool, const uci::EngineConfig& config,
                                                        AnalysisRun& run, std::string& identity) {
  pool.warm_up();  // every instance starts now, side by side, while the job is set up
  (void)uci::program_content_hash(config.process);  // read meanwhile; remembered for the identity
  auto id = pool.identify();
  if (!id && id.error().kind == uci::EngineErrorKind::BadRequest) {
    // The engine refused an option (a typo, a value out of range): the user's mistake, said
    // without the transcript, before the store has a job and before any position is sent.
    uci::EngineError refused = id.error();
    refused.transcript.clear();
    return std::pair{kExitBadInput, refused.to_string()};
  }
  if (!id) return std::pair{kExitEngine, id.error().to_string()};
  run.engine = id->name;
  identity = engine_identity_for(config, *id);
  run.engine_settings = split_engine_identity(identity).second;
  return std::nullopt;
}

// The run of a spec that needs no store (JobKind::needs_store): from the input file itself (or
// the bytes read whole, which the run then owns), its other files (--book, --import) as read.
AnalysisRun start_direct(const JobKind& kind, RunInput input, std::vector<std::pair<std::string, std::string>> files,
                         const JobSpec& spec) {
  InputSource source;
  if (input.streamed) {
    source = source_of(input);
  } else {
    auto held = std::make_shared<const std::string>(std::move(*input.bytes));
    source = {held->size(), [held, bytes = source_of(std::string_view(*held))](std::size_t offset, std::size_t length) {
                return bytes.read(offset, length);
              }};
  }
  AnalysisRun run = kind.start_direct(source, spec);
  auto by_name = std::make_shared<const std::map<std::string, std::string>>(files.begin(), files.end());
  run.input_file = [by_name](const std::string& name) -> std::optional<std::string> {
    const auto it = by_name->find(name);
    return it == by_name->end() ? std::nullopt : std::optional(it->second);
  };
  return run;
}

}  // namespace

AnalysisOutcome run_analysis(const std::string& kind, const AnalysisSettings& s, const SolvedCheck& solved,
                             RunProgress& progress, std::ostream& err) {
  AnalysisOutcome out;
  const auto fail = [&](int status, const std::string& message) {
    fmt::print(err, "epdd {}: {}\n", kind, safe_lines(message));
    out.status = status;
    return std::move(out);
  };
  setup_logging(s.verbose ? Verbosity::Verbose : s.quiet ? Verbosity::Quiet : Verbosity::Normal);
  use_one_malloc_arena();
  JobSpec& spec = out.spec;
  spec = s.spec;
  spec.kind = kind;
  spec.host = this_host();  // a daemon that finishes it writes its outputs only here
  const bool stored = kind_of(spec).needs_store(spec);
  auto input = read_input(kind_of(spec), s.spec.input, spec, stored);
  if (!input) return fail(kExitBadInput, input.error());
  auto files = read_input_files(spec);
  if (!files) return fail(kExitBadInput, files.error());
  try {
    if (auto why = kind_of(spec).refuse_input(s.spec.input, source_of(*input), spec)) return fail(kExitBadInput, *why);
  } catch (const std::runtime_error& e) {  // (the file changed while it was read)
    return fail(kExitBadInput, e.what());
  }
  if (!stored) {
    // (No engine is started nor store opened; a configuration that names them is still read.)
    if (auto config = choose_engine(s); !config) return fail(kExitBadInput, config.error());
    out.run = start_direct(kind_of(spec), std::move(*input), std::move(*files), spec);
    return out;
  }
  if (input->bytes) out.run = kind_of(spec).start(*input->bytes, spec);
  AnalysisRun& run = out.run;
  out.unread_lines = say_how_read(kind, s.spec.input, run.doc.diags, err);
  // An input with nothing to read is an error on every path (submit and the spool refuse it in
  // nothing_to_do). A streamed input (annotate's PGN files) was asked by refuse_input above.
  if (input->bytes)
    if (auto why = kind_of(spec).empty_input(s.spec.input, run)) return fail(kExitBadInput, *why);

  auto config = choose_engine(s);
  if (!config) return fail(kExitBadInput, config.error());
  auto store = store::Store::open(s.store);
  if (!store) return fail(kExitBadInput, store.error());
  uci::EnginePool pool({*config}, engine_log_sink());  // starts no engine until asked
  std::string identity = "no engine: every answer from the input";
  if (kind_of(spec).needs_engine(spec))
    if (auto failed = start_engine(pool, *config, run, identity)) return fail(failed->first, failed->second);

  const std::string settings = settings_text(spec, identity);
  try {
    auto job = (*store)->find_or_create_job(one_shot_job(spec, config->name, *input, settings, std::move(*files)));
    // A kind that renders from the store reads its input from there, a part at a time.
    if (input->streamed) run = kind_of(spec).start_from(job_input(**store, job.id), spec);
    // The files the job keeps beside its input (annotate's --book and --import), for the plan too.
    run.input_file = job_files(**store, job.id);
    const auto answered = add_planned_items(**store, job.id, spec, run, identity).answered;
    if (!kind_of(spec).grows()) (*store)->reset_failed(job.id);  // (growth went on without its failures)
    // Run again: a job finished (its failed items now pending again), cancelled or given up
    // before is taken up again.
    if (job.state != store::JobState::Queued && job.state != store::JobState::Running) (*store)->reopen_job(job.id);
    job = (*store)->job(job.id);
    execute(s, solved, progress, err, run, **store, job, pool, EngineSlot{config->name, identity, s.concurrency}, spec,
            answered);
    if (!run.interrupted) {
      // The output is rendered from the store, as a daemon would render it: the run is read
      // again from there (this one is let go first, so that the input is not held twice).
      const auto searches = run.searches, cache_hits = run.cache_hits, resumed = run.resumed;
      run = AnalysisRun{};
      auto loaded = load_run(**store, (*store)->job(job.id));
      if (!loaded) return fail(kExitBadInput, loaded.error());
      loaded->searches = searches;
      loaded->cache_hits = cache_hits;
      loaded->resumed = resumed;
      run = std::move(*loaded);
    }
  } catch (const store::StoreError& e) {
    return fail(kExitBadInput, e.what());
  }
  out.store = std::move(*store);  // the run may read its results from it (JobKind::renders_from_store)
  return out;
}

}  // namespace epdd::daemon
