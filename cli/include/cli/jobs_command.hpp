// The queue from the command line: epdd submit, status, cancel, results. They work against the
// store whether or not a daemon runs; a daemon (`epdd serve`) on the same store does the work.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "daemon/job_spec.hpp"
#include "store/store.hpp"

namespace epdd::cli {

// Where the store is: --store, else the [daemon] store of --config, else ./epdd.db.
struct StoreChoice {
  std::optional<std::string> store;
  std::optional<std::string> config;
};

// The store of that choice, opened (and upgraded) with Store::open. Only `submit` makes a
// store: the commands that read or change jobs (status, cancel, results, report, purge) refuse
// an SQLite store that is not there ("no store there") rather than leave an empty epdd.db in
// a directory the user was merely in.
enum class StoreUse { Create, Existing };
Expected<std::unique_ptr<store::Store>, std::string> open_chosen_store(const StoreChoice& where, StoreUse use);

struct SubmitOptions {
  StoreChoice where;
  daemon::JobSpec spec;  // kind, input, engine, limits, outputs as given
  std::vector<std::string> files;  // the input files: spec.input, then spec.more_inputs (book)
};

int run_submit(SubmitOptions options, std::ostream& out, std::ostream& err);
int run_status(const StoreChoice& where, std::optional<std::int64_t> job, std::ostream& out, std::ostream& err);
int run_cancel(const StoreChoice& where, std::int64_t job, std::ostream& out, std::ostream& err);

struct ResultsOptions {
  StoreChoice where;
  std::int64_t job = 0;
  std::optional<std::string> output;  // analyse: the EPD (default stdout); suite: the EPD
  std::optional<std::string> json;    // suite: the JSON report
  // A kind's more outputs (book: "pgn", "polyglot"), by name: where each goes.
  std::map<std::string, std::string> more;
  // Also for a job that is not finished (cancelled, failed, running): what was done, the other
  // records unchanged; how many are missing is said on `err`.
  bool partial = false;
};
int run_results(const ResultsOptions& options, std::ostream& out, std::ostream& err);

// A finished job's JSON report (suite, annotate, book), rendered from the store as `epdd results
// --json` writes it; an error for a job that is not finished or has none.
Expected<std::string, std::string> job_report_json(const StoreChoice& where, std::int64_t job);

}  // namespace epdd::cli
