// `epdd check-engine`: a UCI compliance run against one engine, printing pass or fail per step,
// so a user sees before a long job whether an engine will work with epdd, and how it does not.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "uci/options.hpp"

namespace epdd::cli {

struct CheckEngineOptions {
  std::optional<std::string> config;  // engines TOML file
  std::optional<std::string> engine;  // the engine's name in it (default: the embedded Stockfish)
  std::vector<std::string> command;   // or a command line: program and arguments
  std::vector<uci::OptionSetting> options;  // --option NAME=VALUE, over the configuration's
  std::vector<std::string> engine_args;     // --engine-arg, after the configuration's arguments
  double timeout_scale = 1.0;         // multiplies the engine's timeouts
  bool verbose = false;               // log the engine's stderr and every warning as it happens
};

// Exit status: 0 every step passed, 1 a step failed, 2 bad arguments or configuration.
int run_check_engine(const CheckEngineOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
