// Internal to epdd_docs: text made into roff (man(7)) source that prints exactly that text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace epdd::cli::docs {

// `text` escaped for roff: backslashes, '-' as \- (an ASCII hyphen-minus, so that options and
// commands can be copied from the page), quotes, ` ^ ~ as the characters they are. Text only:
// the result may still start with '.' or '\''; see roff_line.
std::string roff_escape(std::string_view text);

// One input line of text: escaped, and protected with \& when it would start with '.' or '\''
// (roff would take it for a request and drop or misread it).
std::string roff_line(std::string_view text);

// `text` in bold (\fB...\fR) or italic (\fI...\fR), escaped.
std::string roff_bold(std::string_view text);
std::string roff_italic(std::string_view text);

// `text` split at its line breaks: help texts are written in lines, which the pages fill.
std::vector<std::string> lines_of(const std::string& text);

}  // namespace epdd::cli::docs
