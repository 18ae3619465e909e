#include "daemon/job_spec.hpp"

#include "daemon/job_kind.hpp"

#include "core/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace epdd::daemon {

namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

OrderedJson limits_to_json(const uci::SearchLimits& l) {
  OrderedJson j = OrderedJson::object();
  if (l.depth) j["depth"] = *l.depth;
  if (l.nodes) j["nodes"] = *l.nodes;
  if (l.movetime_ms) j["movetime"] = *l.movetime_ms;
  if (l.mate) j["mate"] = *l.mate;
  if (l.stop_after_ms) j["stop_after"] = *l.stop_after_ms;
  return j;
}

// Reading with the key's name in every error; a std::runtime_error carries it out.
struct Bad : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const Json& need(const Json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw Bad(fmt::format("missing key '{}'", key));
  return j.at(key);
}

// An integer field: a JSON integer within T's range. nlohmann's get<int> would convert a float
// (undefined past int's range), truncate a fraction and wrap a negative count.
template <class T>
T integer_in_range(const Json& v, const char* key) {
  using Limits = std::numeric_limits<T>;
  bool fits = false;
  if (v.is_number_unsigned()) {
    fits = v.get<std::uint64_t>() <= static_cast<std::uint64_t>(Limits::max());
  } else if (v.is_number_integer()) {
    const std::int64_t i = v.get<std::int64_t>();
    fits = i >= 0 ? static_cast<std::uint64_t>(i) <= static_cast<std::uint64_t>(Limits::max())
                  : Limits::is_signed && i >= static_cast<std::int64_t>(Limits::min());
  }
  if (!fits)
    throw Bad(fmt::format("'{}' must be an integer from {} to {}, not {}", key, Limits::min(), Limits::max(), v.dump()));
  return v.is_number_unsigned() ? static_cast<T>(v.get<std::uint64_t>()) : static_cast<T>(v.get<std::int64_t>());
}

template <class T>
T get(const Json& j, const char* key) {
  const Json& v = need(j, key);
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) return integer_in_range<T>(v, key);
  try {
    return v.get<T>();
  } catch (const std::exception&) {
    throw Bad(fmt::format("'{}' has the wrong type", key));
  }
}

template <class T>
std::optional<T> get_optional(const Json& j, const char* key) {
  if (!j.contains(key)) return std::nullopt;
  return get<T>(j, key);
}

// A file name or path as JSON: its text when it is UTF-8 (JSON's strings are Unicode), else
// {"hex": "..."} with its bytes, so that a spool file named in Latin-1 is found again (replacing
// the bytes would name another file).
OrderedJson name_to_json(const std::string& name) {
  try {
    (void)Json(name).dump();
    return name;
  } catch (const Json::type_error&) {
    std::string hex;
    for (unsigned char c : name) hex += fmt::format("{:02x}", c);
    return OrderedJson{{"hex", hex}};
  }
}

std::string name_from_json(const Json& j, const char* key) {
  const Json& v = need(j, key);
  if (v.is_string()) return v.get<std::string>();
  const auto hex = get<std::string>(v, "hex");
  if (hex.size() % 2 != 0) throw Bad(fmt::format("'{}' has an odd number of hex digits", key));
  std::string bytes;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    unsigned value = 0;
    for (char c : hex.substr(i, 2)) {
      const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (digit < 0) throw Bad(fmt::format("'{}' has a character that is not a hex digit", key));
      value = value * 16 + static_cast<unsigned>(digit);
    }
    bytes += static_cast<char>(value);
  }
  return bytes;
}

std::optional<std::string> optional_name_from_json(const Json& j, const char* key) {
  if (!j.contains(key)) return std::nullopt;
  return name_from_json(j, key);
}

uci::SearchLimits limits_from_json(const Json& j) {
  if (!j.is_object()) throw Bad("'limits' is not an object");
  uci::SearchLimits l;
  l.depth = get_optional<int>(j, "depth");
  l.nodes = get_optional<std::uint64_t>(j, "nodes");
  l.movetime_ms = get_optional<std::uint64_t>(j, "movetime");
  l.mate = get_optional<int>(j, "mate");
  l.stop_after_ms = get_optional<std::uint64_t>(j, "stop_after");
  return l;
}

