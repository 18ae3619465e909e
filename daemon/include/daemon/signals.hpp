// Signal handlers installed for the lifetime of an object, the previous ones restored after.
#pragma once

#include <signal.h>

#include <initializer_list>
#include <utility>
#include <vector>

namespace epdd::daemon {

class ScopedSignals {
 public:
  // `handler` must be async-signal-safe (set an atomic flag, _Exit).
  ScopedSignals(std::initializer_list<int> signals, void (*handler)(int)) {
    struct sigaction sa {};
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    for (int signal : signals) {
      struct sigaction old {};
      sigaction(signal, &sa, &old);
      saved_.emplace_back(signal, old);
    }
  }
  ~ScopedSignals() {
    for (const auto& [signal, old] : saved_) sigaction(signal, &old, nullptr);
  }
  ScopedSignals(const ScopedSignals&) = delete;
  ScopedSignals& operator=(const ScopedSignals&) = delete;

 private:
  std::vector<std::pair<int, struct sigaction>> saved_;
};

}  // namespace epdd::daemon
