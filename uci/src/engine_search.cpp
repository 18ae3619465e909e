// EngineSession's search and shutdown: the Ready -> Searching -> (Stopping ->) Ready part of the
// state machine, where the contract's "one go, one bestmove" and absolute deadlines live.
#include <signal.h>

#include <fmt/core.h>

#include "uci/engine_session.hpp"

namespace epdd::uci {

namespace {

bool cancelled(const AnalysisRequest& request) {
  return request.cancel && request.cancel->load(std::memory_order_relaxed);
}

// 1003412 as "1,003,412", for messages people read.
std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n);
  for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
  return digits;
}

// Why this report shows the engine searching past the request's own limit, or "". Engines that
// keep to `go nodes` check it every few thousand nodes and pass it by a hair (Stockfish 15.1:
// 1,000,657 for 1,000,000); one eighth plus 10,000 more is searching on regardless (Toga II).
// `go depth` is passed when a deeper iteration is reported.
std::string past_limit(const Info& info, const SearchLimits& limits) {
  if (limits.nodes && info.nodes && *info.nodes > *limits.nodes + *limits.nodes / 8 + 10000)
    return fmt::format("engine ignores go nodes: stopped by epdd at {} nodes", grouped(*info.nodes));
  if (limits.depth && info.depth && *info.depth > *limits.depth)
    return fmt::format("engine searched past go depth {}: stopped by epdd at depth {}", *limits.depth, *info.depth);
  return {};
}

// Why this answer shows the engine ending a node-limited search on its own far short of the
// limit, or "": fewer than a tenth of the nodes asked for (Ethereal 12.75 answers go nodes 10000
// after 21 nodes at depth 1; an engine that keeps to the limit stops at or just past it). Not
// with a single legal move or a mate score, where an engine may rightly stop at once.
std::string short_of_limit(const Analysis& a, const SearchLimits& limits, const core::Board& board) {
  if (!limits.nodes || a.stopped || a.nodes == 0 || a.nodes >= *limits.nodes / 10) return {};
  if (board.count_legal() < 2 || (!a.lines.empty() && a.lines[0].score.is_mate())) return {};
  return fmt::format("engine stopped far short of go nodes {}: {} nodes, depth {}", grouped(*limits.nodes),
                     grouped(a.nodes), a.depth);
}

}  // namespace

Expected<Analysis, EngineError> EngineSession::analyse(const AnalysisRequest& request) {
  return analyse(request, false);
}

Expected<Analysis, EngineError> EngineSession::analyse(const AnalysisRequest& request, bool search_terminal) {
  prepare_started_ = Clock::now();
  if (state_ != SessionState::Ready) {
    // Dead, or left mid-search by an exception: either way this engine cannot be trusted now.
    if (state_ != SessionState::Dead) kill_now();
    return unexpected(error(EngineErrorKind::Crash, "search", "the engine session is no longer usable"));
  }
  const SearchLimits& l = request.limits;
  if (!l.depth && !l.nodes && !l.movetime_ms && !l.mate && !l.stop_after_ms)
    return unexpected(error(EngineErrorKind::BadRequest, "search",
                            "no search limit: give depth, nodes, movetime, mate or stop_after"));
  // Times beyond 30 days are mistakes, and would overflow the clock's arithmetic.
  constexpr std::uint64_t kMaxMs = 30ull * 24 * 3600 * 1000;
  for (const auto& [name, value] : {std::pair{"movetime", l.movetime_ms}, std::pair{"stop_after", l.stop_after_ms},
                                    std::pair{"timeout", request.timeout_ms}})
    if (value && *value > kMaxMs)
      return unexpected(error(EngineErrorKind::BadRequest, "search", fmt::format("{} {} ms is more than 30 days", name, *value)));
  if (request.multipv < 1) return unexpected(error(EngineErrorKind::BadRequest, "search", "multipv must be at least 1"));
  if (cancelled(request)) return unexpected(error(EngineErrorKind::Cancelled, "search", "cancelled before it started"));

  // Chess960 positions go to the engine in its Chess960 mode, with king-takes-rook castling.
  const bool has960 = find_option(identity_.options, "UCI_Chess960") != nullptr;
  auto prepared = prepare_position(request, core::UciCastling::Standard);
  if (!prepared) return unexpected(error(EngineErrorKind::BadRequest, "position", prepared.error()));
  core::UciCastling castling = core::UciCastling::Standard;
  if (prepared->board.chess960() && config_.chess960_when_needed) {
    if (!has960)
      return unexpected(error(EngineErrorKind::BadRequest, "position",
                              "a Chess960 position, and the engine has no UCI_Chess960 option"));
    castling = core::UciCastling::KingTakesRook;
    // The moves are read again in the engine's castling form, which may read them otherwise.
    prepared = prepare_position(request, castling);
    if (!prepared) return unexpected(error(EngineErrorKind::BadRequest, "position", prepared.error()));
  }
  if (has960 && config_.chess960_when_needed)
    if (auto ok = ensure_option("UCI_Chess960", prepared->board.chess960() ? "true" : "false"); !ok)
      return unexpected(ok.error());

  if (!search_terminal) {
    const core::GameStatus status = prepared->board.status();
    if (status == core::GameStatus::Checkmate || status == core::GameStatus::Stalemate) {
      Analysis a;
      a.engine = identity_.name;
      a.status = status;
      return a;
    }
  }
  if (find_option(identity_.options, "MultiPV")) {
    if (auto ok = ensure_option("MultiPV", std::to_string(request.multipv)); !ok) return unexpected(ok.error());
  } else if (request.multipv > 1) {
    return unexpected(error(EngineErrorKind::BadRequest, "search", "multipv > 1, and the engine has no MultiPV option"));
  }
  if (request.new_game == NewGame::Clear && searched_since_new_game_) {
    if (auto ok = send("ucinewgame\n", "ucinewgame"); !ok) return unexpected(ok.error());
    if (auto ok = wait_ready(config_.timeouts.new_game, "ucinewgame"); !ok) return unexpected(ok.error());
    searched_since_new_game_ = false;
  }
  return search(*prepared, request, castling);
}

