// The ways the fake engine can fail on purpose. Each ends (or freezes) the process the way a
// broken real engine would, so the session under test sees the same signals and exit codes.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "config.hpp"
#include "core/expected.hpp"

namespace epdd::fake_engine {

// A random fault of --fault-rate, in kRandomFaultNames' order.
enum class RandomFault : std::uint8_t { Crash, Hang, Garbage };

// The draws of --fault-rate: one per `go`, each failing with the configured probability in one
// of the configured kinds, logged (one write(2) per line, O_APPEND) before the caller does it,
// so that a soak can count exactly the faults it was served.
class RandomFaults {
 public:
  explicit RandomFaults(const Config& config);
  RandomFaults(const RandomFaults&) = delete;
  RandomFaults& operator=(const RandomFaults&) = delete;
  ~RandomFaults();

  // Opens the fault log (when one is configured); its error otherwise.
  Expected<void, std::string> open_log(const std::string& path);

  // The fault of the next search (counted from 1), logged with fen; nullopt: none.
  std::optional<RandomFault> draw(const std::string& fen);

 private:
  double rate_;
  std::array<bool, 3> kinds_;
  std::mt19937_64 rng_;
  std::uint64_t searches_ = 0;
  int log_fd_ = -1;
};

// Dies by SIGSEGV with the default disposition, so the parent sees WIFSIGNALED with SIGSEGV
// even under a sanitizer runtime that installs its own SIGSEGV handler.
[[noreturn]] void crash();

// Stops answering for ever: no reads, no writes, stdin left open (so EOF does not end it).
[[noreturn]] void hang();

// Ends the process with status code, without running anything else first.
[[noreturn]] void exit_now(int code);

}  // namespace epdd::fake_engine
