#include "daemon/cli.hpp"

int main(int argc, char** argv) { return epdd::daemon::run_cli(argc, argv); }
