// uci_soak: many requests through an EnginePool of fake engines that crash, hang or exit on
// some positions, checking the pool's promises the whole time: every request answered, faulty
// positions failing with the right kind, good ones succeeding, engines restarted, no child left
// behind. Run on purpose (not in CI):
//
//   cmake --build build --target uci_soak && build/tests/uci_soak [--requests N] [--instances N] [--seed N]
//
// Exit status 0 when every check held, 1 when one did not (each violation is printed).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "engine_support.hpp"
#include "uci/engine_pool.hpp"

using namespace epdd;
using namespace epdd::uci;
using namespace std::chrono_literals;

namespace {

enum class Fault { None, Crash, Hang, Exit };

struct Position {
  std::string fen;  // four fields
  Fault fault = Fault::None;
};

std::vector<Position> load_positions(std::size_t max) {
  std::ifstream in(std::string(EPDD_SHARED_DATA) + "/suites/sts.epd");
  std::vector<Position> out;
  for (std::string line; out.size() < max && std::getline(in, line);) {
    std::size_t end = 0;
    for (int field = 0; field < 4 && end != std::string::npos; ++field) end = line.find(' ', end + 1);
    if (end == std::string::npos) continue;
    Position p;
    p.fen = line.substr(0, end);
    const std::size_t i = out.size();
    p.fault = i % 23 == 3 ? Fault::Crash : i % 37 == 7 ? Fault::Hang : i % 41 == 5 ? Fault::Exit : Fault::None;
    out.push_back(std::move(p));
  }
  return out;
}

const char* name(Fault f) {
  switch (f) {
    case Fault::None: return "none";
    case Fault::Crash: return "crash";
    case Fault::Hang: return "hang";
    case Fault::Exit: return "exit";
  }
  return "?";
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t requests = 2000;
  int instances = 2;
  unsigned seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--requests") requests = std::stoul(argv[i + 1]);
    else if (a == "--instances") instances = std::stoi(argv[i + 1]);
    else if (a == "--seed") seed = static_cast<unsigned>(std::stoul(argv[i + 1]));
    else {
      std::fprintf(stderr, "usage: uci_soak [--requests N] [--instances N] [--seed N]\n");
      return 2;
    }
  }
  const auto positions = load_positions(400);
  if (positions.size() < 100) {
    std::fprintf(stderr, "uci_soak: could not read %s/suites/sts.epd\n", EPDD_SHARED_DATA);
    return 2;
  }
  char dir_template[] = "/tmp/uci-soak-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string script = dir + "/script";
  {
    std::ofstream out(script);
    for (const auto& p : positions)
      if (p.fault != Fault::None) out << p.fen << " | action " << name(p.fault) << "\n";
  }

  EngineConfig c = test::engine("fake", EPDD_FAKE_ENGINE, {"--script", script, "--exit-code", "4"});
  c.instances = instances;
  c.timeouts.handshake = 2000ms;
  c.timeouts.ready = 2000ms;
  c.timeouts.new_game = 2000ms;
  c.timeouts.search = 500ms;
  c.timeouts.search_margin = 200ms;
  c.timeouts.stop = 300ms;
  c.timeouts.quit = 300ms;
  c.timeouts.terminate = 300ms;
  c.restarts.max_restarts = 1 << 30;  // the soak restarts on purpose

  std::mt19937 random(seed);
  std::vector<std::pair<Fault, std::future<Expected<Analysis, EngineError>>>> pending;
  std::map<std::string, std::size_t> counts;
  std::size_t violations = 0;
  const auto violation = [&](const std::string& what) {
    if (++violations <= 20) fmt::print("VIOLATION: {}\n", what);
  };
  const auto started = Clock::now();
  {
    EnginePool pool({c});
    for (std::size_t n = 0; n < requests; ++n) {
      const Position& p = positions[random() % positions.size()];
      AnalysisRequest r;
      r.fen = p.fen;
      r.limits.depth = 1 + static_cast<int>(random() % 4);
      r.multipv = 1 + static_cast<int>(random() % 3);
      r.new_game = random() % 2 ? NewGame::Clear : NewGame::Keep;
      if (random() % 3 == 0) r.game = random() % 8;
      pending.emplace_back(p.fault, pool.submit(r));
      // Keep a bounded queue, so that faults interleave with normal requests on every engine.
      if (pending.size() >= 16 || n + 1 == requests) {
        for (auto& [fault, future] : pending) {
          if (future.wait_for(30s) != std::future_status::ready) {
            violation("a request was not answered within 30 s");
            continue;
          }
          auto result = future.get();
          if (fault == Fault::None) {
            if (!result) violation("a good position failed: " + result.error().to_string());
            else if (result->bestmove.empty() || result->lines.empty()) violation("an empty analysis");
            ++counts["succeeded"];
          } else {
            const EngineErrorKind want = fault == Fault::Hang ? EngineErrorKind::Timeout : EngineErrorKind::Crash;
            if (result) violation(fmt::format("a {} position succeeded", name(fault)));
            else if (result.error().kind != want)
              violation(fmt::format("a {} position failed as {}", name(fault), to_string(result.error().kind)));
            ++counts[name(fault)];
          }
        }
        pending.clear();
        if (test::child_pids().size() > static_cast<std::size_t>(instances))
          violation(fmt::format("{} children alive with {} instances", test::child_pids().size(), instances));
      }
      if ((n + 1) % 500 == 0) fmt::print("{} requests, {:.1f} s\n", n + 1, std::chrono::duration<double>(Clock::now() - started).count());
    }
    const auto health = pool.health();
    std::uint64_t crashes = 0, timeouts = 0, restarts = 0;
    for (const auto& h : health) {
      crashes += h.crashes;
      timeouts += h.timeouts;
      restarts += h.restarts;
    }
    fmt::print("health: crashes {}, timeouts {}, restarts {}\n", crashes, timeouts, restarts);
    if (crashes != counts["crash"] + counts["exit"]) violation("crash count differs from crashing positions requested");
    if (timeouts != counts["hang"]) violation("timeout count differs from hanging positions requested");
    if (restarts + static_cast<std::uint64_t>(instances) < crashes + timeouts || restarts > crashes + timeouts)
      violation("restarts do not match the failures");
    pool.shutdown();
  }
  if (!test::child_pids().empty()) violation("children left after shutdown");
  std::remove(script.c_str());
  rmdir(dir.c_str());
  fmt::print("{} requests in {:.1f} s: {} succeeded, {} crash, {} exit, {} hang; {} violations\n", requests,
             std::chrono::duration<double>(Clock::now() - started).count(), counts["succeeded"], counts["crash"],
             counts["exit"], counts["hang"], violations);
  return violations == 0 ? 0 : 1;
}
