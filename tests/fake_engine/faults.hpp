// The ways the fake engine can fail on purpose. Each ends (or freezes) the process the way a
// broken real engine would, so the session under test sees the same signals and exit codes.
#pragma once

namespace epdd::fake_engine {

// Dies by SIGSEGV with the default disposition, so the parent sees WIFSIGNALED with SIGSEGV
// even under a sanitizer runtime that installs its own SIGSEGV handler.
[[noreturn]] void crash();

// Stops answering for ever: no reads, no writes, stdin left open (so EOF does not end it).
[[noreturn]] void hang();

// Ends the process with status code, without running anything else first.
[[noreturn]] void exit_now(int code);

}  // namespace epdd::fake_engine
