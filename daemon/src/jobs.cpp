#include "daemon/jobs.hpp"

#include "daemon/job_kind.hpp"

#include <fcntl.h>
#include <stdlib.h>  // mkostemp
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/fen.hpp"
#include "core/text.hpp"
#include "store/analysis_json.hpp"
#include "daemon/files.hpp"
#include "daemon/logging.hpp"
#include "suites/scoring.hpp"
#include "suites/write_back.hpp"

namespace epdd::daemon {

std::string engine_identity(const std::string& id_name, const std::string& options_text) {
  return fmt::format("{} ({})", id_name, options_text);
}

namespace {

// A name or value as the identity writes it: the characters that separate its parts ("=", ", ",
// "; ", and the parentheses it is read back by) and the backslash as \xNN, so that one option
// never reads as two (a value "x, Hash=16") and an `id name` is found again after a value
// "/tmp/run (1).log". Plain text stays as it is: the identities in stores do not change.
std::string identity_part(std::string_view text) {
  std::string out;
  for (const char c : text) {
    if (c == '\\' || c == '=' || c == ',' || c == ';' || c == '(' || c == ')')
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out;
}

}  // namespace

std::string engine_options_text(const uci::EngineConfig& c, const std::vector<uci::OptionLine>& declared) {
  std::map<std::string, std::string> sorted;
  for (const auto& setting : c.options) {
    // A default of epdd's that this engine is not sent is not part of what it searched with.
    if (setting.if_declared && uci::engine_spelling(declared, {setting}).empty()) continue;
    const uci::OptionSetting o = uci::canonical_setting(declared, setting);
    sorted[identity_part(o.name)] = identity_part(o.value);
  }
  std::string out;
  for (const auto& [name, value] : sorted) out += fmt::format("{}{}={}", out.empty() ? "" : ", ", name, value);
  return out.empty() ? "the engine's default options" : out;
}

std::pair<std::string, std::string> split_engine_identity(const std::string& identity) {
  // Options never hold parentheses; an engine's name may.
  const auto open = identity.rfind(" (");
  if (open == std::string::npos || identity.empty() || identity.back() != ')') return {identity, ""};
  return {identity.substr(0, open), identity.substr(open + 2, identity.size() - open - 3)};
}

void ContentHash::add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    h_ ^= c;
    h_ *= 1099511628211ull;
  }
}

std::string ContentHash::hex() const { return fmt::format("{:016x}", h_); }

std::string content_hash(std::string_view bytes) {
  ContentHash h;
  h.add(bytes);
  return h.hex();
}

namespace {

// A job's input copied out of the store into a file of its own, nameless (gone when closed),
// and read in parts from there: the store is read once, front to back, whatever the input's size,
// and the input is never held whole in memory.
class InputCopy {
 public:
  explicit InputCopy(std::int64_t job) : job_(job), dir_(std::filesystem::temp_directory_path().string()) {
    fd_ = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd_ < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
      // A filesystem without O_TMPFILE: a named file, unlinked at once.
      std::string path = dir_ + "/epdd-input-XXXXXX";
      fd_ = ::mkostemp(path.data(), O_CLOEXEC);
      if (fd_ >= 0) ::unlink(path.c_str());
    }
    if (fd_ < 0) fail("making");
  }
  ~InputCopy() {
    if (fd_ >= 0) ::close(fd_);
  }
  InputCopy(const InputCopy&) = delete;
  InputCopy& operator=(const InputCopy&) = delete;

  void write(std::size_t offset, std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("writing");
      bytes.remove_prefix(static_cast<std::size_t>(n));
      offset += static_cast<std::size_t>(n);
    }
  }
  // [offset, offset + length) cut at the end of the copy.
  std::string read(std::size_t offset, std::size_t length) const {
    std::string out(length, '\0');
    std::size_t got = 0;
    while (got < length) {
      const ssize_t n = ::pread(fd_, out.data() + got, length - got, static_cast<off_t>(offset + got));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail("reading");
      if (n == 0) break;
      got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return out;
  }

 private:
  [[noreturn]] void fail(const char* doing) const {
    throw store::StoreError(fmt::format("reading the input of job {}: {} its working copy in {}: {}", job_, doing, dir_,
                                        std::strerror(errno)));
  }
  std::int64_t job_;
  std::string dir_;
  int fd_ = -1;
};

}  // namespace

