#include "engine.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <optional>
#include <utility>

#include "core/fen.hpp"
#include "core/text.hpp"
#include "faults.hpp"

namespace epdd::fake_engine {

namespace {

// The options a real engine (Stockfish, mostly) offers, so sessions can be tested setting them.
constexpr std::array<std::string_view, 9> kOptionLines{
    "option name Threads type spin default 1 min 1 max 64",
    "option name Hash type spin default 16 min 1 max 1024",
    "option name Clear Hash type button",
    "option name Ponder type check default false",
    "option name MultiPV type spin default 1 min 1 max 16",
    "option name UCI_Chess960 type check default false",
    "option name OwnBook type check default false",
    "option name Style type combo default Normal var Solid var Normal var Risky",
    "option name Debug Log File type string default <empty>",
};

constexpr std::array<std::string_view, 9> kOptionNames{
    "Threads", "Hash", "Clear Hash", "Ponder", "MultiPV", "UCI_Chess960", "OwnBook", "Style",
    "Debug Log File"};

// UCI option names are case-insensitive (core::iequals).
using epdd::core::iequals;

// The words with single spaces (option names and values may contain spaces).
std::string join(std::span<const std::string_view> words) {
  std::string text;
  for (const std::string_view w : words) {
    if (!text.empty()) text += ' ';
    text += w;
  }
  return text;
}

}  // namespace

Engine::Engine(Config config, Script script, Input input)
    : config_(std::move(config)),
      script_(std::move(script)),
      in_(std::move(input)),
      out_(Output::Mode{config_.split_lines, config_.glue_lines, config_.garbage}),
      random_faults_(config_) {}

int Engine::run() {
  step(Step::Start);
  std::string line;
  while (in_.next(line, std::nullopt) == Input::Status::Line) {
    dispatch(line);
    out_.flush();
  }
  return 0;
}

void Engine::step(Step s) {
  const Fault fault = config_.fault_at(s);
  if (fault == Fault::None) return;
  out_.flush();  // what was said before the fault was said
  switch (fault) {
    case Fault::Crash: crash();
    case Fault::Exit: exit_now(config_.exit_code);
    case Fault::Hang: hang();
    case Fault::None: break;
  }
}

void Engine::dispatch(std::string_view line) {
  const std::vector<std::string_view> all = split_words(line);
  if (all.empty()) return;
  const std::string_view command = all.front();
  const Words words = Words(all).subspan(1);
  if (command == "uci") {
    step(Step::Uci);
    uci();
  } else if (command == "isready") {
    step(Step::Isready);
    out_.line("readyok");
  } else if (command == "setoption") {
    step(Step::Setoption);
    setoption(words);
  } else if (command == "ucinewgame") {
    step(Step::Ucinewgame);
  } else if (command == "position") {
    step(Step::Position);
    position(words);
  } else if (command == "go") {
    step(Step::Go);
    go(words);
  } else if (command == "stop") {
    step(Step::Stop);  // no search to stop: ignored, as real engines do
  } else if (command == "quit") {
    step(Step::Quit);
    quit();
  } else if (command == "ponderhit" || command == "debug" || command == "register") {
    // Nothing to do outside a search.
  } else {
    out_.line("info string unknown command " + std::string(line));
  }
}

bool Engine::declares(std::string_view option) const {
  return !config_.declared || std::any_of(config_.declared->begin(), config_.declared->end(),
                                          [&](const std::string& name) { return iequals(name, option); });
}

void Engine::uci() {
  out_.line("id name " + config_.name);
  out_.line("id author epdd tests");
  for (std::size_t i = 0; i < kOptionLines.size(); ++i)
    if (declares(kOptionNames[i])) out_.line(kOptionLines[i]);
  if (!config_.no_uciok) out_.line("uciok");
}

void Engine::setoption(Words words) {
  // setoption name <words...> [value <words...>]: names and values may contain spaces.
  std::size_t i = !words.empty() && words[0] == "name" ? 1 : 0;
  const std::size_t name_start = i;
  while (i < words.size() && words[i] != "value") ++i;
  const std::string name = join(words.subspan(name_start, i - name_start));
  const std::string value = i < words.size() ? join(words.subspan(i + 1)) : std::string();
  const auto known = std::find_if(kOptionNames.begin(), kOptionNames.end(),
                                  [&](std::string_view n) { return iequals(n, name); });
  if (known == kOptionNames.end() || !declares(*known)) {
    out_.line("info string unknown option " + name);
    return;
  }
  // Out-of-range and malformed values are ignored, as Stockfish does.
  if (*known == "MultiPV") {
    int n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec == std::errc() && end == value.data() + value.size() && n >= 1 && n <= 16) multipv_ = n;
  } else if (*known == "UCI_Chess960") {
    if (value == "true" || value == "false") chess960_ = value == "true";
  }
}

void Engine::bad_position(const std::string& message) {
  if (config_.exit_on_illegal_position) {
    out_.flush();
    std::string text = "fake_engine: " + message + " (--exit-on-illegal-position)\n";
    write_all(2, text);
    exit_now(1);
  }
  out_.line("info string " + message);
}

