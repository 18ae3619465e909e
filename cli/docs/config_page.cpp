#include "config_page.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include "daemon/engine_config_file.hpp"
#include "daemon/job_kind.hpp"
#include "roff.hpp"

namespace epdd::cli::docs {

namespace {

// What the example says about a table or a key.
struct Entry {
  std::string value;  // "60", "\"epdd.db\"" (empty for a table)
  std::vector<std::string> text;
};

struct Example {
  std::vector<std::string> tables;  // in the example's order
  std::map<std::string, std::string> headers;  // "engine" -> "[[engine]]"
  std::map<std::string, Entry> table_text;
  std::map<std::string, std::map<std::string, Entry>> keys;  // table -> key -> entry
};

std::string rtrim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

// The comment that starts at `column` of lines[i] ("  # text"), with the lines after it that are
// only a comment whose '#' is in that column.
std::vector<std::string> comment_from(const std::vector<std::string>& lines, std::size_t i, std::size_t column) {
  std::vector<std::string> text;
  const auto take = [&](const std::string& line) {
    const auto start = line.find_first_not_of(' ', column + 1);
    text.push_back(start == std::string::npos ? std::string() : rtrim(line.substr(start)));
  };
  take(lines[i]);
  for (std::size_t j = i + 1; j < lines.size(); ++j) {
    const std::string& line = lines[j];
    if (line.size() <= column || line[column] != '#' || line.find_first_not_of(' ') != column) break;
    take(line);
  }
  return text;
}

// The column of the comment after a value ("key = 1   # text"): two spaces, then '#'.
std::optional<std::size_t> comment_column(const std::string& line, std::size_t from) {
  const auto at = line.find("  #", from);
  if (at == std::string::npos) return std::nullopt;
  return line.find('#', at);
}

Example read_example(const std::string& toml) {
  static const std::regex table_line(R"(^(# )?\[\[?([a-z_.]+)\]\]?.*$)");
  static const std::regex key_line(R"(^(# )?([A-Za-z_0-9]+) = (.*)$)");
  Example example;
  const std::vector<std::string> lines = lines_of(toml);
  std::string table;
  bool in_table = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (std::regex_match(lines[i], m, table_line)) {
      table = m[2];
      in_table = true;
      if (std::find(example.tables.begin(), example.tables.end(), table) == example.tables.end())
        example.tables.push_back(table);
      const std::string header = lines[i].substr(m[1].length());
      example.headers[table] = header.substr(0, header.find(']') + (header.rfind("[[", 0) == 0 ? 2 : 1));
      const auto column = comment_column(lines[i], static_cast<std::size_t>(m.position(2)));
      if (column) example.table_text[table].text = comment_from(lines, i, *column);
    } else if (in_table && std::regex_match(lines[i], m, key_line)) {
      const std::size_t value_at = static_cast<std::size_t>(m.position(3));
      const auto column = comment_column(lines[i], value_at);
      Entry entry;
      entry.value = rtrim(lines[i].substr(value_at, column ? *column - value_at : std::string::npos));
      if (column) entry.text = comment_from(lines, i, *column);
      example.keys[table].emplace(m[2], std::move(entry));
    }
  }
  return example;
}

// The keys a job kind adds, documented by the kind's own help (what --help says of its option).
std::map<std::string, Entry> kind_keys() {
  std::map<std::string, Entry> keys;
  for (const daemon::KindFlag& flag : daemon::all_kind_flags())
    keys.emplace(std::string(flag.key), Entry{"true", lines_of(std::string(flag.help))});
  for (const daemon::KindOption& option : daemon::all_kind_options()) {
    const bool flag = option.type == daemon::KindOption::Type::Flag;
    keys.emplace(std::string(option.key),
                 Entry{flag ? "true" : std::string(option.type_name), lines_of(std::string(option.help))});
  }
  return keys;
}

void write_text(std::ostream& out, const std::vector<std::string>& text) {
  for (const std::string& line : text) out << roff_line(line) << '\n';
}

void write_key(std::ostream& out, const std::string& key, const Entry& entry) {
  out << ".TP\n" << roff_bold(key) << " = " << roff_italic(entry.value) << '\n';
  write_text(out, entry.text);
}

constexpr const char* kDescription = R"(.SH DESCRIPTION
The configuration file is TOML. \fBepdd serve \-\-config\fR \fIFILE\fR reads all of it; the
\fB\-\-config\fR option of the commands that start engines (\fBanalyse\fR, \fBsuite\fR,
\fBannotate\fR, \fBbook backsolve\fR, \fBcheck\-engine\fR) reads its \fB[timeouts]\fR and
\fB[[engine]]\fR tables, and \fBsubmit\fR, \fBstatus\fR, \fBcancel\fR, \fBresults\fR and
\fBpurge\fR find the store there.
.PP
Relative paths are relative to the file's folder. An unknown key is an error that names the
nearest allowed key and lists them all; the first error of the file is reported with
file:line:column, and the daemon refuses to start (on SIGHUP, it keeps the old configuration).
)";

}  // namespace