InputSource job_input(store::Store& store, std::int64_t job) {
  auto copy = std::make_shared<InputCopy>(job);
  std::size_t size = 0;
  store.read_job_source(job, [&](std::size_t offset, std::string_view bytes) {
    copy->write(offset, bytes);
    size = offset + bytes.size();  // a read run again after a lost connection starts again at 0
  });
  return {size, [copy](std::size_t offset, std::size_t length) { return copy->read(offset, length); }};
}

std::function<std::optional<std::string>(const std::string& name)> job_files(store::Store& store, std::int64_t job) {
  return [&store, job](const std::string& name) { return store.job_file(job, name); };
}

AnalysisRun start_run(std::string_view bytes, const JobSpec& spec) {
  AnalysisRun run;
  epd::CheckOptions check;
  check.chess960 = spec.chess960;
  check.moves = false;
  run.doc = epd::check_document(bytes, check);
  run.item_count = run.doc.doc.lines.size();
  run.analyses.resize(run.item_count);
  return run;
}

std::map<std::size_t, uci::AnalysisRequest> plan_requests(const JobSpec& spec, AnalysisRun& run) {
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
    if (spec.keep_existing && suites::has_analysis(*line.record)) continue;
    uci::AnalysisRequest r;
    r.fen = core::to_fen(*board);
    r.chess960 = board->chess960();
    r.limits = spec.limits;
    r.multipv = spec.multipv;
    r.new_game = new_game_of(spec);
    requests.emplace(i, std::move(r));
  }
  return requests;
}

std::optional<std::string> nothing_to_analyse(const std::string& name, AnalysisRun& run, const JobSpec& spec) {
  const auto requests = plan_requests(spec, run);
  std::size_t records = 0;
  for (const auto& line : run.doc.doc.lines)
    if (line.record) ++records;
  if (!requests.empty() || (records > 0 && spec.keep_existing)) return std::nullopt;
  const std::string file = core::escaped(name);
  std::string why = records == 0 ? fmt::format("{}: no EPD record in the file", file)
                                 : fmt::format("{}: none of its {} records can be analysed", file, records);
  std::size_t shown = 0;
  for (const auto& d : run.doc.diags.items()) {
    if (d.severity != epd::Severity::Error) continue;
    if (++shown > 10) {
      why += "\n(more errors not shown; 'epdd epd check' lists them all)";
      break;
    }
    why += fmt::format("\n{}:{}:{}: {}", file, d.line, d.column, one_line(d.message));
  }
  return why;
}

PlannedItems add_planned_items(store::Store& store, std::int64_t job, const JobSpec& spec, AnalysisRun& run,
                               const std::string& identity) {
  const JobKind& kind = kind_of(spec);
  // A growing kind replays its growth from the answers in the store (a rerun's, another daemon's),
  // and grows on.
  if (kind.grows()) {
    if (!run.items) read_items_from(store, job, run);
    run.extend = true;
  }
  const std::size_t parts = kind.plan_parts(run);
  std::size_t part = 0;
  std::map<std::size_t, uci::AnalysisRequest> requests;  // of the part being added
  auto next_request = requests.end();
  PlannedItems out;
  out.answered = store.add_items(
      job,
      [&](store::NewItem& item) {
        while (next_request == requests.end()) {
          if (part == parts) return false;
          requests = kind.plan_part(spec, run, part++);
          next_request = requests.begin();
        }
        const auto& [index, request] = *next_request++;
        item = store::NewItem{static_cast<std::int64_t>(index), cache_key(request, identity), request_to_json(request),
                              request.game ? std::optional(static_cast<std::int64_t>(*request.game)) : std::nullopt};
        ++out.count;
        return true;
      },
      identity);
  return out;
}

