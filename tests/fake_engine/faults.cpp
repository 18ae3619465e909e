#include "faults.hpp"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "io.hpp"

namespace epdd::fake_engine {

void crash() {
  // ASan and UBSan install a SIGSEGV handler that reports and exits with status 1; a real
  // engine's crash is a signal, so restore the default action and make sure it is not blocked.
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, nullptr);
  sigset_t segv;
  sigemptyset(&segv);
  sigaddset(&segv, SIGSEGV);
  sigprocmask(SIG_UNBLOCK, &segv, nullptr);
  raise(SIGSEGV);
  // Not reached unless something swallowed the signal; 128 + 11 is what a shell would show.
  std::_Exit(139);
}

void hang() {
  for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
}

void exit_now(int code) { std::exit(code); }

RandomFaults::RandomFaults(const Config& config)
    : rate_(config.fault_rate),
      kinds_(config.fault_kinds),
      rng_(config.fault_seed ? *config.fault_seed : std::random_device{}()) {}

RandomFaults::~RandomFaults() {
  if (log_fd_ >= 0) ::close(log_fd_);
}

Expected<void, std::string> RandomFaults::open_log(const std::string& path) {
  return open_append(path, "fault log", log_fd_);
}

std::optional<RandomFault> RandomFaults::draw(const std::string& fen) {
  ++searches_;
  if (rate_ <= 0.0) return std::nullopt;
  // Drawn even at rate 1, so that a seed gives the same faults whatever the rate.
  const double roll = std::uniform_real_distribution<double>(0.0, 1.0)(rng_);
  std::vector<RandomFault> kinds;
  for (std::size_t i = 0; i < kinds_.size(); ++i)
    if (kinds_[i]) kinds.push_back(static_cast<RandomFault>(i));
  if (kinds.empty()) return std::nullopt;
  const std::size_t pick = std::uniform_int_distribution<std::size_t>(0, kinds.size() - 1)(rng_);
  if (roll >= rate_) return std::nullopt;
  const RandomFault fault = kinds[pick];
  if (log_fd_ >= 0) {
    const std::string line = std::string(kRandomFaultNames[static_cast<std::size_t>(fault)]) + " go " +
                             std::to_string(searches_) + " fen " + fen + "\n";
    write_all(log_fd_, line);
  }
  return fault;
}

}  // namespace epdd::fake_engine
