#include <csignal>
#include <cstdio>
#include <string>

#include "cli/cli.hpp"
#include "daemon/files.hpp"

int main(int argc, char** argv) {
  // A reader that goes away (`epdd pgn export - -o - | head`) is a write error, told and exit
  // status 2, never a silent death by SIGPIPE halfway through a store's transaction.
  std::signal(SIGPIPE, SIG_IGN);
  epdd::daemon::route_standard_output();
  int status = epdd::cli::run_cli(argc, argv);
  // Output that never reached standard output is no success (the commands write there through
  // std::cout; a closed pipe or a full disk shows only here).
  if (std::string message; !epdd::daemon::standard_output_ok(message)) {
    std::fprintf(stderr, "epdd: %s\n", message.c_str());
    if (status == 0 || status == 1) status = 2;
  }
  return status;
}
