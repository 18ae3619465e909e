// Logging for the epdd executable (spdlog, to stderr): one place that sets the format and the
// level, and the sink through which engine sessions report engine stderr, restarts and
// problems, each line tagged with the engine's name.
#pragma once

#include <string>

#include "core/expected.hpp"
#include "daemon/engine_config_file.hpp"
#include "uci/engine_config.hpp"

namespace epdd::daemon {

enum class Verbosity { Quiet, Normal, Verbose };

// Sets up the default logger: "[time] [level] message" on stderr. Quiet shows errors only;
// Normal warnings and errors; Verbose everything, engine stderr included.
void setup_logging(Verbosity verbosity);

// The daemon's logger: the console and, when the settings name a file, that file rotated past
// max_size (max_files kept). Level from the settings; debug when `verbose`. Flushed at info, so
// a job's state changes are on disk as they happen.
Expected<void, std::string> setup_daemon_logging(const LoggingSettings& settings, bool verbose);

// Forwards engine-layer reports to the logger as "engine NAME: message". Thread-safe.
uci::LogSink engine_log_sink();

}  // namespace epdd::daemon
