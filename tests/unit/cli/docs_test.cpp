// epdd_docs's writers: roff that prints the text as written, and epdd.toml(5), which must
// document every key the configuration reader accepts and show an example it accepts (issue 22).
// The keys are learnt from the reader itself, by planting an unknown key in each table and
// reading the "allowed: ..." list of its error, not from the lists the page is made from.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "config_page.hpp"
#include "daemon/engine_config_file.hpp"
#include "roff.hpp"

namespace {

using epdd::cli::docs::config_page;
using epdd::cli::docs::roff_line;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t end; (end = list.find(", ", start)) != std::string::npos; start = end + 2)
    out.push_back(list.substr(start, end - start));
  out.push_back(list.substr(start));
  return out;
}

// The keys the reader allows where `document` has the unknown key "bogus_key".
std::vector<std::string> allowed_keys(const std::string& document, bool sidecar = false) {
  const auto error = sidecar ? epdd::daemon::parse_job_settings(document, "x.toml", {}).error().message
                             : epdd::daemon::parse_daemon_config(document, "x.toml").error().message;
  INFO(error);
  REQUIRE(error.find("unknown") != std::string::npos);
  REQUIRE(error.find("'bogus_key'") != std::string::npos);
  const auto at = error.find("; allowed: ");
  REQUIRE(at != std::string::npos);
  return split_list(error.substr(at + 11));
}

// The page's keys by its subsection: ".SS [daemon]" then ".TP" "\fBkey\fR = ...".
std::map<std::string, std::set<std::string>> documented_keys(const std::string& page) {
  std::map<std::string, std::set<std::string>> keys;
  std::string section;
  bool after_tp = false;
  for (const std::string& line : lines_of(page)) {
    if (line.rfind(".SS ", 0) == 0) section = line.substr(4);
    if (after_tp && line.rfind("\\fB", 0) == 0) keys[section].insert(line.substr(3, line.find("\\fR") - 3));
    after_tp = line == ".TP";
  }
  return keys;
}

// The roff of the page's EXAMPLE (.nf to .fi), as the text it prints.
std::string example_of(const std::string& page) {
  const auto start = page.find(".SH EXAMPLE\n.nf\n");
  REQUIRE(start != std::string::npos);
  const auto end = page.find("\n.fi\n", start);
  std::string text;
  for (std::string line : lines_of(page.substr(start + 16, end - start - 16))) {
    if (line.rfind("\\&", 0) == 0) line.erase(0, 2);
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"\\(rs", "\\"}, {"\\-", "-"}, {"\\(aq", "'"}, {"\\(ga", "`"}, {"\\(ha", "^"}, {"\\(ti", "~"}})
      for (auto at = line.find(from); at != std::string::npos; at = line.find(from, at + to.size()))
        line.replace(at, from.size(), to);
    text += line + "\n";
  }
  return text;
}

const std::string kEngine = "[[engine]]\nname = \"e\"\ncommand = \"/bin/true\"\n";

}  // namespace

TEST_CASE("roff: text is escaped so that it prints as written", "[cli][docs]") {
  const auto [text, roff] = GENERATE(table<std::string, std::string>({
      {"--json FILE", "\\-\\-json FILE"},
      {".tar files", "\\&.tar files"},
      {"'quoted' and `ticks`", "\\(aqquoted\\(aq and \\(gaticks\\(ga"},
      {"a\\b", "a\\(rsb"},
      {"x^2 ~ y", "x\\(ha2 \\(ti y"},
      {"plain text.", "plain text."},
  }));
  CHECK(roff_line(text) == roff);
}

