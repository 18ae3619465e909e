#include "config.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

namespace epdd::fake_engine {

namespace {

constexpr std::array<const char*, kStepCount> kStepNames{
    "start", "uci", "isready", "setoption", "ucinewgame", "position", "go", "info", "stop", "quit"};

// Switches without a value, each setting one flag.
struct FlagSwitch {
  std::string_view name;
  bool Config::*flag;
};

constexpr std::array<FlagSwitch, 14> kFlags{{
    {"--exit-on-illegal-position", &Config::exit_on_illegal_position},
    {"--ignore-stop", &Config::ignore_stop},
    {"--ignore-nodes", &Config::ignore_nodes},
    {"--ignore-depth", &Config::ignore_depth},
    {"--flood-info", &Config::flood_info},
    {"--split-lines", &Config::split_lines},
    {"--glue-lines", &Config::glue_lines},
    {"--illegal-bestmove", &Config::illegal_bestmove},
    {"--illegal-pv", &Config::illegal_pv},
    {"--garbage", &Config::garbage},
    {"--endless-line", &Config::endless_line},
    {"--no-uciok", &Config::no_uciok},
    {"--help", &Config::help},
    {"-h", &Config::help},
}};

// Switches that name a step, each with the fault it injects there.
struct FaultSwitch {
  std::string_view name;
  Fault fault;
};

constexpr std::array<FaultSwitch, 3> kFaultSwitches{{
    {"--crash-at", Fault::Crash},
    {"--exit-at", Fault::Exit},
    {"--hang-at", Fault::Hang},
}};

// A whole-word decimal in [min, max], or nullopt.
std::optional<int> parse_int(std::string_view text, int min, int max) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min || value > max)
    return std::nullopt;
  return value;
}

// 'text' in single quotes, for messages.
std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// A comma-separated list of crash, hang, garbage into c.fault_kinds.
Expected<void, std::string> parse_fault_kinds(Config& c, std::string_view value) {
  c.fault_kinds = {false, false, false};
  while (true) {
    const std::size_t comma = value.find(',');
    const std::string_view kind = value.substr(0, comma);
    const auto known = std::find(kRandomFaultNames.begin(), kRandomFaultNames.end(), kind);
    if (known == kRandomFaultNames.end())
      return unexpected("--fault-kinds wants crash, hang, garbage (comma-separated), not " + quoted(kind));
    c.fault_kinds[static_cast<std::size_t>(known - kRandomFaultNames.begin())] = true;
    if (comma == std::string_view::npos) return {};
    value.remove_prefix(comma + 1);
  }
}

// --fault-rate, --fault-seed, --fault-log, --fault-kinds.
Expected<void, std::string> apply_random_fault(Config& c, std::string_view name, std::string_view value) {
  if (name == "--fault-rate") {
    double rate = -1;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), rate);
    if (ec != std::errc() || end != value.data() + value.size() || !(rate >= 0.0 && rate <= 1.0))
      return unexpected("--fault-rate wants a probability from 0 to 1, not " + quoted(value));
    c.fault_rate = rate;
  } else if (name == "--fault-seed") {
    std::uint64_t seed = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty())
      return unexpected("--fault-seed wants an unsigned integer, not " + quoted(value));
    c.fault_seed = seed;
  } else if (name == "--fault-log") {
    if (value.empty()) return unexpected(std::string("--fault-log wants a file name"));
    c.fault_log_path = value;
  } else if (name == "--fault-kinds") {
    return parse_fault_kinds(c, value);
  } else {
    return unexpected("unknown switch " + quoted(name));
  }
  return {};
}

// One switch that takes a value (the fault switches are handled by the caller).
Expected<void, std::string> apply_valued(Config& c, std::string_view name, std::string_view value) {
  if (name == "--exit-code") {
    const auto code = parse_int(value, 0, 255);
    if (!code) return unexpected("--exit-code wants 0..255, not " + quoted(value));
    c.exit_code = *code;
  } else if (name == "--slow-quit") {
    const auto ms = parse_int(value, 0, std::numeric_limits<int>::max());
    if (!ms) return unexpected("--slow-quit wants milliseconds, not " + quoted(value));
    c.slow_quit_ms = *ms;
  } else if (name == "--stop-short") {
    const auto n = parse_int(value, 0, std::numeric_limits<int>::max());
    if (!n) return unexpected("--stop-short wants a node count, not " + quoted(value));
    c.stop_short_nodes = *n;
  } else if (name == "--log") {
    c.log_path = value;
  } else if (name.starts_with("--fault-")) {
    return apply_random_fault(c, name, value);
  } else if (name == "--once") {
    c.once_path = value;
  } else if (name == "--hold-go") {
    c.hold_go_path = value;
  } else if (name == "--go-tokens") {
    c.go_tokens_dir = value;
  } else if (name == "--declare") {
    c.declared.emplace();
    if (value != "none") {
      std::string_view rest = value;
      while (true) {
        const std::size_t comma = rest.find(',');
        c.declared->emplace_back(rest.substr(0, comma));
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
    }
  } else if (name == "--script") {
    c.script_path = value;
  } else if (name == "--name") {
    c.name = value;
  } else {
    return unexpected("unknown switch " + quoted(name));
  }
  if (value.empty() && name != "--name") return unexpected(std::string(name) + " wants a value");
  return {};
}

// One --crash-at/--exit-at/--hang-at STEP.
Expected<void, std::string> apply_fault(Config& c, Fault fault, std::string_view value) {
  const auto step = parse_step(value);
  if (!step) return unexpected("unknown step " + quoted(value) + " (see --help)");
  Fault& slot = c.faults[static_cast<std::size_t>(*step)];
  // Two faults at one step would make the outcome depend on switch order: refuse.
  if (slot != Fault::None && slot != fault)
    return unexpected(std::string("two different faults at step ") + step_name(*step));
  slot = fault;
  return {};
}

}  // namespace

