// `--option NAME=VALUE` and `--engine-arg ARG` (issue 22): the parsing of one --option, and the
// command line's engine settings put on top of an engine's configuration.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cli/engine_options.hpp"
#include "daemon/analysis_run.hpp"
#include "daemon/engine_config_file.hpp"
#include "daemon/jobs.hpp"
#include "uci/engine_session.hpp"
#include "uci/protocol.hpp"

using namespace epdd;

TEST_CASE("engine options: --option splits at the first = and keeps spaces and the rest", "[cli][options]") {
  struct Case {
    std::string_view text, name, value;
  };
  const Case c = GENERATE(values<Case>({
      {"Hash=64", "Hash", "64"},
      {"Skill Level=5", "Skill Level", "5"},
      {"Clear Hash=true", "Clear Hash", "true"},
      {"SyzygyPath=/tb/a=b", "SyzygyPath", "/tb/a=b"},  // the value may hold '='
      {"Debug Log File=", "Debug Log File", ""},         // an empty string value
      {"UCI_Chess960= true", "UCI_Chess960", " true"},   // kept as written: the engine's check decides
  }));
  CAPTURE(c.text);
  const auto setting = cli::parse_option_setting(c.text);
  REQUIRE(setting.has_value());
  CHECK(setting->name == c.name);
  CHECK(setting->value == c.value);
  CHECK(setting->origin == "--option");
}

TEST_CASE("engine options: an --option that is not NAME=VALUE is an error in words", "[cli][options]") {
  struct Case {
    std::string_view text, error;
  };
  const Case c = GENERATE(values<Case>({
      {"Hash", "--option Hash: give NAME=VALUE, for example --option \"Skill Level=5\""},
      {"Skill Level", "--option 'Skill Level': give NAME=VALUE, for example --option \"Skill Level=5\""},
      {"", "--option '': give NAME=VALUE, for example --option \"Skill Level=5\""},
      {"=5", "--option =5: the name before '=' is empty"},
      {"Hash=6\n4", "--option 'Hash=6\\n4': no line breaks or other control characters (they would send the engine a "
                    "second command)"},
      {"Ha\rsh=64", "--option 'Ha\\rsh=64': no line breaks or other control characters (they would send the engine a "
                    "second command)"},
  }));
  CAPTURE(c.text);
  const auto setting = cli::parse_option_setting(c.text);
  REQUIRE_FALSE(setting.has_value());
  CHECK(setting.error() == c.error);
}

namespace {

using Options = std::vector<std::pair<std::string, std::string>>;

Options options_of(const uci::EngineConfig& c) {
  Options out;
  for (const auto& o : c.options) out.emplace_back(o.name, o.value);
  return out;
}

uci::OptionSetting option(std::string name, std::string value) { return {std::move(name), std::move(value), "--option"}; }

}  // namespace

TEST_CASE("engine options: --option replaces the configuration's value and adds the others in order", "[cli][options]") {
  uci::EngineConfig c = daemon::default_engine_config();  // Threads=1, Hash=16
  daemon::EngineOverrides o;
  o.options = {option("hash", "64"), option("Skill Level", "5"), option("Contempt", "10")};
  REQUIRE(daemon::apply_engine_overrides(c, o).has_value());
  // The configuration's spelling of a name stays (the cache's identity of the engine is then the
  // same as with the value written there).
  CHECK(options_of(c) == Options{{"Threads", "1"}, {"Hash", "64"}, {"Skill Level", "5"}, {"Contempt", "10"}});
  // What the engine says about a value is said of the command line, not of a configuration line.
  CHECK(c.options[1].origin == "--option");
}

TEST_CASE("engine options: --threads and --hash set Threads and Hash, and say so in their errors", "[cli][options]") {
  uci::EngineConfig c = daemon::default_engine_config();
  c.options[0].origin = "engines.toml:4:1";
  daemon::EngineOverrides o;
  o.threads = 2;
  o.hash = 128;
  REQUIRE(daemon::apply_engine_overrides(c, o).has_value());
  CHECK(options_of(c) == Options{{"Threads", "2"}, {"Hash", "128"}});
  CHECK(c.options[0].origin == "--threads");
  CHECK(c.options[1].origin == "--hash");
}

TEST_CASE("engine options: one option set twice on the command line is an error, whichever way", "[cli][options]") {
  struct Case {
    daemon::EngineOverrides overrides;
    std::string error;
  };
  daemon::EngineOverrides both_threads;
  both_threads.threads = 2;
  both_threads.options = {option("Threads", "4")};
  daemon::EngineOverrides both_hash;
  both_hash.hash = 32;
  both_hash.options = {option("hash", "64")};
  daemon::EngineOverrides twice;
  twice.options = {option("Skill Level", "5"), option("skill level", "6")};
  const Case c = GENERATE_COPY(values<Case>({
      {both_threads, "--threads 2 and --option 'Threads=4' both set Threads: give one of them"},
      {both_hash, "--hash 32 and --option 'hash=64' both set Hash: give one of them"},
      {twice, "--option 'Skill Level=5' and --option 'skill level=6' both set Skill Level: give one of them "
              "(option names ignore case)"},
  }));
  uci::EngineConfig config = daemon::default_engine_config();
  const auto applied = daemon::apply_engine_overrides(config, c.overrides);
  REQUIRE_FALSE(applied.has_value());
  CHECK(applied.error() == c.error);
}

