// LineChannel over real pipes: no byte is dropped however the writes fall.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "uci/line_channel.hpp"

using namespace epdd::uci;
using namespace std::chrono_literals;

namespace {

struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int fds[2];
    REQUIRE(::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0);
    read = fds[0];
    write = fds[1];
  }
  ~Pipe() {
    if (read >= 0) ::close(read);
    close_write();
  }
  void put(std::string_view s) { REQUIRE(::write(write, s.data(), s.size()) == static_cast<ssize_t>(s.size())); }
  void close_write() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

Deadline soon() { return Clock::now() + 200ms; }

}  // namespace

TEST_CASE("line channel: partial lines wait for the rest, glued lines are all delivered", "[uci][channel]") {
  Pipe out;
  LineChannel channel(out.read, -1, 1024, {});
  std::string line;
  out.put("id na");
  CHECK(channel.read_line(line, Clock::now() + 20ms) == ChannelStatus::Timeout);
  CHECK(channel.partial_size() == 5);
  out.put("me Fake\r\nuciok\nreadyok\nbestm");
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Line);
  CHECK(line == "id name Fake");
  // The lines after the one awaited stay queued.
  CHECK(channel.queued() == 2);
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Line);
  CHECK(line == "uciok");
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Line);
  CHECK(line == "readyok");
  out.put("ove e2e4\n");
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Line);
  CHECK(line == "bestmove e2e4");
}

TEST_CASE("line channel: one byte at a time", "[uci][channel]") {
  Pipe out;
  LineChannel channel(out.read, -1, 1024, {});
  const std::string text = "info depth 1 score cp 20 pv e2e4\nbestmove e2e4\n";
  std::vector<std::string> lines;
  std::string line;
  for (char c : text) {
    out.put(std::string(1, c));
    while (channel.read_line(line, Clock::now()) == ChannelStatus::Line) lines.push_back(line);
  }
  CHECK(lines == std::vector<std::string>{"info depth 1 score cp 20 pv e2e4", "bestmove e2e4"});
}

TEST_CASE("line channel: end of file delivers the last partial line, then Eof", "[uci][channel]") {
  Pipe out;
  LineChannel channel(out.read, -1, 1024, {});
  out.put("uciok\nbestmove a2a3");
  out.close_write();
  std::string line;
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Line);
  CHECK(line == "uciok");
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Line);
  CHECK(line == "bestmove a2a3");
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Eof);
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Eof);
}

TEST_CASE("line channel: a line over the maximum is an error, not a growing buffer", "[uci][channel]") {
  Pipe out;
  LineChannel channel(out.read, -1, 100, {});
  out.put(std::string(150, 'x'));
  std::string line;
  CHECK(channel.read_line(line, soon()) == ChannelStatus::LineTooLong);
}

TEST_CASE("line channel: a deadline holds while output keeps coming without a newline", "[uci][channel]") {
  Pipe out;
  LineChannel channel(out.read, -1, 1 << 20, {});
  std::string line;
  const auto t0 = Clock::now();
  const Deadline deadline = t0 + 50ms;
  ChannelStatus status = ChannelStatus::Line;
  // Feed bytes in between waits: the deadline is absolute, it does not restart on each chunk.
  for (int i = 0; i < 100 && status != ChannelStatus::Timeout; ++i) {
    out.put("x");
    status = channel.read_line(line, deadline);
  }
  CHECK(status == ChannelStatus::Timeout);
  CHECK(Clock::now() - t0 < 500ms);
}

TEST_CASE("line channel: stderr lines go to their own sink, interleaved with stdout", "[uci][channel]") {
  Pipe out, err;
  std::vector<std::string> errors;
  LineChannel channel(out.read, err.read, 1024, [&](std::string_view s) { errors.emplace_back(s); });
  err.put("warning: no NNUE\npartial");
  out.put("uciok\n");
  std::string line;
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Line);
  CHECK(line == "uciok");
  CHECK(errors == std::vector<std::string>{"warning: no NNUE"});
  err.close_write();
  out.close_write();
  CHECK(channel.read_line(line, soon()) == ChannelStatus::Eof);
  CHECK(errors == std::vector<std::string>{"warning: no NNUE", "partial"});
}

TEST_CASE("transcript keeps the last lines with their direction", "[uci][channel]") {
  Transcript t(3);
  t.sent("uci");
  t.received("uciok");
  t.stderr_line("oops");
  t.received(std::string(400, 'y'));
  const std::string tail = t.tail();
  CHECK(tail.find("> uci\n") == std::string::npos);  // only 3 kept
  CHECK(tail.find("< uciok\n") != std::string::npos);
  CHECK(tail.find("! oops\n") != std::string::npos);
  CHECK(tail.find("(400 bytes)") != std::string::npos);
}
