// Small text helpers for messages, shared by every module that quotes its input.
#pragma once

#include <string>
#include <string_view>

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

// Text from outside (file names, input excerpts, engine output) made safe to show on one line
// of a log, a report or a terminal: printing ASCII and valid UTF-8 stay as they are; control
// bytes become C escapes (`\0`, `\t`, `\n`, `\r`, `\x1b`, ...); DEL and bytes that are not
// valid UTF-8 become `\xNN`; a backslash is doubled. Nothing is dropped, and two different
// inputs never show the same.
std::string escaped(std::string_view text);

// escaped() applied to an excerpt, then quoted(): the form messages use for input.
inline std::string quoted_escaped(std::string_view text) { return core::quoted(escaped(text)); }

}  // namespace epdd::core
