#include "daemon/logging.hpp"

#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "core/text.hpp"
#include "store/store.hpp"

namespace epdd::daemon {

std::string safe_lines(std::string_view text) {
  std::string out;
  for (std::size_t start = 0;;) {
    const auto end = text.find('\n', start);
    out += one_line(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return out;
    out += '\n';
    start = end + 1;
  }
}

namespace {

// The message of a log record through one_line(): every record is one line of the log, whatever
// a file name or an engine wrote into it.
class SafeMessage : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    const std::string text = one_line(std::string_view(msg.payload.data(), msg.payload.size()));
    dest.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SafeMessage>(); }
};

std::unique_ptr<spdlog::formatter> log_formatter() {
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<SafeMessage>('*').set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] %*");
  return formatter;
}

// The store's notices (waiting for its database, reconnected) are warnings in the log.
void route_store_notices() {
  store::set_notice_handler([](const std::string& text) { spdlog::warn("{}", one_line(text)); });
}

}  // namespace

void setup_logging(Verbosity verbosity) {
  spdlog::drop("epdd");  // set up again (a second command in one process, tests)
  auto logger = spdlog::stderr_color_mt("epdd");
  logger->set_formatter(log_formatter());
  switch (verbosity) {
    case Verbosity::Quiet: logger->set_level(spdlog::level::err); break;
    case Verbosity::Normal: logger->set_level(spdlog::level::warn); break;
    case Verbosity::Verbose: logger->set_level(spdlog::level::debug); break;
  }
  spdlog::set_default_logger(logger);
  route_store_notices();
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
  for (auto& sink : sinks) sink->set_formatter(log_formatter());
  // One logger for the daemon's life, its sinks swapped under their lock: a SIGHUP sets the log
  // anew while the threads of the engines it keeps log on (spdlog's default logger must not be
  // replaced while other threads use it).
  static std::shared_ptr<spdlog::sinks::dist_sink_mt> routed;
  static std::shared_ptr<spdlog::logger> daemon_logger;
  if (!daemon_logger || spdlog::default_logger() != daemon_logger) {  // (the first time, or after a command's)
    routed = std::make_shared<spdlog::sinks::dist_sink_mt>();
    daemon_logger = std::make_shared<spdlog::logger>("epdd", routed);
    daemon_logger->flush_on(spdlog::level::info);
    spdlog::drop("epdd");
    spdlog::register_logger(daemon_logger);
    spdlog::set_default_logger(daemon_logger);
  }
  routed->set_sinks(std::move(sinks));
  daemon_logger->set_level(verbose ? spdlog::level::debug : spdlog::level::from_str(settings.level));
  route_store_notices();
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
