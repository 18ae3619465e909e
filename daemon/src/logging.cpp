#include "daemon/logging.hpp"

#include <spdlog/sinks/rotating_file_sink.h>
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

Expected<void, std::string> setup_daemon_logging(const LoggingSettings& settings, bool verbose) {
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  if (settings.file) {
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(*settings.file, settings.max_size_bytes,
                                                                              settings.max_files));
    } catch (const spdlog::spdlog_ex& e) {
      return unexpected(std::string("cannot open the log file: ") + e.what());
    }
  }
  spdlog::drop("epdd");
  auto logger = std::make_shared<spdlog::logger>("epdd", sinks.begin(), sinks.end());
  logger->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] %v");
  logger->set_level(verbose ? spdlog::level::debug : spdlog::level::from_str(settings.level));
  logger->flush_on(spdlog::level::info);
  spdlog::register_logger(logger);
  spdlog::set_default_logger(logger);
  return {};
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