void Engine::position(Words words) {
  core::Board board;
  std::size_t i = 1;
  if (words.empty() || (words[0] != "startpos" && words[0] != "fen")) {
    bad_position("position wants startpos or fen");
    return;
  }
  if (words[0] == "fen") {
    while (i < words.size() && words[i] != "moves") ++i;
    const std::string fen = join(words.subspan(1, i - 1));
    core::FenReadOptions options;
    options.fields = core::FenFields::FourOrSix;
    options.chess960 = chess960_;
    auto parsed = core::parse_fen(fen, options);
    if (!parsed) {
      // Nothing valid was set up: the previous position stays.
      bad_position("invalid fen '" + fen + "': " + core::to_string(parsed.error()));
      return;
    }
    board = std::move(*parsed);
  }
  if (i < words.size() && words[i] == "moves") {
    for (++i; i < words.size(); ++i) {
      const auto move = core::parse_uci(board, words[i], castling());
      if (!move) {
        board_ = std::move(board);
        bad_position("illegal move " + std::string(words[i]) + ": ignored, with the moves after it");
        return;
      }
      board.make_move(*move);
    }
  }
  board_ = std::move(board);
}

bool Engine::random_fault() {
  const auto fault = random_faults_.draw(core::to_fen(board_));
  if (!fault) return false;
  out_.flush();
  switch (*fault) {
    case RandomFault::Crash: crash();
    case RandomFault::Hang: hang();
    case RandomFault::Garbage: break;
  }
  return true;
}

void Engine::go(Words words) {
  const bool garbled = random_fault();
  // A garbled search: garbage lines and an illegal bestmove, this search only.
  struct Restore {
    Output& out;
    bool garbage;
    ~Restore() { out.set_garbage(garbage); }
  } restore{out_, out_.garbage()};
  if (garbled) out_.set_garbage(true);
  GoLimits limits = parse_go(words);
  if (const auto held = hold_go()) {
    if (*held == WaitEnd::Quit) quit();
    if (*held == WaitEnd::Eof) exit_now(0);
    // Stopped while held: the same search, answered at once.
    limits.movetime.reset();
    limits.infinite = limits.ponder = false;
  }
  const ScriptEntry* script = script_.find(board_);
  if (script) {
    switch (script->action) {
      case Action::Crash: crash();
      case Action::Hang: hang();
      case Action::Exit: exit_now(config_.exit_code);
      case Action::None: break;
    }
  }
  if (config_.endless_line) endless_line();
  if (config_.flood_info) flood();

  const SearchSettings settings{multipv_, castling(), config_.illegal_bestmove || garbled, config_.illegal_pv,
                                config_.stop_short_nodes};
  if ((config_.ignore_nodes && limits.nodes) || (config_.ignore_depth && limits.depth)) {
    search_past_limits(limits, settings, script);
    return;
  }
  const SearchOutput result = fake_search(board_, limits, settings, script);
  print_info(result);
  if (!limits.waits()) {
    out_.line(result.bestmove_line());
    return;
  }
  out_.flush();  // a waiting search shows its info lines before it waits
  if (config_.ignore_stop) never_end_search();
  const WaitEnd end = wait_for_end(limits);
  // Quit and end of input during a search still get the bestmove, as Stockfish prints it.
  out_.line(result.bestmove_line());
  out_.flush();
  if (end == WaitEnd::Quit) quit();
  if (end == WaitEnd::Eof) exit_now(0);
}

// One token taken from --go-tokens DIR: a file of it removed by this process (another engine
// may remove the same one first: then the next is tried).
bool take_token(const std::string& dir) {
  std::error_code error;
  for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end; it.increment(error))
    if (std::filesystem::remove(it->path(), error)) return true;
  return false;
}

std::optional<Engine::WaitEnd> Engine::hold_go() {
  if (config_.hold_go_path.empty() && config_.go_tokens_dir.empty()) return std::nullopt;
  std::error_code error;
  std::string line;
  const auto released = [&] {
    if (!config_.hold_go_path.empty()) return std::filesystem::exists(config_.hold_go_path, error);
    return take_token(config_.go_tokens_dir);
  };
  while (!released()) {
    const Input::Status status = in_.next(line, Clock::now() + std::chrono::milliseconds(10));
    if (status == Input::Status::Eof) return WaitEnd::Eof;
    if (status == Input::Status::Timeout) continue;
    if (const auto end = command_in_search(split_words(line))) return end;
  }
  return std::nullopt;
}

std::optional<Engine::WaitEnd> Engine::command_in_search(Words words) {
  if (words.empty()) return std::nullopt;
  if (words[0] == "stop") {
    step(Step::Stop);
    return WaitEnd::Stop;
  }
  if (words[0] == "quit") {
    step(Step::Quit);
    return WaitEnd::Quit;
  }
  if (words[0] == "isready") {
    step(Step::Isready);
    out_.line("readyok");
    out_.flush();
  }
  return std::nullopt;
}

