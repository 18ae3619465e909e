#include "roff.hpp"

#include <sstream>

namespace epdd::cli::docs {

std::string roff_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char c : text) {
    switch (c) {
      case '\\': out += "\\(rs"; break;
      case '-': out += "\\-"; break;
      // groff's UTF-8 output turns ' and ` into typographic quotes and ^ ~ into accents: the
      // named characters print as the ASCII the help text has.
      case '\'': out += "\\(aq"; break;
      case '`': out += "\\(ga"; break;
      case '^': out += "\\(ha"; break;
      case '~': out += "\\(ti"; break;
      default: out += c;
    }
  }
  return out;
}

std::string roff_line(std::string_view text) {
  std::string out = roff_escape(text);
  if (!out.empty() && (out.front() == '.' || out.front() == '\'')) out.insert(0, "\\&");
  return out;
}

std::string roff_bold(std::string_view text) { return "\\fB" + roff_escape(text) + "\\fR"; }

std::string roff_italic(std::string_view text) { return "\\fI" + roff_escape(text) + "\\fR"; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace epdd::cli::docs
