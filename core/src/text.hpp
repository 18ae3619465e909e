// Internal: small text helpers for core's messages.
#pragma once

#include <string>
#include <string_view>

namespace epdd::core::detail {

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

}  // namespace epdd::core::detail
