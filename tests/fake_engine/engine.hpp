// The fake engine's UCI loop: reads commands, keeps the position and options, runs the fake
// search, and injects the faults the command line asked for at the steps it named.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "config.hpp"
#include "core/board.hpp"
#include "core/notation.hpp"
#include "faults.hpp"
#include "io.hpp"
#include "script.hpp"
#include "search.hpp"

namespace epdd::fake_engine {

class Engine {
 public:
  Engine(Config config, Script script, Input input);

  // Answers commands until quit or end of input (or a fault); returns the exit status.
  int run();

  // Logs the random faults of --fault-rate to path; why not, if it cannot be opened.
  Expected<void, std::string> open_fault_log(const std::string& path) { return random_faults_.open_log(path); }

 private:
  using Words = std::span<const std::string_view>;

  // How a search that waits (infinite, ponder, movetime) came to an end.
  enum class WaitEnd { Stop, Quit, Eof };

  // The fault configured for step s happens here, if there is one; otherwise nothing.
  void step(Step s);

  void dispatch(std::string_view line);
  void uci();
  bool declares(std::string_view option) const;  // offered in reply to uci (--declare)
  void setoption(Words words);
  void position(Words words);
  void go(Words words);
  // The search's random fault (--fault-rate): a crash or a hang happens here; true for garbage
  // (the caller garbles the search).
  bool random_fault();
  [[noreturn]] void quit();

  // Reports a bad "position" command: exits 1 with --exit-on-illegal-position, else an info
  // string (the position keeps what was set up before the bad part, as in Stockfish).
  void bad_position(const std::string& message);

  // --hold-go: waits until the file exists, answering isready; nothing when it does, else what
  // ended the wait first (stop: the search is answered at once; quit and end of input end the
  // engine before it searches).
  std::optional<WaitEnd> hold_go();
  // A command that came while a search runs or is held: isready is answered, stop and quit are
  // returned (their fault steps taken), anything else is nothing (ponderhit is the caller's).
  std::optional<WaitEnd> command_in_search(Words words);
  // Prints the info lines of a finished fake search, with the Info step after the first.
  void print_info(const SearchOutput& result);
  // Waits for stop, ponderhit or the end of movetime, answering isready meanwhile.
  WaitEnd wait_for_end(GoLimits limits);
  // --ignore-nodes / --ignore-depth: the search goes on past the limit, an info line about every
  // 1 ms with growing depth and nodes, until stop (then a bound line of the unfinished
  // iteration and bestmove); isready and quit are answered meanwhile.
  void search_past_limits(GoLimits limits, const SearchSettings& settings, const ScriptEntry* script);
  // --ignore-stop: the search never ends; only isready and quit are still answered.
  [[noreturn]] void never_end_search();
  // --flood-info: info lines for ever, never bestmove; isready and quit still answered.
  [[noreturn]] void flood();
  // --endless-line: bytes for ever without a newline; nothing is read any more.
  [[noreturn]] void endless_line();

  core::UciCastling castling() const {
    return chess960_ ? core::UciCastling::KingTakesRook : core::UciCastling::Standard;
  }

  Config config_;
  Script script_;
  Input in_;
  Output out_;
  RandomFaults random_faults_;
  core::Board board_;
  int multipv_ = 1;
  bool chess960_ = false;
};

}  // namespace epdd::fake_engine
