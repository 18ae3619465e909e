// Small text helpers for messages, shared by every module that quotes its input.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace epdd::core {

// 'text' in single quotes, for messages that quote their input. Built by appending rather than
// by "'" + std::string(...) + "'" (one allocation).
inline std::string quoted(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '\'';
  out.append(text);
  out += '\'';
  return out;
}

// Length of the valid UTF-8 sequence at the start of `s` (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when it is not one or `s` is empty. ASCII bytes
// give 0 as well: callers handle ASCII first. One definition for escaped() and for the
// HTML escaping of html/, which must agree on what valid UTF-8 is.
std::size_t utf8_length(std::string_view s);

// Text from outside (file names, input excerpts, engine output) made safe to show on one line
// of a log, a report or a terminal: printing ASCII and valid UTF-8 stay as they are; control
// bytes become C escapes (`\0`, `\t`, `\n`, `\r`, `\x1b`, ...); DEL, the C1 controls U+0080 to
// U+009F (`\xc2\x9b`: their two bytes) and bytes that are not valid UTF-8 become `\xNN`; a
// backslash is doubled. Nothing is dropped, and two different
// inputs never show the same.
std::string escaped(std::string_view text);

// Whether `text` is valid UTF-8 (ASCII is).
bool is_utf8(std::string_view text);

// Latin-1 (ISO 8859-1) bytes as UTF-8 into `out` (replaced): each byte the code point of its
// value. `out` keeps its capacity, for readers that decode string after string (PGC).
void latin1_to_utf8(std::string_view in, std::string& out);

// Text of an input (a tag, an id, a name) as UTF-8, for what is read as UTF-8 (JSON, HTML, a
// terminal): as it is when it is valid UTF-8, else read as Latin-1 (ISO 8859-1, the character
// set of the PGN standard, 4.1, and of old EPD files): each byte the code point of its value.
// Text in Latin-1 that is also valid UTF-8 (two bytes such as "\xC3\xA9") reads as UTF-8.
std::string as_utf8(std::string_view text);

// A message made safe for one line of a log or a terminal: its control bytes (line breaks
// included) and the bytes that are not UTF-8 shown as escaped() shows them, but backslashes left
// as they are, so that a message whose excerpts were escaped() where it was built (the rule) is
// not escaped twice. The safety net every sink passes messages through (daemon/logging.hpp).
std::string one_line(std::string_view text);

// escaped() applied to an excerpt, then quoted(): the form messages use for input.
inline std::string quoted_escaped(std::string_view text) { return core::quoted(escaped(text)); }

// A count with its noun in the number it takes, for messages: counted(1, "game", "games") is
// "1 game", counted(0, ...) and counted(2, ...) "0 games", "2 games". Counts are grouped only by
// the caller (the figure is written as it is).
std::string counted(std::size_t n, std::string_view one, std::string_view many);

// Levenshtein distance (insertions, deletions, substitutions) with ASCII letters compared
// without case: names in configuration keys and UCI options ignore case, so a case difference is
// no typo.
std::size_t edit_distance_ignoring_case(std::string_view a, std::string_view b);

// An ASCII capital letter made small; any other byte as it is.
constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
// `s` with its ASCII capitals made small (file extensions, tag values, names compared so).
std::string ascii_lowercase(std::string_view s);
// Whether `a` and `b` are the same but for the case of ASCII letters (UCI option names, locale
// names, file name endings).
bool iequals(std::string_view a, std::string_view b);

// The candidates nearest to `name`, for a "did you mean" hint: those at the smallest edit
// distance, if it is at most two edits and fewer than `name` has characters (so that "Ha" does
// not suggest every four-letter name), in the candidates' order. Empty when none is that near.
// One rule for every such hint (configuration keys, engine options).
std::vector<std::string_view> nearest_names(std::string_view name, std::span<const std::string_view> candidates);

}  // namespace epdd::core
