#include "daemon/engine_config_file.hpp"

#include "daemon/job_kind.hpp"
#include "store/location.hpp"
#include "core/text.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <utility>

#include <toml++/toml.h>

namespace epdd::daemon {

namespace {

constexpr std::int64_t kMaxTimeoutMs = std::int64_t{30} * 24 * 60 * 60 * 1000;  // 30 days
constexpr double kMaxScale = 1000.0;
constexpr std::int64_t kMaxInstances = 256;
constexpr std::int64_t kMinMaxLine = 1024;  // `id` and `option` lines must fit
constexpr std::int64_t kMaxMaxLine = std::int64_t{1} << 30;
constexpr std::int64_t kMaxRestarts = 1000;
constexpr std::int64_t kMaxRestartWindowSeconds = 7 * 24 * 60 * 60;

// The timeouts by the names users write. A table of member pointers checked against
// uci::Timeouts::kNames at compile time, so a timeout added there cannot be forgotten here.
struct TimeoutField {
  std::string_view name;
  uci::Milliseconds uci::Timeouts::*field;
};
constexpr TimeoutField kTimeoutFields[] = {
    {"handshake", &uci::Timeouts::handshake},
    {"ready", &uci::Timeouts::ready},
    {"new_game", &uci::Timeouts::new_game},
    {"search", &uci::Timeouts::search},
    {"search_margin", &uci::Timeouts::search_margin},
    {"stop", &uci::Timeouts::stop},
    {"quit", &uci::Timeouts::quit},
    {"terminate", &uci::Timeouts::terminate},
    {"write", &uci::Timeouts::write},
};
constexpr bool timeout_fields_match_names() {
  if (std::size(kTimeoutFields) != std::size(uci::Timeouts::kNames)) return false;
  for (std::size_t i = 0; i < std::size(kTimeoutFields); ++i)
    if (kTimeoutFields[i].name != uci::Timeouts::kNames[i]) return false;
  return true;
}
static_assert(timeout_fields_match_names(), "kTimeoutFields must list uci::Timeouts::kNames, in order");

constexpr auto kTimeoutKeys = [] {
  std::array<std::string_view, std::size(kTimeoutFields) + 1> keys{};
  for (std::size_t i = 0; i < std::size(kTimeoutFields); ++i) keys[i] = kTimeoutFields[i].name;
  keys.back() = "scale";
  return keys;
}();
constexpr std::string_view kTopKeys[] = {"timeouts", "engine", "store", "daemon", "spool", "logging"};
// The job keys every kind has; each kind's own flags (JobKind::flags) come on top.
constexpr std::string_view kJobKeys[] = {"kind",     "engine",   "depth",         "nodes",    "movetime",
                                         "mate",     "multipv",  "new_game",      "keep_existing", "chess960",
                                         "counters"};
constexpr std::string_view kSpoolKeys[] = {"directory", "settle_seconds", "kind",     "engine",        "depth",
                                           "nodes",     "movetime",       "mate",     "multipv",       "new_game",
                                           "keep_existing", "chess960",   "counters"};
constexpr std::string_view kStoreKeys[] = {"location"};
constexpr std::string_view kDaemonKeys[] = {"store", "lease_seconds", "poll_ms", "stop_deadline_seconds", "retries"};
constexpr std::string_view kLoggingKeys[] = {"level", "file", "max_size_mb", "max_files", "transcripts"};
constexpr std::string_view kLevels[] = {"trace", "debug", "info", "warn", "error", "off"};
constexpr std::string_view kEngineKeys[] = {"name",     "command",  "args",     "working_directory",    "env",
                                            "instances", "max_line", "restarts", "chess960_when_needed", "own_book_off",
                                            "options",   "timeouts"};
constexpr std::string_view kRestartKeys[] = {"max", "window_seconds"};

// Collects errors and keeps the one that comes first in the file: toml++ tables iterate in key
// order, not document order, and a user fixes a file from the top.
class Errors {
 public:
  explicit Errors(std::string_view file) : file_(file) {}
  void add(const toml::source_region& where, std::string message) {
    const int line = static_cast<int>(where.begin.line);
    const int column = static_cast<int>(where.begin.column);
    if (first_ && std::pair(first_->line, first_->column) <= std::pair(line, column)) return;
    first_ = EngineConfigError{file_, line, column, std::move(message)};
  }
  bool any() const { return first_.has_value(); }
  // "file:line:col" of a place in the file, for messages given after reading (an engine's
  // answer to an option set here).
  std::string where(const toml::source_region& at) const {
    return fmt::format("{}:{}:{}", file_, at.begin.line, at.begin.column);
  }
  EngineConfigError take() { return std::move(*first_); }

