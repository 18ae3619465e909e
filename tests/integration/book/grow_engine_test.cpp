// Drop-out expansion with the scripted fake engine (the fake_engine binary, --script): the growth's
// positions are valued by uci::EngineSession as the workers value them, and the test's oracle
// (unit/book/grow_oracle.hpp) asks the same engine the same questions over a pipe of its own,
// read by this file, not by uci/. Every value and priority after each round, and the order of the
// expanded leaves, must be the oracle's. The trees: the knights' book (a repetition cycle, a
// transposition), and three endings at every legal move with mates both ways.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "grow_oracle.hpp"
#include "uci/engine_session.hpp"

namespace epdd::test {
namespace {

constexpr int kDepth = 2;

// The fake engine as a child on two pipes, spoken to line by line: the oracle's own engine.
class PipeEngine {
 public:
  PipeEngine(const std::string& script, int multipv) {
    signal(SIGPIPE, SIG_IGN);  // an engine that died is seen in the next read, not as a signal
    int to_child[2];
    int from_child[2];
    REQUIRE(pipe2(to_child, O_CLOEXEC) == 0);
    REQUIRE(pipe2(from_child, O_CLOEXEC) == 0);
    pid_ = fork();
    REQUIRE(pid_ >= 0);
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      execl(EPDD_FAKE_ENGINE, EPDD_FAKE_ENGINE, "--script", script.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    to_ = fdopen(to_child[1], "w");
    from_ = from_child[0];
    REQUIRE(to_);
    send("uci");
    while (read_line() != "uciok") {
    }
    send("setoption name MultiPV value " + std::to_string(multipv));
    send("isready");
    while (read_line() != "readyok") {
    }
  }
  ~PipeEngine() {
    send("quit");
    std::fclose(to_);
    close(from_);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  PipeEngine(const PipeEngine&) = delete;
  PipeEngine& operator=(const PipeEngine&) = delete;

  // The lines of the deepest iteration, by multipv: the first move of each pv and its score.
  uci::Analysis ask(const core::Board& board) {
    send("position fen " + four_fields(board) + " 0 1");
    send("go depth " + std::to_string(kDepth));
    std::map<int, uci::PvLine> lines;
    while (true) {
      const std::string line = read_line();
      if (line.rfind("bestmove", 0) == 0) break;
      if (line.rfind("info ", 0) != 0) continue;
      std::istringstream words(line);
      std::string w;
      uci::PvLine pv;
      bool scored = false;
      while (words >> w) {
        if (w == "multipv") {
          words >> pv.multipv;
        } else if (w == "depth") {
          words >> pv.depth;
        } else if (w == "score") {
          std::string unit;
          int n = 0;
          words >> unit >> n;
          // "mate N": mate in N moves, mated in -N (plies: 2N-1 and 2N).
          pv.score = unit == "cp" ? core::Score::centipawns(n) : core::Score::mate_in_plies(n > 0 ? 2 * n - 1 : 2 * n);
          scored = true;
        } else if (w == "pv") {
          while (words >> w) pv.pv.push_back(w);
        }
      }
      if (scored && !pv.pv.empty()) lines[pv.multipv] = pv;
    }
    uci::Analysis a;
    a.engine = "fake (the oracle's pipe)";
    for (auto& [k, l] : lines) a.lines.push_back(l);
    return a;
  }

 private:
  void send(const std::string& line) {
    std::fputs((line + "\n").c_str(), to_);
    std::fflush(to_);
  }
  // A line of the engine's; an engine silent for a minute, or gone, fails the test.
  std::string read_line() {
    while (true) {
      if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
        std::string line = buffer_.substr(0, newline);
        buffer_.erase(0, newline + 1);
        return line;
      }
      pollfd p{from_, POLLIN, 0};
      if (poll(&p, 1, 60000) != 1) FAIL("the fake engine said nothing for a minute");
      char chunk[4096];
      const ssize_t n = read(from_, chunk, sizeof chunk);
      if (n <= 0) FAIL("the fake engine ended");
      buffer_.append(chunk, static_cast<std::size_t>(n));
    }
  }
  pid_t pid_ = -1;
  std::FILE* to_ = nullptr;
  int from_ = -1;
  std::string buffer_;
};

// The fake engine started by uci::EngineSession, asked as a book-grow job asks (the position's
// four fields with clocks 0 1, depth 2, MultiPV the width or 1).
class SessionEngine {
 public:
  SessionEngine(const std::string& script, int multipv) : multipv_(multipv) {
    uci::EngineConfig config;
    config.name = "fake";
    config.process.program = EPDD_FAKE_ENGINE;
    config.process.args = {"--script", script};
    auto session = uci::EngineSession::start(config);
    REQUIRE(session);
    session_ = std::move(*session);
  }
  uci::Analysis ask(const core::Board& board) {
    uci::AnalysisRequest request;
    request.fen = four_fields(board) + " 0 1";
    request.limits.depth = kDepth;
    request.multipv = multipv_;
    auto a = session_->analyse(request);
    REQUIRE(a);
    return *a;
  }

