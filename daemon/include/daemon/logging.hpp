// Logging for the epdd executable (spdlog, to stderr): one place that sets the format and the
// level, and the sink through which engine sessions report engine stderr, restarts and
// problems, each line tagged with the engine's name.
#pragma once

#include "uci/engine_config.hpp"

namespace epdd::daemon {

enum class Verbosity { Quiet, Normal, Verbose };

// Sets up the default logger: "[time] [level] message" on stderr. Quiet shows errors only;
// Normal warnings and errors; Verbose everything, engine stderr included.
void setup_logging(Verbosity verbosity);

// Forwards engine-layer reports to the logger as "engine NAME: message". Thread-safe.
uci::LogSink engine_log_sink();

}  // namespace epdd::daemon