Expected<Analysis, EngineError> EngineSession::search(const PreparedPosition& position, const AnalysisRequest& request,
                                                      core::UciCastling castling) {
  // Lines the engine printed after its last bestmove belong to no search: note and drop them
  // now, so they are not taken for this one's.
  channel_->pump();
  for (std::string stale; channel_->queued() > 0;) {
    channel_->read_line(stale, Clock::now());
    note_received(stale);
    transcript_.note("(a line from before this search, ignored)");
  }

  const SearchLimits& limits = request.limits;
  GoLimits go;
  go.depth = limits.depth;
  go.nodes = limits.nodes;
  go.movetime_ms = limits.movetime_ms;
  go.mate = limits.mate;
  go.searchmoves = position.searchmoves;
  const bool engine_limited = limits.depth || limits.nodes || limits.movetime_ms || limits.mate;
  go.infinite = !engine_limited;

  // One absolute deadline: the search's own time (movetime, stop_after, or the search
  // timeout) plus a margin. Info lines do not extend it (contract point 1).
  const Timeouts& t = config_.timeouts;
  Milliseconds own = request.timeout_ms ? Milliseconds(*request.timeout_ms) : t.scaled(t.search);
  if (limits.movetime_ms) own = Milliseconds(*limits.movetime_ms);
  if (limits.stop_after_ms) own = std::min(own, Milliseconds(*limits.stop_after_ms));
  const auto started = Clock::now();
  Deadline deadline = started + own + t.scaled(t.search_margin);
  std::optional<Deadline> stop_at;
  if (limits.stop_after_ms) stop_at = started + Milliseconds(*limits.stop_after_ms);

  const std::string commands = position_command(position.root_fen, position.moves) + "\n" + go_command(go) + "\n";
  if (auto ok = send(commands, "search"); !ok) return unexpected(ok.error());
  const auto go_sent = Clock::now();
  std::optional<Clock::time_point> first_info, bestmove_read;
  state_ = SessionState::Searching;
  searched_since_new_game_ = true;

  SearchRecord record(position.board.detached(), castling);
  std::optional<BestMove> best;
  bool stopped = false;
  bool timed_out = false;
  bool was_cancelled = false;
  std::string limit_stop;
  std::string line;
  // How often a cancellable search looks at its flag.
  constexpr Milliseconds kCancelPoll{100};
  while (!best) {
    Deadline wait = stop_at && !stopped ? std::min(*stop_at, deadline) : deadline;
    if (request.cancel && !stopped) wait = std::min(wait, Clock::now() + kCancelPoll);
    ChannelStatus status = channel_->read_line(line, wait);
    if (status == ChannelStatus::Line) {
      note_received(line);
      EngineMessage m = parse_engine_line(line);
      if (auto* info = std::get_if<Info>(&m)) {
        if (!first_info) first_info = Clock::now();
        record.add(*info);
        if (!stopped) limit_stop = past_limit(*info, limits);
        if (!limit_stop.empty() && !stopped) {
          // The engine searches on past what it was asked: we stop it, and its bestmove (the
          // one this go gets) ends the search as usual.
          stopped = true;
          state_ = SessionState::Stopping;
          if (auto ok = send("stop\n", "stop"); !ok) return unexpected(ok.error());
          deadline = after(t.stop);
          continue;
        }
      } else if (auto* b = std::get_if<BestMove>(&m)) {
        best = std::move(*b);
        bestmove_read = Clock::now();
      }
      // Output does not move the deadline: a flood of info lines times out like silence.
      if (best || Clock::now() < wait) continue;
      status = ChannelStatus::Timeout;
    }
    if (status == ChannelStatus::Timeout) {
      if (!stopped && cancelled(request)) {
        was_cancelled = true;
        stopped = true;
        state_ = SessionState::Stopping;
        if (auto ok = send("stop\n", "stop"); !ok) return unexpected(ok.error());
        deadline = after(t.stop);
        continue;
      }
      if (!stopped && Clock::now() < (stop_at ? std::min(*stop_at, deadline) : deadline)) continue;  // a poll
      if (!stopped) {
        // Our stop time, or the deadline: either way the engine is told to stop, and must
        // answer with its bestmove within the stop timeout (contract point 2).
        timed_out = !stop_at || Clock::now() < *stop_at;
        stopped = true;
        state_ = SessionState::Stopping;
        if (auto ok = send("stop\n", "stop"); !ok) return unexpected(ok.error());
        deadline = after(t.stop);
        continue;
      }
      return unexpected(die(EngineErrorKind::Timeout, "stop", "no bestmove after stop by the deadline"));
    }
    if (status == ChannelStatus::LineTooLong)
      return unexpected(die(EngineErrorKind::ProtocolViolation, "search",
                            fmt::format("an output line longer than {} bytes", config_.max_line)));
    process_->wait_until(after(t.quit));
    return unexpected(die(EngineErrorKind::Crash, "search", "the engine ended during the search"));
  }
  const auto wall = std::chrono::duration_cast<Milliseconds>(Clock::now() - started).count();
  if (stopped) {
    // An engine may answer a stop that crossed its bestmove with a second bestmove; a
    // readyok round trip makes sure nothing of this search is read as the next one's.
    state_ = SessionState::Ready;
    if (auto ok = wait_ready(t.stop, "stop"); !ok) return unexpected(ok.error());
  }
  state_ = SessionState::Ready;
  if (was_cancelled)
    return unexpected(error(EngineErrorKind::Cancelled, "search", fmt::format("cancelled after {} ms and stopped", wall)));
  if (timed_out)
    return unexpected(error(EngineErrorKind::Timeout, "search",
                            fmt::format("the search did not finish within {} ms and was stopped", wall)));
  auto analysis = record.finish(*best, static_cast<std::uint64_t>(wall), stopped);
  if (!analysis) return unexpected(error(EngineErrorKind::IllegalOutput, "search", analysis.error()));
  analysis->engine = identity_.name;
  analysis->stopped = stopped;
  analysis->limit_stop = std::move(limit_stop);
  analysis->limit_short = short_of_limit(*analysis, limits, position.board);
  const auto ms = [](Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); };
  analysis->timing.prepare = ms(go_sent - prepare_started_);
  analysis->timing.go_to_first_info = first_info ? ms(*first_info - go_sent) : 0;
  analysis->timing.go_to_bestmove = ms(*bestmove_read - go_sent);
  analysis->timing.after_bestmove = ms(Clock::now() - *bestmove_read);
  for (const auto& p : analysis->problems) log(LogLevel::Warn, p);
  return std::move(*analysis);
}