TEST_CASE("epdd.toml(5) documents every key the configuration reader accepts, in its table", "[cli][docs]") {
  const std::string page = read_file(EPDD_DOCS_DIR "/man5/epdd.toml.5");
  auto documented = documented_keys(page);
  const std::vector<std::pair<std::string, std::string>> tables = {
      {"[timeouts]", kEngine + "[timeouts]\nbogus_key = 1\n"},
      {"[[engine]]", kEngine + "bogus_key = 1\n"},
      {"[engine.restarts]", kEngine + "restarts = { bogus_key = 1 }\n"},
      {"[store]", kEngine + "[store]\nbogus_key = 1\n"},
      {"[daemon]", kEngine + "[daemon]\nbogus_key = 1\n"},
      {"[spool]", kEngine + "[spool]\ndirectory = \"s\"\nbogus_key = 1\n"},
      {"[logging]", kEngine + "[logging]\nbogus_key = 1\n"},
  };
  std::size_t checked = 0;
  for (const auto& [section, document] : tables) {
    for (const std::string& key : allowed_keys(document)) {
      INFO(section << " " << key);
      CHECK(documented[section].count(key) == 1);
      ++checked;
    }
  }
  // [engine.timeouts] takes [timeouts]'s keys, and the page says so.
  CHECK(allowed_keys(kEngine + "[engine.timeouts]\nbogus_key = 1\n") == allowed_keys(kEngine + "[timeouts]\nbogus_key = 1\n"));
  CHECK(page.find(".SS [engine.timeouts]\nthis engine\\(aqs own timeouts: the keys of [timeouts]") != std::string::npos);
  // The top level's keys are the tables, each a section of the page.
  for (const std::string& table : allowed_keys("bogus_key = 1\n" + kEngine)) {
    INFO(table);
    CHECK((documented.count("[" + table + "]") + documented.count("[[" + table + "]]")) == 1);
  }
  // A sidecar's keys are listed.
  const auto sidecar_at = page.find(".SS A job's sidecar file");
  REQUIRE(sidecar_at != std::string::npos);
  for (const std::string& key : allowed_keys("bogus_key = 1\n", true)) {
    INFO("sidecar " << key);
    CHECK(page.find("\\fB" + key + "\\fR", sidecar_at) != std::string::npos);
  }
  CHECK(checked > 60);
}

TEST_CASE("epdd.toml(5)'s example is examples/epdd.toml, and the reader accepts it", "[cli][docs]") {
  const std::string page = read_file(EPDD_DOCS_DIR "/man5/epdd.toml.5");
  const std::string example = example_of(page);
  CHECK(example == read_file(EPDD_SOURCE_DIR "/examples/epdd.toml"));
  const auto config = epdd::daemon::parse_daemon_config(example, "/etc/epdd/epdd.toml");
  INFO((config ? std::string() : config.error().to_string()));
  REQUIRE(config);
  CHECK(config->engines.size() == 2);
}

TEST_CASE("epdd.toml(5) is not made from an example that leaves a key undocumented", "[cli][docs]") {
  std::string example = read_file(EPDD_SOURCE_DIR "/examples/epdd.toml");
  REQUIRE(config_page(example, "0"));
  const auto without = [&example](const std::string& line) {
    std::string copy = example;
    const auto at = copy.find(line);
    REQUIRE(at != std::string::npos);
    copy.erase(at, copy.find('\n', at) - at + 1);
    return copy;
  };
  const auto no_poll = config_page(without("poll_ms = 1000"), "0");
  REQUIRE_FALSE(no_poll);
  CHECK(no_poll.error() == "key 'poll_ms' of [daemon] has no line in the example");
  const auto no_max = config_page(without("# max = 3"), "0");
  REQUIRE_FALSE(no_max);
  CHECK(no_max.error() == "key 'max' of [engine.restarts] has no line in the example");
  // A job kind's key too (issue 39, item 10: none of them was in the example).
  const auto no_judge = config_page(without("# judge = "), "0");
  REQUIRE_FALSE(no_judge);
  CHECK(no_judge.error() == "key 'judge' of [spool] has no line in the example");
  const auto no_logging = config_page(without("[logging]"), "0");
  REQUIRE_FALSE(no_logging);
}
