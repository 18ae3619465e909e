// A job kind in one place: its own settings, how its input becomes work items, and how the
// results become its outputs. The registry lists the kinds; the store, the workers, the spool,
// `submit`, `status` and `results` never switch on a kind's name. `analyse` and `suite` are here
// (daemon/src/kinds/); a new workflow is a new file and one line in the registry.
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/analysis_run.hpp"
#include "daemon/job_spec.hpp"
#include "suites/write_back.hpp"
#include "uci/analysis.hpp"

namespace epdd::daemon {

// A yes/no setting only some kinds have (analyse: keep_keys, ce_for_white). The command line,
// the [spool] table and sidecars, and the store's JSON all read it from this description.
struct KindFlag {
  std::string_view key;     // TOML and JSON key: "keep_keys"
  std::string_view option;  // command line: "--keep-keys"
  std::string_view help;    // one line for --help
  bool JobSpec::*field;
};

class JobKind {
 public:
  virtual ~JobKind() = default;
  virtual std::string_view name() const = 0;
  // Its own yes/no settings (none by default).
  virtual std::span<const KindFlag> flags() const { return {}; }
  // Whether it writes reports beside its main output (spec.report, spec.json: --report/--json).
  virtual bool has_reports() const { return false; }
  // The output `epdd results` prints when no file is named for it.
  virtual std::string_view printed_output() const { return "epd"; }

  // The input read into a run with room for every line (default: an EPD file).
  virtual AnalysisRun start(std::string_view bytes, const JobSpec& spec) const;
  // Its work items: one analysis request per line to analyse (default: each EPD record whose
  // position is legal; the others get their error in run.errors).
  virtual std::map<std::size_t, uci::AnalysisRequest> plan(const JobSpec& spec, AnalysisRun& run) const;
  // How analyses are written into its records.
  virtual suites::WriteBackOptions write_back(const JobSpec& spec) const = 0;
  // Its outputs by name: "epd" (to spec.output), and with reports "report" and "json". The
  // run's records get the analysis written into them.
  virtual std::map<std::string, std::string> render(AnalysisRun& run, const JobSpec& spec) const = 0;
};

// The kind of that name, or nullptr.
const JobKind* find_kind(std::string_view name);
// The kind of a spec whose kind was checked when it was read (throws std::logic_error if not).
const JobKind& kind_of(const JobSpec& spec);
// Every kind, in the order registered.
std::vector<const JobKind*> job_kinds();
// "analyse or suite", for help texts and messages.
std::string kind_names();
// Adds a kind (a new workflow's, or a test's). Before any command line is built; names unique.
void register_kind(std::unique_ptr<JobKind> kind);

// Every kind's flags, each once (for the readers of the command line and of TOML).
std::vector<KindFlag> all_kind_flags();

}  // namespace epdd::daemon