 private:
  int multipv_;
  std::unique_ptr<uci::EngineSession> session_;
};

// A script file for the fake engine, removed at the end.
struct ScriptFile {
  std::filesystem::path path;
  explicit ScriptFile(const std::string& text) {
    path = std::filesystem::temp_directory_path() / ("epdd_grow_engine_" + std::to_string(getpid()) + ".script");
    std::ofstream(path) << text;
  }
  ~ScriptFile() { std::filesystem::remove(path); }
};

book::Growth grow_with_engine(const core::Board& root, const std::string& script, const book::GrowOptions& o,
                              int rounds) {
  const ScriptFile file(script);
  const int multipv = o.width == 0 ? 1 : static_cast<int>(o.width);
  SessionEngine session(file.path.string(), multipv);
  PipeEngine pipe(file.path.string(), multipv);
  return grow_both(
      root, [&session](const core::Board& b) { return session.ask(b); },
      [&pipe](const core::Board& b) { return pipe.ask(b); }, o, rounds);
}

// The knights' book of grow_test.cpp, as a script of the fake engine: 1. Nf3 Nf6 2. Ng1 Ng8
// repeats the start (a cycle), and 1. Nf3 Nf6 2. Nc3 meets 1. Nc3 Nf6 2. Nf3 (a transposition).
// Lines 1 and 2 are scripted; a third line (width 3) is the fake search's.
std::string knights_script() {
  std::string s;
  auto add = [&s](const core::Board& b, const char* line1, int cp1, const char* line2, int cp2) {
    s += four_fields(b) + " | pv " + line1 + " | score cp " + std::to_string(cp1) + " | line 2 " + line2 + " cp " +
         std::to_string(cp2) + "\n";
  };
  add(core::Board(), "g1f3", 30, "b1c3", 25);
  add(after({"Nf3"}), "g8f6", -28, "d7d5", -40);
  add(after({"Nc3"}), "g8f6", -20, "e7e5", -35);
  add(after({"Nf3", "Nf6"}), "f3g1", 20, "b1c3", 18);
  add(after({"Nc3", "Nf6"}), "g1f3", 22, "e2e4", 10);
  add(after({"Nf3", "Nf6", "Ng1"}), "f6g8", -15, "e7e5", -25);
  add(after({"Nf3", "Nf6", "Nc3"}), "d7d5", -20, "e7e6", -24);
  return s;
}

// Whether some node of the book has two parents (a transposition).
bool has_transposition(const book::Dag& dag) {
  for (book::NodeId n = 0; n < dag.node_count(); ++n)
    if (dag.node(n).parents > 1) return true;
  return false;
}

}  // namespace

TEST_CASE("grow with the fake engine: the knights' book (a cycle, a transposition) as the oracle grows it",
          "[book][grow][engine]") {
  const std::string script = knights_script();
  // The books hold what they are for (at alpha 500 the growth stays on the main line, whose
  // cycle is further than 25 rounds).
  bool cycle = false;
  bool transposition = false;
  for (const double alpha : {50.0, 5.0, 500.0}) {
    INFO("alpha " << alpha);
    book::GrowOptions o;
    o.alpha = alpha;
    o.width = 2;
    const book::Growth growth = grow_with_engine(core::Board(), script, o, 25);
    cycle = cycle || growth.full_backsolves() > 1;  // a cycle makes every round a whole backsolve
    transposition = transposition || has_transposition(growth.dag());
  }
  CHECK(cycle);
  CHECK(transposition);
  book::GrowOptions o;
  o.alpha = 20;
  o.width = 3;
  o.book_side = core::Color::White;
  grow_with_engine(core::Board(), script, o, 15);
}

TEST_CASE("grow with the fake engine: every legal move, mates both ways", "[book][grow][engine]") {
  // White mates with Ra8 (the fake engine says "mate 1"); Black, to move in the second, mates with
  // Ra1; the third has a pawn about to promote. The position after the first legal move of each is
  // scripted as lost for its side to move ("mate -2"): mates against the side to move too.
  bool winning = false;
  bool losing = false;
  for (const char* fen : {"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
                          "6k1/8/8/8/8/8/6p1/4K2R w K - 0 1"}) {
    auto root = core::parse_fen(fen);
    REQUIRE(root);
    core::Board lost = *root;
    lost.make_move(*root->legal_moves().begin());
    const std::string script = four_fields(lost) + " | score mate -2\n";
    for (const double alpha : {50.0, 2.0}) {
      INFO(fen << ", alpha " << alpha);
      book::GrowOptions o;
      o.alpha = alpha;
      const book::Growth growth = grow_with_engine(*root, script, o, 6);
      for (const auto& [node, score] : growth.values())
        if (score.is_mate()) winning = winning || score.mate_plies() > 0, losing = losing || score.mate_plies() < 0;
    }
  }
  CHECK(winning);
  CHECK(losing);
}

}  // namespace epdd::test
