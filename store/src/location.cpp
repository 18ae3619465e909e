// Store locations (location.hpp): the PostgreSQL URL's password found as libpq finds it.
#include "store/location.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

namespace epdd::store {

namespace {

constexpr std::array kSchemes = {std::string_view("postgresql://"), std::string_view("postgres://")};

std::size_t scheme_length(std::string_view location) {
  for (std::string_view scheme : kSchemes)
    if (location.substr(0, scheme.size()) == scheme) return scheme.size();
  return 0;
}

// The URL's query without its "password" parameters: libpq's parameters are name=value
// joined by '&'.
std::string query_without_password(std::string_view query) {
  std::string kept;
  while (!query.empty()) {
    const std::size_t end = query.find('&');
    const std::string_view parameter = query.substr(0, end);
    if (parameter.substr(0, parameter.find('=')) != "password") {
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

}  // namespace epdd::store