uci::NewGame new_game_from(const std::string& s) {
  if (s == "clear") return uci::NewGame::Clear;
  if (s == "keep") return uci::NewGame::Keep;
  throw Bad(fmt::format("'new_game' is '{}', not clear or keep", s));
}

// The kind's own settings: each a key of its options, with a value its check accepts.
std::map<std::string, std::string> options_from_json(const Json& j, const std::string& kind_name) {
  if (!j.is_object()) throw Bad("'options' is not an object");
  const JobKind* kind = find_kind(kind_name);
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : j.items()) {
    if (!value.is_string()) throw Bad(fmt::format("option '{}' is not a string", key));
    const KindOption* option = kind ? kind->option(key) : nullptr;
    if (!option) throw Bad(fmt::format("'{}' is not an option of a {} job", key, kind_name));
    if (auto why = option->check(value.get<std::string>())) throw Bad(fmt::format("option '{}': {}", key, *why));
    out[key] = value.get<std::string>();
  }
  return out;
}

// Refuses a key of `j` that is not among `known` (nor a kind's flag, when `flags`): what epdd
// did not write, it does not act on.
void only_known_keys(const Json& j, std::initializer_list<std::string_view> known, bool flags) {
  if (!j.is_object()) throw Bad("not a JSON object");
  static const std::vector<KindFlag> kFlags = all_kind_flags();
  for (const auto& [key, value] : j.items()) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    // [&key = key]: clang 14 (the fuzz build) cannot capture a structured binding itself.
    if (flags && std::any_of(kFlags.begin(), kFlags.end(), [&key = key](const KindFlag& f) { return f.key == key; })) continue;
    throw Bad(fmt::format("'{}' is not a key of a job spec (a job names an engine of the daemon's configuration, "
                          "nothing else)",
                          key));
  }
}

template <class F>
auto reading(std::string_view json, std::string_view what, F f) -> Expected<decltype(f(Json())), std::string> {
  try {
    return f(Json::parse(json));
  } catch (const Bad& e) {
    return unexpected(fmt::format("{}: {}", what, e.what()));
  } catch (const std::exception& e) {
    return unexpected(fmt::format("{}: not JSON: {}", what, e.what()));
  }
}

}  // namespace

std::optional<std::string> engine_name_problem(const std::string& engine) {
  if (engine.find_first_of("/\\") == std::string::npos) return std::nullopt;
  return fmt::format("'engine' is {}: a job names an engine of the daemon's configuration, not a program",
                     core::quoted_escaped(engine));
}

void default_limit(uci::SearchLimits& l) {
  if (!l.depth && !l.nodes && !l.movetime_ms && !l.mate && !l.stop_after_ms) l.movetime_ms = 1000;
}

const char* to_string(uci::NewGame new_game) { return new_game == uci::NewGame::Keep ? "keep" : "clear"; }

