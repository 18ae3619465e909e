// Option checks: a user's setting against the engine's declaration, before anything is sent.
#include "uci/options.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "core/text.hpp"

namespace epdd::uci {

namespace {

using core::iequals;

// Whether `part` occurs in `text`, ignoring ASCII case.
bool contains_ignoring_case(std::string_view text, std::string_view part) {
  if (part.size() > text.size()) return false;
  for (std::size_t i = 0; i + part.size() <= text.size(); ++i)
    if (iequals(text.substr(i, part.size()), part)) return true;
  return false;
}

// "'A'", "'A' or 'B'", "'A', 'B' or 'C'".
std::string alternatives(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += core::quoted(names[i]);
  }
  return out;
}

// "engine Stockfish 15.1 declares no option 'Hahs' (did you mean 'Hash'?)": the declared names
// within two edits, else those that contain the name written ("Skill" for "Skill Level"), else
// all of them, so that the message always says what to write instead.
std::string undeclared(const std::vector<OptionLine>& declared, const OptionSetting& setting, std::string_view engine) {
  std::vector<std::string_view> names;
  names.reserve(declared.size());
  for (const auto& option : declared) names.emplace_back(option.name);
  std::vector<std::string_view> near = core::nearest_names(setting.name, names);
  constexpr std::size_t kMinPart = 3;  // "a" or "Ha" is in too many names to mean one
  if (near.empty() && setting.name.size() >= kMinPart)
    std::copy_if(names.begin(), names.end(), std::back_inserter(near),
                 [&](std::string_view n) { return contains_ignoring_case(n, setting.name); });
  std::string hint;
  if (!near.empty()) hint = fmt::format(" (did you mean {}?)", alternatives(near));
  else if (names.empty()) hint = "; it declares none";
  else hint = fmt::format("; it declares: {}", fmt::join(names, ", "));
  return fmt::format("{}{} declares no option {}{}", setting.origin.empty() ? "" : setting.origin + ": ",
                     engine.empty() ? std::string("the engine") : fmt::format("engine {}", engine),
                     core::quoted(setting.name), hint);
}

Expected<std::string, std::string> check_check(const OptionLine& option, std::string_view value) {
  if (iequals(value, "true")) return std::string("true");
  if (iequals(value, "false")) return std::string("false");
  return unexpected(fmt::format("option {} is true or false, not {}", core::quoted(option.name), core::quoted(value)));
}

// A button has no value: pressed by true or nothing. Any other word (false above all) would press
// it just the same, against what it says.
Expected<std::string, std::string> check_button(const OptionLine& option, std::string_view value) {
  if (value.empty() || iequals(value, "true")) return std::string();
  return unexpected(fmt::format("option {} is a button, pressed by true (or no value), not {}: leave it out not to press it",
                                core::quoted(option.name), core::quoted(value)));
}

std::string integer_range(const OptionLine& option) {
  if (option.min && option.max) return fmt::format("an integer from {} to {}", *option.min, *option.max);
  if (option.min) return fmt::format("an integer of at least {}", *option.min);
  if (option.max) return fmt::format("an integer of at most {}", *option.max);
  return "an integer";
}

Expected<std::string, std::string> check_spin(const OptionLine& option, std::string_view value) {
  long long number = 0;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, number);
  const bool ok = !value.empty() && ec == std::errc{} && ptr == end && (!option.min || number >= *option.min) &&
                  (!option.max || number <= *option.max);
  if (!ok) {
    return unexpected(fmt::format("option {} wants {}, not {}", core::quoted(option.name), integer_range(option),
                                  core::quoted(value)));
  }
  return std::to_string(number);
}

Expected<std::string, std::string> check_combo(const OptionLine& option, std::string_view value) {
  for (const auto& var : option.vars)
    if (iequals(var, value)) return var;
  if (option.vars.empty()) {
    return unexpected(fmt::format("option {} declares no choices, so not {}", core::quoted(option.name),
                                  core::quoted(value)));
  }
  return unexpected(fmt::format("option {} is one of {}, not {}", core::quoted(option.name),
                                fmt::join(option.vars, ", "), core::quoted(value)));
}

