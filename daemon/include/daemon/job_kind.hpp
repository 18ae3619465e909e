// A job kind in one place: its own settings, how its input becomes work items, and how the
// results become its outputs. The registry lists the kinds; the store, the workers, the spool,
// `submit`, `status` and `results` never switch on a kind's name. `analyse` and `suite` are here
// (daemon/src/kinds/); a new workflow is a new file and one line in the registry.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
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

// A setting with a value only some kinds have (annotate: judge = "cp:50,100,300", from_ply = 10).
// Kept as text in JobSpec::options under its key; the command line, the [spool] table and
// sidecars, and the store's JSON all read it from this description and check it with `check`.
struct KindOption {
  std::string_view key;        // TOML and JSON key: "judge"
  std::string_view option;     // command line: "--judge"
  std::string_view type_name;  // for --help: "RULE"
  std::string_view help;       // for --help (may span lines)
  // Text (TOML: a string), Integer (TOML: an integer), Flag (the command line: an option
  // without value; TOML: a boolean; kept as "true" / "false"), or Path (a file's name: TOML
  // reads it relative to the TOML file, `submit` makes it absolute for a daemon elsewhere).
  enum class Type : std::uint8_t { Text, Integer, Flag, Path };
  Type type = Type::Text;
  // Why a value is not good, or nothing when it is (printed after the file, line and key).
  std::optional<std::string> (*check)(std::string_view value) = nullptr;
  // Whether a one-shot run with another value is another job (its items differ: annotate's
  // from_ply, book's max_ply). False for a setting of the outputs only (annotate's judge, book's
  // polyglot_margin) or one whose effect is in the input's bytes already (book's import): the same
  // command with another such value resumes the same job and renders with the new value.
  bool in_job_identity = true;
};

// An output besides "output", "report" and "json" (book: the PGN tree, the Polyglot file): its
// name among render()'s texts, the option (KindOption, Type::Path) that holds where it goes, and
// the extension the spool gives it in outbox/.
struct KindOutput {
  std::string_view name;        // "pgn"
  std::string_view option_key;  // "pgn": JobSpec::options["pgn"] is the file
  std::string_view extension;   // "pgn": outbox/STEM.pgn
};

