// `epdd serve`: the daemon. Engines and their pools from the configuration file, jobs from the
// store (submitted with `epdd submit`, dropped into the spool directory, or left by an
// interrupted one-shot command with the same engine), results committed to the store and
// written where each job says. Runs until SIGTERM or SIGINT; SIGHUP re-reads the configuration.
#pragma once

#include <string>

namespace epdd::daemon {

struct ServeOptions {
  std::string config;
  bool verbose = false;  // log level debug, whatever the file says
};

// Exit status: 0 stopped by a signal, 2 a configuration or store that cannot be used, 3 no
// engine of the configuration could be started, 1 a store failure while running.
int run_serve(const ServeOptions& options);

}  // namespace epdd::daemon
