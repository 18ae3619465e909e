#include "daemon/spool.hpp"

#include "daemon/job_kind.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "core/text.hpp"
#include "daemon/files.hpp"
#include "daemon/jobs.hpp"
#include "daemon/workers.hpp"
#include "daemon/logging.hpp"

namespace epdd::daemon {

namespace fs = std::filesystem;

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Being written, by the rule in the header.
bool in_progress(const std::string& name) {
  return name.empty() || name[0] == '.' || ends_with(name, ".part") || ends_with(name, ".tmp") || ends_with(name, "~");
}

std::string stem_of(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
}

std::string extension_of(const std::string& name) {
  const auto dot = name.rfind('.');
  if (dot == std::string::npos || dot == 0) return "";
  return core::ascii_lowercase(name.substr(dot + 1));
}

// A regular file (not a link) that was last modified at least `settle_ms` ago.
enum class FileState { Missing, NotRegular, Unsettled, Settled };
FileState file_state(const std::string& path, std::int64_t settle_ms) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return FileState::Missing;
  if (!S_ISREG(st.st_mode)) return FileState::NotRegular;
  using namespace std::chrono;
  const auto mtime = seconds(st.st_mtim.tv_sec) + nanoseconds(st.st_mtim.tv_nsec);
  const auto now = system_clock::now().time_since_epoch();
  return duration_cast<milliseconds>(now - mtime).count() >= settle_ms ? FileState::Settled : FileState::Unsettled;
}

// `dir/name`, or `dir/STEM-JOB.EXT` when that is taken.
std::string free_name(const std::string& dir, const std::string& name, std::int64_t job) {
  std::error_code ec;
  if (!fs::exists(fs::path(dir) / name, ec)) return (fs::path(dir) / name).string();
  const std::string stem = stem_of(name), ext = name.substr(stem.size());
  return (fs::path(dir) / fmt::format("{}-{}{}", stem, job, ext)).string();
}

Expected<void, std::string> move(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) return unexpected(fmt::format("cannot move {} to {}: {}", core::escaped(from), core::escaped(to), ec.message()));
  return {};
}

// Moves the input (and its sidecar) to `dir` (done/ or failed/); with `error`, writes NAME.error
// there too, each of its lines made safe (names in it were escaped where it was written).
// Returns where the input is now.
Expected<std::string, std::string> file_away(const std::string& spool_dir, const std::string& name, bool sidecar,
                                             const std::string& dir_name, std::int64_t job, const std::string* error) {
  const fs::path root(spool_dir);
  const std::string dir = (root / dir_name).string();
  const std::string target = free_name(dir, name, job);
  if (auto m = move((root / "inbox" / name).string(), target); !m) return unexpected(m.error());
  if (sidecar) {
    const std::string side = stem_of(name) + ".toml";
    const std::string side_target = stem_of(target) + ".toml";
    if (auto m = move((root / "inbox" / side).string(), side_target); !m) return unexpected(m.error());
  }
  if (error)
    if (auto w = write_file_atomically(target + ".error", safe_lines(*error) + "\n"); !w) return unexpected(w.error());
  return target;
}

}  // namespace

Expected<void, std::string> spool_writable(const std::string& spool_dir) {
  for (const char* sub : {"outbox", "inbox", "done", "failed"}) {
    const std::string dir = (fs::path(spool_dir) / sub).string();
    if (::access(dir.c_str(), W_OK) != 0)
      return unexpected(fmt::format("{}: cannot be written: {}", core::escaped(dir), std::strerror(errno)));
  }
  return {};
}

JobSpec spec_from_settings(const JobSpec& s, const std::string& input) {
  JobSpec spec = s;
  spec.input = input;
  default_limit(spec.limits);
  return spec;
}

Spool::Spool(SpoolSettings settings) : settings_(std::move(settings)) {}

Expected<void, std::string> Spool::prepare() {
  for (const char* sub : {"inbox", "outbox", "done", "failed"}) {
    std::error_code ec;
    const fs::path dir = fs::path(settings_.directory) / sub;
    fs::create_directories(dir, ec);
    if (ec) return unexpected(fmt::format("spool: cannot create {}: {}", dir.string(), ec.message()));
  }
  return {};
}

std::vector<std::int64_t> Spool::scan(store::Store& store, const std::vector<std::string>& engines) {
  std::vector<std::int64_t> jobs;
  for (const auto& name : ready_names())
    if (auto id = take(store, engines, name)) jobs.push_back(*id);
  return jobs;
}

