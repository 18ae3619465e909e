#include "option_checks.hpp"

#include <charconv>

#include <fmt/format.h>

#include "core/text.hpp"

namespace epdd::daemon {

std::optional<int> whole_number(std::string_view v) {
  int n = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || end != v.data() + v.size()) return std::nullopt;
  return n;
}

std::optional<std::string> check_range(std::string_view v, int low, int high, std::string_view what) {
  const auto n = whole_number(v);
  if (!n || *n < low || *n > high) return fmt::format("'{}' is not {} from {} to {}", core::escaped(v), what, low, high);
  return std::nullopt;
}

std::optional<std::string> check_flag(std::string_view v) {
  if (v == "true" || v == "false") return std::nullopt;
  return fmt::format("'{}' is not true or false", core::escaped(v));
}

std::optional<std::string> check_not_empty(std::string_view v) {
  if (v.empty()) return std::string("must not be empty");
  return std::nullopt;
}

std::optional<std::string> option_text(const JobSpec& spec, std::string_view key) {
  const auto it = spec.options.find(std::string(key));
  if (it == spec.options.end()) return std::nullopt;
  return it->second;
}

bool option_flag(const JobSpec& spec, std::string_view key) { return option_text(spec, key) == "true"; }

std::optional<std::string> check_merge(std::string_view v) {
  if (v == "replace" || v == "deeper") return std::nullopt;
  return fmt::format("'{}' is not replace or deeper", core::escaped(v));
}

}  // namespace epdd::daemon
