// A job from start to end, shared by the one-shot commands, `epdd serve` and `epdd results`:
// its items planned from the input (one per record to analyse), its results read back from the
// store, and its outputs rendered (the analysed EPD, the suite report) the same way whoever ran
// it, so a daemon's output equals the one-shot command's.
#pragma once

#include <cstdint>
#include <map>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "daemon/analysis_run.hpp"
#include "daemon/job_spec.hpp"
#include "store/store.hpp"
#include "suites/report.hpp"
#include "suites/write_back.hpp"
#include "uci/engine_config.hpp"

namespace epdd::daemon {

// The engine identity that cache keys and jobs name: "id name (options)", e.g.
// "Stockfish 15.1 (Hash=16, Threads=1)".
std::string engine_identity(const std::string& id_name, const std::string& options_text);
// The options of an engine's configuration in words, sorted by name: "Hash=16, Threads=1"; in
// names and values, the separators (= , ; and parentheses) and the backslash are written \xNN.
// With the engine's declared options, each is as the engine is told it (uci::canonical_setting):
// "hash=016" and "Hash=16" are one engine's "Hash=16"; without, as configured. A default of
// epdd's the engine does not declare (uci::OptionSetting::if_declared) is not sent and not named.
std::string engine_options_text(const uci::EngineConfig& config, const std::vector<uci::OptionLine>& declared = {});
// Its two parts again.
std::pair<std::string, std::string> split_engine_identity(const std::string& identity);

// 64-bit FNV-1a of the input's bytes, in hex: a changed file is a new job, not a resumed one.
// (Its offset basis is one digit short of FNV's published one; kept: the jobs in stores have it.)
std::string content_hash(std::string_view bytes);
// The same over bytes given a part at a time (an input never held whole).
class ContentHash {
 public:
  void add(std::string_view bytes);
  std::string hex() const;

