#include "command_doc.hpp"

#include <algorithm>
#include <stdexcept>

#include <CLI/CLI.hpp>

namespace epdd::cli::docs {

namespace {

std::string join(const std::vector<std::string>& words, const std::string& between) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : between) + w;
  return out;
}

std::vector<std::string> split(const std::string& text, char at) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find(at, start)) != std::string::npos; start = end + 1)
    out.push_back(text.substr(start, end - start));
  out.push_back(text.substr(start));
  return out;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(' ') - first + 1);
}

// The values an option takes from a fixed set: an IsMember validator describes itself as
// "{a,b,c}" in the type name; a type_name "a|b|c" of lower-case words names them (not "DATE|AGE").
std::vector<std::string> choices_of(const CLI::Option& opt) {
  const std::string type = opt.get_type_name();
  const auto open = type.find('{');
  const auto close = type.find('}', open);
  if (open != std::string::npos && close != std::string::npos)
    return split(type.substr(open + 1, close - open - 1), ',');
  const std::string word = type.substr(0, type.find(':'));
  if (word.find('|') == std::string::npos) return {};
  const bool lower = std::all_of(word.begin(), word.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '|';
  });
  return lower ? split(word, '|') : std::vector<std::string>{};
}

OptionDoc describe_option(const CLI::Formatter& formatter, const CLI::Option& opt) {
  OptionDoc doc;
  doc.positional = opt.get_positional();
  doc.names = formatter.make_option_name(&opt, doc.positional);
  doc.value = trim(formatter.make_option_opts(&opt));
  doc.description = formatter.make_option_desc(&opt);
  if (!doc.positional) {
    for (const std::string& s : opt.get_snames()) doc.spellings.push_back("-" + s);
    for (const std::string& l : opt.get_lnames()) doc.spellings.push_back("--" + l);
  }
  doc.takes_value = opt.get_type_size() != 0;
  doc.repeats = opt.get_expected_max() >= CLI::detail::expected_max_vector_size;
  if (doc.takes_value) doc.choices = choices_of(opt);
  const std::string word = doc.value.substr(0, doc.value.find_first_of(" ="));
  // FILE (or a word naming it: "FILE|-"), text that may be a path, and a positional that is not
  // a number.
  doc.files = doc.takes_value && doc.choices.empty() &&
              (word.find("FILE") != std::string::npos || word == "TEXT" || (doc.positional && word != "N" && word != "X"));
  return doc;
}

const CLI::Formatter& formatter_of(const CLI::App& app) {
  const auto* formatter = dynamic_cast<const CLI::Formatter*>(app.get_formatter().get());
  if (!formatter) throw std::logic_error(app.get_name() + ": its help is not made by a CLI::Formatter");
  return *formatter;
}

// The options of `app` outside its option groups, by group as --help shows them: positionals
// apart, then "Options" (and any other group name given to add_option).
void describe_own_options(const CLI::App& app, CommandDoc& doc) {
  const CLI::Formatter& formatter = formatter_of(app);
  for (const CLI::Option* opt : app.get_options([](const CLI::Option* o) { return o->get_positional() && !o->get_group().empty(); }))
    doc.positionals.push_back(describe_option(formatter, *opt));
  for (const std::string& group : app.get_groups()) {
    OptionGroupDoc g{group, {}};
    for (const CLI::Option* opt : app.get_options([&group](const CLI::Option* o) { return o->get_group() == group && o->nonpositional(); }))
      g.options.push_back(describe_option(formatter, *opt));
    if (!group.empty() && !g.options.empty()) doc.groups.push_back(std::move(g));
  }
}

}  // namespace

std::string CommandDoc::command() const { return join(path, " "); }

std::string CommandDoc::page() const { return join(path, "-"); }

CommandDoc describe_command(const CLI::App& app, std::vector<std::string> parent_path) {
  CommandDoc doc;
  doc.path = std::move(parent_path);
  doc.path.push_back(app.get_name());
  doc.aliases = app.get_aliases();
  doc.description = app.get_description();
  const CLI::Formatter& formatter = formatter_of(app);
  std::string usage = formatter.make_usage(&app, doc.command());
  usage = usage.substr(usage.find(':') + 1);
  doc.usage = trim(usage.substr(0, usage.find('\n')));
  doc.footer = app.get_footer();
  describe_own_options(app, doc);
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (!sub->get_name().empty()) {
      doc.subcommands.push_back(describe_command(*sub, doc.path));
      continue;
    }
    // An option group: its options under its name, as --help's "[Option Group: NAME]".
    OptionGroupDoc g{sub->get_group(), {}};
    const CLI::Formatter& group_formatter = formatter_of(*sub);
    const auto listed = [sub](const CLI::Option* o) {
      return o->nonpositional() && !o->get_group().empty() && o != sub->get_help_ptr() && o != sub->get_help_all_ptr();
    };
    for (const CLI::Option* opt : sub->get_options(listed))
      g.options.push_back(describe_option(group_formatter, *opt));
    if (!g.options.empty()) doc.groups.push_back(std::move(g));
  }
  return doc;
}

}  // namespace epdd::cli::docs
