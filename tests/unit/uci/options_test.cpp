// Option checks against declarations parsed from real `option` lines (Stockfish 15.1, Toga II
// 3.0 and Fairy-Stockfish 11.1 as Debian 12 ships them).
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "uci/options.hpp"
#include "uci/protocol.hpp"

namespace {

using namespace epdd::uci;

std::vector<OptionLine> declare(const std::vector<std::string_view>& lines) {
  std::vector<OptionLine> declared;
  for (const std::string_view line : lines) {
    const EngineMessage message = parse_engine_line(line);
    REQUIRE(std::holds_alternative<OptionLine>(message));
    declared.push_back(std::get<OptionLine>(message));
  }
  return declared;
}

// Stockfish 15.1's declarations, in its order, plus one combo from Toga and one from Fairy.
const std::vector<OptionLine>& engine_options() {
  static const std::vector<OptionLine> declared = declare({
      "option name Debug Log File type string default ",
      "option name Threads type spin default 1 min 1 max 1024",
      "option name Hash type spin default 16 min 1 max 33554432",
      "option name Clear Hash type button",
      "option name Ponder type check default false",
      "option name MultiPV type spin default 1 min 1 max 500",
      "option name Skill Level type spin default 20 min 0 max 20",
      "option name UCI_LimitStrength type check default false",
      "option name SyzygyPath type string default <empty>",
      "option name NullMove Pruning type combo default Always var Always var Fail High var Never",
      "option name Analysis Contempt type combo default Both var Both var Off var White var Black",
      "option name Contempt type spin default 24 min -100 max 100",
  });
  return declared;
}

const std::string kAllNames =
    "Debug Log File, Threads, Hash, Clear Hash, Ponder, MultiPV, Skill Level, UCI_LimitStrength, "
    "SyzygyPath, NullMove Pruning, Analysis Contempt, Contempt";

}  // namespace

TEST_CASE("options: find_option ignores ASCII case and nothing else", "[uci]") {
  struct Case {
    std::string_view name;
    std::optional<std::string_view> found;
  };
  const Case c = GENERATE(values<Case>({
      {"Hash", "Hash"},
      {"hash", "Hash"},
      {"HASH", "Hash"},
      {"clear hash", "Clear Hash"},
      {"uci_limitstrength", "UCI_LimitStrength"},
      {"Hash ", std::nullopt},
      {"ClearHash", std::nullopt},
      {"Clear  Hash", std::nullopt},
      {"Has", std::nullopt},
      {"", std::nullopt},
  }));
  CAPTURE(c.name);
  const OptionLine* option = find_option(engine_options(), c.name);
  if (c.found) {
    REQUIRE(option != nullptr);
    CHECK(option->name == *c.found);
  } else {
    CHECK(option == nullptr);
  }
  CHECK(find_option({}, c.name) == nullptr);
}

TEST_CASE("options: check_option accepts values in any case and sends the engine's spelling", "[uci]") {
  struct Case {
    std::string_view name, value, sent_name;
    std::optional<std::string_view> sent_value;
  };
  const Case c = GENERATE(values<Case>({
      {"Ponder", "true", "Ponder", "true"},
      {"ponder", "FALSE", "Ponder", "false"},
      {"UCI_LimitStrength", "True", "UCI_LimitStrength", "true"},
      {"Hash", "64", "Hash", "64"},
      {"hash", "1", "Hash", "1"},
      {"Hash", "33554432", "Hash", "33554432"},
      {"Threads", "1024", "Threads", "1024"},
      {"Skill Level", "0", "Skill Level", "0"},
      {"Contempt", "-100", "Contempt", "-100"},
      {"Contempt", "-0", "Contempt", "0"},
      {"Hash", "0064", "Hash", "64"},
      {"NullMove Pruning", "fail high", "NullMove Pruning", "Fail High"},
      {"nullmove pruning", "NEVER", "NullMove Pruning", "Never"},
      {"Analysis Contempt", "off", "Analysis Contempt", "Off"},
      {"SyzygyPath", "/data/syzygy:/more tb", "SyzygyPath", "/data/syzygy:/more tb"},
      {"SyzygyPath", "<empty>", "SyzygyPath", "<empty>"},
      {"Debug Log File", "", "Debug Log File", ""},
      {"Debug Log File", " spaced  out ", "Debug Log File", " spaced  out "},
      {"Clear Hash", "", "Clear Hash", std::nullopt},
      {"clear hash", "TRUE", "Clear Hash", std::nullopt},
  }));
  CAPTURE(c.name, c.value);
  const auto checked = check_option(engine_options(), {std::string(c.name), std::string(c.value)});
  REQUIRE(checked.has_value());
  CHECK(checked->name == c.sent_name);
  CHECK(checked->value == c.sent_value);
}