 private:
  std::string file_;
  std::optional<EngineConfigError> first_;
};

bool has_control_character(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}


// What a value is, for "must be ..., not <this>" messages.
std::string describe(const toml::node& node) {
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* f = node.as_floating_point()) {
    const double v = f->get();
    const bool integral = std::isfinite(v) && std::trunc(v) == v && std::fabs(v) < 1e15;
    return integral ? fmt::format("the float {:.1f}", v) : fmt::format("the float {}", v);
  }
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  if (const auto* s = node.as_string()) {
    const std::string& text = s->get();
    if (text.size() <= 40 && !has_control_character(text)) return fmt::format("the string \"{}\"", text);
    return "a string";
  }
  switch (node.type()) {
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "a value of another type";
  }
}

// Reports every key of `table` that is not in `allowed` (a typo must not be silently ignored),
// naming the nearest allowed key and listing them all. Returns the keys suggested.
std::vector<std::string_view> check_keys(const toml::table& table, std::span<const std::string_view> allowed,
                                         std::string_view noun, std::string_view where, Errors& errors) {
  std::vector<std::string_view> suggested;
  for (auto&& [key, node] : table) {
    const std::string_view name = key.str();
    if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
    const std::vector<std::string_view> near = core::nearest_names(name, allowed);
    const std::optional<std::string_view> nearest =
        near.empty() ? std::nullopt : std::optional<std::string_view>(near.front());
    const std::string hint = nearest ? fmt::format(" (did you mean '{}'?)", *nearest) : std::string();
    if (nearest) suggested.push_back(*nearest);
    errors.add(key.source(), fmt::format("unknown {} '{}' in {}{}; allowed: {}", noun, name, where, hint,
                                         fmt::join(allowed, ", ")));
  }
  return suggested;
}

// The entries of a table in the order they are written (toml++ sorts them by key).
std::vector<std::pair<const toml::key*, const toml::node*>> in_document_order(const toml::table& table) {
  std::vector<std::pair<const toml::key*, const toml::node*>> entries;
  for (auto&& [key, node] : table) entries.emplace_back(&key, &node);
  std::stable_sort(entries.begin(), entries.end(),
                   [](const auto& a, const auto& b) { return a.first->source().begin < b.first->source().begin; });
  return entries;
}

// The integer in `node` if it is one from `low` to `high`; otherwise reports
// "<what> must be an integer from <low> to <high><unit>, not <value>" at the value.
std::optional<std::int64_t> integer_in(const toml::node& node, std::string_view what, std::int64_t low,
                                       std::int64_t high, Errors& errors, std::string_view unit = "") {
  if (const auto* i = node.as_integer(); i && i->get() >= low && i->get() <= high) return i->get();
  errors.add(node.source(), fmt::format("{} must be an integer from {} to {}{}, not {}", what, low, high, unit,
                                        describe(node)));
  return std::nullopt;
}

// The string in `node`; process strings may hold anything but NUL, which exec would cut at.
std::optional<std::string> string_of(const toml::node& node, std::string_view what, Errors& errors) {
  const auto* s = node.as_string();
  if (!s) {
    errors.add(node.source(), fmt::format("{} must be a string, not {}", what, describe(node)));
    return std::nullopt;
  }
  if (s->get().find('\0') != std::string::npos) {
    errors.add(node.source(), fmt::format("{} must not contain a NUL character", what));
    return std::nullopt;
  }
  return s->get();
}

std::optional<bool> boolean_of(const toml::node& node, std::string_view what, Errors& errors) {
  if (const auto* b = node.as_boolean()) return b->get();
  errors.add(node.source(), fmt::format("{} must be true or false, not {}", what, describe(node)));
  return std::nullopt;
}

const toml::table* table_of(const toml::node& node, std::string_view what, Errors& errors) {
  const toml::table* table = node.as_table();
  if (!table) errors.add(node.source(), fmt::format("{} must be a table, not {}", what, describe(node)));
  return table;
}

// [timeouts] or [engine.timeouts]: sets the timeouts named in `node` on top of `into`.
void read_timeouts(const toml::node& node, std::string_view where, uci::Timeouts& into, Errors& errors) {
  const toml::table* table = table_of(node, where, errors);
  if (!table) return;
  check_keys(*table, kTimeoutKeys, "timeout", where, errors);
  for (const TimeoutField& f : kTimeoutFields) {
    const toml::node* value = table->get(f.name);
    if (!value) continue;
    if (auto ms = integer_in(*value, fmt::format("timeout '{}'", f.name), 0, kMaxTimeoutMs, errors, " (milliseconds)"))
      into.*f.field = uci::Milliseconds(*ms);
  }
  if (const toml::node* value = table->get("scale")) {
    const std::optional<double> scale = value->is_number() ? value->value<double>() : std::nullopt;
    if (scale && std::isfinite(*scale) && *scale > 0 && *scale <= kMaxScale)
      into.scale = *scale;
    else
      errors.add(value->source(), fmt::format("timeout scale must be a number greater than 0 and at most {}, not {}",
                                              kMaxScale, describe(*value)));
  }
}

// Option values become the text sent after `value`: integers in decimal, booleans true/false.
// Control characters could smuggle a second command onto the engine's stdin.
std::optional<std::string> option_value(const toml::node& node, std::string_view name, Errors& errors) {
  std::string text;
  if (const auto* i = node.as_integer()) {
    text = std::to_string(i->get());
  } else if (const auto* b = node.as_boolean()) {
    text = b->get() ? "true" : "false";
  } else if (const auto* s = node.as_string()) {
    text = s->get();
  } else {
    errors.add(node.source(), fmt::format("option '{}' must be a string, an integer or a boolean, not {}", name,
                                          describe(node)));
    return std::nullopt;
  }
  if (has_control_character(text)) {
    errors.add(node.source(), fmt::format("option '{}' must not contain line breaks or other control characters", name));
    return std::nullopt;
  }
  return text;
}

// [engine.options], in the order written (it is the order they are sent after Threads and Hash).
void read_options(const toml::node& node, std::vector<uci::OptionSetting>& into, Errors& errors) {
  const toml::table* table = table_of(node, "options", errors);
  if (!table) return;
  std::map<std::string, const toml::key*> seen;  // lower-case name: the first key spelled so
  for (const auto& [key, value] : in_document_order(*table)) {
    const std::string name(key->str());
    if (name.empty() || has_control_character(name)) {
      errors.add(key->source(), "an option name must not be empty or contain control characters");
      continue;
    }
    const auto [first, inserted] = seen.emplace(core::ascii_lowercase(name), key);
    if (!inserted) {
      errors.add(key->source(), fmt::format("option '{}' repeats '{}' (line {}): UCI option names ignore case", name,
                                            first->second->str(), first->second->source().begin.line));
      continue;
    }
    if (auto text = option_value(*value, name, errors))
      into.push_back({name, std::move(*text), errors.where(key->source())});
  }
}

void read_env(const toml::node& node, std::vector<std::pair<std::string, std::string>>& into, Errors& errors) {
  const toml::table* table = table_of(node, "env", errors);
  if (!table) return;
  for (const auto& [key, value] : in_document_order(*table)) {
    const std::string_view name = key->str();
    if (name.empty() || name.find('=') != std::string_view::npos || name.find('\0') != std::string_view::npos) {
      errors.add(key->source(), "an environment variable name must not be empty or contain '=' or NUL");
      continue;
    }
    if (auto text = string_of(*value, fmt::format("env.{}", name), errors)) into.emplace_back(name, std::move(*text));
  }
}

void read_args(const toml::node& node, std::vector<std::string>& into, Errors& errors) {
  const toml::array* array = node.as_array();
  if (!array) {
    errors.add(node.source(), fmt::format("args must be an array of strings, not {}", describe(node)));
    return;
  }
  for (std::size_t i = 0; i < array->size(); ++i)
    if (auto arg = string_of((*array)[i], fmt::format("args[{}]", i), errors)) into.push_back(std::move(*arg));
}

void read_restarts(const toml::node& node, uci::RestartBudget& into, Errors& errors) {
  const toml::table* table = table_of(node, "restarts", errors);
  if (!table) return;
  check_keys(*table, kRestartKeys, "key", "restarts", errors);
  if (const toml::node* max = table->get("max"))
    if (auto n = integer_in(*max, "restarts.max", 0, kMaxRestarts, errors)) into.max_restarts = static_cast<int>(*n);
  if (const toml::node* window = table->get("window_seconds"))
    if (auto n = integer_in(*window, "restarts.window_seconds", 1, kMaxRestartWindowSeconds, errors))
      into.window = std::chrono::seconds(*n);
}

// name, command, args, working_directory, env. False if the engine has no usable name. A
// required key that an unknown key was taken for ("comand") is not reported missing as well:
// the "did you mean" error is the one to read, and it would otherwise come second.
bool read_identity(const toml::table& table, std::span<const std::string_view> suggested, uci::EngineConfig& config,
                   Errors& errors) {
  const auto misspelt = [&](std::string_view key) {
    return std::find(suggested.begin(), suggested.end(), key) != suggested.end();
  };
  bool named = false;
  if (const toml::node* name = table.get("name")) {
    if (auto text = string_of(*name, "name", errors)) {
      if (text->empty() || has_control_character(*text)) {
        errors.add(name->source(), "name must not be empty or contain control characters");
      } else {
        config.name = std::move(*text);
        named = true;
      }
    }
  } else if (!misspelt("name")) {
    errors.add(table.source(), "this [[engine]] has no name: name = \"...\" is required");
  }
  if (const toml::node* command = table.get("command")) {
    if (auto text = string_of(*command, "command", errors)) {
      if (std::all_of(text->begin(), text->end(), [](unsigned char c) { return std::isspace(c); })) {
        errors.add(command->source(), "command must not be empty: give the engine's path");
      } else {
        config.process.program = std::move(*text);
      }
    }
  } else if (!misspelt("command")) {
    errors.add(table.source(), "this [[engine]] has no command: command = \"/path/to/engine\" is required");
  }
  if (const toml::node* args = table.get("args")) read_args(*args, config.process.args, errors);
  if (const toml::node* dir = table.get("working_directory"))
    if (auto text = string_of(*dir, "working_directory", errors)) config.process.working_directory = std::move(*text);
  if (const toml::node* env = table.get("env")) read_env(*env, config.process.env, errors);
  return named;
}

// One [[engine]] table on top of the file-wide timeouts; nullopt if it has no usable name.
std::optional<uci::EngineConfig> read_engine(const toml::table& table, const uci::Timeouts& base, Errors& errors) {
  const std::vector<std::string_view> suggested = check_keys(table, kEngineKeys, "key", "[[engine]]", errors);
  uci::EngineConfig config;
  config.timeouts = base;
  const bool named = read_identity(table, suggested, config, errors);
  if (const toml::node* n = table.get("instances"))
    if (auto v = integer_in(*n, "instances", 1, kMaxInstances, errors)) config.instances = static_cast<int>(*v);
  if (const toml::node* n = table.get("max_line"))
    if (auto v = integer_in(*n, "max_line", kMinMaxLine, kMaxMaxLine, errors, " (bytes)"))
      config.max_line = static_cast<std::size_t>(*v);
  if (const toml::node* n = table.get("restarts")) read_restarts(*n, config.restarts, errors);
  if (const toml::node* n = table.get("chess960_when_needed"))
    if (auto v = boolean_of(*n, "chess960_when_needed", errors)) config.chess960_when_needed = *v;
  if (const toml::node* n = table.get("own_book_off"))
    if (auto v = boolean_of(*n, "own_book_off", errors)) config.own_book_off = *v;
  if (const toml::node* n = table.get("options")) read_options(*n, config.options, errors);
  if (const toml::node* n = table.get("timeouts")) read_timeouts(*n, "[engine.timeouts]", config.timeouts, errors);
  if (!named) return std::nullopt;
  return config;
}

void read_engines(const toml::node& node, const uci::Timeouts& base, std::vector<uci::EngineConfig>& into,
                  Errors& errors) {
  const toml::array* array = node.as_array();
  if (!array) {
    if (node.is_table())
      errors.add(node.source(), "engines are written [[engine]] (an array of tables), not [engine]");
    else
      errors.add(node.source(), fmt::format("engine must be an array of tables ([[engine]]), not {}", describe(node)));
    return;
  }
  std::map<std::string, std::uint32_t> first_line;  // engine name: line where it is defined
  for (const toml::node& element : *array) {
    const toml::table* table = element.as_table();
    if (!table) {
      errors.add(element.source(), fmt::format("each engine must be a table ([[engine]]), not {}", describe(element)));
      continue;
    }
    std::optional<uci::EngineConfig> config = read_engine(*table, base, errors);
    if (!config) continue;
    const toml::node* name = table->get("name");
    const auto [first, inserted] = first_line.emplace(config->name, name->source().begin.line);
    if (!inserted)
      errors.add(name->source(), fmt::format("duplicate engine name '{}': line {} defines it already", config->name,
                                             first->second));
    into.push_back(std::move(*config));
  }
}

// A store's location as written: a PostgreSQL URL as it is, a relative path relative to the
// file's directory.
std::string resolve_store(const std::string& location, std::string_view file);

// A relative path in the file means relative to the file's directory.
std::string resolve(const std::string& path, std::string_view file) {
  namespace fs = std::filesystem;
  if (path.empty() || fs::path(path).is_absolute()) return path;
  return (fs::absolute(fs::path(file)).parent_path() / path).lexically_normal().string();
}

std::string resolve_store(const std::string& location, std::string_view file) {
  return store::is_postgresql_location(location) ? location : resolve(location, file);
}

// A kind's option (annotate's judge = "cp:50,100,300", from_ply = 10), kept as text; a file's
// name (Type::Path) relative to the directory of `relative_to` when that is given.
void read_kind_option(const toml::node& node, const KindOption& option, JobSpec& into, Errors& errors,
                      std::string_view relative_to) {
  std::optional<std::string> text;
  switch (option.type) {
    case KindOption::Type::Integer:
      if (const auto* i = node.as_integer()) text = std::to_string(i->get());
      else errors.add(node.source(), fmt::format("{} must be an integer, not {}", option.key, describe(node)));
      break;
    case KindOption::Type::Flag:
      if (auto b = boolean_of(node, option.key, errors)) text = *b ? "true" : "false";
      break;
    case KindOption::Type::Text:
      text = string_of(node, option.key, errors);
      break;
    case KindOption::Type::Path:
      text = string_of(node, option.key, errors);
      if (text && !relative_to.empty()) text = resolve(*text, relative_to);
      break;
  }
  if (!text) return;
  if (auto why = option.check(*text)) errors.add(node.source(), fmt::format("{}: {}", option.key, *why));
  else into.options[std::string(option.key)] = *text;
}

// The job keys of [spool] or of a sidecar file, on top of `into`; file names relative to the
// directory of `relative_to` (the TOML file) when it is given.
void read_job_settings(const toml::table& table, JobSpec& into, Errors& errors, std::string_view relative_to) {
  // Limits given here replace the ones below (a sidecar's nodes is not added to [spool]'s depth).
  for (const char* limit : {"depth", "nodes", "movetime", "mate"})
    if (table.contains(limit)) into.limits = {};
  for (const auto& [key_ptr, node_ptr] : in_document_order(table)) {
    const std::string_view key = key_ptr->str();
    const toml::node& node = *node_ptr;
    if (key == "kind") {
      if (auto v = string_of(node, "kind", errors)) {
        if (find_kind(*v)) into.kind = *v;
        else errors.add(node.source(), fmt::format("kind must be {}, not {}", kind_names(), describe(node)));
      }
    } else if (key == "engine") {
      if (auto v = string_of(node, "engine", errors)) into.engine = *v;
    } else if (key == "depth") {
      if (auto v = integer_in(node, "depth", 1, 1000, errors)) into.limits.depth = static_cast<int>(*v);
    } else if (key == "nodes") {
      if (auto v = integer_in(node, "nodes", 1, std::int64_t{1} << 50, errors)) into.limits.nodes = *v;
    } else if (key == "movetime") {
      if (auto v = integer_in(node, "movetime", 1, kMaxTimeoutMs, errors, " ms")) into.limits.movetime_ms = *v;
    } else if (key == "mate") {
      if (auto v = integer_in(node, "mate", 1, 500, errors)) into.limits.mate = static_cast<int>(*v);
    } else if (key == "multipv") {
      if (auto v = integer_in(node, "multipv", 1, 500, errors)) into.multipv = static_cast<int>(*v);
    } else if (key == "new_game") {
      if (auto v = string_of(node, "new_game", errors)) {
        if (*v == "clear" || *v == "keep") into.new_game = *v == "keep" ? uci::NewGame::Keep : uci::NewGame::Clear;
        else errors.add(node.source(), fmt::format("new_game must be \"clear\" or \"keep\", not {}", describe(node)));
      }
    } else if (key == "keep_existing") {
      if (auto v = boolean_of(node, "keep_existing", errors)) into.keep_existing = *v;
    } else if (key == "chess960") {
      if (auto v = boolean_of(node, "chess960", errors)) into.chess960 = *v;
    } else if (key == "counters") {
      if (auto v = string_of(node, "counters", errors)) {
        if (*v == "keep" || *v == "ops") into.counters_as_operations = *v == "ops";
        else errors.add(node.source(), fmt::format("counters must be \"keep\" or \"ops\", not {}", describe(node)));
      }
    } else {
      for (const KindFlag& flag : all_kind_flags())
        if (key == flag.key)
          if (auto v = boolean_of(node, flag.key, errors)) into.*flag.field = *v;
      for (const KindOption& option : all_kind_options())
        if (key == option.key) read_kind_option(node, option, into, errors, relative_to);
    }
  }
}

// The keys of a job's settings: `common` and every kind's flags.
std::vector<std::string_view> job_keys(std::span<const std::string_view> common) {
  std::vector<std::string_view> keys(common.begin(), common.end());
  for (const KindFlag& flag : all_kind_flags()) keys.push_back(flag.key);
  for (const KindOption& option : all_kind_options()) keys.push_back(option.key);
  return keys;
}

void read_daemon(const toml::node& node, std::string_view file, DaemonSettings& into, Errors& errors) {
  const toml::table* table = table_of(node, "[daemon]", errors);
  if (!table) return;
  check_keys(*table, kDaemonKeys, "key", "[daemon]", errors);
  if (const toml::node* n = table->get("store"))
    if (auto v = string_of(*n, "store", errors)) into.store = resolve_store(*v, file);
  if (const toml::node* n = table->get("lease_seconds"))
    if (auto v = integer_in(*n, "lease_seconds", 2, 86400, errors)) into.lease_ms = *v * 1000;
  if (const toml::node* n = table->get("poll_ms"))
    if (auto v = integer_in(*n, "poll_ms", 10, 60000, errors)) into.poll_ms = *v;
  if (const toml::node* n = table->get("stop_deadline_seconds"))
    if (auto v = integer_in(*n, "stop_deadline_seconds", 0, 86400, errors)) into.stop_deadline_ms = *v * 1000;
  if (const toml::node* n = table->get("retries"))
    if (auto v = integer_in(*n, "retries", 0, 10, errors)) into.retries = static_cast<int>(*v);
}

// [store] location: the store's own table (the store is not the daemon: the one-shot commands
// and submit/status/cancel/results read it too). The older [daemon] store means the same; both
// given is an error unless they agree.
void read_store(const toml::node& node, std::string_view file, const toml::table& root, DaemonSettings& into,
                Errors& errors) {
  const toml::table* table = table_of(node, "[store]", errors);
  if (!table) return;
  check_keys(*table, kStoreKeys, "key", "[store]", errors);
  const toml::node* n = table->get("location");
  if (!n) return;
  const auto v = string_of(*n, "location", errors);
  if (!v) return;
  const std::string location = resolve_store(*v, file);
  const toml::node* older = root.at_path("daemon.store").node();
  if (older && older->is_string() && resolve_store(older->value_or(std::string()), file) != location) {
    errors.add(n->source(), fmt::format("[store] location and [daemon] store name different stores ({} and {}); "
                                        "keep [store] location",
                                        store::location_without_password(location),
                                        store::location_without_password(older->value_or(std::string()))));
    return;
  }
  into.store = location;
}

void read_spool(const toml::node& node, std::string_view file, std::optional<SpoolSettings>& into, Errors& errors) {
  const toml::table* table = table_of(node, "[spool]", errors);
  if (!table) return;
  check_keys(*table, job_keys(kSpoolKeys), "key", "[spool]", errors);
  SpoolSettings spool;
  const toml::node* dir = table->get("directory");
  if (!dir) {
    errors.add(table->source(), "[spool] needs directory = \"...\" (inbox/, outbox/, done/ and failed/ go there)");
    return;
  }
  if (auto v = string_of(*dir, "directory", errors)) {
    if (v->empty()) errors.add(dir->source(), "[spool] directory must not be empty: give the spool's path");
    else spool.directory = resolve(*v, file);
  }
  if (const toml::node* n = table->get("settle_seconds"))
    if (auto v = integer_in(*n, "settle_seconds", 0, 3600, errors)) spool.settle_ms = *v * 1000;
  read_job_settings(*table, spool.defaults, errors, file);
  into = std::move(spool);
}

void read_logging(const toml::node& node, std::string_view file, LoggingSettings& into, Errors& errors) {
  const toml::table* table = table_of(node, "[logging]", errors);
  if (!table) return;
  check_keys(*table, kLoggingKeys, "key", "[logging]", errors);
  if (const toml::node* n = table->get("level"))
    if (auto v = string_of(*n, "level", errors)) {
      if (std::find(std::begin(kLevels), std::end(kLevels), *v) != std::end(kLevels)) into.level = *v;
      else errors.add(n->source(), fmt::format("level must be one of {}, not {}", fmt::join(kLevels, ", "), describe(*n)));
    }
  if (const toml::node* n = table->get("file"))
    if (auto v = string_of(*n, "file", errors)) into.file = v->empty() ? std::optional<std::string>() : resolve(*v, file);
  if (const toml::node* n = table->get("max_size_mb"))
    if (auto v = integer_in(*n, "max_size_mb", 1, 1 << 20, errors)) into.max_size_bytes = static_cast<std::size_t>(*v) << 20;
  if (const toml::node* n = table->get("max_files"))
    if (auto v = integer_in(*n, "max_files", 1, 1000, errors)) into.max_files = static_cast<std::size_t>(*v);
  if (const toml::node* n = table->get("transcripts"))
    if (auto v = boolean_of(*n, "transcripts", errors)) into.transcripts = *v;
}

Expected<DaemonConfig, EngineConfigError> read_daemon_document(const toml::table& root, std::string_view file) {
  Errors errors(file);
  DaemonConfig config;
  config.daemon.store = resolve("epdd.db", file);
  if (const toml::node* n = root.get("daemon")) read_daemon(*n, file, config.daemon, errors);
  if (const toml::node* n = root.get("store")) read_store(*n, file, root, config.daemon, errors);
  if (const toml::node* n = root.get("spool")) read_spool(*n, file, config.spool, errors);
  if (const toml::node* n = root.get("logging")) read_logging(*n, file, config.logging, errors);
  if (errors.any()) return unexpected(errors.take());
  return config;
}

Expected<std::vector<uci::EngineConfig>, EngineConfigError> read_document(const toml::table& root,
                                                                          std::string_view file) {
  Errors errors(file);
  check_keys(root, kTopKeys, "key", "the top level", errors);
  uci::Timeouts base;
  if (const toml::node* timeouts = root.get("timeouts")) read_timeouts(*timeouts, "[timeouts]", base, errors);
  std::vector<uci::EngineConfig> engines;
  if (const toml::node* engine = root.get("engine")) read_engines(*engine, base, engines, errors);
  if (errors.any()) return unexpected(errors.take());
  if (engines.empty())
    return unexpected(
        EngineConfigError{std::string(file), 0, 0, "no engine: add an [[engine]] table with a name and a command"});
  return engines;
}

}  // namespace

