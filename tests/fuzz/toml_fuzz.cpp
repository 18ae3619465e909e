// Engine and daemon configuration: any bytes as the TOML of `epdd serve` (parse_daemon_config)
// and of the engine commands (parse_engine_configs). Properties: nothing escapes as an
// exception; reading is deterministic; an error names the file and one of its lines; an
// accepted configuration has at least one engine, every engine a unique non-empty name and a
// non-empty command, every number within the range engine_config_file.hpp documents, option
// values without line breaks, paths made absolute, and the [spool] job settings pass the
// sidecar checks (config_check.hpp).
#include <cctype>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "config_check.hpp"
#include "daemon/engine_config_file.hpp"

using namespace epdd;

namespace {

constexpr std::string_view kFile = "/fuzz/epdd.toml";

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void check_engine(const uci::EngineConfig& e) {
  fuzz::require(!e.name.empty(), "an engine without a name");
  fuzz::require(!e.process.program.empty(), "an engine without a command", e.name);
  fuzz::require(fuzz::within(e.instances, 1, 256), "instances out of 1..256", e.name);
  fuzz::require(fuzz::within(e.max_line, 1024, std::int64_t{1} << 30), "max_line out of 1024..2^30", e.name);
  fuzz::require(fuzz::within(e.restarts.max_restarts, 0, 1000), "restarts.max out of 0..1000", e.name);
  fuzz::require(fuzz::within(e.restarts.window.count(), 1, 604800), "restarts.window_seconds out of range", e.name);
  const uci::Timeouts& t = e.timeouts;
  for (const auto ms : {t.handshake, t.ready, t.new_game, t.search, t.search_margin, t.stop, t.quit, t.terminate,
                        t.write})
    fuzz::require(fuzz::within(ms.count(), 0, fuzz::kMaxTimeoutMs), "a timeout out of 0..30 days", e.name);
  fuzz::require(t.scale > 0 && t.scale <= 1000, "timeouts.scale out of (0, 1000]", e.name);
  std::set<std::string> names;
  for (const auto& o : e.options) {
    fuzz::require(names.insert(lower(o.name)).second, "two options whose names differ only in case", o.name);
    fuzz::require(o.value.find_first_of("\r\n") == std::string::npos, "an option value with a line break", o.value);
    fuzz::require(o.name.find_first_of("\r\n") == std::string::npos, "an option name with a line break", o.name);
  }
}

void check_engines(const std::vector<uci::EngineConfig>& engines) {
  fuzz::require(!engines.empty(), "a configuration accepted without an engine");
  std::set<std::string> names;
  for (const auto& e : engines) {
    check_engine(e);
    fuzz::require(names.insert(e.name).second, "two engines with one name", e.name);
  }
}

void check_daemon(const daemon::DaemonConfig& c) {
  check_engines(c.engines);
  fuzz::require(fuzz::within(c.daemon.lease_ms, 2000, 86400000), "lease_seconds out of 2..86400");
  fuzz::require(fuzz::within(c.daemon.poll_ms, 10, 60000), "poll_ms out of 10..60000");
  fuzz::require(fuzz::within(c.daemon.stop_deadline_ms, 0, 86400000), "stop_deadline_seconds out of range");
  if (c.spool) {
    fuzz::require(c.spool->directory.starts_with('/'), "a spool directory that is not absolute", c.spool->directory);
    fuzz::require(fuzz::within(c.spool->settle_ms, 0, 3600000), "settle_seconds out of 0..3600");
    const std::string& engine = c.spool->defaults.engine;
    fuzz::require(engine.empty() || std::any_of(c.engines.begin(), c.engines.end(),
                                                [&](const auto& e) { return e.name == engine; }),
                  "[spool] engine not among the engines", engine);
    fuzz::check_job_settings(c.spool->defaults);
  }
  fuzz::require(!c.logging.file || c.logging.file->starts_with('/'), "a log file that is not absolute",
                c.logging.file.value_or(""));
  fuzz::require(fuzz::within(c.logging.max_files, 1, 1000), "max_files out of 1..1000");
}

// The same text read twice gives the same outcome (the engines' names and commands, or the error).
std::string outcome(const Expected<daemon::DaemonConfig, daemon::EngineConfigError>& c) {
  if (!c) return "error " + c.error().to_string();
  std::string out;
  for (const auto& e : c->engines) out += e.name + '\n' + e.process.program + '\n';
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = fuzz::as_text(data, size);
  const auto engines = daemon::parse_engine_configs(text, kFile);
  if (engines) check_engines(*engines);
  else fuzz::check_error(engines.error(), text, kFile);

  const auto config = daemon::parse_daemon_config(text, kFile);
  if (config) {
    check_daemon(*config);
    fuzz::require(engines.has_value() && engines->size() == config->engines.size(),
                  "the daemon's configuration has other engines than the engine configuration", text);
  } else {
    fuzz::check_error(config.error(), text, kFile);
  }
  fuzz::require(outcome(daemon::parse_daemon_config(text, kFile)) == outcome(config), "reading is not deterministic",
                outcome(config));
  return 0;
}
