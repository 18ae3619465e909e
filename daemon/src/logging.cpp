#include "daemon/logging.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace epdd::daemon {

void setup_logging(Verbosity verbosity) {
  spdlog::drop("epdd");  // set up again (a second command in one process, tests)
  auto logger = spdlog::stderr_color_mt("epdd");
  logger->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] %v");
  switch (verbosity) {
    case Verbosity::Quiet: logger->set_level(spdlog::level::err); break;
    case Verbosity::Normal: logger->set_level(spdlog::level::warn); break;
    case Verbosity::Verbose: logger->set_level(spdlog::level::debug); break;
  }
  spdlog::set_default_logger(logger);
}

uci::LogSink engine_log_sink() {
  return [](uci::LogLevel level, std::string_view engine, std::string_view message) {
    spdlog::level::level_enum l = spdlog::level::info;
    switch (level) {
      case uci::LogLevel::Debug: l = spdlog::level::debug; break;
      case uci::LogLevel::Info: l = spdlog::level::info; break;
      case uci::LogLevel::Warn: l = spdlog::level::warn; break;
      case uci::LogLevel::Error: l = spdlog::level::err; break;
    }
    spdlog::log(l, "engine {}: {}", engine, message);
  };
}

}  // namespace epdd::daemon
