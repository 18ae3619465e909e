// Internal: the command-line definitions of the analysis commands (analyse, suite), kept apart
// from cli.cpp so that each file stays readable.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "daemon/analyse_command.hpp"
#include "daemon/suite_command.hpp"

namespace epdd::daemon::detail {

void add_analyse(CLI::App& app, AnalyseOptions& o, int& status);
void add_suite(CLI::App& app, SuiteOptions& o, std::vector<std::string>& compare_files, int& status);

}  // namespace epdd::daemon::detail
