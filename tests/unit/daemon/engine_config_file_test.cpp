// Engine configuration files: every field of a valid file, every error with its file:line:col,
// TOML syntax errors, unreadable files and the embedded default.
#include <string>
#include <vector>

#include "daemon/engine_config_file.hpp"
#include "uci/options.hpp"
#include "test_support.hpp"

using namespace epdd;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

using Configs = std::vector<uci::EngineConfig>;

Configs parse_ok(const std::string& text) {
  const auto parsed = daemon::parse_engine_configs(text, "engines.toml");
  INFO((parsed ? std::string() : parsed.error().to_string()));
  REQUIRE(parsed.has_value());
  return *parsed;
}

std::vector<std::pair<std::string, std::string>> options_of(const uci::EngineConfig& c) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& o : c.options) out.emplace_back(o.name, o.value);
  return out;
}

// Every timeout with its name, to compare whole Timeouts values field by field.
std::vector<std::pair<std::string, long long>> timeouts_of(const uci::Timeouts& t) {
  return {{"handshake", t.handshake.count()}, {"ready", t.ready.count()},
          {"new_game", t.new_game.count()},   {"search", t.search.count()},
          {"search_margin", t.search_margin.count()}, {"stop", t.stop.count()},
          {"quit", t.quit.count()},           {"terminate", t.terminate.count()},
          {"write", t.write.count()}};
}

}  // namespace

TEST_CASE("engine config: a full file fills every field", "[daemon][config]") {
  const Configs configs = parse_ok(R"(# timeouts for every engine unless an engine overrides them
[timeouts]
handshake = 15000
stop = 7000
scale = 2.5

[[engine]]
name = "stockfish"
command = "/usr/games/stockfish"
args = ["--one", "two words"]
working_directory = "/tmp"
env = { SOME_VAR = "1", OTHER = "x y" }
instances = 2
max_line = 65536
restarts = { max = 5, window_seconds = 60 }
chess960_when_needed = false
own_book_off = false
[engine.options]
Threads = 1
Hash = 64
"Clear Hash" = true
Ponder = false
Contempt = -20
"SyzygyPath" = "/tb/3-4-5:/tb/6"
[engine.timeouts]
search = 120000
scale = 1

[[engine]]
name = "second"
command = "ethereal"
)");
  REQUIRE(configs.size() == 2);

  const uci::EngineConfig& sf = configs[0];
  CHECK(sf.name == "stockfish");
  CHECK(sf.process.program == "/usr/games/stockfish");
  CHECK(sf.process.args == std::vector<std::string>{"--one", "two words"});
  CHECK(sf.process.working_directory == "/tmp");
  // In the order written, not toml++'s key order.
  CHECK(sf.process.env == std::vector<std::pair<std::string, std::string>>{{"SOME_VAR", "1"}, {"OTHER", "x y"}});
  CHECK(sf.instances == 2);
  CHECK(sf.max_line == 65536);
  CHECK(sf.restarts.max_restarts == 5);
  CHECK(sf.restarts.window == seconds(60));
  CHECK_FALSE(sf.chess960_when_needed);
  CHECK_FALSE(sf.own_book_off);
  CHECK(options_of(sf) == std::vector<std::pair<std::string, std::string>>{{"Threads", "1"},
                                                                           {"Hash", "64"},
                                                                           {"Clear Hash", "true"},
                                                                           {"Ponder", "false"},
                                                                           {"Contempt", "-20"},
                                                                           {"SyzygyPath", "/tb/3-4-5:/tb/6"}});
  uci::Timeouts expected;
  expected.handshake = milliseconds(15000);  // from [timeouts]
  expected.stop = milliseconds(7000);        // from [timeouts]
  expected.search = milliseconds(120000);    // the engine's own
  CHECK(timeouts_of(sf.timeouts) == timeouts_of(expected));
  CHECK(sf.timeouts.scale == 1.0);  // the engine's scale replaces the file's

  const uci::EngineConfig& second = configs[1];
  const uci::EngineConfig defaults;
  CHECK(second.name == "second");
  CHECK(second.process.program == "ethereal");
  CHECK(second.process.args.empty());
  CHECK(second.process.working_directory.empty());
  CHECK(second.process.env.empty());
  CHECK(second.options.empty());
  CHECK(second.instances == 1);
  CHECK(second.max_line == defaults.max_line);
  CHECK(second.restarts.max_restarts == defaults.restarts.max_restarts);
  CHECK(second.restarts.window == defaults.restarts.window);
  CHECK(second.chess960_when_needed);
  CHECK(second.own_book_off);
  expected.search = defaults.timeouts.search;
  CHECK(timeouts_of(second.timeouts) == timeouts_of(expected));
  CHECK(second.timeouts.scale == 2.5);
}