std::string EngineConfigError::to_string() const {
  std::string where = file;
  if (line > 0) {
    if (!where.empty()) where += ':';
    where += std::to_string(line);
    if (column > 0) where += ':' + std::to_string(column);
  }
  return where.empty() ? message : where + ": " + message;
}

namespace {

// Parses `text` as TOML and hands the root to `read`, turning parse errors into located errors.
template <class Read>
auto parse_with(std::string_view text, std::string_view file, Read read) -> decltype(read(toml::table())) {
  try {
    const toml::table root = toml::parse(text, file);
    return read(root);
  } catch (const toml::parse_error& e) {
    const toml::source_position& at = e.source().begin;
    return unexpected(EngineConfigError{std::string(file), static_cast<int>(at.line), static_cast<int>(at.column),
                                        std::string(e.description())});
  } catch (const std::exception& e) {
    return unexpected(EngineConfigError{std::string(file), 0, 0, fmt::format("cannot read it: {}", e.what())});
  }
}

Expected<std::string, EngineConfigError> read_text(const std::string& path, std::string_view what) {
  try {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      return unexpected(EngineConfigError{path, 0, 0, fmt::format("is a directory, not {}", what)});
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return unexpected(EngineConfigError{path, 0, 0, fmt::format("cannot open for reading: {}", std::strerror(errno))});
    std::ostringstream contents;
    contents << in.rdbuf();
    if (in.bad()) return unexpected(EngineConfigError{path, 0, 0, "read error"});
    return contents.str();
  } catch (const std::exception& e) {
    return unexpected(EngineConfigError{path, 0, 0, fmt::format("cannot read it: {}", e.what())});
  }
}

}  // namespace