Expected<std::string, std::string> config_page(const std::string& example_toml, const std::string& version,
                                               const std::string& date) {
  Example example = read_example(example_toml);
  const std::map<std::string, Entry> kinds = kind_keys();
  std::map<std::string, std::vector<daemon::ConfigTable>::size_type> index;
  const std::vector<daemon::ConfigTable> tables = daemon::config_tables();
  for (std::size_t i = 0; i < tables.size(); ++i) index[tables[i].name] = i;
  std::ostringstream out;
  out << ".\\\" Generated by epdd_docs from the configuration reader's keys and examples/epdd.toml: edit those.\n"
      << ".TH EPDD.TOML 5 \"" << roff_escape(date) << "\" \"epdd " << roff_escape(version) << "\" \"epdd manual\"\n.nh\n.ad l\n"
      << ".SH NAME\nepdd.toml \\- the configuration of epdd's daemon and engines\n"
      << ".SH SYNOPSIS\n/etc/epdd/epdd.toml\n" << kDescription << ".SH TABLES\n";
  // Every table of the top level is a section of its own, in the example's order.
  for (const std::string& name : tables[index.at("")].keys)
    if (std::find(example.tables.begin(), example.tables.end(), name) == example.tables.end())
      return unexpected("the reader's table [" + name + "] has no section in the example");
  for (const std::string& name : example.tables) {
    if (!index.count(name)) return unexpected("the example's table [" + name + "] is not one the reader knows");
    const daemon::ConfigTable& table = tables[index.at(name)];
    out << ".SS " << roff_escape(example.headers[name]) << "\n";
    write_text(out, example.table_text[name].text);
    if (name == "engine.timeouts") {
      if (table.keys != tables[index.at("timeouts")].keys) return unexpected(std::string("[engine.timeouts] has keys [timeouts] has not"));
      continue;  // its keys are [timeouts]'s, which the text says
    }
    for (const std::string& key : table.keys) {
      // Every key has its line in the example (a job kind's too: a sidecar's writer learns its
      // keys there); a kind's key is documented here by the kind's own help, the fuller text.
      const auto& own = example.keys[name];
      if (!own.count(key)) return unexpected("key '" + key + "' of [" + name + "] has no line in the example");
      write_key(out, key, kinds.count(key) ? kinds.at(key) : own.at(key));
    }
  }
  // A sidecar takes [spool]'s job keys.
  out << ".SS A job's sidecar file\nA file NAME.toml beside a file NAME.epd dropped into the spool sets that job's\n"
         "settings with the keys of \\fB[spool]\\fR except \\fBdirectory\\fR and \\fBsettle_seconds\\fR:\n";
  std::string sidecar;
  const auto& spool = tables[index.at("spool")].keys;
  if (spool.size() != tables[index.at("sidecar")].keys.size() + 2)
    return unexpected(std::string("[spool] has job keys a sidecar has not, or the other way round"));
  for (const std::string& key : tables[index.at("sidecar")].keys) {
    if (std::find(spool.begin(), spool.end(), key) == spool.end() || key == "directory" || key == "settle_seconds")
      return unexpected("sidecar key '" + key + "' is not a job key of [spool]");
    sidecar += (sidecar.empty() ? "" : ", ") + roff_bold(key);
  }
  out << sidecar << ".\n";
  out << ".SH EXAMPLE\n.nf\n";
  for (const std::string& line : lines_of(example_toml)) out << roff_line(line) << '\n';
  out << ".fi\n.SH SEE ALSO\n" << roff_bold("epdd") << "(1),\n" << roff_bold("epdd-serve") << "(1),\n"
      << roff_bold("epdd-check-engine") << "(1)\n";
  return out.str();
}

}  // namespace epdd::cli::docs
