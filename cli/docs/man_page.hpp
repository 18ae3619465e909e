// Internal to epdd_docs: a man page (section 1) per command, written from its definition.
#pragma once

#include <string>
#include <vector>

#include "command_doc.hpp"

namespace epdd::cli::docs {

struct ManPage {
  std::string name;  // "epdd-suite": the file is NAME.1
  std::string text;  // roff source (man(7) macros)
  std::vector<std::string> aliases;  // other names of the page ("epdd-analyze"): links to NAME.1
};

// Sections: NAME, SYNOPSIS, DESCRIPTION (the description and the footer's prose), OPTIONS (the
// positionals, the options, each option group a subsection; names and values as --help shows
// them), COMMANDS (the subcommands of a group), EXIT STATUS (the footer's "Exit status:"),
// EXAMPLES (its "Examples:"), SEE ALSO (the parent, the subcommands, epdd.toml(5)).
// `date` is the .TH date (the changelog's latest entry, YYYY-MM-DD; empty: none).
ManPage command_page(const CommandDoc& command, const std::string& version, const std::string& date = "");

// The page of `root` and of every command below it.
std::vector<ManPage> command_pages(const CommandDoc& root, const std::string& version, const std::string& date = "");

}  // namespace epdd::cli::docs
