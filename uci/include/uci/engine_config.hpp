// How to run one engine: program, arguments, options, instances and the named timeouts
// (engine session contract, point 7). daemon/ reads these from TOML; defaults live here only.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "uci/options.hpp"
#include "uci/process.hpp"

namespace epdd::uci {

using Milliseconds = std::chrono::milliseconds;

// Every wait on an engine, by name. Multiplied by `scale` (slow machines, sanitizer builds).
struct Timeouts {
  Milliseconds handshake{10000};  // "uci" until "uciok" (Stockfish: 65-310 ms from spawn)
  Milliseconds ready{10000};      // "isready" until "readyok" (after options: Hash allocation)
  Milliseconds new_game{10000};   // "ucinewgame" + "isready" until "readyok"
  Milliseconds search{60000};     // a depth/nodes/mate search without a time of its own
  Milliseconds search_margin{5000};  // beyond movetime / stop_after before a search is hung
  Milliseconds stop{5000};        // "stop" until "bestmove"
  Milliseconds quit{2000};        // "quit" until the process ends
  Milliseconds terminate{2000};   // SIGTERM until the process ends (then SIGKILL)
  Milliseconds write{5000};       // a command written into a full pipe
  double scale = 1.0;

  bool operator==(const Timeouts&) const = default;
  Milliseconds scaled(Milliseconds t) const {
    return Milliseconds(static_cast<long long>(static_cast<double>(t.count()) * scale));
  }
  // The names as configuration files spell them, for error messages and `--help`.
  static constexpr const char* kNames[] = {"handshake", "ready", "new_game", "search", "search_margin",
                                           "stop", "quit", "terminate", "write"};
};

// Restarts allowed per engine instance: past `max_restarts` within `window`, the instance is
// unhealthy and fails its requests at once with the reason (contract point 6).
struct RestartBudget {
  int max_restarts = 3;
  std::chrono::seconds window{300};
  bool operator==(const RestartBudget&) const = default;
};

enum class LogLevel { Debug, Info, Warn, Error };
// Where sessions report what they see (engine stderr, restarts, problems); daemon/ routes it
// to spdlog. Must be safe to call from several threads.
using LogSink = std::function<void(LogLevel, std::string_view engine, std::string_view message)>;

struct EngineConfig {
  std::string name;  // as the user calls it
  ProcessSpec process;
  std::vector<OptionSetting> options;
  int instances = 1;
  Timeouts timeouts;
  RestartBudget restarts;
  std::size_t max_line = 1 << 20;  // longest output line accepted, in bytes
  // Set UCI_Chess960 and use king-takes-rook castling for Chess960 positions when the engine
  // declares UCI_Chess960.
  bool chess960_when_needed = true;
  // Turn OwnBook off where the engine offers it (analysis must come from search).
  bool own_book_off = true;
  // Every line sent to and read from the engine also goes to the log sink at Debug level
  // ("> go depth 20", "< bestmove e2e4"): the engine's transcript, for debugging a setup.
  bool log_transcript = false;
  bool operator==(const EngineConfig&) const = default;
};

}  // namespace epdd::uci
