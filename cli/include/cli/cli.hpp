// The `epdd` command line: every subcommand, its options and its help.
#pragma once

namespace epdd::cli {

// Parses the arguments, runs the subcommand and returns the process exit status.
int run_cli(int argc, char** argv);

}  // namespace epdd::cli