namespace {

// A run whose kind renders from the store: the reader of its items, results and errors, which
// the render uses a part at a time (it records the errors it meets in run.errors).
AnalysisRun read_from_store(store::Store& store, const store::JobRow& job, AnalysisRun run) {
  read_items_from(store, job.id, run);
  return run;
}

}  // namespace

void read_items_from(store::Store& store, std::int64_t job, AnalysisRun& run) {
  run.items = [&store, job](std::size_t first, std::size_t last) {
    return store.items(job, static_cast<std::int64_t>(first), static_cast<std::int64_t>(last));
  };
}

std::optional<GrownItems> grow_job(store::Store& store, std::int64_t job, const JobSpec& spec, AnalysisRun& run,
                                   const std::string& identity) {
  const std::int64_t before = store.job(job).total;
  GrownItems grown{add_planned_items(store, job, spec, run, identity)};
  const store::JobRow now = store.job(job);
  grown.planned.count = static_cast<std::size_t>(std::max<std::int64_t>(0, now.total - before));
  grown.total = static_cast<std::size_t>(now.total);
  if (grown.planned.count == 0 && now.complete()) return std::nullopt;
  return grown;
}

namespace {

// What a cache key asks of which position: the text after the engine's identity ("fen ...|960
// 0|moves ...|depth 20|searchmoves ").
std::string_view asked_part(std::string_view key) {
  const std::size_t at = key.find("|fen ");
  return at == std::string_view::npos ? key : key.substr(at + 1);
}

// Why a stored item is not the one its job plans at its index today: a job planned by another
// version of epdd (one that numbered the positions otherwise), or over an input that changed.
// Its result would answer another position: an error naming both, never a silent mix.
std::optional<std::string> plan_mismatch(std::int64_t job, const store::ItemRow& item,
                                         const std::map<std::size_t, uci::AnalysisRequest>& planned) {
  const auto it = planned.find(static_cast<std::size_t>(item.index));
  const std::string now = it == planned.end() ? std::string() : cache_key(it->second, "");
  if (it != planned.end() && asked_part(item.key) == asked_part(now)) return std::nullopt;
  return fmt::format("job {}: item {} holds '{}', but the job's input plans {} there now: the job was planned by "
                     "another version of epdd, or its input differs; submit it again (what was searched is in the "
                     "cache, and is not searched again)",
                     job, item.index, asked_part(item.key),
                     it == planned.end() ? std::string("nothing") : "'" + std::string(asked_part(now)) + "'");
}

}  // namespace

std::string item_error(const store::ItemRow& item) { return item.error.empty() ? "failed" : item.error; }

Expected<AnalysisRun, std::string> load_run(store::Store& store, const store::JobRow& job) {
  auto spec = spec_from_json(job.spec);
  if (!spec) return unexpected(fmt::format("job {}: {}", job.id, spec.error()));
  const JobKind& kind = kind_of(*spec);
  AnalysisRun run = kind.start_from(job_input(store, job.id), *spec);
  auto [name, options] = split_engine_identity(job.engine);
  run.engine = name;
  run.engine_settings = options;
  run.input_file = job_files(store, job.id);
  if (kind.renders_from_store()) return read_from_store(store, job, std::move(run));
  if (kind.grows()) read_items_from(store, job.id, run);  // (its plan replays the answers)
  const std::map<std::size_t, uci::AnalysisRequest> planned = kind.plan(*spec, run);
  for (const auto& item : store.items(job.id)) {
    const auto line = static_cast<std::size_t>(item.index);
    if (line >= run.analyses.size())
      return unexpected(fmt::format("job {}: item {} is beyond the input's {} lines", job.id, line, run.analyses.size()));
    if (auto why = plan_mismatch(job.id, item, planned)) return unexpected(*why);
    if (item.state == store::ItemState::Done) {
      auto a = store::analysis_from_json(item.result);
      if (!a) return unexpected(fmt::format("job {}: the result of item {}: {}", job.id, line, a.error()));
      run.analyses[line] = std::move(*a);
      if (run.engine.empty()) run.engine = run.analyses[line]->engine;
    } else if (item.state == store::ItemState::Failed) {
      run.errors[line] = item_error(item);
    }
  }
  return run;
}

