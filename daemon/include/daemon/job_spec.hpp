// What a job is, in the form the store keeps it (jobs.spec, items.request): enough for any
// process on the store to run the job and write its outputs, long after the command that made
// it has gone. JSON written by us, read back as untrusted input.
//
// Job spec (keys in this order; absent optionals are left out):
//   {"kind":"suite","input":"suites/wac.epd","more_inputs":["b.bin"] (absent when none),"engine":"stockfish",
//    "limits":{"depth":20,"nodes":100000,"movetime":1000,"mate":3,"stop_after":500},
//    "multipv":1,"new_game":"clear" (absent: the kind's default),"keep_existing":false,"chess960":false,"ce_for_white":false,
//    "keep_keys":false,"counters":"keep",   (both absent in specs written before they existed)
//    "options":{"judge":"lichess","from_ply":"1"},   (the kind's own settings; absent when none)
//    "output":"/abs/out.epd","report":"/abs/out.txt","json":"/abs/out.json",
//    "spool":{"dir":"/abs/spool","name":"wac.epd","sidecar":true},
//    "host":"box-a"}   (the host it was made on; absent in specs written before it existed)
// A key not listed here is refused when read (the spec is read back as untrusted input: a row
// written into a shared store by anything but epdd, "command" or "program" say, runs nothing).
// A daemon runs a job only on an engine of its configuration, found by name: one that is a
// program's path is refused (engine_name_problem).
// Request (an item's analysis request; the engine is the job's):
//   {"fen":"...","chess960":false,"moves":["e2e4"],"limits":{...},"multipv":1,
//    "searchmoves":[],"new_game":"clear"}
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "uci/analysis.hpp"

namespace epdd::daemon {

// Where a job from the spool directory came from.
struct SpoolOrigin {
  std::string dir;       // the spool directory (absolute)
  std::string name;      // the file's name in inbox/
  bool sidecar = false;  // NAME.toml came with it
  bool operator==(const SpoolOrigin&) const = default;
};

struct JobSpec {
  std::string kind = "analyse";  // a registered job kind (daemon/job_kind.hpp)
  std::string input;   // the input file as it was named (for people: the bytes are in the store)
  // Further input files of a kind that reads several (book: PGN, Polyglot and EPD files), as named.
  std::vector<std::string> more_inputs;
  std::string engine;  // the engine's name in the configuration
  uci::SearchLimits limits;
  int multipv = 1;
  // ucinewgame before each position (clear) or never (keep); unset: the kind's default (EPD
  // kinds clear, annotate keeps the hash within a game and clears it once per game).
  std::optional<uci::NewGame> new_game;
  bool keep_existing = false;
  bool chess960 = false;
  bool ce_for_white = false;
  bool keep_keys = false;               // analyse: bm/am/dm kept, the engine's move in pm only
  bool counters_as_operations = false;  // FEN counters written as hmvc/fmvn
  // The kind's own settings with a value (JobKind::options: annotate's "judge", "from_ply"),
  // by key, as text checked by the kind's KindOption::check when they were read.
  std::map<std::string, std::string> options;
  // Where the daemon writes the results when the job is done (absolute); `epdd results` can
  // always write them again.
  std::optional<std::string> output;  // the EPD with the analysis
  std::optional<std::string> report;  // suite: the text report
  std::optional<std::string> json;    // suite: the JSON report
  std::optional<SpoolOrigin> spool;
  // The host the job was made on (workers.hpp this_host()): with a store shared by many hosts,
  // the files it writes (its outputs, a spool's moves) are written by a daemon of that host
  // only (jobs.hpp delivery_host). Empty in a spec written before it existed.
  std::string host;
};

std::string spec_to_json(const JobSpec& spec);
// Bad JSON or a missing/wrong/unknown key is a message naming the key, never an exception.
Expected<JobSpec, std::string> spec_from_json(std::string_view json);

// Why `engine` cannot name an engine of a daemon's configuration (it has a '/' or '\\': a
// program's path), or nothing. `submit` refuses such a job; `serve` fails one found in the store
// (a spec written by something else, or a one-shot run's of an epdd before version 5 of the
// store, which named its program), and never starts a program a job names.
std::optional<std::string> engine_name_problem(const std::string& engine);

// The request without its engine, cancel flag, game and timeout (the worker sets those).
std::string request_to_json(const uci::AnalysisRequest& request);
Expected<uci::AnalysisRequest, std::string> request_from_json(std::string_view json);

// Gives `limits` the default, movetime 1000, when it has no limit.
void default_limit(uci::SearchLimits& limits);

// "clear" / "keep".
const char* to_string(uci::NewGame new_game);

}  // namespace epdd::daemon