class JobKind {
 public:
  virtual ~JobKind() = default;
  virtual std::string_view name() const = 0;
  // Its own yes/no settings (none by default).
  virtual std::span<const KindFlag> flags() const { return {}; }
  // Its own settings with a value (none by default), and the one of this key (or nullptr).
  virtual std::span<const KindOption> options() const { return {}; }
  const KindOption* option(std::string_view key) const;
  // The extension of the files it reads ("epd"; annotate "pgn"): the spool's files of that
  // extension are its jobs when the configured kind reads another.
  virtual std::string_view input_extension() const { return "epd"; }
  // Whether it reads files with this extension (default: input_extension() only; book reads
  // PGN, Polyglot and EPD files).
  virtual bool reads(std::string_view extension) const { return extension == input_extension(); }
  // The extension of its main output in the spool's outbox (default: empty, the input's own
  // name; book: "epd").
  virtual std::string_view output_extension() const { return {}; }
  // Whether a job of it needs an input file (book-grow does not: without one it grows from the start
  // position).
  virtual bool needs_input() const { return true; }
  // Whether a job of it may read several files (JobSpec::more_inputs; default: one).
  virtual bool many_inputs() const { return false; }
  // Its outputs besides output, report and json (none by default).
  virtual std::span<const KindOutput> more_outputs() const { return {}; }
  // The keys of its Path options that name input files it reads after the job is made (annotate:
  // "book", read when rendering): the store keeps their bytes with the job (jobs.hpp
  // read_input_files, Store::job_file) and the run reads them from there (AnalysisRun::input_file),
  // so no daemon opens a path from a job. None by default. (Book's --import is read into its
  // input's bytes by read_input.)
  virtual std::span<const std::string_view> stored_inputs() const { return {}; }
  // Whether the engine's hash is cleared before each position when the job does not say
  // (JobSpec::new_game unset).
  virtual uci::NewGame default_new_game() const { return uci::NewGame::Clear; }
  // Whether it writes reports beside its main output (spec.report, spec.json: --report/--json).
  virtual bool has_reports() const { return false; }
  // Whether a job of this spec searches anything: false when every answer comes from the input
  // (annotate --evals-from-input only). A one-shot run then starts no engine (one need not be
  // installed) and names none.
  virtual bool needs_engine(const JobSpec&) const { return true; }
  // Whether a one-shot run of this spec goes through the store: false for a run that searches
  // nothing and has nothing worth resuming or caching (annotate --evals-from-input only, a parse
  // of the input). Such a run makes no job: it is started by start_direct from the input file
  // itself and rendered straight from it (run.items unset). The daemon stores every job.
  virtual bool needs_store(const JobSpec&) const { return true; }
  // Whether its items need the engine's score: an answer without one (a bestmove with no info
  // score line) then fails the item, which a rerun searches again (book: a leaf's value;
  // annotate: the [%eval]). Default: false (a suite scores the move itself, analyse writes it).
  // Such an answer is never cached, whatever the kind.
  virtual bool needs_value() const { return false; }
  // Whether its items grow as the job goes (book-grow): each time every item is answered, plan()
  // is asked again, with AnalysisRun::items set to read the answers from the store, and returns
  // the items so far and the next ones (items already in the store are kept as they are); the job
  // is finished when a plan adds none. A kind that grows keeps what it learnt in run.data, so
  // that planning the same run again reads only the answers it has not read. Default: false.
  virtual bool grows() const { return false; }
  // A line on how a growing job stands, said as its items grow (book-grow: the root's value and
  // line, positions, expansions a minute); empty by default.
  virtual std::string growth_status(const AnalysisRun&) const { return {}; }
  // Whether the bytes of a stored input (stored_inputs(): annotate's book) are usable, checked
  // as the job is made, before any search; why not otherwise.
  virtual Expected<void, std::string> check_stored_input(std::string_view key, std::string_view bytes) const;
  // Whether render() may say what it changed of the input's own operations (analyse: bm
  // replaced, dm added, ...) as its kChangesText text: a daemon then renders the job as it
  // finishes even without an output file, to log the counts and keep them in the job's message.
  virtual bool counts_changes() const { return false; }
  // Whether its render reads the results from the store a part at a time (AnalysisRun::items)
  // instead of from AnalysisRun::analyses, which load_run then leaves empty, and records the
  // errors it meets in AnalysisRun::errors (annotate: a file of thousands of games renders in the
  // memory of one). Its errors are then known after render() only.
  virtual bool renders_from_store() const { return false; }
  // Whether the regular file at `path` is stored as it is, hashed and copied a chunk at a time
  // and never held whole, instead of through read_input (default: renders_from_store(); annotate:
  // a PGN file, not a PGC or move file, which read_input converts).
  virtual bool stores_as_is(const std::string& path) const {
    (void)path;
    return renders_from_store();
  }
  // The output `epdd results` prints when no file is named for it.
  virtual std::string_view printed_output() const { return "output"; }

