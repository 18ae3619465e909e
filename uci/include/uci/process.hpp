// A child process with three pipes, started from an argument vector (never a shell). The only
// interface to Boost.Process, which stays inside process.cpp (it costs seconds of compile time
// per translation unit, and its v1 waits and destructors have pitfalls: CONVENTIONS.md). Boost
// only spawns; reading, writing, waiting and killing are plain POSIX calls with our deadlines.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.hpp"

namespace epdd::uci {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

// Milliseconds left until the deadline, for poll(2): 0 when it has passed, capped to an int.
int poll_timeout_ms(Deadline deadline);

struct ProcessSpec {
  std::string program;                 // absolute path, or a name looked up in PATH
  std::vector<std::string> args;       // without the program name
  std::string working_directory;       // empty: inherit
  std::vector<std::pair<std::string, std::string>> env;  // set on top of our environment
  bool operator==(const ProcessSpec&) const = default;
};

// How a child ended.
struct ExitStatus {
  enum class Kind { Exited, Signaled };
  Kind kind = Kind::Exited;
  int code = 0;    // exit code, or the signal number
  // "exited with status 3", "killed by signal 11 (SIGSEGV)".
  std::string to_string() const;
};

// Ignores SIGPIPE for the whole process, once: a write to a dead engine must be an error value
// (EPIPE), never a signal that kills epdd (engine session contract, point 5).
void ignore_sigpipe();

class ChildProcess {
 public:
  // Starts the program with stdin, stdout and stderr on pipes (non-blocking, close-on-exec in
  // epdd so that children started later by other threads do not inherit them). The error says
  // which program could not be started and why.
  static Expected<ChildProcess, std::string> spawn(const ProcessSpec& spec);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  // A child still running is killed (SIGKILL) and reaped: no zombie, no orphan.
  ~ChildProcess();

  int pid() const { return pid_; }
  int stdout_fd() const { return out_; }
  int stderr_fd() const { return err_; }

  // Writes all of `data` by the deadline. EPIPE (the engine is gone) and the deadline are
  // errors, never signals or hangs.
  Expected<void, std::string> write_all(std::string_view data, Deadline deadline);
  // Closes our end of the child's stdin (it reads EOF).
  void close_stdin();

  // Reaps the child if it has ended (never blocks); the status once it has.
  std::optional<ExitStatus> try_reap();
  // Waits for the child to end, until the deadline (polls waitpid: Boost's wait_for is broken).
  std::optional<ExitStatus> wait_until(Deadline deadline);
  // Sends a signal; false if the child is already reaped.
  bool send_signal(int signal);
  // Ends the child for good: SIGTERM, then SIGKILL if it has not ended by `grace`, and reaps
  // it. True if SIGKILL was needed.
  bool terminate(Deadline grace);
  // The status, if the child has been reaped.
  const std::optional<ExitStatus>& exit_status() const { return status_; }

 private:
  ChildProcess() = default;
  void close_fds();

  int pid_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::optional<ExitStatus> status_;
};

}  // namespace epdd::uci