TEST_CASE("engine config: every name of uci::Timeouts::kNames is accepted", "[daemon][config]") {
  for (const char* name : uci::Timeouts::kNames) {
    for (const bool per_engine : {false, true}) {
      INFO(name << (per_engine ? " in [engine.timeouts]" : " in [timeouts]"));
      const std::string setting = std::string(name) + " = 1234\n";
      const std::string engine = "[[engine]]\nname = \"e\"\ncommand = \"/bin/e\"\n";
      const Configs configs =
          parse_ok(per_engine ? engine + "[engine.timeouts]\n" + setting : "[timeouts]\n" + setting + engine);
      REQUIRE(configs.size() == 1);
      int changed = 0;
      for (const auto& [field, ms] : timeouts_of(configs[0].timeouts)) {
        if (ms != 1234) continue;
        CHECK(field == name);
        ++changed;
      }
      CHECK(changed == 1);
    }
  }
}

TEST_CASE("engine config: errors name file, line, column and what is wrong", "[daemon][config]") {
  struct Case {
    const char* what;
    const char* toml;
    int line;
    int column;
    const char* fragment;
  };
  // Each file is wrong in one place; the position is that of the offending key or value.
  static const Case kCases[] = {
      {"a misspelt key", "[[engine]]\nname = \"sf\"\ncomand = \"/usr/games/stockfish\"\n", 3, 1,
       "unknown key 'comand' in [[engine]] (did you mean 'command'?); allowed: name, command, args"},
      {"an unknown top-level table", "[engines]\nname = \"sf\"\n", 1, 2,
       "unknown key 'engines' in the top level (did you mean 'engine'?); allowed: timeouts, engine"},
      {"[engine] instead of [[engine]]", "[engine]\nname = \"sf\"\ncommand = \"x\"\n", 1, 1, "not [engine]"},
      {"an engine that is not a table", "engine = [1]\n", 1, 11, "each engine must be a table ([[engine]]), not 1"},
      {"no name", "[[engine]]\ncommand = \"/bin/e\"\n", 1, 1, "this [[engine]] has no name"},
      {"no name in the second engine",
       "[[engine]]\nname = \"a\"\ncommand = \"/bin/a\"\n\n  [[engine]]\ncommand = \"/bin/b\"\n", 5, 3,
       "this [[engine]] has no name"},
      {"no command", "[[engine]]\nname = \"sf\"\n", 1, 1, "this [[engine]] has no command"},
      {"an empty command", "[[engine]]\nname = \"sf\"\ncommand = \"\"\n", 3, 11, "command must not be empty"},
      {"a blank command", "[[engine]]\nname = \"sf\"\ncommand = \"  \"\n", 3, 11, "command must not be empty"},
      {"a command that is not a string", "[[engine]]\nname = \"sf\"\ncommand = [\"sf\"]\n", 3, 11,
       "command must be a string, not an array"},
      {"an empty name", "[[engine]]\nname = \"\"\ncommand = \"x\"\n", 2, 8, "name must not be empty"},
      {"a duplicate name",
       "[[engine]]\nname = \"sf\"\ncommand = \"a\"\n[[engine]]\nname = \"sf\"\ncommand = \"b\"\n", 5, 8,
       "duplicate engine name 'sf': line 2 defines it already"},
      {"instances 0", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\ninstances = 0\n", 4, 13,
       "instances must be an integer from 1 to 256, not 0"},
      {"instances 257", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\ninstances = 257\n", 4, 13,
       "instances must be an integer from 1 to 256, not 257"},
      {"instances as a string", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\ninstances = \"2\"\n", 4, 13,
       "instances must be an integer from 1 to 256, not the string \"2\""},
      {"instances as a float", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\ninstances = 2.0\n", 4, 13,
       "instances must be an integer from 1 to 256, not the float 2.0"},
      {"max_line too small", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nmax_line = 80\n", 4, 12,
       "max_line must be an integer from 1024 to 1073741824 (bytes), not 80"},
      {"an argument that is not a string", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nargs = [\"a\", 2]\n", 4, 14,
       "args[1] must be a string, not 2"},
      {"args as a string", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nargs = \"-v\"\n", 4, 8,
       "args must be an array of strings"},
      {"an env value that is not a string", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nenv = { A = 1 }\n", 4, 13,
       "env.A must be a string, not 1"},
      {"an env name with '='", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nenv = { \"A=B\" = \"1\" }\n", 4, 9,
       "an environment variable name must not be empty or contain '='"},
      {"an empty option name", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\n[engine.options]\n\"\" = 1\n", 5, 1,
       "an option name must not be empty"},
      {"a working_directory that is not a string",
       "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nworking_directory = true\n", 4, 21,
       "working_directory must be a string, not true"},
      {"an unknown restarts key", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nrestarts = { max = 3, window = 300 }\n",
       4, 23, "unknown key 'window' in restarts; allowed: max, window_seconds"},
      {"negative restarts", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nrestarts = { max = -1 }\n", 4, 20,
       "restarts.max must be an integer from 0 to 1000, not -1"},
      {"a zero restart window",
       "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nrestarts = { window_seconds = 0 }\n", 4, 31,
       "restarts.window_seconds must be an integer from 1 to 604800, not 0"},
      {"own_book_off as a string", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\nown_book_off = \"yes\"\n", 4, 16,
       "own_book_off must be true or false, not the string \"yes\""},
      {"a float option", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\n[engine.options]\nHash = 1.5\n", 5, 8,
       "option 'Hash' must be a string, an integer or a boolean, not the float 1.5"},
      {"an array option", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\n[engine.options]\nSyzygyPath = [\"a\"]\n", 5, 14,
       "option 'SyzygyPath' must be a string, an integer or a boolean, not an array"},
      {"options that differ only in case",
       "[[engine]]\nname = \"sf\"\ncommand = \"x\"\n[engine.options]\nhash = 16\nThreads = 1\nHash = 32\n", 7, 1,
       "option 'Hash' repeats 'hash' (line 5): UCI option names ignore case"},
      {"an option value with a line break",
       "[[engine]]\nname = \"sf\"\ncommand = \"x\"\n[engine.options]\nFoo = \"a\\nquit\"\n", 5, 7,
       "option 'Foo' must not contain line breaks"},
      {"options that are not a table", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\noptions = 1\n", 4, 11,
       "options must be a table, not 1"},
      {"a negative timeout", "[timeouts]\nsearch = -5\n[[engine]]\nname = \"sf\"\ncommand = \"x\"\n", 2, 10,
       "timeout 'search' must be an integer from 0 to 2592000000 (milliseconds), not -5"},
      {"a negative engine timeout",
       "[[engine]]\nname = \"sf\"\ncommand = \"x\"\n[engine.timeouts]\nstop = -1\n", 5, 8,
       "timeout 'stop' must be an integer from 0 to 2592000000 (milliseconds), not -1"},
      {"an unknown timeout", "[[engine]]\nname = \"sf\"\ncommand = \"x\"\n[engine.timeouts]\nserach = 1\n", 5, 1,
       "unknown timeout 'serach' in [engine.timeouts] (did you mean 'search'?); allowed: handshake, ready, new_game, "
       "search, search_margin, stop, quit, terminate, write, scale"},
      {"a timeout in seconds as a string", "[timeouts]\nready = \"10s\"\n[[engine]]\nname = \"sf\"\ncommand = \"x\"\n",
       2, 9, "timeout 'ready' must be an integer from 0 to 2592000000 (milliseconds), not the string \"10s\""},
      {"a zero scale", "[timeouts]\nscale = 0\n[[engine]]\nname = \"sf\"\ncommand = \"x\"\n", 2, 9,
       "timeout scale must be a number greater than 0 and at most 1000, not 0"},
      {"an infinite scale", "[timeouts]\nscale = inf\n[[engine]]\nname = \"sf\"\ncommand = \"x\"\n", 2, 9,
       "timeout scale must be a number greater than 0 and at most 1000, not the float inf"},
      {"timeouts that are not a table", "timeouts = 5\n[[engine]]\nname = \"sf\"\ncommand = \"x\"\n", 1, 12,
       "[timeouts] must be a table, not 5"},
      // toml++ iterates keys alphabetically and the reader checks them in its own order: the
      // error reported must still be the first in the file.
      {"the first of several errors",
       "[[engine]]\ntimeouts.search = -1\nname = \"sf\"\ncommand = \"x\"\ninstances = 0\nargs = 1\n", 2, 19,
       "timeout 'search' must be an integer"},
  };
  for (const Case& c : kCases) {
    INFO(c.what << "\n" << c.toml);
    const auto parsed = daemon::parse_engine_configs(c.toml, "engines.toml");
    REQUIRE_FALSE(parsed.has_value());
    const daemon::EngineConfigError& e = parsed.error();
    INFO(e.to_string());
    CHECK(e.file == "engines.toml");
    CHECK(e.line == c.line);
    CHECK(e.column == c.column);
    CHECK_THAT(e.message, Catch::Contains(c.fragment));
  }
}

TEST_CASE("engine config: a file without engines is an error for the whole file", "[daemon][config]") {
  for (const char* text : {"", "# nothing\n", "[timeouts]\nsearch = 1\n", "engine = []\n"}) {
    INFO(text);
    const auto parsed = daemon::parse_engine_configs(text, "engines.toml");
    REQUIRE_FALSE(parsed.has_value());
    CHECK(parsed.error().line == 0);
    CHECK(parsed.error().to_string() == "engines.toml: no engine: add an [[engine]] table with a name and a command");
  }
}

TEST_CASE("engine config: a TOML syntax error keeps toml++'s position and description", "[daemon][config]") {
  struct Case {
    const char* toml;
    int line;
    int column;
    const char* fragment;
  };
  static const Case kCases[] = {
      {"[[engine]]\nname = \"sf\ncommand = \"x\"\n", 2, 11, "Error while parsing string: unescaped control characters"},
      {"[[engine]]\nname = \"a\"\nname = \"b\"\n", 3, 8, "cannot redefine existing string 'name'"},
      {"[[engine]\n", 1, 10, "Error while parsing table header: expected ']'"},
  };
  for (const Case& c : kCases) {
    INFO(c.toml);
    const auto parsed = daemon::parse_engine_configs(c.toml, "engines.toml");
    REQUIRE_FALSE(parsed.has_value());
    INFO(parsed.error().to_string());
    CHECK(parsed.error().file == "engines.toml");
    CHECK(parsed.error().line == c.line);
    CHECK(parsed.error().column == c.column);
    CHECK_THAT(parsed.error().message, Catch::Contains(c.fragment));
  }
}

TEST_CASE("engine config: errors print as file:line:col: message", "[daemon][config]") {
  CHECK(daemon::EngineConfigError{"engines.toml", 3, 9, "bad"}.to_string() == "engines.toml:3:9: bad");
  CHECK(daemon::EngineConfigError{"engines.toml", 3, 0, "bad"}.to_string() == "engines.toml:3: bad");
  CHECK(daemon::EngineConfigError{"engines.toml", 0, 0, "bad"}.to_string() == "engines.toml: bad");
  CHECK(daemon::EngineConfigError{"", 3, 9, "bad"}.to_string() == "3:9: bad");
}

TEST_CASE("engine config: files are read from disk, unreadable ones fail at line 0", "[daemon][config]") {
  test::TempDir dir;
  const std::string good =
      dir.write("engines.toml", "[[engine]]\nname = \"sf\"\ncommand = \"/usr/games/stockfish\"\n").string();
  const auto read = daemon::read_engine_configs(good);
  REQUIRE(read.has_value());
  REQUIRE(read->size() == 1);
  CHECK((*read)[0].name == "sf");

  const std::string bad = dir.write("bad.toml", "[[engine]]\nname = 1\ncommand = \"x\"\n").string();
  const auto wrong = daemon::read_engine_configs(bad);
  REQUIRE_FALSE(wrong.has_value());
  CHECK(wrong.error().to_string() == bad + ":2:8: name must be a string, not 1");

  for (const std::string& path : {(dir.path() / "missing.toml").string(), dir.path().string()}) {
    INFO(path);
    const auto missing = daemon::read_engine_configs(path);
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error().file == path);
    CHECK(missing.error().line == 0);
    CHECK(missing.error().column == 0);
    CHECK_FALSE(missing.error().message.empty());
  }
  CHECK_THAT(daemon::read_engine_configs((dir.path() / "missing.toml").string()).error().to_string(),
             Catch::Contains("missing.toml: cannot open for reading: No such file or directory"));
}

TEST_CASE("engine config: the default is Debian's Stockfish with Threads 1 and Hash 16", "[daemon][config]") {
  const uci::EngineConfig c = daemon::default_engine_config();
  const uci::EngineConfig defaults;
  CHECK(c.name == "stockfish");
  CHECK(c.process.program == "/usr/games/stockfish");
  CHECK(c.process.args.empty());
  CHECK(options_of(c) == std::vector<std::pair<std::string, std::string>>{{"Threads", "1"}, {"Hash", "16"}});
  CHECK(c.instances == 1);
  CHECK(timeouts_of(c.timeouts) == timeouts_of(defaults.timeouts));
  CHECK(c.timeouts.scale == 1.0);
}

TEST_CASE("engine config: each option knows where it was written, for the engine's verdict on it", "[daemon][config]") {
  const Configs configs = parse_ok("[[engine]]\nname = \"sf\"\ncommand = \"/usr/games/stockfish\"\n"
                                   "[engine.options]\nThreads = 1\n  Hashh = 32\n");
  REQUIRE(configs.size() == 1);
  REQUIRE(configs[0].options.size() == 2);
  CHECK(configs[0].options[0].origin == "engines.toml:5:1");
  CHECK(configs[0].options[1].origin == "engines.toml:6:3");
  // The engine's declarations decide whether a name exists: the message starts at that place.
  const std::vector<uci::OptionLine> declared = {{"Hash", uci::OptionType::Spin, "16", 1, 1024, {}}};
  const auto checked = uci::check_option(declared, configs[0].options[1]);
  REQUIRE_FALSE(checked);
  CHECK(checked.error() == "engines.toml:6:3: the engine declares no option 'Hashh' (did you mean 'Hash'?)");
}
