// Internal to epdd_docs: the command line as CLI11 defines it (cli::CommandLine), read once into
// plain data that the man pages and the bash completion are written from. Every text here is
// what `epdd ... --help` prints (the same formatter makes it), never a copy.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace epdd::cli::docs {

struct OptionDoc {
  std::string names;        // as --help lists them: "-o,--output", or a positional's "input"
  std::string value;        // as --help shows what follows the names: "FILE=epdd.db", "N ...", "" for a flag
  std::string description;  // as --help prints it, line breaks included
  bool positional = false;
  std::vector<std::string> spellings;  // what can be typed: "-o", "--output" (none for a positional)
  bool takes_value = false;
  bool repeats = false;                // takes any number of values (a positional list)
  std::vector<std::string> choices;    // the fixed set of values (IsMember, or a type_name "a|b|c")
  bool files = false;                  // its value names a file (FILE, or a positional of text)
};

struct OptionGroupDoc {
  std::string title;  // "Options", or an option group's name ("Engine")
  std::vector<OptionDoc> options;
};

struct CommandDoc {
  std::vector<std::string> path;  // {"epdd", "suite", "compare"}
  std::vector<std::string> aliases;
  std::string description;
  std::string usage;   // what --help prints after "Usage: "
  std::string footer;  // the text after the options, as --help prints it
  std::vector<OptionDoc> positionals;
  std::vector<OptionGroupDoc> groups;  // in --help's order
  std::vector<CommandDoc> subcommands;

  // "epdd suite compare"
  std::string command() const;
  // "epdd-suite-compare"
  std::string page() const;
};

// The command `app` (the whole command line for epdd's root) and its subcommands, recursively.
CommandDoc describe_command(const CLI::App& app, std::vector<std::string> parent_path = {});

}  // namespace epdd::cli::docs