Expected<std::vector<uci::EngineConfig>, EngineConfigError> parse_engine_configs(std::string_view toml_text,
                                                                                 std::string_view file_name) {
  return parse_with(toml_text, file_name, [&](const toml::table& root) { return read_document(root, file_name); });
}

Expected<DaemonConfig, EngineConfigError> parse_daemon_config(std::string_view text, std::string_view file) {
  auto engines = parse_engine_configs(text, file);
  if (!engines) return unexpected(engines.error());
  auto config = parse_with(text, file, [&](const toml::table& root) { return read_daemon_document(root, file); });
  if (!config) return config;
  config->engines = std::move(*engines);
  if (config->spool && !config->spool->defaults.engine.empty()) {
    const auto& e = config->engines;
    if (std::none_of(e.begin(), e.end(), [&](const auto& c) { return c.name == config->spool->defaults.engine; }))
      return unexpected(EngineConfigError{std::string(file), 0, 0,
                                          fmt::format("[spool] engine '{}' is not an [[engine]] of this file",
                                                      config->spool->defaults.engine)});
  }
  return config;
}

Expected<DaemonConfig, EngineConfigError> read_daemon_config(const std::string& path) {
  auto text = read_text(path, "a configuration file");
  if (!text) return unexpected(text.error());
  return parse_daemon_config(*text, path);
}

