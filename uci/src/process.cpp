// The one translation unit that includes Boost.Process. Boost starts the child (fork, pipes on
// 0/1/2, chdir, environment, exec, exec failures reported back); everything after that is
// POSIX: non-blocking pipes, poll(2), waitpid(2) and kill(2) under our own deadlines.
#include "uci/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include <boost/filesystem/operations.hpp>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <boost/process/pipe.hpp>
#include <boost/process/search_path.hpp>
#include <boost/process/start_dir.hpp>
#include <fmt/core.h>

namespace bp = boost::process;

namespace epdd::uci {

int poll_timeout_ms(Deadline deadline) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
}

std::string ExitStatus::to_string() const {
  if (kind == Kind::Exited) return fmt::format("exited with status {}", code);
  const char* abbrev = sigabbrev_np(code);
  if (abbrev == nullptr) return fmt::format("killed by signal {}", code);
  return fmt::format("killed by signal {} (SIG{})", code, abbrev);
}

void ignore_sigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

namespace {

struct PipeFds {
  int read = -1, write = -1;
};

Expected<PipeFds, std::string> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return unexpected(fmt::format("pipe: {}", std::strerror(errno)));
  return PipeFds{fds[0], fds[1]};
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// Boost does not reap a child whose exec failed: this handler keeps its pid so we can.
// It also gives the engine SIGPIPE's default action back: an ignored signal survives exec.
struct ChildSetup : bp::extend::handler {
  int* pid;
  explicit ChildSetup(int* p) : pid(p) {}
  template <class Executor>
  void on_error(Executor& exec, const std::error_code&) const {
    *pid = exec.pid;
  }
  template <class Executor>
  void on_exec_setup(Executor&) const {
    ::signal(SIGPIPE, SIG_DFL);
  }
};

// Boost 1.74 makes its exec-error pipe with pipe() and sets close-on-exec afterwards, on one
// end only: a fork from another thread in between would keep that pipe open in another engine,
// and this start would then wait for that engine to exit. One spawn at a time.
std::mutex g_spawn_mutex;

ExitStatus decode(int raw) {
  if (WIFSIGNALED(raw)) return {ExitStatus::Kind::Signaled, WTERMSIG(raw)};
  return {ExitStatus::Kind::Exited, WEXITSTATUS(raw)};
}

}  // namespace

