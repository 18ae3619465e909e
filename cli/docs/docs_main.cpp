// epdd_docs: writes, at build time, what is made from epdd's command definitions and its
// configuration parser: a man page per command, epdd.toml(5) and the bash completion. Not
// installed; its outputs are.
//
//   epdd_docs OUTDIR EXAMPLE_TOML
//     OUTDIR/man1/epdd.1, OUTDIR/man1/epdd-COMMAND[-SUBCOMMAND].1 ...
//     OUTDIR/man5/epdd.toml.5   (keys from the parser's tables, comments and example from EXAMPLE_TOML)
//     OUTDIR/completions/epdd   (bash)
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>

#include "cli/cli.hpp"
#include "command_doc.hpp"
#include "completion.hpp"
#include "config_page.hpp"
#include "man_page.hpp"

namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A directory emptied of what an earlier run wrote (a command removed leaves no page behind).
fs::path fresh_directory(const fs::path& path) {
  fs::remove_all(path);
  fs::create_directories(path);
  return path;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: epdd_docs OUTDIR EXAMPLE_TOML\n";
    return 2;
  }
  try {
    const fs::path out = argv[1];
    epdd::cli::CommandLine command_line;
    const auto root = epdd::cli::docs::describe_command(command_line.app());
    const fs::path man1 = fresh_directory(out / "man1");
    for (const auto& page : epdd::cli::docs::command_pages(root, EPDD_VERSION, EPDD_RELEASE_DATE)) {
      write_file(man1 / (page.name + ".1"), page.text);
      // Another name of a command (analyze): a link to its compressed page, as Debian's policy
      // prefers to a .so page.
      for (const std::string& alias : page.aliases) fs::create_symlink(page.name + ".1.gz", man1 / (alias + ".1.gz"));
    }
    const fs::path man5 = fresh_directory(out / "man5");
    const std::string example = read_file(argv[2]);
    const auto config = epdd::cli::docs::config_page(example, EPDD_VERSION, EPDD_RELEASE_DATE);
    if (!config) {
      std::cerr << argv[2] << ": " << config.error() << '\n';
      return 1;
    }
    write_file(man5 / "epdd.toml.5", *config);
    const fs::path completions = fresh_directory(out / "completions");
    write_file(completions / "epdd", epdd::cli::docs::bash_completion(root));
  } catch (const std::exception& e) {
    std::cerr << "epdd_docs: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
