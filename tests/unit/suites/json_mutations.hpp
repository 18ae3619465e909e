// Every way a report's JSON can go wrong, for the pages' tests (issue 20: "an error with its place
// or a page, never a throw, a crash or a hang"): each value of a golden JSON (arrays: their first
// three elements) replaced by a wrong type, a negative, a huge or a fractional number, null, an
// empty object or array; each key of an object left out. Used by the suite and the book page tests.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/expected.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace epdd::test {

struct JsonMutation {
  std::string place;  // where the pages name it: "records[0].to_solution.time_ms"; a left-out key's parent
  std::string key;    // the key left out ("" for a replaced value)
  std::string what;   // the replacement as JSON text, or "left out"
  std::string json;   // the whole mutated document
};

namespace detail {

inline std::string joined(const std::string& where, const std::string& key) { return where.empty() ? key : where + "." + key; }

inline const std::vector<nlohmann::ordered_json>& replacements() {
  static const std::vector<nlohmann::ordered_json> values = {
      nlohmann::ordered_json("text"), nlohmann::ordered_json(-1), nlohmann::ordered_json(UINT64_MAX),
      nlohmann::ordered_json(1e308), nlohmann::ordered_json(-2147483648LL), nlohmann::ordered_json(2.5),
      nlohmann::ordered_json(nullptr), nlohmann::ordered_json(true), nlohmann::ordered_json::object(),
      nlohmann::ordered_json::array()};
  return values;
}

inline void mutate(nlohmann::ordered_json& root, nlohmann::ordered_json& at, const std::string& where,
                   std::vector<JsonMutation>& out) {
  const auto replace_each = [&](nlohmann::ordered_json& slot, const std::string& place) {
    const nlohmann::ordered_json kept = slot;
    for (const auto& value : replacements()) {
      slot = value;
      out.push_back({place, "", value.dump(), root.dump()});
    }
    slot = kept;
  };
  if (at.is_object()) {
    std::vector<std::string> keys;
    for (auto it = at.begin(); it != at.end(); ++it) keys.push_back(it.key());
    for (const std::string& key : keys) {
      replace_each(at[key], joined(where, key));
      const nlohmann::ordered_json kept = at[key];
      at.erase(key);
      out.push_back({where, key, "left out", root.dump()});
      at[key] = kept;  // ordered_json: back at the end, which no reader minds
      mutate(root, at[key], joined(where, key), out);
    }
  } else if (at.is_array()) {
    for (std::size_t i = 0; i < at.size() && i < 3; ++i) {
      const std::string place = fmt::format("{}[{}]", where, i);
      replace_each(at[i], place);
      mutate(root, at[i], place, out);
    }
  }
}

}  // namespace detail

// The mutations of a JSON document, each with the place a page's error must name.
inline std::vector<JsonMutation> json_mutations(const std::string& text) {
  nlohmann::ordered_json root = nlohmann::ordered_json::parse(text);
  std::vector<JsonMutation> out;
  detail::mutate(root, root, "", out);
  return out;
}

// One mutation through a page function (`render`: JSON text to the page or an error): no throw,
// within 2 s, and an error, if one, that starts with `name`, ": " and the mutation's place (the
// format aside: its errors say "not a ... report"), ending in `has no "KEY"` for a left-out key.
// Returns whether a page came back.
template <class Render>
bool page_or_placed_error(const JsonMutation& m, const std::string& name, Render&& render) {
  INFO(m.place << " " << m.key << " " << m.what);
  const auto start = std::chrono::steady_clock::now();
  Expected<std::string, std::string> page = unexpected(std::string());
  REQUIRE_NOTHROW(page = render(m.json));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  if (page) return true;
  INFO(page.error());
  CHECK_THAT(page.error(), !Catch::Contains("json.exception"));
  if (m.key == "format" || m.place == "format") return false;
  CHECK_THAT(page.error(), Catch::StartsWith(name + ": " + m.place + (m.place.empty() ? "" : ": ")));
  if (!m.key.empty()) CHECK_THAT(page.error(), Catch::EndsWith("has no \"" + m.key + "\""));
  return false;
}

}  // namespace epdd::test
