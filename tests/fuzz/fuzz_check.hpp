// What every fuzz target uses to state its property: a violation prints what did not hold
// (and the texts involved) and aborts, so that libFuzzer keeps the input as a finding.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace epdd::fuzz {

[[noreturn]] inline void violated(std::string_view what, std::string_view a = {}, std::string_view b = {}) {
  std::fprintf(stderr, "PROPERTY VIOLATED: %.*s\n", static_cast<int>(what.size()), what.data());
  if (!a.empty()) std::fprintf(stderr, "  first:  [%.*s]\n", static_cast<int>(a.size()), a.data());
  if (!b.empty()) std::fprintf(stderr, "  second: [%.*s]\n", static_cast<int>(b.size()), b.data());
  std::abort();
}

// Aborts with the message (and the two texts compared) unless the condition holds.
inline void require(bool ok, std::string_view what, std::string_view a = {}, std::string_view b = {}) {
  if (!ok) violated(what, a, b);
}

inline std::string_view as_text(const unsigned char* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace epdd::fuzz