std::string spec_to_json(const JobSpec& s) {
  OrderedJson j;
  j["kind"] = s.kind;
  j["input"] = name_to_json(s.input);
  if (!s.more_inputs.empty()) {
    OrderedJson more = OrderedJson::array();
    for (const auto& name : s.more_inputs) more.push_back(name_to_json(name));
    j["more_inputs"] = std::move(more);
  }
  j["engine"] = name_to_json(s.engine);
  j["limits"] = limits_to_json(s.limits);
  j["multipv"] = s.multipv;
  if (s.new_game) j["new_game"] = to_string(*s.new_game);
  j["keep_existing"] = s.keep_existing;
  j["chess960"] = s.chess960;
  // Every kind's flags, whatever the kind (a spec reads the same in every version).
  for (const KindFlag& flag : all_kind_flags()) j[std::string(flag.key)] = s.*flag.field;
  j["counters"] = s.counters_as_operations ? "ops" : "keep";
  if (!s.options.empty()) j["options"] = s.options;
  if (s.output) j["output"] = name_to_json(*s.output);
  if (s.report) j["report"] = name_to_json(*s.report);
  if (s.json) j["json"] = name_to_json(*s.json);
  if (s.spool)
    j["spool"] = OrderedJson{
        {"dir", name_to_json(s.spool->dir)}, {"name", name_to_json(s.spool->name)}, {"sidecar", s.spool->sidecar}};
  if (!s.host.empty()) j["host"] = name_to_json(s.host);
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Expected<JobSpec, std::string> spec_from_json(std::string_view json) {
  return reading(json, "job spec", [](const Json& j) {
    JobSpec s;
    only_known_keys(j,
                    {"kind", "input", "more_inputs", "engine", "limits", "multipv", "new_game", "keep_existing",
                     "chess960", "counters", "options", "output", "report", "json", "spool", "host"},
                    true);
    s.kind = get<std::string>(j, "kind");
    if (!find_kind(s.kind)) throw Bad(fmt::format("'kind' is '{}', not {}", s.kind, kind_names()));
    s.input = name_from_json(j, "input");
    if (j.contains("more_inputs")) {
      const Json& more = j.at("more_inputs");
      if (!more.is_array()) throw Bad("'more_inputs' is not an array");
      for (std::size_t i = 0; i < more.size(); ++i) {
        const Json holder = Json{{"more_inputs", more[i]}};
        s.more_inputs.push_back(name_from_json(holder, "more_inputs"));
      }
    }
    s.engine = name_from_json(j, "engine");
    s.limits = limits_from_json(need(j, "limits"));
    s.multipv = get<int>(j, "multipv");
    if (auto new_game = get_optional<std::string>(j, "new_game")) s.new_game = new_game_from(*new_game);
    s.keep_existing = get<bool>(j, "keep_existing");
    s.chess960 = get<bool>(j, "chess960");
    for (const KindFlag& flag : all_kind_flags())
      s.*flag.field = get_optional<bool>(j, std::string(flag.key).c_str()).value_or(false);
    const auto counters = get_optional<std::string>(j, "counters").value_or("keep");
    if (counters != "keep" && counters != "ops") throw Bad(fmt::format("'counters' is '{}', not keep or ops", counters));
    s.counters_as_operations = counters == "ops";
    if (j.contains("options")) s.options = options_from_json(j.at("options"), s.kind);
    s.output = optional_name_from_json(j, "output");
    s.report = optional_name_from_json(j, "report");
    s.json = optional_name_from_json(j, "json");
    if (j.contains("spool")) {
      const Json& sp = j.at("spool");
      only_known_keys(sp, {"dir", "name", "sidecar"}, false);
      s.spool = SpoolOrigin{name_from_json(sp, "dir"), name_from_json(sp, "name"), get<bool>(sp, "sidecar")};
    }
    if (j.contains("host")) s.host = name_from_json(j, "host");
    return s;
  });
}

std::string request_to_json(const uci::AnalysisRequest& r) {
  OrderedJson j;
  j["fen"] = r.fen;
  j["chess960"] = r.chess960;
  j["moves"] = r.moves;
  j["limits"] = limits_to_json(r.limits);
  j["multipv"] = r.multipv;
  j["searchmoves"] = r.searchmoves;
  j["new_game"] = to_string(r.new_game);
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Expected<uci::AnalysisRequest, std::string> request_from_json(std::string_view json) {
  return reading(json, "analysis request", [](const Json& j) {
    uci::AnalysisRequest r;
    r.fen = get<std::string>(j, "fen");
    r.chess960 = get<bool>(j, "chess960");
    r.moves = get<std::vector<std::string>>(j, "moves");
    r.limits = limits_from_json(need(j, "limits"));
    r.multipv = get<int>(j, "multipv");
    r.searchmoves = get<std::vector<std::string>>(j, "searchmoves");
    r.new_game = new_game_from(get<std::string>(j, "new_game"));
    return r;
  });
}

}  // namespace epdd::daemon
