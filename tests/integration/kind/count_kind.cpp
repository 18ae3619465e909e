// `epdd` with one more job kind, "count", registered here and nowhere else: it shows that a job
// kind is one place. Its input is an EPD file, its work items the records (the default plan),
// and its one output a report: how many positions, how many analysed, and the engine's moves.
// No other file of epdd knows it: submit, serve (spool, workers, delivery), status and results
// take it from the registry.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/cli.hpp"
#include "core/notation.hpp"
#include "daemon/job_kind.hpp"

namespace {

using namespace epdd;

class CountPositions final : public daemon::JobKind {
 public:
  std::string_view name() const override { return "count"; }
  std::string_view printed_output() const override { return "report"; }

  suites::WriteBackOptions write_back(const daemon::JobSpec&) const override { return {}; }

  std::map<std::string, std::string> render(daemon::AnalysisRun& run, const daemon::JobSpec& spec) const override {
    std::size_t positions = 0, analysed = 0;
    std::string moves;
    for (std::size_t i = 0; i < run.doc.doc.lines.size(); ++i) {
      if (!run.doc.doc.lines[i].record) continue;
      ++positions;
      if (!run.analyses[i]) continue;
      ++analysed;
      moves += " " + run.analyses[i]->bestmove;
    }
    return {{"report", fmt::format("{}: {} positions, {} analysed; moves:{}\n", spec.input, positions, analysed, moves)}};
  }
};

}  // namespace

int main(int argc, char** argv) {
  daemon::register_kind(std::make_unique<CountPositions>());
  return cli::run_cli(argc, argv);
}
