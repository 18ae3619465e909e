// Engine options: the values a user asks for, checked against what the engine declared in its
// `option` lines before anything is sent. Names compare case-insensitively (the UCI text says
// so); values are sent in the engine's own spelling.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"
#include "uci/protocol.hpp"

namespace epdd::uci {

// One option the user asked for: name and value as written in the configuration.
struct OptionSetting {
  std::string name;
  std::string value;  // for a button: ignored (may be empty)
  // Where the setting was written ("engines.toml:7:1"), to start its error messages with; empty
  // for a setting made by a program or on the command line.
  std::string origin = {};
  // A default of epdd's (Threads=1, Hash=16 when no configuration names the engine), not the
  // user's: sent only to an engine that declares the option, and left out without a word
  // otherwise. A setting the user gave (a configuration, --option, --hash) is always sent or
  // refused.
  bool if_declared = false;
  bool operator==(const OptionSetting&) const = default;
};

// A setting checked against the declaration: what to send.
struct CheckedOption {
  std::string name;                  // the engine's spelling of the name
  std::optional<std::string> value;  // canonical value ("true"/"false", integer text, the
                                     // engine's spelling of a combo var); none for a button
};

// ASCII case-insensitive equality: option names (the UCI text: "not case sensitive"), and
// check values ("true"/"True").
bool equal_ignoring_case(std::string_view a, std::string_view b);

// The declared option with this name, ignoring ASCII case; null if there is none.
const OptionLine* find_option(const std::vector<OptionLine>& declared, std::string_view name);

// The settings with the names this engine declares for them. "Threads" is spelt "Number of
// Threads" by Toga II and Fruit, "Cores" by Rybka and Houdini; a Threads of 1 is dropped when the
// engine declares no thread option at all (it searches with one thread anyway), so that the
// default Threads=1 works with every engine. A setting `if_declared` that the engine does not
// declare (in any of those spellings) is dropped. Anything else is kept as given.
std::vector<OptionSetting> engine_spelling(const std::vector<OptionLine>& declared,
                                           std::vector<OptionSetting> settings);

// Checks one setting. Errors are sentences that name the option and the valid choices, after
// the setting's origin: "engine Stockfish 15.1 declares no option 'Hahs' (did you mean
// 'Hash'?)" (the closest declared names: within two edits, else those containing the name; the
// whole list when none is near; "the engine" when `engine`, its `id name`, is empty);
// "option 'Hash' wants an integer from 1 to 33554432, not 'big'"; "option 'Style' is one of
// Solid, Normal, Risky, not 'Wild'"; "option 'Ponder' is true or false, not 'yes'".
Expected<CheckedOption, std::string> check_option(const std::vector<OptionLine>& declared,
                                                  const OptionSetting& setting, std::string_view engine = {});

// The setting as the engine is told it, to name what an engine was configured with (the cache's
// engine identity): the engine's spelling of the name and check_option's canonical value
// ("skill level=05" -> "Skill Level=5", "Ponder=TRUE" -> "Ponder=true", a combo's declared var,
// a button's value empty), so that spellings of one setting are one engine. A setting already so
// spelt comes back byte for byte. Threads keeps the name Threads when the engine calls it
// otherwise (engine_spelling), its value checked against that option. A name the engine does not
// declare, or a value that does not check, is kept as given (the handshake refuses it anyway).
OptionSetting canonical_setting(const std::vector<OptionLine>& declared, OptionSetting setting);

// Checks every setting (all errors reported, one per line, not only the first) and puts them
// in sending order: Threads first, then Hash (an engine sizes its hash per thread on some
// builds, and resizing after Threads avoids allocating twice), then the rest as given.
Expected<std::vector<CheckedOption>, std::string> check_options(const std::vector<OptionLine>& declared,
                                                                const std::vector<OptionSetting>& settings,
                                                                std::string_view engine = {});

}  // namespace epdd::uci
