#include "daemon/job_kind.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "core/text.hpp"
#include "daemon/files.hpp"
#include "daemon/jobs.hpp"
#include "kinds/kinds.hpp"

namespace epdd::daemon {

namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::unique_ptr<JobKind>> kinds;
};

Registry& registry() {
  static Registry* r = [] {
    auto* made = new Registry;  // never destroyed: kinds are looked up until the process ends
    // The kinds of epdd, one line each.
    made->kinds.push_back(make_analyse_kind());
    made->kinds.push_back(make_suite_kind());
    made->kinds.push_back(make_annotate_kind());
    made->kinds.push_back(make_book_kind());
    made->kinds.push_back(make_book_grow_kind());
    return made;
  }();
  return *r;
}

}  // namespace

Expected<std::string, std::string> JobKind::read_input(const std::string& path, const JobSpec&) const {
  return read_epd_file(path);
}

AnalysisRun JobKind::start(std::string_view bytes, const JobSpec& spec) const { return start_run(bytes, spec); }

AnalysisRun JobKind::start_from(const InputSource& source, const JobSpec& spec) const {
  return start(source.read(0, source.size), spec);
}

std::map<std::size_t, uci::AnalysisRequest> JobKind::plan(const JobSpec& spec, AnalysisRun& run) const {
  return plan_requests(spec, run);
}

std::size_t JobKind::plan_parts(const AnalysisRun&) const { return 1; }

std::map<std::size_t, uci::AnalysisRequest> JobKind::plan_part(const JobSpec& spec, AnalysisRun& run, std::size_t) const {
  return plan(spec, run);
}

Expected<void, std::string> JobKind::check_stored_input(std::string_view, std::string_view) const { return {}; }

std::optional<std::string> JobKind::refuse_input(const std::string&, const InputSource&, const JobSpec&) const {
  return std::nullopt;
}

std::optional<std::string> JobKind::empty_input(const std::string& name, const AnalysisRun& run) const {
  const auto& lines = run.doc.doc.lines;
  if (std::any_of(lines.begin(), lines.end(), [](const auto& line) { return line.record.has_value(); })) return std::nullopt;
  return fmt::format("{}: no EPD record in the file", core::escaped(name));
}

std::optional<std::string> JobKind::nothing_to_do(const std::string& name, AnalysisRun& run, const JobSpec& spec) const {
  return nothing_to_analyse(name, run, spec);  // "no EPD record in the file" with the first errors
}

std::optional<std::int64_t> JobKind::group_of(const AnalysisRun&, std::size_t) const { return std::nullopt; }

std::size_t JobKind::line_of(const AnalysisRun& run, std::size_t index) const {
  const auto& lines = run.doc.doc.lines;
  return index < lines.size() && lines[index].record ? lines[index].record->line() : 0;
}

std::string JobKind::locate(const AnalysisRun& run, std::size_t index, std::string_view input) const {
  return fmt::format("{}:{}", core::escaped(input), line_of(run, index));
}

std::size_t JobKind::failures(const AnalysisRun& run) const {
  return run.errors.size();
}

suites::WriteBackOptions JobKind::write_back(const JobSpec&) const { return {}; }

const KindOption* JobKind::option(std::string_view key) const {
  for (const KindOption& o : options())
    if (o.key == key) return &o;
  return nullptr;
}

const JobKind* find_kind(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (const auto& k : r.kinds)
    if (k->name() == name) return k.get();
  return nullptr;
}

const JobKind& kind_of(const JobSpec& spec) {
  const JobKind* kind = find_kind(spec.kind);
  if (!kind) throw std::logic_error("job kind '" + spec.kind + "' is not registered (a spec read without a check)");
  return *kind;
}

std::vector<const JobKind*> job_kinds() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<const JobKind*> out;
  for (const auto& k : r.kinds) out.push_back(k.get());
  return out;
}

std::string kind_names() {
  std::string out;
  const auto kinds = job_kinds();
  for (std::size_t i = 0; i < kinds.size(); ++i)
    out += std::string(i == 0 ? "" : i + 1 == kinds.size() ? " or " : ", ") + std::string(kinds[i]->name());
  return out;
}

void register_kind(std::unique_ptr<JobKind> kind) {
  if (find_kind(kind->name())) throw std::logic_error("job kind '" + std::string(kind->name()) + "' registered twice");
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.kinds.push_back(std::move(kind));
}

std::vector<KindFlag> all_kind_flags() {
  std::vector<KindFlag> out;
  for (const JobKind* kind : job_kinds())
    for (const KindFlag& f : kind->flags())
      if (std::none_of(out.begin(), out.end(), [&](const KindFlag& g) { return g.key == f.key; })) out.push_back(f);
  return out;
}

}  // namespace epdd::daemon

namespace epdd::daemon {

std::vector<KindOption> all_kind_options() {
  std::vector<KindOption> out;
  for (const JobKind* kind : job_kinds())
    for (const KindOption& o : kind->options())
      if (std::none_of(out.begin(), out.end(), [&](const KindOption& g) { return g.key == o.key; })) out.push_back(o);
  return out;
}

const JobKind* kind_for_extension(std::string_view extension) {
  for (const JobKind* kind : job_kinds())
    if (kind->reads(extension)) return kind;
  return nullptr;
}

uci::NewGame new_game_of(const JobSpec& spec) { return spec.new_game.value_or(kind_of(spec).default_new_game()); }

}  // namespace epdd::daemon
