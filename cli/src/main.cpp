#include "cli/cli.hpp"

int main(int argc, char** argv) { return epdd::cli::run_cli(argc, argv); }
