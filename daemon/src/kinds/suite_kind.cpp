// suite: a test suite scored record by record (bm, am, dm, STS, matetrack), with its report.
#include "daemon/jobs.hpp"
#include "kinds.hpp"
#include "suites/report.hpp"

namespace epdd::daemon {

namespace {

class SuiteKind final : public JobKind {
 public:
  std::string_view name() const override { return "suite"; }
  bool has_reports() const override { return true; }
  std::string_view printed_output() const override { return "report"; }

  suites::WriteBackOptions write_back(const JobSpec& spec) const override {
    suites::WriteBackOptions wb;
    wb.solution_opcodes = false;  // bm/am/dm are the suite's key
    wb.counters_as_operations = spec.counters_as_operations;
    return wb;
  }

  std::map<std::string, std::string> render(AnalysisRun& run, const JobSpec& spec) const override {
    const auto report = suite_report(run, spec.input, describe_limits(spec.limits, spec.multipv), run.engine_settings);
    return {{"report", suites::render_text(report)}, {"json", suites::to_json(report)}, {"output", render_suite_epd(run, spec)}};
  }
};

}  // namespace

std::unique_ptr<JobKind> make_suite_kind() { return std::make_unique<SuiteKind>(); }

}  // namespace epdd::daemon
