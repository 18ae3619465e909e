// Logging for the epdd executable (spdlog, to stderr): one place that sets the format and the
// level, and the sink through which engine sessions report engine stderr, restarts and
// problems, each line tagged with the engine's name.
#pragma once

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/text.hpp"
#include "daemon/engine_config_file.hpp"
#include "uci/engine_config.hpp"

namespace epdd::daemon {

// Outside text (file names, paths, input excerpts, engine output) reaches the log, `epdd status`,
// the spool's .error files and the commands' messages. Two rules keep a name from forging a
// line there (a file named "x\n[2026-...] [info] job 9: finished") or a terminal escape from
// acting:
//   - where outside text is put into a message, it is core::escaped() (once, so that two names
//     never read the same);
//   - every sink passes what it writes through one_line() (the log: each record is one line) or
//     safe_lines() (files and messages of several lines): a safety net for text that was not
//     escaped where it was built, and a no-op on text that was.
//
// one_line: core::one_line (core/text.hpp), the same text rule for every module.
using core::one_line;
// one_line() of each line of `text`; the line breaks stay.
std::string safe_lines(std::string_view text);

enum class Verbosity { Quiet, Normal, Verbose };

// Sets up the default logger: "[time] [level] message" on stderr, the message through one_line(). Quiet shows errors only;
// Normal warnings and errors; Verbose everything, engine stderr included.
void setup_logging(Verbosity verbosity);

// The daemon's logger: the console and, when the settings name a file, that file rotated past
// max_size (max_files kept). Level from the settings; debug when `verbose`. Flushed at info, so
// a job's state changes are on disk as they happen.
Expected<void, std::string> setup_daemon_logging(const LoggingSettings& settings, bool verbose);

// Forwards engine-layer reports to the logger as "engine NAME: message". Thread-safe.
uci::LogSink engine_log_sink();

}  // namespace epdd::daemon
