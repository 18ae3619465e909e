// One running engine, driven through the UCI state machine of ARCHITECTURE.md:
// Spawned -> Handshaking -> Ready <-> Searching -> Stopping -> Ready; any state -> Dead.
// Every wait has an absolute deadline; every `go` gets exactly one `bestmove` or the session is
// Dead; positions are validated by core before they are sent; output is checked before it is
// trusted; shutdown escalates stop -> quit -> SIGTERM -> SIGKILL and always reaps. A session is
// used by one thread at a time (the pool gives each its own).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "uci/analysis.hpp"
#include "uci/engine_config.hpp"
#include "uci/engine_error.hpp"
#include "uci/engine_identity.hpp"
#include "uci/line_channel.hpp"
#include "uci/process.hpp"
#include "uci/protocol.hpp"

namespace epdd::uci {

enum class SessionState { Spawned, Handshaking, Ready, Searching, Stopping, Dead };
const char* to_string(SessionState state);

class EngineSession : public Analyser {
 public:
  // Spawns the engine, does the handshake (uci/uciok), checks and sends the configured options
  // (Threads before Hash; OwnBook off where offered) and waits for readyok.
  static Expected<std::unique_ptr<EngineSession>, EngineError> start(const EngineConfig& config,
                                                                     LogSink log = {});
  ~EngineSession() override;
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  // One search. A bad request (FEN, move) fails without touching the engine. A position with no
  // legal move is answered without a search (status says why) unless `search_terminal`.
  Expected<Analysis, EngineError> analyse(const AnalysisRequest& request) override;
  Expected<Analysis, EngineError> analyse(const AnalysisRequest& request, bool search_terminal);

  // isready/readyok round trip.
  Expected<void, EngineError> sync();
  // Checks the option against the declaration and sends it, then syncs.
  Expected<void, EngineError> set_option(const OptionSetting& setting);

  // Ends the engine politely if it can, by force if it must, and reaps it. Idempotent.
  void shutdown();

  SessionState state() const { return state_; }
  const EngineIdentity& identity() const { return identity_; }
  const EngineConfig& config() const { return config_; }
  // The `setoption` commands the handshake sent, in order: the configured options as the engine
  // declares them (its spelling, canonical values), for a user to see what the engine was told.
  const std::vector<std::string>& handshake_options() const { return handshake_options_; }
  int pid() const { return process_ ? process_->pid() : -1; }
  // The exit status once the engine has ended, in words.
  std::string exit_status() const;
  std::string transcript_tail(std::size_t n = 12) const { return transcript_.tail(n); }

 private:
  EngineSession(const EngineConfig& config, LogSink log);

  Expected<void, EngineError> handshake();
  Expected<void, EngineError> send(const std::string& text, const char* step);
  // Reads engine lines until one satisfies `done`, by the deadline. Failures mark the session
  // Dead (the engine is killed and reaped) and say what happened at `step`.
  template <class Done>
  Expected<void, EngineError> read_until(Done done, Deadline deadline, const char* step);
  Expected<void, EngineError> wait_ready(Milliseconds timeout, const char* step);
  Expected<void, EngineError> ensure_option(const std::string& name, const std::string& value);
  Expected<Analysis, EngineError> search(const PreparedPosition& position, const AnalysisRequest& request,
                                         core::UciCastling castling);

  EngineError error(EngineErrorKind kind, const char* step, std::string message);
  // The engine misbehaved beyond repair: kill it, reap it, state Dead.
  EngineError die(EngineErrorKind kind, const char* step, std::string message);
  void kill_now();
  Deadline after(Milliseconds t) const { return Clock::now() + config_.timeouts.scaled(t); }
  void log(LogLevel level, std::string_view message) const;
  // The transcript, and the log when the config asks for it.
  void note_sent(std::string_view line);
  void note_received(std::string_view line);

  EngineConfig config_;
  LogSink log_;
  std::optional<ChildProcess> process_;
  std::optional<LineChannel> channel_;
  Transcript transcript_;
  EngineIdentity identity_;
  SessionState state_ = SessionState::Spawned;
  // Option values as last sent, by the engine's spelling of the name.
  std::vector<std::pair<std::string, std::string>> sent_options_;
  std::vector<std::string> handshake_options_;
  bool searched_since_new_game_ = false;
  Clock::time_point prepare_started_;  // when the current analyse() began, for SearchTiming
};

}  // namespace epdd::uci
