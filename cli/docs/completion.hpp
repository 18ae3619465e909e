// Internal to epdd_docs: the bash completion script, written from the command definitions.
#pragma once

#include <string>

#include "command_doc.hpp"

namespace epdd::cli::docs {

// A script for Debian's bash-completion layout (share/bash-completion/completions/epdd) that
// defines _epdd and registers it with `complete -F`. It completes commands and subcommands (and
// their aliases), each command's options, the values of options with a fixed set (IsMember, a
// type_name "a|b|c"), and file names for file options and positional inputs. Plain bash: it
// uses none of the bash-completion package's helpers.
std::string bash_completion(const CommandDoc& root);

}  // namespace epdd::cli::docs
