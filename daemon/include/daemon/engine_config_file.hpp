// Engine configuration files: TOML read into uci::EngineConfig, strictly. A typo is an error
// with file:line:col, never a setting silently ignored; defaults live in uci/engine_config.hpp.
//
// The format (this comment is its reference):
//
//   # Timeouts for every engine unless an engine overrides them. Optional.
//   [timeouts]
//   handshake = 10000   # milliseconds, an integer from 0 to 2592000000 (30 days); the names:
//                       # handshake ready new_game search search_margin stop quit terminate write
//   scale = 1.0         # multiplies every timeout: a number > 0 and <= 1000 (integer or float)
//
//   [[engine]]                          # one table per engine; at least one
//   name = "stockfish"                  # required, unique (case-sensitive), not empty
//   command = "/usr/games/stockfish"    # required, not empty: an absolute path, or a name
//                                       # looked up in PATH (/usr/games is not on root's PATH)
//   args = ["--flag"]                   # optional array of strings, passed as they are (no shell)
//   working_directory = "/tmp"          # optional; absent or "": inherit ours
//   env = { SOME_VAR = "1" }            # optional table of strings, set on top of our environment
//   instances = 2                       # optional, default 1: an integer from 1 to 256
//   max_line = 1048576                  # optional, default 1048576: longest engine output line
//                                       # accepted, in bytes, from 1024 to 1073741824
//   restarts = { max = 3, window_seconds = 300 }  # optional (defaults shown): past `max`
//                                       # restarts (0 to 1000) within `window_seconds` (1 to
//                                       # 604800) an instance is unhealthy and fails fast
//   chess960_when_needed = true         # optional, default true: UCI_Chess960 for 960 positions
//   own_book_off = true                 # optional, default true: OwnBook false where offered
//
//   [engine.options]                    # UCI options, in the order written. Values: strings,
//   Threads = 1                         # integers (sent as decimal text) or booleans (sent as
//   Hash = 64                           # true/false); no floats, arrays or tables, no line
//   "Clear Hash" = true                 # breaks. A button takes true. Names are checked
//                                       # against the engine when it starts, not here; two names
//                                       # that differ only in case are an error here.
//
//   [engine.timeouts]                   # optional per-engine overrides, keys as in [timeouts];
//   search = 120000                     # the rest come from [timeouts], then the defaults
//
// `epdd serve` reads the same file, with four more tables (all optional):
//
//   [store]
//   location = "epdd.db"          # an SQLite file (relative paths are relative to this file's
//                                 # folder), or a PostgreSQL URL shared by daemons on many hosts:
//                                 # "postgresql://epdd@db.lan/epdd?sslmode=require" (password from
//                                 # PGPASSWORD, ~/.pgpass or a service file; never logged).
//                                 # [daemon] store = "..." is the older spelling of the same.
//
//   [daemon]
//   lease_seconds = 60            # how long a claim holds without renewal (2..86400); renewed
//                                 # every third of it while searching
//   poll_ms = 1000                # how often an idle daemon looks at the store and the spool
//   stop_deadline_seconds = 30    # SIGTERM/SIGINT: searches in flight may finish within this;
//                                 # then they are stopped and their positions put back
//   retries = 2                   # an engine's crash, hang or garbage: the search asked again
//                                 # this many times (0..10), then its items fail, every reason said
//
//   [spool]                       # a folder that takes files: inbox/ outbox/ done/ failed/
//   directory = "spool"
//   settle_seconds = 2            # a file is taken when unchanged (size, mtime) this long
//   kind = "analyse"              # the job settings for files dropped there; a sidecar
//   engine = "stockfish"          # NAME.toml beside NAME.epd overrides them with the same
//   movetime = 1000               # keys: kind ("analyse"/"suite"), engine (a name above),
//                                 # depth, nodes, movetime, mate, multipv, new_game
//                                 # ("clear"/"keep"), keep_existing, chess960, ce_for_white,
//                                 # keep_keys, counters ("keep"/"ops")
//
//   [logging]
//   level = "info"                # trace debug info warn error off (-v on the command line: debug)
//   file = "epdd.log"             # also to this file, rotated; absent: the console only
//   max_size_mb = 10              # rotate past this size
//   max_files = 5                 # rotated files kept
//   transcripts = false           # every line to and from each engine, at debug level
//
// Unknown keys are errors that list the keys allowed there. The first error in the file (by
// position) is reported; fix it and run again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "uci/analysis.hpp"
#include "daemon/job_spec.hpp"
#include "uci/engine_config.hpp"

