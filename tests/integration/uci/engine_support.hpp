// Shared by the engine integration tests: engine configurations and a look at our children.
#pragma once

#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "uci/engine_config.hpp"

namespace epdd::test {

// The pids of this process's children, zombies included (a zombie is a child not reaped).
inline std::vector<int> child_pids() {
  std::vector<int> out;
  DIR* dir = opendir("/proc");
  if (!dir) return out;
  const int self = getpid();
  while (dirent* e = readdir(dir)) {
    const std::string name = e->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat("/proc/" + name + "/stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // pid (comm) state ppid ...: comm may hold spaces and parentheses; the last ')' ends it.
    const auto close = line.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(line.substr(close + 1));
    std::string state;
    int ppid = 0;
    rest >> state >> ppid;
    if (ppid == self) out.push_back(std::stoi(name));
  }
  closedir(dir);
  return out;
}

// Waits until `done` holds, looking every 10 ms, at most `limit` (a ceiling for a machine under
// load, not a guess of how long it takes); whether it came.
inline bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds(60)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

inline uci::EngineConfig engine(const std::string& name, const std::string& program,
                                std::vector<std::string> args = {}) {
  uci::EngineConfig c;
  c.name = name;
  c.process.program = program;
  c.process.args = std::move(args);
  c.options = {{"Threads", "1"}, {"Hash", "16"}};
  return c;
}

}  // namespace epdd::test
