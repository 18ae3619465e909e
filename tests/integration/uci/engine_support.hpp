// Shared by the engine integration tests: engine configurations and a look at our children.
#pragma once

#include <dirent.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
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
