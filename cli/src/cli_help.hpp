// The help of every command as a person reads it: an option's value is a word (N, X, FILE, or
// the choices its type_name names), without CLI11's validator internals ("INT:INT in [1 - 20]",
// "ENUM:value in {...}"), without "{false}" after a negated flag, and "(required)" in words.
#pragma once

#include <set>
#include <string>

#include <CLI/CLI.hpp>

namespace epdd::cli::detail {

class HelpFormatter : public CLI::Formatter {
 public:
  std::string make_option_name(const CLI::Option* opt, bool positional) const override {
    std::string name = CLI::Formatter::make_option_name(opt, positional);
    // A negated flag ("!--no-moves") is listed with its default value in braces.
    for (auto open = name.find('{'); open != std::string::npos; open = name.find('{')) {
      const auto close = name.find('}', open);
      name.erase(open, close == std::string::npos ? std::string::npos : close - open + 1);
    }
    return name;
  }

  std::string make_option_opts(const CLI::Option* opt) const override {
    if (!opt->get_option_text().empty()) return " " + opt->get_option_text();
    if (opt->get_type_size() == 0) return "";
    std::string out = " " + value_word(opt);
    if (!opt->get_default_str().empty()) out += "=" + opt->get_default_str();
    if (opt->get_expected_max() == CLI::detail::expected_max_vector_size) out += " ...";
    if (opt->get_required()) out += " (required)";
    return out;
  }

 private:
  // "INT:INT in [1 - 20]" -> "N"; text that names a file -> FILE; a type_name given on purpose
  // ("clear|keep") stays.
  static std::string value_word(const CLI::Option* opt) {
    const std::string& type_name = opt->get_type_name();
    const std::string type = type_name.substr(0, type_name.find(':'));
    if (type == "INT" || type == "UINT") return "N";
    if (type == "FLOAT") return "X";
    if (type != "TEXT") return type;
    static const std::set<std::string> kFiles = {"input", "inputs", "file", "files",  "reports", "output",
                                                 "json",  "report", "store", "config", "html"};
    const std::string name = opt->get_lnames().empty() ? opt->get_name(true, false) : opt->get_lnames().front();
    if (kFiles.count(name)) return "FILE";
    if (name == "engine") return "NAME";
    return type;
  }
};

}  // namespace epdd::cli::detail