namespace epdd::daemon {

// Where an engine configuration is wrong and why. `line` and `column` count from 1 and name the
// offending key or value; 0 when the error concerns the whole file (unreadable, no engine).
struct EngineConfigError {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;
  // "engines.toml:3:9: message"; "engines.toml: message" without a line.
  std::string to_string() const;
};


struct DaemonSettings {
  std::string store;  // absolute
  std::int64_t lease_ms = 60000;
  std::int64_t poll_ms = 1000;
  std::int64_t stop_deadline_ms = 30000;
  int retries = 2;
};

struct SpoolSettings {
  std::string directory;  // absolute
  std::int64_t settle_ms = 2000;
  JobSpec defaults;
};

struct LoggingSettings {
  std::string level = "info";
  std::optional<std::string> file;  // absolute
  std::size_t max_size_bytes = std::size_t{10} << 20;
  std::size_t max_files = 5;
  bool transcripts = false;
};

struct DaemonConfig {
  std::vector<uci::EngineConfig> engines;
  DaemonSettings daemon;
  std::optional<SpoolSettings> spool;
  LoggingSettings logging;
};

// The whole file for `epdd serve`: engines and the three tables above. Never throws.
Expected<DaemonConfig, EngineConfigError> parse_daemon_config(std::string_view toml_text, std::string_view file_name);
Expected<DaemonConfig, EngineConfigError> read_daemon_config(const std::string& path);

// A sidecar file: the job keys only, on top of `base`; limits given replace base's limits. A
// file's name (a kind's Path option: book's import = "leaves.epd") is taken relative to the
// directory of `relative_to`, the sidecar's own path, when it is given (as a [spool] table's
// relative to the configuration file).
Expected<JobSpec, EngineConfigError> parse_job_settings(std::string_view toml_text, std::string_view file_name,
                                                            const JobSpec& base, std::string_view relative_to = {});

// Reads every [[engine]] of a TOML document. `file_name` is only used in errors. Never throws.
Expected<std::vector<uci::EngineConfig>, EngineConfigError> parse_engine_configs(std::string_view toml_text,
                                                                                 std::string_view file_name);

// parse_engine_configs on the contents of `path`; a file that cannot be read is an error with
// line 0 that says why. Never throws.
Expected<std::vector<uci::EngineConfig>, EngineConfigError> read_engine_configs(const std::string& path);

// The engine named `name` in the file at `path` (empty name: the file's first engine). Errors
// are one line: the file's error (file:line:col), or "no engine 'X' in FILE; it has: a, b".
Expected<uci::EngineConfig, std::string> find_engine_config(const std::string& path, const std::string& name);

// A table of the configuration file and the keys the reader accepts in it: the very lists it
// checks keys against, for epdd.toml(5), which must document each (its generator fails on a key
// it has no text for). Names: "" (the top level), "timeouts", "engine", "engine.restarts",
// "engine.timeouts", "store", "daemon", "spool", "logging", and "sidecar" (a job's NAME.toml).
struct ConfigTable {
  std::string name;
  std::vector<std::string> keys;
};
std::vector<ConfigTable> config_tables();

// The engine used when no configuration file is given: Stockfish from Debian
// (/usr/games/stockfish) with Threads=1 (deterministic with node limits) and Hash=16.
uci::EngineConfig default_engine_config();

// The engine every command means by --config and --engine (one rule for all of them): with a
// configuration file, its engine named `engine` (the first one when empty); without, the
// built-in engine, whose program is `engine` when given (a path or a name on PATH, the engine's
// name its file name), sent epdd's defaults only where it declares them.
Expected<uci::EngineConfig, std::string> chosen_engine_config(const std::optional<std::string>& config_path,
                                                              const std::string& engine);

}  // namespace epdd::daemon