TEST_CASE("options: check_option errors name the option and the valid choices", "[uci]") {
  struct Case {
    std::string_view name, value, error;
  };
  const Case c = GENERATE(values<Case>({
      {"Hash", "big", "option 'Hash' wants an integer from 1 to 33554432, not 'big'"},
      // A button is pressed by true or no value: false would press it too, so it is refused.
      {"Clear Hash", "false", "option 'Clear Hash' is a button, pressed by true (or no value), not 'false': leave it out not to press it"},
      {"clear hash", "whatever", "option 'Clear Hash' is a button, pressed by true (or no value), not 'whatever': leave it out not to press it"},
      {"Hash", "0", "option 'Hash' wants an integer from 1 to 33554432, not '0'"},
      {"Hash", "33554433", "option 'Hash' wants an integer from 1 to 33554432, not '33554433'"},
      {"hash", "", "option 'Hash' wants an integer from 1 to 33554432, not ''"},
      {"Hash", " 64", "option 'Hash' wants an integer from 1 to 33554432, not ' 64'"},
      {"Hash", "64MB", "option 'Hash' wants an integer from 1 to 33554432, not '64MB'"},
      {"Hash", "+64", "option 'Hash' wants an integer from 1 to 33554432, not '+64'"},
      {"Hash", "1.5", "option 'Hash' wants an integer from 1 to 33554432, not '1.5'"},
      {"Hash", "99999999999999999999", "option 'Hash' wants an integer from 1 to 33554432, not '99999999999999999999'"},
      {"Contempt", "-101", "option 'Contempt' wants an integer from -100 to 100, not '-101'"},
      {"Ponder", "yes", "option 'Ponder' is true or false, not 'yes'"},
      {"Ponder", "1", "option 'Ponder' is true or false, not '1'"},
      {"Ponder", "", "option 'Ponder' is true or false, not ''"},
      {"Ponder", "true ", "option 'Ponder' is true or false, not 'true '"},
      {"NullMove Pruning", "Wild", "option 'NullMove Pruning' is one of Always, Fail High, Never, not 'Wild'"},
      {"NullMove Pruning", "Fail", "option 'NullMove Pruning' is one of Always, Fail High, Never, not 'Fail'"},
  }));
  CAPTURE(c.name, c.value);
  const auto checked = check_option(engine_options(), {std::string(c.name), std::string(c.value)});
  REQUIRE_FALSE(checked.has_value());
  CHECK(checked.error() == c.error);
}

