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

}  // namespace epdd::core
