// Export format on games with comments, NAGs, nested variations, a setup position and long tag
// values: byte for byte against golden files, and line by line against the standard's rules.
#include <cstdlib>
#include <fstream>

#include "pgn/tags.hpp"
#include "pgn_test_support.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

const std::filesystem::path kGolden = std::filesystem::path(EPDD_GOLDEN_DIR) / "pgn";

std::string export_all(const std::string& text, bool reduced) {
  pgn::Diagnostics d;
  pgn::ExportOptions o;
  o.reduced = reduced;
  std::string out;
  for (const auto& g : pgn::read_games(text, d)) pgn::append_game(out, g, o);
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
    lines.push_back(text.substr(start, nl - start));
  return lines;
}

std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// `[Name "value"]` exactly: name of letters, digits, '_'; one space; value with \" and \\ only.
bool tag_name(const std::string& line, std::string& name) {
  if (line.size() < 5 || line.front() != '[' || line.back() != ']' || line[line.size() - 2] != '"') return false;
  const std::size_t space = line.find(' ');
  if (space == std::string::npos || line[space + 1] != '"') return false;
  name = line.substr(1, space - 1);
  if (name.empty() || !std::all_of(name.begin(), name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }))
    return false;
  const std::string value = line.substr(space + 2, line.size() - space - 4);
  for (std::size_t k = 0; k < value.size(); ++k) {
    if (value[k] == '"') return false;
    if (value[k] == '\\' && (++k == value.size() || (value[k] != '"' && value[k] != '\\'))) return false;
  }
  return true;
}

// "12..." or "(12...": a Black move number.
bool is_black_move_number(std::string w) {
  if (!w.empty() && w.front() == '(') w.erase(0, 1);
  const std::size_t dots = w.find("...");
  return dots != std::string::npos && dots > 0 && dots + 3 == w.size() &&
         std::all_of(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(dots), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The export-format rules of the standard, checked on every game of a text.
void check_rules(const std::string& text, bool reduced) {
  INFO(text);
  REQUIRE(text.find('\r') == std::string::npos);
  REQUIRE(text.find('\t') == std::string::npos);
  const auto lines = lines_of(text);

  std::size_t i = 0;
  while (i < lines.size()) {
    while (i < lines.size() && !lines[i].empty() && lines[i][0] == '%') ++i;  // escape lines
    std::vector<std::string> names;
    for (std::string name; i < lines.size() && tag_name(lines[i], name); ++i) names.push_back(name);
    REQUIRE(names.size() >= 7);
    for (std::size_t k = 0; k < 7; ++k) CHECK(names[k] == pgn::kSevenTagRoster[k]);
    CHECK(std::is_sorted(names.begin() + 7, names.end()));
    if (reduced)
      for (std::size_t k = 7; k < names.size(); ++k)  // only what defines the start position
        CHECK((names[k] == "FEN" || names[k] == "SetUp" || names[k] == "Variant"));
    REQUIRE(i < lines.size());
    CHECK(lines[i++].empty());  // one blank line after the tags
    bool previous_interrupts = true;  // the start of the movetext
    for (; i < lines.size() && !lines[i].empty(); ++i) {
      const std::string& l = lines[i];
      CHECK(l.front() != ' ');
      CHECK(l.back() != ' ');
      const auto words = words_of(l);
      if (words.size() > 1) CHECK(l.size() < 80);  // only a single over-long token may exceed
      for (const auto& w : words) {
        if (w.front() == ';') {  // a rest-of-line comment: the rest of the line is its text
          previous_interrupts = true;
          break;
        }
        const bool black_number = is_black_move_number(w);
        if (black_number) CHECK((previous_interrupts || w.front() == '('));
        previous_interrupts = w.back() == '}' || w.back() == ')';
        if (reduced) CHECK(w.find_first_of("{}();$") == std::string::npos);
      }
    }
    REQUIRE(i < lines.size());
    CHECK(lines[i++].empty());  // one blank line after the movetext
  }
}

void golden(const std::string& name) {
  const std::string input = test::read_file(kGolden / (name + ".pgn"));
  for (const bool reduced : {false, true}) {
    const std::string out = export_all(input, reduced);
    const auto expected_path = kGolden / (name + (reduced ? ".reduced.pgn" : ".export.pgn"));
    if (std::getenv("EPDD_UPDATE_GOLDEN")) std::ofstream(expected_path, std::ios::binary) << out;
    INFO(expected_path.string());
    CHECK(out == test::read_file(expected_path));
    check_rules(out, reduced);
    // Export is a fixed point.
    CHECK(export_all(out, reduced) == out);
  }
}

}  // namespace

TEST_CASE("Golden export: comments, NAGs, nested variations, long tags, escapes", "[pgn][golden]") { golden("annotated"); }

TEST_CASE("Golden export: setup position with Black to move, missing roster tags, null move", "[pgn][golden]") {
  golden("setup");
}
