// Shortcuts for EPD tests.
#pragma once

#include <map>
#include <string>

#include <catch2/catch.hpp>

#include "epd/check.hpp"
#include "epd/document.hpp"

namespace epdd::test {

// The problems of a diagnostics list, counted by kind name.
inline std::map<std::string, std::size_t> count_kinds(const epd::Diagnostics& d) {
  std::map<std::string, std::size_t> counts;
  for (const auto& item : d.items()) ++counts[epd::name(item.problem)];
  return counts;
}

// Parses and checks a single line; the record must parse.
struct CheckedLine {
  epd::EpdRecord record;
  epd::CheckedRecord checked;
  epd::Diagnostics diags;
};

inline CheckedLine check_line(const std::string& line, epd::CheckOptions options = {}) {
  CheckedLine c;
  auto r = epd::EpdRecord::parse(line, 1, c.diags);
  INFO("line: " << line);
  REQUIRE(r.has_value());
  c.record = std::move(*r);
  c.checked = epd::check_record(c.record, options, c.diags);
  return c;
}

// The first diagnostic of a kind, or nullptr.
inline const epd::Diagnostic* find_kind(const epd::Diagnostics& d, epd::Problem p) {
  for (const auto& item : d.items())
    if (item.problem == p) return &item;
  return nullptr;
}

}  // namespace epdd::test