TEST_CASE("options: an undeclared name gets the closest declared names, else the whole list", "[uci]") {
  struct Case {
    std::string_view name, error;
  };
  const Case c = GENERATE(values<Case>({
      // Within two edits (case is no edit): the nearest ones.
      {"Hahs", "engine Stockfish 15.1 declares no option 'Hahs' (did you mean 'Hash'?)"},
      {"Hashh", "engine Stockfish 15.1 declares no option 'Hashh' (did you mean 'Hash'?)"},
      {"thread", "engine Stockfish 15.1 declares no option 'thread' (did you mean 'Threads'?)"},
      {"Skill Levle", "engine Stockfish 15.1 declares no option 'Skill Levle' (did you mean 'Skill Level'?)"},
      {"Contemp", "engine Stockfish 15.1 declares no option 'Contemp' (did you mean 'Contempt'?)"},
      // A part of a declared name: the names that contain it.
      {"Skill", "engine Stockfish 15.1 declares no option 'Skill' (did you mean 'Skill Level'?)"},
      {"contempt ", "engine Stockfish 15.1 declares no option 'contempt ' (did you mean 'Contempt'?)"},
      {"Hash Clear", "engine Stockfish 15.1 declares no option 'Hash Clear'; it declares: "},
      {"Pruning", "engine Stockfish 15.1 declares no option 'Pruning' (did you mean 'NullMove Pruning'?)"},
      {"Contempt2", "engine Stockfish 15.1 declares no option 'Contempt2' (did you mean 'Contempt'?)"},
      {"Hash Size", "engine Stockfish 15.1 declares no option 'Hash Size'; it declares: "},
      {"Style", "engine Stockfish 15.1 declares no option 'Style'; it declares: "},
      {"", "engine Stockfish 15.1 declares no option ''; it declares: "},
  }));
  CAPTURE(c.name);
  const auto checked = check_option(engine_options(), {std::string(c.name), "1"}, "Stockfish 15.1");
  REQUIRE_FALSE(checked.has_value());
  // Without a near name, every declared name is listed after the colon.
  const std::string want = c.error.back() == ' ' ? std::string(c.error) + kAllNames : std::string(c.error);
  CHECK(checked.error() == want);
}

TEST_CASE("options: several names as near are all suggested, and the origin starts every message", "[uci]") {
  const auto declared = declare({"option name Tempo type spin default 0 min 0 max 10",
                                 "option name Temps type spin default 0 min 0 max 10",
                                 "option name Hash type spin default 16 min 1 max 64"});
  CHECK(check_option(declared, {"Temp", "1"}).error() ==
        "the engine declares no option 'Temp' (did you mean 'Tempo' or 'Temps'?)");
  CHECK(check_option(declared, {"Hahs", "1", "--option"}, "Fake").error() ==
        "--option: engine Fake declares no option 'Hahs' (did you mean 'Hash'?)");
  CHECK(check_option(declared, {"Hash", "65", "--hash"}, "Fake").error() ==
        "--hash: option 'Hash' wants an integer from 1 to 64, not '65'");
}

TEST_CASE("options: check_option on spins without bounds and combos without vars", "[uci]") {
  const auto declared = std::vector<OptionLine>{
      {.name = "Free", .type = OptionType::Spin, .default_value = "0", .min = {}, .max = {}, .vars = {}},
      {.name = "Low", .type = OptionType::Spin, .default_value = "0", .min = -5, .max = {}, .vars = {}},
      {.name = "High", .type = OptionType::Spin, .default_value = "0", .min = {}, .max = 5, .vars = {}},
      {.name = "Empty", .type = OptionType::Combo, .default_value = "", .min = {}, .max = {}, .vars = {}},
  };
  CHECK(check_option(declared, {"Free", "-9223372036854775808"})->value == "-9223372036854775808");
  CHECK(check_option(declared, {"Free", "x"}).error() == "option 'Free' wants an integer, not 'x'");
  CHECK(check_option(declared, {"Low", "-6"}).error() == "option 'Low' wants an integer of at least -5, not '-6'");
  CHECK(check_option(declared, {"Low", "600"})->value == "600");
  CHECK(check_option(declared, {"High", "6"}).error() == "option 'High' wants an integer of at most 5, not '6'");
  CHECK(check_option(declared, {"Empty", "a"}).error() == "option 'Empty' declares no choices, so not 'a'");
  CHECK(check_option({}, {"Hash", "1"}).error() == "the engine declares no option 'Hash'; it declares none");
}