  // The input's bytes, as the store keeps them: the file at `path` (the spec's input, or where
  // the spool holds it) and whatever else the spec names that the run must not read again
  // later (book: spec.more_inputs, the --import file). Default: read_epd_file(path), which
  // refuses a PGN file with a hint.
  virtual Expected<std::string, std::string> read_input(const std::string& path, const JobSpec& spec) const;
  // The input read into a run with room for every line (default: an EPD file).
  virtual AnalysisRun start(std::string_view bytes, const JobSpec& spec) const;
  // The same from an input read in parts, which stays readable while the run lives. Default:
  // read whole, then start(). A kind that renders from the store reads only the parts it
  // needs when it needs them (annotate: a game at a time), so the input is never held whole.
  virtual AnalysisRun start_from(const InputSource& source, const JobSpec& spec) const;
  // The run of a spec that needs no store (needs_store), from its input file. Default: start_from.
  virtual AnalysisRun start_direct(const InputSource& source, const JobSpec& spec) const { return start_from(source, spec); }
  // Its work items: one analysis request per line to analyse (default: each EPD record whose
  // position is legal; the others get their error in run.errors).
  virtual std::map<std::size_t, uci::AnalysisRequest> plan(const JobSpec& spec, AnalysisRun& run) const;
  // The same in parts (annotate: a game each), for planning a large input in the memory of one
  // part: plan() is the union of plan_part(0 .. plan_parts() - 1). Default: one part, plan().
  virtual std::size_t plan_parts(const AnalysisRun& run) const;
  virtual std::map<std::size_t, uci::AnalysisRequest> plan_part(const JobSpec& spec, AnalysisRun& run,
                                                                std::size_t part) const;
  // Why the input is refused before a job is made of it; nothing when it is taken. The one-shot
  // commands ask it as they read the input; submit and the spool through nothing_to_do (which
  // must ask it first where a kind has one). Default: nothing. Annotate: a binary file, no game,
  // a --player that no game's White or Black tag names.
  virtual std::optional<std::string> refuse_input(const std::string& name, const InputSource& input,
                                                  const JobSpec& spec) const;
  // Why the input holds nothing of what this kind reads (no EPD record; annotate: no game): the
  // one-shot commands refuse it with exit 2 (the first lines that are not records were said as
  // the input was read); submit and the spool refuse it in nothing_to_do with the same words and
  // those lines; the book refuses its empty input as it builds the book. Nothing when it holds
  // some. Default: EPD records.
  virtual std::optional<std::string> empty_input(const std::string& name, const AnalysisRun& run) const;
  // Why the input cannot be a job of this kind (nothing to analyse), with its first errors as
  // NAME:LINE:COLUMN: message; nothing when it has work (default: nothing_to_analyse, EPD).
  virtual std::optional<std::string> nothing_to_do(const std::string& name, AnalysisRun& run, const JobSpec& spec) const;
  // What its items' groups are (annotate: "games"; progress counts them), and the group of item
  // `index` as the store has it (NewItem::group). Default: no groups.
  virtual std::string_view group_name() const { return {}; }
  virtual std::optional<std::int64_t> group_of(const AnalysisRun& run, std::size_t index) const;
  // The input line of work item `index` (for messages: "FILE:LINE: not analysed: ..."; default:
  // the EPD record's line).
  virtual std::size_t line_of(const AnalysisRun& run, std::size_t index) const;
  // Where work item `index` comes from, for messages, `input` being the input's name as shown:
  // default "INPUT:LINE" (line_of); book: the leaf's first path from the root.
  virtual std::string locate(const AnalysisRun& run, std::size_t index, std::string_view input) const;
  // What became of a failed item in the output, for the spool's STEM.errors (default "kept
  // unchanged": an EPD record, a game; book: "left without a value").
  virtual std::string_view failed_item_fate() const { return "kept unchanged"; }
  // How many lines of the input its output keeps unchanged because they could not be analysed
  // (default: the items with an error; annotate: also the games it cannot read).
  virtual std::size_t failures(const AnalysisRun& run) const;
  // How analyses are written into its records (EPD kinds; default: the analyse defaults).
  virtual suites::WriteBackOptions write_back(const JobSpec& spec) const;
  // Its outputs by name: "output" (to spec.output: the EPD, the annotated PGN), and with reports
  // "report" and "json". The run's records get the analysis written into them.
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
// Every kind's options, each key once.
std::vector<KindOption> all_kind_options();
// The first kind that reads files with this extension ("pgn": annotate), or nullptr.
const JobKind* kind_for_extension(std::string_view extension);
// The hash policy of the spec: its own, else its kind's default.
uci::NewGame new_game_of(const JobSpec& spec);

}  // namespace epdd::daemon
