// What the toml and sidecar targets check of a configuration error and of job settings: the
// promises of daemon/engine_config_file.hpp (errors name a line of the file; every value
// accepted lies in the range its comment documents).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/engine_config_file.hpp"
#include "daemon/job_kind.hpp"
#include "daemon/job_spec.hpp"
#include "fuzz_check.hpp"

namespace epdd::fuzz {

inline constexpr std::int64_t kMaxTimeoutMs = std::int64_t{30} * 24 * 60 * 60 * 1000;

template <class T>
bool within(const T& value, std::int64_t low, std::int64_t high) {
  return static_cast<std::int64_t>(value) >= low && static_cast<std::int64_t>(value) <= high;
}

// An error names the file, a line of it (or 0 for the whole file) and says something.
inline void check_error(const daemon::EngineConfigError& e, std::string_view text, std::string_view file) {
  const std::string shown = e.to_string();
  require(!e.message.empty(), "an error without a message", shown);
  const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  require(e.line >= 0 && e.line <= lines, "an error names a line the file does not have", shown, text);
  require(e.column >= 0 && (e.line > 0 || e.column == 0), "an error's column without a line", shown);
  require(e.file == file && shown.starts_with(std::string(file)), "an error does not name the file", shown);
}

// Job settings accepted: a registered kind, limits and multipv in their documented ranges, and
// when the spool would take them (every setting of the kind's), the spec as the store keeps it
// (spec_to_json) reads back to the same text.
inline void check_job_settings(const daemon::JobSpec& spec) {
  require(daemon::find_kind(spec.kind) != nullptr, "job settings with a kind that is not registered", spec.kind);
  const std::string json = daemon::spec_to_json(spec);
  const auto& l = spec.limits;
  require(!l.depth || within(*l.depth, 1, 1000), "depth out of 1..1000", json);
  require(!l.nodes || within(*l.nodes, 1, std::int64_t{1} << 50), "nodes out of 1..2^50", json);
  require(!l.movetime_ms || within(*l.movetime_ms, 1, kMaxTimeoutMs), "movetime out of range", json);
  require(!l.mate || within(*l.mate, 1, 500), "mate out of 1..500", json);
  require(within(spec.multipv, 1, 500), "multipv out of 1..500", json);
  // A kind's own settings are read whatever the kind (the spool may still change it by the
  // file's extension); the spool refuses a job whose settings are not its kind's (spool.cpp
  // spec_for), and only such a spec is written to the store.
  const daemon::JobKind& kind = daemon::kind_of(spec);
  for (const auto& [key, value] : spec.options)
    if (!kind.option(key)) return;
  const auto again = daemon::spec_from_json(json);
  require(again.has_value(), "the spec of accepted job settings does not read back", json,
          again ? std::string() : again.error());
  require(daemon::spec_to_json(*again) == json, "the spec of accepted job settings reads back to another", json,
          daemon::spec_to_json(*again));
}

}  // namespace epdd::fuzz