TEST_CASE("options: check_options sends Threads, then Hash, then the rest as given", "[uci]") {
  struct Case {
    std::vector<OptionSetting> settings;
    std::vector<std::string> order;
  };
  const Case c = GENERATE(values<Case>({
      {{}, {}},
      {{{"Hash", "64"}, {"Threads", "1"}}, {"Threads", "Hash"}},
      {{{"hash", "64"}, {"Ponder", "false"}, {"THREADS", "2"}, {"MultiPV", "3"}},
       {"Threads", "Hash", "Ponder", "MultiPV"}},
      {{{"MultiPV", "3"}, {"Clear Hash", ""}, {"Ponder", "false"}, {"Hash", "16"}},
       {"Hash", "MultiPV", "Clear Hash", "Ponder"}},
      {{{"SyzygyPath", "/tb"}, {"Skill Level", "3"}}, {"SyzygyPath", "Skill Level"}},
  }));
  const auto checked = check_options(engine_options(), c.settings);
  REQUIRE(checked.has_value());
  std::vector<std::string> order;
  for (const auto& option : *checked) order.push_back(option.name);
  CHECK(order == c.order);
}

TEST_CASE("options: check_options keeps each value with its option while reordering", "[uci]") {
  const auto checked = check_options(engine_options(), {{"ponder", "TRUE"}, {"hash", "0128"}, {"threads", "4"}});
  REQUIRE(checked.has_value());
  REQUIRE(checked->size() == 3);
  CHECK((*checked)[0].name == "Threads");
  CHECK((*checked)[0].value == "4");
  CHECK((*checked)[1].name == "Hash");
  CHECK((*checked)[1].value == "128");
  CHECK((*checked)[2].name == "Ponder");
  CHECK((*checked)[2].value == "true");
}

TEST_CASE("options: check_options reports every bad setting, one per line, in input order", "[uci]") {
  const auto checked = check_options(
      engine_options(), {{"Hash", "big"}, {"Threads", "2"}, {"Ponder", "yes"}, {"Hashh", "1"}, {"Style", "Wild"}},
      "Stockfish 15.1");
  REQUIRE_FALSE(checked.has_value());
  CHECK(checked.error() ==
        "option 'Hash' wants an integer from 1 to 33554432, not 'big'\n"
        "option 'Ponder' is true or false, not 'yes'\n"
        "engine Stockfish 15.1 declares no option 'Hashh' (did you mean 'Hash'?)\n"
        "engine Stockfish 15.1 declares no option 'Style'; it declares: " + kAllNames);
}

TEST_CASE("options: Threads goes by the engine's own name for it, and Threads 1 needs no option", "[uci]") {
  // Toga II 3.0 (Debian 12) calls it "Number of Threads"; Glaurung-era engines have none.
  const auto toga = declare({"option name Hash type spin default 128 min 4 max 1024",
                             "option name Number of Threads type spin default 1 min 1 max 16"});
  const auto single = declare({"option name Hash type spin default 16 min 4 max 1024"});
  const std::vector<OptionSetting> wanted{{"Threads", "1"}, {"Hash", "16"}};

  const auto for_toga = engine_spelling(toga, wanted);
  REQUIRE(for_toga.size() == 2);
  CHECK(for_toga[0].name == "Number of Threads");
  CHECK(for_toga[0].value == "1");
  const auto checked = check_options(toga, for_toga);
  REQUIRE(checked);
  CHECK((*checked)[0].name == "Number of Threads");

  const auto for_single = engine_spelling(single, wanted);
  REQUIRE(for_single.size() == 1);
  CHECK(for_single[0].name == "Hash");
  // More than one thread from an engine that cannot be told so is an error, as before.
  const auto many = engine_spelling(single, {{"threads", "4"}});
  REQUIRE(many.size() == 1);
  CHECK_FALSE(check_options(single, many));
  // An engine that has Threads keeps it, in the user's spelling of the value.
  const auto same = engine_spelling(engine_options(), wanted);
  CHECK(same[0].name == "Threads");
}