void Engine::print_info(const SearchOutput& result) {
  for (std::size_t i = 0; i < result.info.size(); ++i) {
    out_.line(result.info[i]);
    if (i == 0) step(Step::Info);
  }
}

Engine::WaitEnd Engine::wait_for_end(GoLimits limits) {
  std::optional<Clock::time_point> deadline;
  // movetime counts only once pondering is over.
  const auto arm = [&] {
    if (!limits.infinite && !limits.ponder && limits.movetime)
      deadline = Clock::now() + std::chrono::milliseconds(*limits.movetime);
  };
  arm();
  std::string line;
  for (;;) {
    const Input::Status status = in_.next(line, deadline);
    if (status == Input::Status::Timeout) return WaitEnd::Stop;
    if (status == Input::Status::Eof) return WaitEnd::Eof;
    const auto words = split_words(line);
    if (const auto end = command_in_search(words)) return *end;
    if (!words.empty() && words[0] == "ponderhit" && limits.ponder) {
      limits.ponder = false;
      if (!limits.infinite && !limits.movetime) return WaitEnd::Stop;
      arm();
    }
    // Anything else during a search is ignored (the session should not send it).
  }
}

void Engine::search_past_limits(GoLimits limits, const SearchSettings& settings, const ScriptEntry* script) {
  // The limits that are ignored are gone; what is left (movetime, infinite) still ends it.
  if (config_.ignore_nodes) limits.nodes.reset();
  if (config_.ignore_depth) limits.depth.reset();
  if (!limits.depth && !limits.mate) limits.depth = kRunawayDepth;
  const SearchOutput result = fake_search(board_, limits, settings, script);
  if (result.bestmove == "(none)") {
    // Nothing to search: answered at once, as every engine does.
    print_info(result);
    out_.line(result.bestmove_line());
    return;
  }
  std::string line;
  std::string last;
  for (std::size_t i = 0; i < result.info.size(); ++i) {
    out_.line(result.info[i]);
    if (i == 0) step(Step::Info);
    out_.flush();
    last = result.info[i];
    // The ~1 ms between lines is a poll for stop, isready and quit.
    const Input::Status status = in_.next(line, Clock::now() + std::chrono::milliseconds(1));
    if (status == Input::Status::Eof) exit_now(0);
    if (status != Input::Status::Line) continue;
    const auto words = split_words(line);
    if (words.empty()) continue;
    if (words[0] == "isready") {
      step(Step::Isready);
      out_.line("readyok");
    } else if (words[0] == "stop" || words[0] == "quit") {
      step(words[0] == "stop" ? Step::Stop : Step::Quit);
      // The iteration under way when the stop came: a bound, which is not a result.
      out_.line(unfinished_iteration(last));
      out_.line(result.bestmove_line());
      out_.flush();
      if (words[0] == "quit") quit();
      return;
    }
  }
  // Every line printed and no stop yet: wait for it as an infinite search does.
  limits.infinite = true;
  const WaitEnd end = wait_for_end(limits);
  out_.line(result.bestmove_line());
  out_.flush();
  if (end == WaitEnd::Quit) quit();
  if (end == WaitEnd::Eof) exit_now(0);
}

void Engine::never_end_search() {
  std::string line;
  for (;;) {
    if (in_.next(line, std::nullopt) == Input::Status::Eof) exit_now(0);
    const auto words = split_words(line);
    if (words.empty()) continue;
    if (words[0] == "stop") {
      step(Step::Stop);
    } else if (words[0] == "quit") {
      step(Step::Quit);
      quit();
    } else if (words[0] == "isready") {
      step(Step::Isready);
      out_.line("readyok");
      out_.flush();
    }
  }
}

void Engine::flood() {
  const std::string move = first_candidate(board_, castling());
  std::string line;
  for (std::uint64_t k = 1;; ++k) {
    out_.line(flood_line(k, move));
    if (k == 1) step(Step::Info);
    // Glue has no end of response to wait for here: one write per 64 lines.
    if (k % 64 == 0) out_.flush();
    // The poll is the ~1 ms pause between lines, and how quit is still noticed.
    const Input::Status status = in_.next(line, Clock::now() + std::chrono::milliseconds(1));
    if (status == Input::Status::Eof) exit_now(0);
    if (status != Input::Status::Line) continue;
    const auto words = split_words(line);
    if (words.empty()) continue;
    if (words[0] == "quit") {
      step(Step::Quit);
      quit();
    } else if (words[0] == "stop") {
      step(Step::Stop);
    } else if (words[0] == "isready") {
      step(Step::Isready);
      out_.line("readyok");
      out_.flush();
    }
  }
}

void Engine::endless_line() {
  out_.flush();
  const std::string block(4096, 'x');
  for (;;) out_.raw(block);  // ends when the reader goes away (EPIPE: exit 0) or by a signal
}

void Engine::quit() {
  out_.flush();
  if (config_.slow_quit_ms) sleep_ms(*config_.slow_quit_ms);
  exit_now(0);
}

}  // namespace epdd::fake_engine
