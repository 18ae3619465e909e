// Shared by the html/ unit tests: a hostile string and its escaped form, and counting in text.
#pragma once

#include <cstddef>
#include <string>

namespace epdd::html::testing {

// Ends an element and an attribute and opens a script: what input must never do to a page.
inline const std::string kHostile = "<script>alert(1)</script>\"'&";
inline const std::string kHostileEscaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;";

// How often `what` occurs in `text` (overlapping occurrences counted).
inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace epdd::html::testing