const char* step_name(Step s) { return kStepNames[static_cast<std::size_t>(s)]; }

std::optional<Step> parse_step(std::string_view text) {
  for (std::size_t i = 0; i < kStepNames.size(); ++i)
    if (text == kStepNames[i]) return static_cast<Step>(i);
  return std::nullopt;
}

Expected<Config, std::string> parse_command_line(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    std::string_view name = argv[i];
    // --switch=value is accepted beside --switch value, as most tools do.
    std::optional<std::string_view> inline_value;
    if (const auto eq = name.find('='); name.starts_with("--") && eq != std::string_view::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    bool matched = false;
    for (const FlagSwitch& f : kFlags) {
      if (name != f.name) continue;
      if (inline_value) return unexpected(std::string(name) + " takes no value");
      c.*f.flag = true;
      matched = true;
    }
    if (matched) continue;
    std::string_view value;
    if (inline_value) {
      value = *inline_value;
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      return unexpected(std::string(name) + " wants a value (or is unknown; see --help)");
    }
    for (const FaultSwitch& f : kFaultSwitches) {
      if (name != f.name) continue;
      if (auto ok = apply_fault(c, f.fault, value); !ok) return unexpected(ok.error());
      matched = true;
    }
    if (matched) continue;
    if (auto ok = apply_valued(c, name, value); !ok) return unexpected(ok.error());
  }
  return c;
}

std::string usage() {
  return R"(usage: fake_engine [switches]
A UCI engine for tests: deterministic fake search on legal moves, with misbehaviour switches.

  --script FILE            per-position overrides, one line each:
                           <FEN, 4 or 6 fields> | bestmove M | ponder M | pv M... |
                           score cp N | score mate N | depth N | action crash|hang|exit|none
  --log FILE               append every line received to FILE (one write per line)
  --name NAME              the "id name" (default "FakeEngine 1.0")
  --exit-on-illegal-position
                           exit(1) on a bad FEN or an illegal move in "position"
  --crash-at STEP          die by SIGSEGV at STEP
  --exit-at STEP           exit at STEP with --exit-code (default 3)
  --exit-code N            exit status for --exit-at and a script's "action exit"
  --hang-at STEP           stop answering forever at STEP (stdin stays open, EOF ignored)
  --ignore-stop            go infinite/movetime/ponder never ends: stop ignored, no bestmove
  --ignore-nodes           go nodes N searches on past N, a depth per ~1 ms, until stop
  --ignore-depth           go depth N searches on past N, a depth per ~1 ms, until stop
  --flood-info             on go, info lines forever, never bestmove (answers isready, quit)
  --split-lines            write each line in 1-3 byte pieces, ~1 ms apart, '\n' alone
  --glue-lines             write each whole response (all its lines) in one write(2)
  --illegal-bestmove       bestmove is a move from an empty square
  --illegal-pv             every pv's second move is illegal (the first stays legal)
  --garbage                a garbage line (bytes 0x01, 0xFF, a 600-byte token) before each line
  --endless-line           on go, write 'x' forever in 4 KiB writes, never a newline
  --slow-quit MS           on quit, sleep MS milliseconds, then exit 0
  --no-uciok               never send uciok
  --stop-short N           go nodes L (L > N) answered at depth 1 after N nodes (as Ethereal)
  --once FILE              misbehave only if FILE does not exist yet (and create it): a
                           restarted engine behaves
  --hold-go FILE           each go waits until FILE exists before it searches (isready is
                           answered meanwhile, stop ends the wait): a test's event first
  --go-tokens DIR          each go waits, as under --hold-go, until it removes a file of DIR
                           (one token a search; engines may share DIR)
  --declare NAMES          offer only these options (comma-separated; "none": no option);
                           default: Threads, Hash, Clear Hash, Ponder, MultiPV, UCI_Chess960,
                           OwnBook, Style, Debug Log File
  --fault-rate P           each go fails with probability P (0..1): a crash, a hang, or
                           garbage (garbage lines and an illegal bestmove), drawn at random
  --fault-kinds K,...      the faults drawn: crash, hang, garbage (default all three)
  --fault-seed N           seed of the draws (default: a fresh one per process)
  --fault-log FILE         append "KIND go N fen FEN" (N: the search's number) before each
                           random fault, one write per line (engines may share FILE)
  --help, -h               this text

STEP is one of: start uci isready setoption ucinewgame position go info stop quit
  (start: before reading anything; info: right after the first info line of a search;
   the others: when that command arrives, before anything is answered).
Switches may also be written --switch=value. A fault switch may be repeated for other steps.
)";
}

}  // namespace epdd::fake_engine

namespace epdd::fake_engine {

void Config::behave() {
  Config clean;
  clean.log_path = log_path;
  clean.script_path = script_path;
  clean.name = name;
  clean.exit_code = exit_code;
  clean.hold_go_path = hold_go_path;
  clean.go_tokens_dir = go_tokens_dir;
  clean.declared = declared;
  *this = std::move(clean);
}

}  // namespace epdd::fake_engine