Expected<JobSpec, EngineConfigError> parse_job_settings(std::string_view text, std::string_view file,
                                                            const JobSpec& base, std::string_view relative_to) {
  return parse_with(text, file, [&](const toml::table& root) -> Expected<JobSpec, EngineConfigError> {
    Errors errors(file);
    check_keys(root, job_keys(kJobKeys), "key", "a job's settings", errors);
    JobSpec settings = base;
    read_job_settings(root, settings, errors, relative_to);
    if (errors.any()) return unexpected(errors.take());
    return settings;
  });
}

Expected<std::vector<uci::EngineConfig>, EngineConfigError> read_engine_configs(const std::string& path) {
  auto text = read_text(path, "an engine configuration file");
  if (!text) return unexpected(text.error());
  return parse_engine_configs(*text, path);
}

std::vector<ConfigTable> config_tables() {
  const auto table = [](std::string name, std::span<const std::string_view> keys) {
    return ConfigTable{std::move(name), std::vector<std::string>(keys.begin(), keys.end())};
  };
  return {table("", kTopKeys),
          table("timeouts", kTimeoutKeys),
          table("engine", kEngineKeys),
          table("engine.restarts", kRestartKeys),
          table("engine.timeouts", kTimeoutKeys),
          table("store", kStoreKeys),
          table("daemon", kDaemonKeys),
          table("spool", job_keys(kSpoolKeys)),
          table("logging", kLoggingKeys),
          table("sidecar", job_keys(kJobKeys))};
}