// Sending rank: Threads, then Hash, then everything else.
int send_rank(const CheckedOption& option) {
  if (iequals(option.name, "Threads") || iequals(option.name, "Number of Threads") || iequals(option.name, "Cores"))
    return 0;
  if (iequals(option.name, "Hash")) return 1;
  return 2;
}

}  // namespace

bool equal_ignoring_case(std::string_view a, std::string_view b) { return iequals(a, b); }

const OptionLine* find_option(const std::vector<OptionLine>& declared, std::string_view name) {
  const auto it = std::find_if(declared.begin(), declared.end(),
                               [&](const OptionLine& option) { return iequals(option.name, name); });
  return it == declared.end() ? nullptr : &*it;
}

std::vector<OptionSetting> engine_spelling(const std::vector<OptionLine>& declared,
                                           std::vector<OptionSetting> settings) {
  static constexpr std::string_view kThreadNames[] = {"Threads", "Number of Threads", "Cores"};
  std::vector<OptionSetting> out;
  for (OptionSetting& s : settings) {
    if (iequals(s.name, "Threads") && !find_option(declared, "Threads")) {
      const auto it = std::find_if(std::begin(kThreadNames), std::end(kThreadNames),
                                   [&](std::string_view n) { return find_option(declared, n) != nullptr; });
      if (it != std::end(kThreadNames)) s.name = find_option(declared, *it)->name;
      else if (s.value == "1") continue;
    }
    if (s.if_declared && !find_option(declared, s.name)) continue;
    out.push_back(std::move(s));
  }
  return out;
}

Expected<CheckedOption, std::string> check_option(const std::vector<OptionLine>& declared,
                                                  const OptionSetting& setting, std::string_view engine) {
  const OptionLine* option = find_option(declared, setting.name);
  if (!option) return unexpected(undeclared(declared, setting, engine));
  CheckedOption checked{option->name, std::nullopt};
  // A line break would smuggle a second command to the engine ("x\nquit").
  if (setting.value.find_first_of("\r\n") != std::string::npos)
    return unexpected(fmt::format("{}option {}: a value may not contain a line break",
                                  setting.origin.empty() ? "" : setting.origin + ": ", core::quoted(option->name)));
  Expected<std::string, std::string> value = setting.value;
  switch (option->type) {
    case OptionType::Check: value = check_check(*option, setting.value); break;
    case OptionType::Spin: value = check_spin(*option, setting.value); break;
    case OptionType::Combo: value = check_combo(*option, setting.value); break;
    case OptionType::Button:
      if (auto pressed = check_button(*option, setting.value); !pressed)
        return unexpected((setting.origin.empty() ? "" : setting.origin + ": ") + std::move(pressed).error());
      return checked;
    case OptionType::String: break;
  }
  if (!value) return unexpected((setting.origin.empty() ? "" : setting.origin + ": ") + std::move(value).error());
  checked.value = *std::move(value);
  return checked;
}

OptionSetting canonical_setting(const std::vector<OptionLine>& declared, OptionSetting setting) {
  const bool aliased = iequals(setting.name, "Threads") && !find_option(declared, setting.name);
  OptionSetting as_sent = setting;
  if (aliased) {
    auto spelt = engine_spelling(declared, {setting});
    if (spelt.empty() || !find_option(declared, spelt.front().name)) return setting;
    as_sent = std::move(spelt.front());
  }
  auto checked = check_option(declared, as_sent);
  if (!checked) return setting;
  setting.name = aliased ? std::string("Threads") : std::move(checked->name);
  setting.value = checked->value.value_or("");
  return setting;
}

Expected<std::vector<CheckedOption>, std::string> check_options(const std::vector<OptionLine>& declared,
                                                                const std::vector<OptionSetting>& settings,
                                                                std::string_view engine) {
  std::vector<CheckedOption> checked;
  std::vector<std::string> errors;
  for (const auto& setting : settings) {
    auto one = check_option(declared, setting, engine);
    if (one) {
      checked.push_back(*std::move(one));
    } else {
      errors.push_back(std::move(one).error());
    }
  }
  if (!errors.empty()) return unexpected(fmt::format("{}", fmt::join(errors, "\n")));
  std::stable_sort(checked.begin(), checked.end(),
                   [](const CheckedOption& a, const CheckedOption& b) { return send_rank(a) < send_rank(b); });
  return checked;
}

}  // namespace epdd::uci