AnalysedEpd render_analysed(AnalysisRun& run, const JobSpec& spec) {
  AnalysedEpd out;
  const suites::WriteBackOptions wb = kind_of(spec).write_back(spec);
  for (std::size_t i = 0; i < run.doc.doc.lines.size(); ++i) {
    auto& line = run.doc.doc.lines[i];
    if (!line.record) continue;
    if (const std::string* error = run.error(i)) {
      out.kept.emplace_back(line.record->line(), *error);
      continue;
    }
    if (!run.analyses[i]) continue;
    out.changes.add(suites::write_analysis(*line.record, *run.doc.checked[i].board, *run.analyses[i], wb));
    ++out.analysed;
  }
  out.text = epd::write_document(run.doc.doc, epd::WriteStyle::Preserved);
  return out;
}

namespace {

suites::RecordResult result_of(const AnalysisRun& run, std::size_t i) {
  const epd::EpdRecord& record = *run.doc.doc.lines[i].record;
  suites::RecordResult r;
  r.line = record.line();
  // The report is text for people and JSON (Unicode): what comes from the input is escaped, and
  // an id that is not UTF-8 is read as Latin-1 first (core::as_utf8: "G\xE9za" shows as "Géza").
  const std::string_view id = record.single_operand("id").value_or("");
  r.id = core::escaped(core::as_utf8(id));
  r.position = core::escaped(record.position());
  if (const std::string* error = run.error(i)) {
    r.error = one_line(*error);
    return r;
  }
  const auto& board = run.doc.checked[i].board;
  const auto expected = board ? std::optional(suites::expectation_of(record, *board)) : std::nullopt;
  if (expected && !*expected) {
    r.error = "cannot score: " + one_line(expected->error());
    return r;
  }
  if (!run.analyses[i] || !expected) {
    r.missing = true;  // no result and no failure: a partial report's record not analysed yet
    return r;
  }
  const auto& e = **expected;
  const auto& a = *run.analyses[i];
  const auto v = suites::score(e, *board, a);
  r.rule = e.rule;
  r.solved = v.solved;
  r.sts = e.sts();
  r.points = v.points;
  r.max_points = v.max_points;
  if (r.sts) r.theme = core::escaped(core::as_utf8(suites::sts_theme(id)));
  r.expected = core::escaped(e.text);
  r.found = v.found;
  for (const std::string& san : suites::engine_line(*board, a)) r.pv += (r.pv.empty() ? "" : " ") + san;
  if (!a.lines.empty()) r.score = a.lines.front().score.to_uci_string();
  r.depth = a.depth;
  r.nodes = a.nodes;
  r.time_ms = a.time_ms;
  r.to_solution = v.to_solution;
  r.note = one_line(v.note);
  r.mate = v.mate;
  return r;
}

}  // namespace

suites::SuiteRun suite_report(const AnalysisRun& run, const std::string& suite_name, const std::string& limits,
                              const std::string& settings) {
  suites::SuiteRun report;
  report.suite = core::escaped(suite_name);
  report.engine = core::escaped(run.engine);
  report.limits = limits;
  report.settings = one_line(settings);
  for (std::size_t i = 0; i < run.doc.doc.lines.size(); ++i)
    if (run.doc.doc.lines[i].record) report.records.push_back(result_of(run, i));
  return report;
}

std::string render_suite_epd(AnalysisRun& run, const JobSpec& spec) {
  const suites::WriteBackOptions wb = kind_of(spec).write_back(spec);
  for (std::size_t i = 0; i < run.doc.doc.lines.size(); ++i)
    if (run.doc.doc.lines[i].record && run.analyses[i])
      suites::write_analysis(*run.doc.doc.lines[i].record, *run.doc.checked[i].board, *run.analyses[i], wb);
  return epd::write_document(run.doc.doc, epd::WriteStyle::Preserved);
}

std::string changes_note(const std::map<std::string, std::string>& texts) {
  const auto it = texts.find(std::string(kChangesText));
  return it == texts.end() ? std::string() : "of the input's operations: " + it->second;
}