uci::EngineConfig default_engine_config() {
  uci::EngineConfig config;
  config.name = "stockfish";
  config.process.program = "/usr/games/stockfish";
  // epdd's defaults, sent to an engine that declares them (uci::OptionSetting::if_declared): an
  // engine without a Hash option works from the command line as from a configuration file.
  config.options = {{"Threads", "1", "", true}, {"Hash", "16", "", true}};
  return config;
}

Expected<uci::EngineConfig, std::string> chosen_engine_config(const std::optional<std::string>& config_path,
                                                              const std::string& engine) {
  if (config_path) return find_engine_config(*config_path, engine);
  uci::EngineConfig c = default_engine_config();
  if (!engine.empty()) {
    c.name = std::filesystem::path(engine).filename().string();
    c.process.program = engine;
  }
  return c;
}

Expected<uci::EngineConfig, std::string> find_engine_config(const std::string& path, const std::string& name) {
  auto configs = read_engine_configs(path);
  if (!configs) return unexpected(configs.error().to_string());
  std::string names;
  for (const auto& c : *configs) {
    if (name.empty() || c.name == name) return c;
    names += (names.empty() ? "" : ", ") + c.name;
  }
  return unexpected(fmt::format("no engine '{}' in {}; it has: {}", name, path, names));
}

}  // namespace epdd::daemon