void EngineSession::shutdown() {
  if (!process_ || process_->exit_status()) {
    state_ = SessionState::Dead;
    return;
  }
  const Timeouts& t = config_.timeouts;
  if (state_ == SessionState::Searching || state_ == SessionState::Stopping) {
    // Drain the bestmove of the running search, so the engine is idle when told to quit.
    if (state_ == SessionState::Searching) (void)process_->write_all("stop\n", after(t.write));
    std::string line;
    const Deadline deadline = after(t.stop);
    while (Clock::now() < deadline && channel_->read_line(line, deadline) == ChannelStatus::Line)
      if (std::holds_alternative<BestMove>(parse_engine_line(line))) break;
  }
  if (state_ != SessionState::Dead) {
    note_sent("quit");
    if (process_->write_all("quit\n", after(t.write))) {
      process_->close_stdin();
      // Read and drop output meanwhile: an engine blocked on a full stdout pipe cannot exit.
      const Deadline deadline = after(t.quit);
      while (!process_->try_reap() && Clock::now() < deadline) {
        std::string line;
        if (channel_->read_line(line, std::min(deadline, Clock::now() + Milliseconds(20))) == ChannelStatus::Eof)
          process_->wait_until(std::min(deadline, Clock::now() + Milliseconds(20)));
      }
    }
  }
  if (process_->terminate(after(t.terminate))) log(LogLevel::Warn, "did not end after quit and SIGTERM: killed");
  state_ = SessionState::Dead;
}

}  // namespace epdd::uci
