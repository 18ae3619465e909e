// For tests of the commands in-process: a command's exit status and what it printed.
#pragma once

#include <sstream>
#include <string>

namespace epdd::test {

struct CommandRun {
  int status;
  std::string out, err;
};

// Runs `command(options, out, err)` (a cli::run_* function) and keeps what it printed.
template <class Options, class Command>
CommandRun run(Command command, const Options& options) {
  std::ostringstream out, err;
  const int status = command(options, out, err);
  return {status, out.str(), err.str()};
}

}  // namespace epdd::test