TEST_CASE("options: epdd's defaults reach only an engine that declares them, the user's settings every engine", "[uci]") {
  const auto no_hash = declare({"option name Threads type spin default 1 min 1 max 8"});
  const auto toga = declare({"option name Number of Threads type spin default 1 min 1 max 16"});
  const auto none = declare({});
  const std::vector<OptionSetting> defaults{{"Threads", "1", "", true}, {"Hash", "16", "", true}};
  const auto names = [](const std::vector<OptionSetting>& settings) {
    std::vector<std::string> out;
    for (const auto& s : settings) out.push_back(s.name + "=" + s.value);
    return out;
  };
  CHECK(names(engine_spelling(engine_options(), defaults)) == std::vector<std::string>{"Threads=1", "Hash=16"});
  CHECK(names(engine_spelling(no_hash, defaults)) == std::vector<std::string>{"Threads=1"});
  CHECK(names(engine_spelling(toga, defaults)) == std::vector<std::string>{"Number of Threads=1"});
  CHECK(engine_spelling(none, defaults).empty());
  // A default of more than one thread is not sent to an engine that cannot be told it either.
  CHECK(engine_spelling(none, {{"Threads", "2", "", true}}).empty());
  // What the user asked for stays, so that the engine's refusal is said.
  const auto asked = engine_spelling(no_hash, {{"Hash", "64", "--hash"}});
  REQUIRE(asked.size() == 1);
  const auto refused = check_options(no_hash, asked, "Glaurung 2.2");
  REQUIRE_FALSE(refused);
  CHECK(refused.error() == "--hash: engine Glaurung 2.2 declares no option 'Hash'; it declares: Threads");
}

TEST_CASE("options: canonical_setting spells a setting as the engine is told it", "[uci]") {
  const auto& declared = engine_options();
  const auto text = [&](std::string name, std::string value) {
    const OptionSetting s = canonical_setting(declared, {std::move(name), std::move(value)});
    return s.name + "=" + s.value;
  };
  // The engine's spelling of the name, whatever the case it was asked in.
  CHECK(text("skill level", "5") == "Skill Level=5");
  CHECK(text("SKILL LEVEL", "5") == "Skill Level=5");
  CHECK(text("Skill Level", "5") == "Skill Level=5");
  // A spin in decimal without leading zeros; a check as true/false; a combo as its var.
  CHECK(text("Hash", "016") == "Hash=16");
  CHECK(text("Contempt", "-010") == "Contempt=-10");
  // A value out of range is kept as given, name and all: the handshake refuses it.
  CHECK(text("hash", "0") == "hash=0");
  CHECK(text("Ponder", "TRUE") == "Ponder=true");
  CHECK(text("ponder", "False") == "Ponder=false");
  CHECK(text("nullmove pruning", "fail high") == "NullMove Pruning=Fail High");
  // A string as given; a button's value is nothing.
  CHECK(text("syzygypath", "/TB/Six") == "SyzygyPath=/TB/Six");
  CHECK(text("clear hash", "") == "Clear Hash=");
  CHECK(text("Clear Hash", "true") == "Clear Hash=");
  // Canonical settings stay byte for byte what they are.
  CHECK(text("Hash", "16") == "Hash=16");
  CHECK(text("Threads", "1") == "Threads=1");
  // A name the engine does not declare is kept as it is: the check says so before any search.
  CHECK(text("Hashh", "016") == "Hashh=016");
  // Threads on an engine that calls it otherwise keeps the name Threads, its value checked.
  const auto toga = declare({"option name Number of Threads type spin default 1 min 1 max 16"});
  const OptionSetting threads = canonical_setting(toga, {"threads", "02"});
  CHECK(threads.name + "=" + threads.value == "Threads=2");
  const OptionSetting none = canonical_setting({}, {"Threads", "1"});
  CHECK(none.name + "=" + none.value == "Threads=1");
}
