#include "cli/engine_options.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/text.hpp"

namespace epdd::cli {

std::string shown_argument(std::string_view text) {
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u > 0x20 && u < 0x7f && c != '\'' && c != '"' && c != '\\';
  });
  return plain ? std::string(text) : core::quoted_escaped(text);
}

Expected<uci::OptionSetting, std::string> parse_option_setting(std::string_view text) {
  if (std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return unexpected(fmt::format(
        "--option {}: no line breaks or other control characters (they would send the engine a second command)",
        shown_argument(text)));
  const auto equals = text.find('=');
  if (equals == std::string_view::npos)
    return unexpected(
        fmt::format("--option {}: give NAME=VALUE, for example --option \"Skill Level=5\"", shown_argument(text)));
  if (equals == 0) return unexpected(fmt::format("--option {}: the name before '=' is empty", shown_argument(text)));
  return uci::OptionSetting{std::string(text.substr(0, equals)), std::string(text.substr(equals + 1)), "--option"};
}

}  // namespace epdd::cli
