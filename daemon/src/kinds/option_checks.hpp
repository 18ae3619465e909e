// What the kinds' own settings (KindOption) share: reading a whole number, the checks of flags,
// names and ranges, and reading a setting back from a spec.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "daemon/job_spec.hpp"

namespace epdd::daemon {

// The whole decimal number `v` is, or nothing (a sign, spaces or a fraction: nothing).
std::optional<int> whole_number(std::string_view v);
// "'V' is not WHAT from LOW to HIGH" unless v is a whole number in [low, high].
std::optional<std::string> check_range(std::string_view v, int low, int high, std::string_view what);
// Flags are kept as "true" / "false".
std::optional<std::string> check_flag(std::string_view v);
// A name (a player, a file): anything but empty.
std::optional<std::string> check_not_empty(std::string_view v);

// --merge (book's and annotate's --import): replace or deeper.
std::optional<std::string> check_merge(std::string_view v);

// The spec's value of a kind's setting, or nothing when it is not set.
std::optional<std::string> option_text(const JobSpec& spec, std::string_view key);
// Whether a flag setting is set to true.
bool option_flag(const JobSpec& spec, std::string_view key);

}  // namespace epdd::daemon
