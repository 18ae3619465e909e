// The `epdd` command line: every subcommand, its options and its help.
#pragma once

#include <memory>

namespace CLI {
class App;
}

namespace epdd::cli {

// The whole command line as CLI11 defines it, bound to the option values its commands' callbacks
// read. `epdd` parses with it; epdd_docs walks it, unparsed, to write the man pages and the bash
// completion, so that --help, the pages and the completion come from one definition.
class CommandLine {
 public:
  CommandLine();
  ~CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  CLI::App& app();
  // The exit status the command that ran has set (0 before one ran).
  int status() const;

 private:
  struct Options;
  std::unique_ptr<Options> options_;
  std::unique_ptr<CLI::App> app_;
};

// Parses the arguments, runs the subcommand and returns the process exit status.
int run_cli(int argc, char** argv);

}  // namespace epdd::cli
