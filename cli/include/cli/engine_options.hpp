// `--option NAME=VALUE`: an engine option on the command line of every command that starts an
// engine (analyse, suite, annotate, book backsolve, check-engine), as fastchess and cutechess
// take `option.Name=Value`. The value is checked later against what the engine declares, like an
// option of the configuration file; here only the form is.
#pragma once

#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "uci/options.hpp"

namespace epdd::cli {

// The setting in `text`, split at its first '=' (names may hold spaces, "Skill Level=5"; values
// may hold '=', "SyzygyPath=/a=b"), with origin "--option" for the engine's verdict on it. An
// error in words when there is no '=' ("--option Hash: give NAME=VALUE, ..."), the name is empty,
// or the text holds a control character (a line break would send the engine a second command).
Expected<uci::OptionSetting, std::string> parse_option_setting(std::string_view text);

// `text` as a message shows a command-line value: as it is when that is one plain word, else
// quoted and escaped ("'Skill Level=5'").
std::string shown_argument(std::string_view text);

}  // namespace epdd::cli
