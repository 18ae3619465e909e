#include "uci/engine_session.hpp"

#include <signal.h>

#include <algorithm>
#include <cstring>
#include <variant>

#include <fmt/core.h>

namespace epdd::uci {


const char* to_string(SessionState state) {
  switch (state) {
    case SessionState::Spawned: return "spawned";
    case SessionState::Handshaking: return "handshaking";
    case SessionState::Ready: return "ready";
    case SessionState::Searching: return "searching";
    case SessionState::Stopping: return "stopping";
    case SessionState::Dead: return "dead";
  }
  return "?";
}

EngineSession::EngineSession(const EngineConfig& config, LogSink log)
    : config_(config), log_(std::move(log)), transcript_(60) {}

EngineSession::~EngineSession() { shutdown(); }

void EngineSession::log(LogLevel level, std::string_view message) const {
  if (log_) log_(level, config_.name, message);
}

std::string EngineSession::exit_status() const {
  if (process_ && process_->exit_status()) return process_->exit_status()->to_string();
  return {};
}

EngineError EngineSession::error(EngineErrorKind kind, const char* step, std::string message) {
  EngineError e;
  e.kind = kind;
  e.engine = config_.name;
  e.step = step;
  e.message = std::move(message);
  e.exit_status = exit_status();
  e.transcript = transcript_.tail();
  return e;
}

EngineError EngineSession::die(EngineErrorKind kind, const char* step, std::string message) {
  kill_now();
  EngineError e = error(kind, step, std::move(message));
  log(LogLevel::Warn, e.to_string());
  return e;
}

void EngineSession::kill_now() {
  state_ = SessionState::Dead;
  if (!process_) return;
  // A dead or hopeless engine gets no grace beyond a short SIGTERM: its request already failed.
  process_->terminate(after(Milliseconds(std::min<long long>(config_.timeouts.terminate.count(), 200))));
  if (auto status = process_->exit_status()) transcript_.note("engine " + status->to_string());
}

Expected<std::unique_ptr<EngineSession>, EngineError> EngineSession::start(const EngineConfig& config, LogSink log) {
  std::unique_ptr<EngineSession> session(new EngineSession(config, std::move(log)));
  auto child = ChildProcess::spawn(config.process);
  if (!child) {
    session->state_ = SessionState::Dead;
    return unexpected(session->error(EngineErrorKind::StartFailed, "start", child.error()));
  }
  session->process_.emplace(std::move(*child));
  EngineSession* self = session.get();
  session->channel_.emplace(session->process_->stdout_fd(), session->process_->stderr_fd(), config.max_line,
                            [self](std::string_view line) {
                              self->transcript_.stderr_line(line);
                              self->log(LogLevel::Info, fmt::format("stderr: {}", line));
                            });
  if (auto ok = session->handshake(); !ok) return unexpected(ok.error());
  return session;
}

Expected<void, EngineError> EngineSession::send(const std::string& text, const char* step) {
  // `text` may hold several commands, one per line; each goes into the transcript.
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    note_sent(std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
  if (auto ok = process_->write_all(text, after(config_.timeouts.write)); !ok) {
    // A write error usually means the engine is gone; its exit status says more than EPIPE.
    process_->wait_until(Clock::now() + Milliseconds(50));
    const bool ended = process_->exit_status().has_value();
    return unexpected(die(ended ? EngineErrorKind::Crash : EngineErrorKind::WriteFailed, step,
                          ended ? "the engine ended (" + ok.error() + ")" : ok.error()));
  }
  return {};
}

void EngineSession::note_sent(std::string_view line) {
  transcript_.sent(line);
  if (config_.log_transcript) log(LogLevel::Debug, fmt::format("> {}", line));
}

void EngineSession::note_received(std::string_view line) {
  transcript_.received(line);
  if (config_.log_transcript) log(LogLevel::Debug, fmt::format("< {}", line));
}

template <class Done>
Expected<void, EngineError> EngineSession::read_until(Done done, Deadline deadline, const char* step) {
  std::string line;
  for (;;) {
    switch (channel_->read_line(line, deadline)) {
      case ChannelStatus::Line: {
        note_received(line);
        if (done(parse_engine_line(line))) return {};
        // Output does not extend the deadline: an engine that keeps talking still times out.
        if (Clock::now() >= deadline) return unexpected(error(EngineErrorKind::Timeout, step, "no answer by the deadline"));
        break;
      }
      case ChannelStatus::Timeout:
        return unexpected(error(EngineErrorKind::Timeout, step, "no answer by the deadline"));
      case ChannelStatus::LineTooLong:
        return unexpected(die(EngineErrorKind::ProtocolViolation, step,
                              fmt::format("an output line longer than {} bytes", config_.max_line)));
      case ChannelStatus::Eof:
      case ChannelStatus::ReadFailed: {
        // The engine closed its output: it is ending. Give it a moment so the status is known.
        process_->wait_until(after(config_.timeouts.quit));
        return unexpected(die(EngineErrorKind::Crash, step, "the engine ended unexpectedly"));
      }
    }
  }
}

Expected<void, EngineError> EngineSession::wait_ready(Milliseconds timeout, const char* step) {
  if (auto ok = send("isready\n", step); !ok) return ok;
  auto ok = read_until([](const EngineMessage& m) { return std::holds_alternative<ReadyOk>(m); }, after(timeout),
                       step);
  if (!ok && ok.error().kind == EngineErrorKind::Timeout) return unexpected(die(EngineErrorKind::Timeout, step, ok.error().message));
  return ok;
}

Expected<void, EngineError> EngineSession::handshake() {
  state_ = SessionState::Handshaking;
  if (auto ok = send("uci\n", "handshake"); !ok) return ok;
  auto ok = read_until(
      [this](const EngineMessage& m) {
        if (const auto* id = std::get_if<IdLine>(&m)) {
          if (id->key == "name") identity_.name = id->value;
          if (id->key == "author") identity_.author = id->value;
        } else if (const auto* option = std::get_if<OptionLine>(&m)) {
          identity_.options.push_back(*option);
        }
        return std::holds_alternative<UciOk>(m);
      },
      after(config_.timeouts.handshake), "handshake");
  if (!ok) {
    if (ok.error().kind == EngineErrorKind::Timeout)
      return unexpected(die(EngineErrorKind::Timeout, "handshake", "no uciok by the deadline"));
    return ok;
  }
  if (identity_.name.empty()) identity_.name = config_.name;

  std::vector<OptionSetting> wanted = config_.options;
  const auto user_set = [&](std::string_view name) {
    return std::any_of(wanted.begin(), wanted.end(), [&](const OptionSetting& s) { return equal_ignoring_case(s.name, name); });
  };
  if (config_.own_book_off && find_option(identity_.options, "OwnBook") && !user_set("OwnBook"))
    wanted.push_back({"OwnBook", "false"});
  auto checked = check_options(identity_.options, engine_spelling(identity_.options, std::move(wanted)), identity_.name);
  // The engine is fine, the settings are not: it is told to quit as the session ends (no kill,
  // no warning with its transcript), and the message is the checks' own.
  if (!checked) return unexpected(error(EngineErrorKind::BadRequest, "options", checked.error()));
  std::string commands;
  for (const CheckedOption& o : *checked) {
    handshake_options_.push_back(setoption_command(o.name, o.value));
    commands += handshake_options_.back() + "\n";
    if (o.value) sent_options_.emplace_back(o.name, *o.value);
  }
  if (!commands.empty())
    if (auto sent = send(commands, "options"); !sent) return sent;
  if (auto ready = wait_ready(config_.timeouts.ready, "isready"); !ready) return ready;
  state_ = SessionState::Ready;
  return {};
}

Expected<void, EngineError> EngineSession::sync() {
  if (state_ != SessionState::Ready)
    return unexpected(error(EngineErrorKind::Crash, "isready", fmt::format("the session is {}", to_string(state_))));
  return wait_ready(config_.timeouts.ready, "isready");
}

Expected<void, EngineError> EngineSession::set_option(const OptionSetting& setting) {
  if (state_ != SessionState::Ready)
    return unexpected(error(EngineErrorKind::Crash, "setoption", fmt::format("the session is {}", to_string(state_))));
  auto checked = check_option(identity_.options, setting, identity_.name);
  if (!checked) return unexpected(error(EngineErrorKind::BadRequest, "setoption", checked.error()));
  if (auto ok = send(setoption_command(checked->name, checked->value) + "\n", "setoption"); !ok) return ok;
  if (checked->value) {
    auto it = std::find_if(sent_options_.begin(), sent_options_.end(),
                           [&](const auto& p) { return equal_ignoring_case(p.first, checked->name); });
    if (it != sent_options_.end()) it->second = *checked->value;
    else sent_options_.emplace_back(checked->name, *checked->value);
  }
  return wait_ready(config_.timeouts.ready, "isready");
}

Expected<void, EngineError> EngineSession::ensure_option(const std::string& name, const std::string& value) {
  const OptionLine* declared = find_option(identity_.options, name);
  if (!declared) return {};
  auto it = std::find_if(sent_options_.begin(), sent_options_.end(),
                         [&](const auto& p) { return equal_ignoring_case(p.first, name); });
  const std::string current = it != sent_options_.end() ? it->second : declared->default_value.value_or("");
  if (equal_ignoring_case(current, value)) return {};
  return set_option({declared->name, value});
}

}  // namespace epdd::uci