Expected<std::map<std::string, std::string>, std::string> render_job(store::Store& store, const store::JobRow& job,
                                                                     const JobSpec& spec) {
  auto run = load_run(store, job);
  if (!run) return unexpected(run.error());
  return kind_of(spec).render(*run, spec);
}

std::vector<std::pair<std::string, std::string>> output_paths(const JobSpec& spec) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [path, name] : {std::pair{spec.output, "output"}, std::pair{spec.report, "report"},
                                   std::pair{spec.json, "json"}})
    if (path) out.emplace_back(*path, name);
  for (const KindOutput& more : kind_of(spec).more_outputs())
    if (const auto it = spec.options.find(std::string(more.option_key)); it != spec.options.end())
      out.emplace_back(it->second, std::string(more.name));
  return out;
}

std::string delivery_host(const JobSpec& spec) {
  return spec.spool || !output_paths(spec).empty() ? spec.host : std::string();
}

Expected<std::vector<std::pair<std::string, std::string>>, std::string> read_input_files(const JobSpec& spec) {
  std::vector<std::pair<std::string, std::string>> files;
  const JobKind& kind = kind_of(spec);
  for (const std::string_view key : kind.stored_inputs()) {
    const auto it = spec.options.find(std::string(key));
    if (it == spec.options.end()) continue;
    auto bytes = read_whole_file(it->second);
    if (!bytes) return unexpected(fmt::format("{}: {}", kind.option(key)->option, bytes.error()));
    if (auto usable = kind.check_stored_input(key, *bytes); !usable)
      return unexpected(fmt::format("{} {}: {}", kind.option(key)->option, core::escaped(it->second), usable.error()));
    files.emplace_back(it->first, std::move(*bytes));
  }
  return files;
}

std::vector<std::string> input_paths(const JobSpec& spec) {
  const JobKind& kind = kind_of(spec);
  std::vector<std::string> inputs{spec.input};
  inputs.insert(inputs.end(), spec.more_inputs.begin(), spec.more_inputs.end());
  for (const KindOption& option : kind.options()) {
    const auto it = spec.options.find(std::string(option.key));
    if (option.type != KindOption::Type::Path || it == spec.options.end()) continue;
    const auto& more = kind.more_outputs();
    if (std::none_of(more.begin(), more.end(), [&](const KindOutput& o) { return o.option_key == option.key; }))
      inputs.push_back(it->second);
  }
  return inputs;
}

Expected<void, std::string> check_command_files(std::string_view kind_name, JobSpec spec,
                                                const std::vector<std::optional<std::string>>& outputs) {
  spec.kind = kind_name;
  std::vector<std::optional<std::string>> all_outputs = outputs;
  for (const auto& [path, name] : output_paths(spec))
    if (name != "output" && name != "report" && name != "json") all_outputs.emplace_back(path);
  if (auto once = check_stdio_once(input_paths(spec), all_outputs); !once) return once;
  for (const auto& path : all_outputs)
    if (path)
      if (auto w = check_writable_output(*path); !w) return w;
  return {};
}

Expected<std::vector<std::string>, std::string> write_outputs(const std::map<std::string, std::string>& texts,
                                                              const JobSpec& spec, Stdout to_stdout) {
  std::vector<std::string> written;
  for (const auto& [path, name] : output_paths(spec)) {
    if (!texts.count(name) || (to_stdout == Stdout::Skip && is_stdio(path))) continue;
    if (auto w = write_file_atomically(path, texts.at(name)); !w) return unexpected(w.error());
    written.push_back(path);
  }
  return written;
}

Expected<std::vector<std::string>, std::string> write_job_outputs(store::Store& store, const store::JobRow& job,
                                                                  const JobSpec& spec, std::string* note) {
  if (output_paths(spec).empty() && !(note && kind_of(spec).counts_changes())) return std::vector<std::string>{};
  auto texts = render_job(store, job, spec);
  if (!texts) return unexpected(texts.error());
  if (note) *note = changes_note(*texts);
  return write_outputs(*texts, spec, Stdout::Skip);
}

}  // namespace epdd::daemon