Expected<ChildProcess, std::string> ChildProcess::spawn(const ProcessSpec& spec) {
  ignore_sigpipe();
  boost::filesystem::path program = spec.program;
  if (spec.program.find('/') == std::string::npos) {
    program = bp::search_path(spec.program);
    if (program.empty()) return unexpected(fmt::format("cannot start '{}': not found in PATH", spec.program));
  }
  // exec says "Permission denied" of a directory, which sends people looking at file modes. (A
  // relative program is found from the working directory, where the child starts.)
  {
    boost::system::error_code ignored;
    const boost::filesystem::path where =
        program.is_absolute() || spec.working_directory.empty() ? program : spec.working_directory / program;
    if (boost::filesystem::is_directory(where, ignored))
      return unexpected(fmt::format("cannot start '{}': it is a directory, not a program", spec.program));
  }
  auto in = make_pipe();
  auto out = make_pipe();
  auto err = make_pipe();
  if (!in || !out || !err) {
    for (const auto* p : {&in, &out, &err})
      if (*p) ::close((*p)->read), ::close((*p)->write);
    return unexpected(fmt::format("cannot start '{}': {}", spec.program, !in ? in.error() : !out ? out.error() : err.error()));
  }
  // Boost closes the child's ends in the parent once the child runs; ours are kept below.
  bp::pipe in_pipe(in->read, in->write), out_pipe(out->read, out->write), err_pipe(err->read, err->write);
  bp::environment env = boost::this_process::environment();
  for (const auto& [key, value] : spec.env) env[key] = value;
  const std::string dir = spec.working_directory.empty() ? std::string(".") : spec.working_directory;

  ChildProcess child;
  int failed_pid = -1;
  std::error_code failure;
  const auto reap_failed = [&] {
    if (failed_pid <= 0) return;
    int raw = 0;
    while (::waitpid(failed_pid, &raw, 0) < 0 && errno == EINTR) {
    }
  };
  std::lock_guard spawning(g_spawn_mutex);
  try {
    // With an error_code, Boost reports a failed exec there (after calling on_error handlers,
    // which is where FailedPid learns the pid) instead of throwing past them.
    bp::child c(bp::exe = program, bp::args = spec.args, bp::start_dir = dir, env, bp::std_in < in_pipe,
                bp::std_out > out_pipe, bp::std_err > err_pipe, ChildSetup(&failed_pid), failure);
    if (failure) {
      reap_failed();
      return unexpected(fmt::format("cannot start '{}'{}: {}", program.string(),
                                    spec.working_directory.empty() ? "" : " in " + spec.working_directory,
                                    failure.message()));
    }
    child.pid_ = c.id();
    // From here on the pid is ours to wait for and kill: Boost's ~child would SIGKILL it.
    c.detach();
  } catch (const std::exception& e) {
    reap_failed();
    return unexpected(fmt::format("cannot start '{}'{}: {}", program.string(),
                                  spec.working_directory.empty() ? "" : " in " + spec.working_directory, e.what()));
  }
  child.in_ = in_pipe.native_sink();
  child.out_ = out_pipe.native_source();
  child.err_ = err_pipe.native_source();
  in_pipe.assign_sink(-1);
  out_pipe.assign_source(-1);
  err_pipe.assign_source(-1);
  for (int fd : {child.in_, child.out_, child.err_}) set_nonblocking(fd);
  return child;
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept { *this = std::move(other); }

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    std::swap(pid_, other.pid_);
    std::swap(in_, other.in_);
    std::swap(out_, other.out_);
    std::swap(err_, other.err_);
    std::swap(status_, other.status_);
  }
  return *this;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !status_) {
    ::kill(pid_, SIGKILL);
    int raw = 0;
    while (::waitpid(pid_, &raw, 0) < 0 && errno == EINTR) {
    }
  }
  close_fds();
}

void ChildProcess::close_fds() {
  for (int* fd : {&in_, &out_, &err_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
}

Expected<void, std::string> ChildProcess::write_all(std::string_view data, Deadline deadline) {
  if (in_ < 0) return unexpected(std::string("the engine's input is closed"));
  while (!data.empty()) {
    const ssize_t n = ::write(in_, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) return unexpected(fmt::format("write failed: {}", std::strerror(errno)));
    // The pipe is full: the engine is not reading. Wait for room, but only until the deadline.
    pollfd p{in_, POLLOUT, 0};
    const int r = ::poll(&p, 1, poll_timeout_ms(deadline));
    if (r == 0) return unexpected(std::string("write timed out: the engine does not read its input"));
    if (r < 0 && errno != EINTR) return unexpected(fmt::format("poll failed: {}", std::strerror(errno)));
    if (p.revents & (POLLERR | POLLHUP)) return unexpected(std::string("write failed: the engine closed its input"));
  }
  return {};
}

void ChildProcess::close_stdin() {
  if (in_ >= 0) ::close(in_);
  in_ = -1;
}

std::optional<ExitStatus> ChildProcess::try_reap() {
  if (status_ || pid_ <= 0) return status_;
  int raw = 0;
  pid_t r;
  do r = ::waitpid(pid_, &raw, WNOHANG);
  while (r < 0 && errno == EINTR);
  if (r == pid_) status_ = decode(raw);
  return status_;
}

std::optional<ExitStatus> ChildProcess::wait_until(Deadline deadline) {
  // Poll with a short, growing sleep: a dying engine is usually gone within a millisecond.
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    if (try_reap()) return status_;
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - Clock::now()));
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
}

bool ChildProcess::terminate(Deadline grace) {
  if (!send_signal(SIGTERM) || wait_until(grace)) return false;
  send_signal(SIGKILL);
  // SIGKILL cannot be caught: the child ends as soon as the kernel gets to it.
  wait_until(Clock::now() + std::chrono::seconds(10));
  return true;
}

bool ChildProcess::send_signal(int signal) {
  if (pid_ <= 0 || try_reap()) return false;
  return ::kill(pid_, signal) == 0;
}

}  // namespace epdd::uci
