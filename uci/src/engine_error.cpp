#include "uci/engine_error.hpp"

#include <fmt/core.h>

namespace epdd::uci {

const char* to_string(EngineErrorKind kind) {
  switch (kind) {
    case EngineErrorKind::StartFailed: return "start failed";
    case EngineErrorKind::Timeout: return "timeout";
    case EngineErrorKind::Crash: return "crash";
    case EngineErrorKind::ProtocolViolation: return "protocol violation";
    case EngineErrorKind::IllegalOutput: return "illegal output";
    case EngineErrorKind::WriteFailed: return "write failed";
    case EngineErrorKind::BadRequest: return "bad request";
    case EngineErrorKind::Unhealthy: return "unhealthy";
    case EngineErrorKind::ShutDown: return "shut down";
    case EngineErrorKind::Cancelled: return "cancelled";
  }
  return "?";
}

std::string EngineError::to_string() const {
  std::string out = fmt::format("engine '{}': {}", engine, uci::to_string(kind));
  if (!step.empty()) out += " during " + step;
  out += ": " + message;
  if (!exit_status.empty()) out += " (" + exit_status + ")";
  if (!transcript.empty()) {
    out += "\n  last lines:";
    std::size_t start = 0;
    while (start < transcript.size()) {
      std::size_t end = transcript.find('\n', start);
      if (end == std::string::npos) end = transcript.size();
      out += "\n    " + transcript.substr(start, end - start);
      start = end + 1;
    }
  }
  return out;
}

}  // namespace epdd::uci