TEST_CASE("engine options: an option epdd sets for each search is refused with what to give instead", "[cli][options]") {
  struct Case {
    std::string name, value, error;
  };
  const Case c = GENERATE(values<Case>({
      {"MultiPV", "3", "--option 'MultiPV=3': epdd sets MultiPV itself for each search, from --multipv"},
      {"multipv", "1", "--option 'multipv=1': epdd sets MultiPV itself for each search, from --multipv"},
      {"UCI_Chess960", "true",
       "--option 'UCI_Chess960=true': epdd sets UCI_Chess960 itself for each position (true for a Chess960 one)"},
  }));
  uci::EngineConfig config = daemon::default_engine_config();
  daemon::EngineOverrides o;
  o.options = {option(c.name, c.value)};
  const auto applied = daemon::apply_engine_overrides(config, o);
  REQUIRE_FALSE(applied.has_value());
  CHECK(applied.error() == c.error);
}

TEST_CASE("engine options: --engine-arg comes after the configuration's arguments", "[cli][options]") {
  uci::EngineConfig c = daemon::default_engine_config();
  c.process.args = {"--uci"};
  daemon::EngineOverrides o;
  o.args = {"--log=/tmp/x", "two words", ""};
  REQUIRE(daemon::apply_engine_overrides(c, o).has_value());
  CHECK(c.process.args == std::vector<std::string>{"--uci", "--log=/tmp/x", "two words", ""});
}

TEST_CASE("engine options: values with commas, '=' or parentheses keep identities apart and readable", "[cli][options]") {
  const auto identity = [](std::vector<uci::OptionSetting> options) {
    uci::EngineConfig c = daemon::default_engine_config();
    c.options = std::move(options);
    return daemon::engine_identity_for(c, uci::EngineIdentity{"Stockfish 15.1", "", {}});
  };
  // One option whose value reads like two options is not those two options.
  CHECK(identity({option("Debug Log File", "x, Hash=16")}) != identity({option("Debug Log File", "x"), option("Hash", "16")}));
  CHECK(identity({option("A", "1\\x2c B=2")}) != identity({option("A", "1, B=2")}));
  // The `id name` is read back from the identity (reports, jobs) up to its settings.
  const std::string with_parentheses = identity({option("Debug Log File", "/tmp/run (1).log")});
  CHECK(daemon::split_engine_identity(with_parentheses).first == "Stockfish 15.1");
  // Plain values are written as they are: the identities already in stores stay the same.
  CHECK(identity({option("Hash", "16"), option("Threads", "1")}).rfind("Stockfish 15.1 (Hash=16, Threads=1; program ", 0) == 0);
}

TEST_CASE("engine options: the identity has the options as the engine is told them", "[cli][options]") {
  // Stockfish 15.1's declarations of the options used here.
  std::vector<uci::OptionLine> declared;
  for (const std::string_view line : {"option name Threads type spin default 1 min 1 max 1024",
                                      "option name Hash type spin default 16 min 1 max 33554432",
                                      "option name Ponder type check default false",
                                      "option name Skill Level type spin default 20 min 0 max 20"}) {
    const uci::EngineMessage m = uci::parse_engine_line(line);
    REQUIRE(std::holds_alternative<uci::OptionLine>(m));
    declared.push_back(std::get<uci::OptionLine>(m));
  }
  const auto identity = [&](std::vector<uci::OptionSetting> options) {
    uci::EngineConfig c = daemon::default_engine_config();
    c.options = std::move(options);
    return daemon::engine_identity_for(c, uci::EngineIdentity{"Stockfish 15.1", "", declared});
  };
  const std::string canonical = identity({option("Hash", "16"), option("Threads", "1"), option("Skill Level", "5")});
  // The text of canonical settings is the one the stores already have (sorted by name).
  CHECK(canonical.rfind("Stockfish 15.1 (Hash=16, Skill Level=5, Threads=1; program ", 0) == 0);
  CHECK(identity({option("hash", "016"), option("THREADS", "1"), option("skill level", "05")}) == canonical);
  CHECK(identity({option("SKILL LEVEL", "5"), option("Hash", "16"), option("Threads", "1")}) == canonical);
  CHECK(identity({option("Hash", "16"), option("Threads", "1"), option("Skill Level", "6")}) != canonical);
  CHECK(identity({option("Ponder", "TRUE")}) == identity({option("ponder", "true")}));
  CHECK(identity({option("Ponder", "TRUE")}) != identity({option("Ponder", "false")}));
}

TEST_CASE("engine options: epdd's defaults an engine does not declare are not in its identity", "[cli][options]") {
  const auto declared = [](std::vector<std::string_view> lines) {
    std::vector<uci::OptionLine> out;
    for (const std::string_view line : lines) out.push_back(std::get<uci::OptionLine>(uci::parse_engine_line(line)));
    return out;
  };
  const uci::EngineConfig c = daemon::default_engine_config();
  const auto options = [&](std::vector<uci::OptionLine> d) {
    return daemon::split_engine_identity(daemon::engine_identity_for(c, uci::EngineIdentity{"E 1", "", std::move(d)})).second;
  };
  const auto with = [](const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; };
  const std::string both = options(declared({"option name Threads type spin default 1 min 1 max 8",
                                              "option name Hash type spin default 16 min 1 max 64"}));
  CHECK(both.rfind("Hash=16, Threads=1; program ", 0) == 0);
  const std::string no_hash = options(declared({"option name Threads type spin default 1 min 1 max 8"}));
  CHECK(no_hash.rfind("Threads=1; program ", 0) == 0);
  CHECK_FALSE(with(no_hash, "Hash"));
  CHECK(options({}).rfind("the engine's default options; program ", 0) == 0);
  // --hash is the user's: named (the engine refuses it before any search anyway).
  uci::EngineConfig asked = c;
  daemon::EngineOverrides o;
  o.hash = 64;
  REQUIRE(daemon::apply_engine_overrides(asked, o).has_value());
  CHECK_FALSE(asked.options[1].if_declared);
  CHECK(with(daemon::engine_identity_for(asked, uci::EngineIdentity{"E 1", "", {}}), "Hash=64"));
}