std::vector<std::string> Spool::ready_names() {
  const fs::path inbox = fs::path(settings_.directory) / "inbox";
  std::vector<std::string> names;
  std::error_code ec;
  for (fs::directory_iterator it(inbox, ec), end; !ec && it != end; it.increment(ec)) names.push_back(it->path().filename().string());
  if (ec) {
    spdlog::error("spool: cannot read {}: {}", core::escaped(inbox.string()), ec.message());
    return {};
  }
  std::sort(names.begin(), names.end());
  // Forget files that have left the inbox.
  for (auto it = taken_.begin(); it != taken_.end();)
    it = std::find(names.begin(), names.end(), it->first) == names.end() ? taken_.erase(it) : std::next(it);
  std::vector<std::string> ready;
  for (const auto& name : names) {
    if (in_progress(name) || extension_of(name) == "toml" || taken_.count(name)) continue;
    const std::string path = (inbox / name).string();
    const FileState state = file_state(path, settings_.settle_ms);
    if (state == FileState::Settled) {
      ready.push_back(name);
    } else if (state == FileState::NotRegular) {
      spdlog::warn("spool: {} is not a regular file; left alone", core::escaped(path));
      taken_[name] = 0;
    }
  }
  return ready;
}

Expected<JobSpec, std::string> Spool::spec_for(const std::string& name, bool has_sidecar,
                                               const std::vector<std::string>& engines) const {
  const std::string shown = core::escaped(name);
  const std::string extension = extension_of(name);
  const JobKind* reader = kind_for_extension(extension);
  if (!reader)
    return unexpected(fmt::format("{}: not an EPD, PGN, PGC, ChessLive! or Polyglot file (the spool takes *.epd, *.pgn, *.pgc, *.clm and *.bin)", shown));
  JobSpec settings = settings_.defaults;
  // A file is a job of the configured kind when that kind reads it (*.epd: analyse or suite),
  // else of the kind that does (*.pgn: annotate); a sidecar's kind must read it.
  if (!kind_of(settings).reads(extension)) settings.kind = std::string(reader->name());
  if (has_sidecar) {
    const std::string sidecar = (fs::path(settings_.directory) / "inbox" / (stem_of(name) + ".toml")).string();
    auto text = read_whole_file(sidecar);
    if (!text) return unexpected(text.error());
    auto parsed = parse_job_settings(*text, core::escaped(stem_of(name) + ".toml"), settings, sidecar);
    if (!parsed) return unexpected(parsed.error().to_string());
    settings = *parsed;
    if (!kind_of(settings).reads(extension))
      return unexpected(fmt::format("{}: its sidecar says kind = \"{}\", which reads *.{} files", shown, settings.kind,
                                    kind_of(settings).input_extension()));
  }
  for (const auto& [key, value] : settings.options)
    if (!kind_of(settings).option(key))
      return unexpected(fmt::format("{}: {} is not a setting of a {} job", shown, key, settings.kind));
  if (settings.engine.empty() && !engines.empty()) settings.engine = engines.front();
  if (std::find(engines.begin(), engines.end(), settings.engine) == engines.end())
    return unexpected(fmt::format("{}: engine {} is not in the configuration (engines run only from it)", shown,
                                  core::quoted_escaped(settings.engine)));
  JobSpec spec = spec_from_settings(settings, name);
  spec.spool = SpoolOrigin{settings_.directory, name, has_sidecar};
  const fs::path outbox = fs::path(settings_.directory) / "outbox";
  const JobKind& kind = kind_of(spec);
  spec.output = (outbox / (kind.output_extension().empty() ? name : stem_of(name) + "." + std::string(kind.output_extension()))).string();
  for (const KindOutput& more : kind.more_outputs())
    spec.options[std::string(more.option_key)] = (outbox / (stem_of(name) + "." + std::string(more.extension))).string();
  if (kind.has_reports()) {
    spec.report = (outbox / (stem_of(name) + ".report.txt")).string();
    spec.json = (outbox / (stem_of(name) + ".json")).string();
  }
  return spec;
}

