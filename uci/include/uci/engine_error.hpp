// What went wrong with an engine request: a kind that callers branch on, and the facts a user
// needs to see why (engine session contract, point 8).
#pragma once

#include <cstdint>
#include <string>

namespace epdd::uci {

enum class EngineErrorKind : std::uint8_t {
  StartFailed,        // the program could not be started
  Timeout,            // a deadline passed (the step says which)
  Crash,              // the engine exited or was killed without being asked to
  ProtocolViolation,  // output that breaks the protocol (no uciok, endless line, ...)
  IllegalOutput,      // an illegal bestmove
  WriteFailed,        // the engine's input could not be written
  BadRequest,         // the request itself is wrong (bad FEN, illegal move, bad option)
  Unhealthy,          // the engine used up its restart budget: failing fast
  ShutDown,           // the pool or session was shut down before the request ran
  Cancelled,          // the request's cancel flag was set: the search was stopped, the engine is fine
};

// "timeout", "crash", "protocol violation", ...
const char* to_string(EngineErrorKind kind);

struct EngineError {
  EngineErrorKind kind = EngineErrorKind::Crash;
  std::string engine;       // the engine's configured name
  std::string step;         // "handshake", "isready", "search", "stop", ...
  std::string message;      // a sentence
  std::string exit_status;  // "killed by signal 11 (SIGSEGV)", when the engine ended
  std::string transcript;   // the last lines to and from the engine

  // One paragraph: "engine 'sf': crash during search: ... (killed by signal 11 (SIGSEGV))"
  // followed by the transcript tail, indented.
  std::string to_string() const;
};

}  // namespace epdd::uci
