#include "faults.hpp"

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <thread>

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

}  // namespace epdd::fake_engine
