// `epdd analyse`: every record of an EPD file analysed by an engine, the results written back
// as acd/acn/acs/ce/pm/pv/bm (and dm) with everything else in the file kept as it was.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "daemon/analysis_run.hpp"

namespace epdd::cli {

struct AnalyseOptions {
  daemon::AnalysisSettings analysis;
  std::optional<std::string> output;  // default: standard output
};

// Exit status: see analysis_run.hpp (0, 1 some records failed, 2, 3, 130 interrupted).
int run_analyse(const AnalyseOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