 private:
  std::uint64_t h_ = 1469598103934665603ull;
};

// The job's input as the store keeps it, read in parts: copied out of the store in one pass
// (Store::read_job_source) into a nameless file in the temporary folder, which the parts are read
// from; the store is not used after this returns. Throws store::StoreError when the copy fails.
InputSource job_input(store::Store& store, std::int64_t job);

// The job's files kept beside its input (JobKind::stored_inputs: annotate's --book and --import),
// each read from the store when asked: what AnalysisRun::input_file holds for a run of the job.
// The store must outlive it.
std::function<std::optional<std::string>(const std::string& name)> job_files(store::Store& store, std::int64_t job);

// Reads the input document the way the spec says (chess960), into a run with room for every line.
AnalysisRun start_run(std::string_view bytes, const JobSpec& spec);

// The records to analyse and their requests, by document line. Records whose position is not
// legal get their error in run.errors instead (with the checker's message); keep_existing
// skips analysed ones.
std::map<std::size_t, uci::AnalysisRequest> plan_requests(const JobSpec& spec, AnalysisRun& run);

// Why the document cannot be a job: no record, or none that can be analysed (with its first
// errors as NAME:LINE:COLUMN: message, one a line: NAME escaped, the messages one_line()); nothing
// when it has work (or, with keep_existing, records).
std::optional<std::string> nothing_to_analyse(const std::string& name, AnalysisRun& run, const JobSpec& spec);

// The job's items, as its kind plans them a part at a time (JobKind::plan_part), keyed for the
// engine of this identity and added to the store in one transaction (answered from the cache
// where it can, Store::add_items): how many, and the indexes the cache answered.
struct PlannedItems {
  std::size_t count = 0;
  std::vector<std::int64_t> answered;
};
PlannedItems add_planned_items(store::Store& store, std::int64_t job, const JobSpec& spec, AnalysisRun& run,
                               const std::string& identity);

// Sets run.items to read the job's items from the store (which must outlive the run).
void read_items_from(store::Store& store, std::int64_t job, AnalysisRun& run);

// The next items of a job whose kind grows (JobKind::grows), once every item is answered:
// planned (add_planned_items: with run.extend set, the answers read from the store) and added
// (answered from the cache where it can): how many were added, which of them the cache answered,
// and the job's items now. Nothing when the growth is over: none added, and the job still
// complete. (None added but not complete: another process added the same round meanwhile.)
struct GrownItems {
  PlannedItems planned;
  std::size_t total = 0;
};
std::optional<GrownItems> grow_job(store::Store& store, std::int64_t job, const JobSpec& spec, AnalysisRun& run,
                     const std::string& identity);

// The job as the store has it: its input (the bytes it was made with), planned again for the
// errors of illegal records, and each item's analysis or error. A message when the spec or a
// result cannot be read.
// A kind that renders from the store (JobKind::renders_from_store) gets no analyses and no errors
// here: its render reads them a part at a time through AnalysisRun::items and records in
// run.errors the errors it meets, so they are known once the run is rendered.
Expected<AnalysisRun, std::string> load_run(store::Store& store, const store::JobRow& job);

// A failed item's message (one is always recorded; an empty one still says it failed).
std::string item_error(const store::ItemRow& item);

// The input with the analysis written into each analysed record (analyse: with bm/dm; the
// records that failed are kept unchanged and listed as "LINE: why").
struct AnalysedEpd {
  std::string text;
  std::vector<std::pair<std::size_t, std::string>> kept;  // (line number, why)
  std::size_t analysed = 0;
  suites::ChangeCounts changes;  // operations of the input removed or keys changed, for the summary
};
AnalysedEpd render_analysed(AnalysisRun& run, const JobSpec& spec);

// The text of render() that counts the input's operations a job changed ("1 bm changed, 1 dm
// added"; JobKind::counts_changes), absent when none changed: not an output file, but what a
// one-shot command prints after "of the input's operations: ", and what a daemon logs, keeps in
// the job's message (status) and writes to the spool's outbox (NAME.report.txt).
inline constexpr std::string_view kChangesText = "changes";
// "of the input's operations: 1 bm changed" from render()'s texts, or "" when nothing changed.
std::string changes_note(const std::map<std::string, std::string>& texts);

// A suite run's report, and the input with analysis opcodes added (bm/am/dm kept: the key). What
// the report takes from outside (the suite's name, ids, keys, the engine's name, messages) is
// escaped: the report is read on terminals and its JSON must be Unicode.
suites::SuiteRun suite_report(const AnalysisRun& run, const std::string& suite_name, const std::string& limits,
                              const std::string& settings);
std::string render_suite_epd(AnalysisRun& run, const JobSpec& spec);

// The files the spec names for its outputs, as (path, output name): output, report, json and the
// kind's more_outputs whose option is set.
std::vector<std::pair<std::string, std::string>> output_paths(const JobSpec& spec);

// The host whose daemons alone deliver the job (store::NewJob::delivery_host): the one it was
// made on (spec.host) when delivering writes files (output_paths, or a spool's moves); empty,
// any daemon's, when it writes none (its results are read with `epdd results`).
std::string delivery_host(const JobSpec& spec);

// The input files the spec's settings name (JobKind::stored_inputs), read now for the store to
// keep with the job (store::NewJob::files), as (option key, bytes). A file that cannot be read
// is a message naming the option and the file.
Expected<std::vector<std::pair<std::string, std::string>>, std::string> read_input_files(const JobSpec& spec);

// The files the spec names as its inputs: spec.input, more_inputs, and the files its settings
// name (the kind's Path options that are not outputs: annotate's book, book's import).
std::vector<std::string> input_paths(const JobSpec& spec);

// The files a command of that kind names with that spec, checked before any work: '-' once among its
// inputs (input_paths) and once among `outputs` (the command's: nullopt for one not
// given, "-" for stdout by default) with the kind's more_outputs that are set; each output writable.
Expected<void, std::string> check_command_files(std::string_view kind, JobSpec spec,
                                                const std::vector<std::optional<std::string>>& outputs);

// Whether an output named '-' is written to standard output (a command's own outputs) or
// skipped (a daemon's: '-' was the stdout of the one-shot command that made the job, gone since;
// the output stays in the store for `epdd results JOB ... -`).
enum class Stdout { Write, Skip };

// Writes those texts where the spec names them (output_paths), atomically. Returns the files
// written, or what went wrong.
Expected<std::vector<std::string>, std::string> write_outputs(const std::map<std::string, std::string>& texts,
                                                              const JobSpec& spec, Stdout to_stdout = Stdout::Write);

// A daemon's delivery: writes the finished job's outputs where its spec names them (output_paths),
// atomically, never to its own standard output (Stdout::Skip). Returns the files written, or
// what went wrong. With `note`: its changes_note() there (a kind that counts_changes() is
// rendered for it even when it has no output file).
Expected<std::vector<std::string>, std::string> write_job_outputs(store::Store& store, const store::JobRow& job,
                                                                  const JobSpec& spec, std::string* note = nullptr);

// The text of each output of a finished job, by name: "output", and for kinds with reports "report" and "json".
Expected<std::map<std::string, std::string>, std::string> render_job(store::Store& store, const store::JobRow& job,
                                                                     const JobSpec& spec);

}  // namespace epdd::daemon
