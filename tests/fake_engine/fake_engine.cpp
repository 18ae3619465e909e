// fake_engine: a UCI engine for integration tests. Plays a deterministic fake search over the
// legal moves, and misbehaves on request (crash, exit, hang, ignore stop, flood, split or glue
// lines, illegal moves, garbage) so that the engine session can be tested against every way a
// real engine breaks. See README.md in this folder.

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <exception>

#include "config.hpp"
#include "engine.hpp"
#include "io.hpp"
#include "script.hpp"

int main(int argc, char** argv) {
  using namespace epdd::fake_engine;
  // A GUI that goes away must not kill us with SIGPIPE: write_all sees EPIPE and exits 0.
  ::signal(SIGPIPE, SIG_IGN);
  try {
    auto config = parse_command_line(argc, argv);
    if (!config) {
      std::fprintf(stderr, "fake_engine: %s\n%s", config.error().c_str(), usage().c_str());
      return 2;
    }
    if (config->help) {
      write_all(1, usage());
      return 0;
    }
    if (!config->once_path.empty()) {
      // O_EXCL: of several engines started at once, exactly one misbehaves.
      const int fd = ::open(config->once_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      if (fd < 0) config->behave();
      else ::close(fd);
    }
    Script script;
    if (!config->script_path.empty()) {
      auto loaded = Script::load(config->script_path);
      if (!loaded) {
        std::fprintf(stderr, "fake_engine: bad script\n%s", loaded.error().c_str());
        return 2;
      }
      script = std::move(*loaded);
    }
    Input input;
    if (!config->log_path.empty()) {
      if (auto opened = input.open_log(config->log_path); !opened) {
        std::fprintf(stderr, "fake_engine: %s\n", opened.error().c_str());
        return 2;
      }
    }
    const std::string fault_log = config->fault_log_path;
    Engine engine(std::move(*config), std::move(script), std::move(input));
    if (!fault_log.empty()) {
      if (auto opened = engine.open_fault_log(fault_log); !opened) {
        std::fprintf(stderr, "fake_engine: %s\n", opened.error().c_str());
        return 2;
      }
    }
    return engine.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fake_engine: %s\n", e.what());
    return 2;
  }
}
