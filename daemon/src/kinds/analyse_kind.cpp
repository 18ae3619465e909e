// analyse: every record of an EPD file analysed, the results written back into it.
#include "daemon/jobs.hpp"
#include "kinds.hpp"

namespace epdd::daemon {

namespace {

constexpr KindFlag kAnalyseFlags[] = {
    {"keep_keys", "--keep-keys",
     "Keep bm, am and dm as they are (a suite's key) and write the engine's move as pm only;\n"
     "by default bm is replaced by the engine's move and dm by the mate it found (or removed),\n"
     "and the summary counts every key changed or removed",
     &JobSpec::keep_keys},
    {"ce_for_white", "--ce-for-white",
     "Write ce from White's point of view (positive: White is better), as BOOKUP and some\n"
     "importers want. The EPD standard's ce is from the side to move (the default)",
     &JobSpec::ce_for_white},
};

class AnalyseKind final : public JobKind {
 public:
  std::string_view name() const override { return "analyse"; }
  std::span<const KindFlag> flags() const override { return kAnalyseFlags; }

  suites::WriteBackOptions write_back(const JobSpec& spec) const override {
    suites::WriteBackOptions wb;
    wb.solution_opcodes = !spec.keep_keys;
    wb.ce_for_white = spec.ce_for_white;
    wb.counters_as_operations = spec.counters_as_operations;
    return wb;
  }

  bool counts_changes() const override { return true; }

  std::map<std::string, std::string> render(AnalysisRun& run, const JobSpec& spec) const override {
    AnalysedEpd rendered = render_analysed(run, spec);
    std::map<std::string, std::string> texts{{"output", std::move(rendered.text)}};
    if (!rendered.changes.empty()) texts[std::string(kChangesText)] = rendered.changes.describe();
    return texts;
  }
};

}  // namespace

std::unique_ptr<JobKind> make_analyse_kind() { return std::make_unique<AnalyseKind>(); }

}  // namespace epdd::daemon
