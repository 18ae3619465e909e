// Command line of the fake engine: which misbehaviours are switched on, and at which protocol
// step, so that one executable can play every broken engine the integration tests need.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"

namespace epdd::fake_engine {

// The protocol steps at which a fault can be injected. Start is "at startup, before reading
// anything"; Info is "right after the first info line of a search has been written".
enum class Step : std::uint8_t {
  Start,
  Uci,
  Isready,
  Setoption,
  Ucinewgame,
  Position,
  Go,
  Info,
  Stop,
  Quit,
};
inline constexpr std::size_t kStepCount = 10;

// The random faults of --fault-rate, in Config::fault_kinds' order, as --fault-kinds and the
// fault log spell them.
inline constexpr std::array<std::string_view, 3> kRandomFaultNames{"crash", "hang", "garbage"};

// "start", "uci", ... as written on the command line.
const char* step_name(Step s);
// The step a command-line word names, or nullopt.
std::optional<Step> parse_step(std::string_view text);

// What happens when a step with a fault is reached.
enum class Fault : std::uint8_t {
  None,
  Crash,  // SIGSEGV, default disposition
  Exit,   // exit(Config::exit_code)
  Hang,   // sleep forever, stdin left open and unread
};

// Everything the command line can switch on. The defaults give a well-behaved engine.
struct Config {
  std::array<Fault, kStepCount> faults{};
  int exit_code = 3;  // for --exit-at and for a script's "action exit"
  bool exit_on_illegal_position = false;
  bool ignore_stop = false;
  // `go nodes N` / `go depth N` searches on, depth after depth, until `stop` (Toga II ignores
  // go nodes; some engines overshoot go depth).
  bool ignore_nodes = false;
  bool ignore_depth = false;
  bool flood_info = false;
  bool split_lines = false;
  bool glue_lines = false;
  bool illegal_bestmove = false;
  bool illegal_pv = false;
  bool garbage = false;
  bool endless_line = false;
  bool no_uciok = false;
  std::optional<int> slow_quit_ms;
  std::optional<std::int64_t> stop_short_nodes;  // --stop-short N (SearchSettings)
  std::string log_path;     // empty: no log
  std::string script_path;  // empty: no script
  std::string name = "FakeEngine 1.0";
  // --once FILE: misbehave only in the process that creates FILE; a restarted engine that
  // finds it behaves (the fault matrix needs the next request after a restart to succeed).
  std::string once_path;
  // --hold-go FILE: each search waits, before its first line, until FILE exists (isready is
  // answered meanwhile; stop ends the wait). A test makes an event happen first: two daemons
  // each holding a claim before either searches.
  std::string hold_go_path;
  // --go-tokens DIR: each search waits, as under --hold-go, until it has taken a token: removed
  // one file of DIR (engines may share DIR). A test lets exactly N searches happen.
  std::string go_tokens_dir;
  // --declare NAMES: the options offered in reply to `uci`, a comma-separated list of the
  // nine this engine knows, or none ("none"); absent: all nine (an engine with no Hash option).
  std::optional<std::vector<std::string>> declared;
  // --fault-rate P: each `go` fails with probability P (0..1) in one of fault_kinds, drawn at
  // random: a crash, a hang, or garbage (garbage lines and an illegal bestmove). For the soak.
  double fault_rate = 0.0;
  std::optional<std::uint64_t> fault_seed;  // absent: a fresh seed per process
  std::string fault_log_path;               // empty: faults are not logged
  std::array<bool, 3> fault_kinds{true, true, true};  // crash, hang, garbage
  bool help = false;

  // Every misbehaviour switched off; logging, script, name and --hold-go kept.
  void behave();

  Fault fault_at(Step s) const { return faults[static_cast<std::size_t>(s)]; }
};

// Reads argv. A bad switch is an error message (the caller prints it with the usage and exits
// with status 2, the project's start-up failure status).
Expected<Config, std::string> parse_command_line(int argc, char** argv);

// The --help text: every switch, one line each.
std::string usage();

}  // namespace epdd::fake_engine