std::optional<std::int64_t> Spool::take(store::Store& store, const std::vector<std::string>& engines,
                                        const std::string& name) {
  const fs::path inbox = fs::path(settings_.directory) / "inbox";
  const FileState sidecar = file_state((inbox / (stem_of(name) + ".toml")).string(), settings_.settle_ms);
  if (sidecar == FileState::Unsettled) return std::nullopt;  // taken when its sidecar has settled too
  const bool has_sidecar = sidecar == FileState::Settled;
  const std::string shown = core::escaped(name);  // the name in every message
  const auto reject = [&](const std::string& why) -> std::optional<std::int64_t> {
    const auto more = std::count(why.begin(), why.end(), '\n');
    if (more == 0) spdlog::warn("spool: {} goes to failed/: {}", shown, why);
    else
      spdlog::warn("spool: {} goes to failed/: {} ({} more line{} in its .error file)", shown,
                   why.substr(0, why.find('\n')), more, more == 1 ? "" : "s");
    if (auto f = file_away(settings_.directory, name, has_sidecar, "failed", 0, &why); !f)
      spdlog::error("spool: {}", f.error());
    taken_[name] = 0;
    return std::nullopt;
  };
  auto spec = spec_for(name, has_sidecar, engines);
  if (!spec) return reject(spec.error());
  spec->host = this_host();  // its delivery moves files in this host's spool: a daemon here does it
  auto files = read_input_files(*spec);
  if (!files) return reject(files.error());
  const std::string path = (inbox / name).string();
  auto bytes = kind_of(*spec).read_input(path, *spec);
  if (!bytes) return reject(bytes.error());
  AnalysisRun run = kind_of(*spec).start(*bytes, *spec);
  if (auto why = kind_of(*spec).nothing_to_do(name, run, *spec)) return reject(*why);
  store::NewJob n;
  n.kind = spec->kind;
  n.input = path;
  n.spec = spec_to_json(*spec);
  n.identity = fmt::format("spool|{}|{}|{}", path, content_hash(*bytes), n.spec);
  n.settings = fmt::format("engine {}; {}; from the spool", spec->engine, describe_limits(spec->limits, spec->multipv));
  n.source = std::move(*bytes);
  n.files = std::move(*files);
  n.delivery_host = delivery_host(*spec);
  store::JobRow job = store.find_or_create_job(n);
  // The same file again after it was delivered: deliver it again (from the store's results);
  // its row names it in inbox/ again, where it is now, not where the last delivery put it.
  if (job.delivered) store.reopen_job(job.id, path);
  spdlog::info("job {}: {} {} from the spool ({})", job.id, spec->kind, shown, n.settings);
  taken_[name] = job.id;
  return job.id;
}

Expected<std::string, std::string> deliver_spool_job(store::Store& store, const store::JobRow& job, const JobSpec& spec,
                                                     bool ok, const std::string& message, std::string* note) {
  const SpoolOrigin& origin = *spec.spool;
  if (origin.name.find('/') != std::string::npos || origin.name == "." || origin.name == "..")
    return unexpected(fmt::format("job {}: spool name {} is not a file name", job.id, core::quoted_escaped(origin.name)));
  const std::string stem = stem_of(origin.name);
  if (!ok) return file_away(origin.dir, origin.name, origin.sidecar, "failed", job.id, &message);
  auto run = load_run(store, job);
  if (!run) return unexpected(run.error());
  // Rendered first: a kind that reads its results as it renders finds its errors then.
  const auto texts = kind_of(spec).render(*run, spec);
  std::string kept;
  for (const auto& [i, why] : run->errors)
    kept += fmt::format("{}: {}: {}\n", kind_of(spec).locate(*run, i, origin.name), kind_of(spec).failed_item_fate(),
                        one_line(why));
  if (auto written = write_outputs(texts, spec, Stdout::Skip); !written) return unexpected(written.error());
  // What the job changed of the input's own operations goes beside the output, in a report of
  // its own where the kind has none (analyse: "wac.epd: of the input's operations: 1 bm changed").
  const std::string changes = changes_note(texts);
  if (note) *note = changes;
  if (!changes.empty() && !spec.report)
    if (auto w = write_file_atomically((fs::path(origin.dir) / "outbox" / (stem + ".report.txt")).string(),
                                       core::escaped(origin.name) + ": " + changes + "\n");
        !w)
      return unexpected(w.error());
  if (!kept.empty())
    if (auto w = write_file_atomically((fs::path(origin.dir) / "outbox" / (stem + ".errors")).string(), kept); !w)
      return unexpected(w.error());
  return file_away(origin.dir, origin.name, origin.sidecar, "done", job.id, nullptr);
}

}  // namespace epdd::daemon
