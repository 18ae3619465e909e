// Store locations (location.hpp): the PostgreSQL URL's password found as libpq finds it.
#include "store/location.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace epdd::store {

namespace {

constexpr std::array kSchemes = {std::string_view("postgresql://"), std::string_view("postgres://")};

std::size_t scheme_length(std::string_view location) {
  for (std::string_view scheme : kSchemes)
    if (location.substr(0, scheme.size()) == scheme) return scheme.size();
  return 0;
}

// %XX decoded, as libpq decodes a URL's parts (an invalid escape is left as it is).
std::string percent_decoded(std::string_view text) {
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// Whether a query parameter (name=value) is a password: its name as libpq decodes it.
bool is_password_parameter(std::string_view parameter) {
  return percent_decoded(parameter.substr(0, parameter.find('='))) == "password";
}

// The URL's query without its "password" parameters: libpq's parameters are name=value
// joined by '&'.
std::string query_without_password(std::string_view query) {
  std::string kept;
  while (!query.empty()) {
    const std::size_t end = query.find('&');
    const std::string_view parameter = query.substr(0, end);
    if (!is_password_parameter(parameter)) {
      if (!kept.empty()) kept += '&';
      kept += parameter;
    }
    query = end == std::string_view::npos ? std::string_view() : query.substr(end + 1);
  }
  return kept;
}

}  // namespace

bool is_postgresql_location(std::string_view location) { return scheme_length(location) > 0; }

// As libpq reads a URL: the user part ends at the first '@' before any '/' (user[:password]),
// the query starts at the first '?' after it.
std::string location_without_password(const std::string& location) {
  const std::size_t start = scheme_length(location);
  if (start == 0) return location;
  std::string shown = location.substr(0, start);
  std::string_view rest = std::string_view(location).substr(start);
  const std::size_t at = rest.find_first_of("@/");
  if (at != std::string_view::npos && rest[at] == '@') {
    shown += rest.substr(0, std::min(rest.find(':'), at));
    rest = rest.substr(at);
  }
  const std::size_t question = rest.find('?');
  shown += rest.substr(0, question);
  if (question == std::string_view::npos) return shown;
  const std::string query = query_without_password(rest.substr(question + 1));
  return query.empty() ? shown : shown + '?' + query;
}

std::vector<std::string> location_secrets(const std::string& location) {
  std::vector<std::string> secrets;
  const auto add = [&](std::string_view raw) {
    if (raw.empty()) return;
    secrets.emplace_back(raw);
    if (const std::string decoded = percent_decoded(raw); decoded != raw && !decoded.empty()) secrets.push_back(decoded);
  };
  const std::size_t start = scheme_length(location);
  if (start == 0) return secrets;
  std::string_view rest = std::string_view(location).substr(start);
  const std::size_t at = rest.find_first_of("@/");
  if (at != std::string_view::npos && rest[at] == '@') {
    const std::size_t colon = rest.find(':');
    if (colon < at) add(rest.substr(colon + 1, at - colon - 1));
  }
  const std::size_t question = rest.find('?');
  std::string_view query = question == std::string_view::npos ? std::string_view() : rest.substr(question + 1);
  while (!query.empty()) {
    const std::size_t end = query.find('&');
    const std::string_view parameter = query.substr(0, end);
    if (is_password_parameter(parameter) && parameter.find('=') != std::string_view::npos)
      add(parameter.substr(parameter.find('=') + 1));
    query = end == std::string_view::npos ? std::string_view() : query.substr(end + 1);
  }
  return secrets;
}

std::string without_secrets(std::string text, const std::string& location) {
  const auto replace_all = [&](const std::string& what, const std::string& with) {
    if (what.empty()) return;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size()))
      text.replace(at, what.size(), with);
  };
  auto secrets = location_secrets(location);
  if (secrets.empty()) return text;
  replace_all(location, location_without_password(location));
  // The longest first: a password that holds another is hidden whole.
  std::sort(secrets.begin(), secrets.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
  for (const auto& secret : secrets) replace_all(secret, "***");
  return text;
}

}  // namespace epdd::store
