// Atomic outputs: a reader sees the old file or the whole new one, never a part, and a writer
// that fails or is abandoned leaves nothing behind.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <optional>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "daemon/files.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

std::string content_of(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t files_in(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

}  // namespace

TEST_CASE("AtomicFileWriter: the parts appear together at commit, the old file until then", "[daemon][files]") {
  test::TempDir dir;
  const auto path = dir.path() / "out.pgn";
  std::ofstream(path) << "old";
  daemon::AtomicFileWriter file(path.string());
  file.write("game 1\n");
  file.write("");
  file.write("game 2\n");
  CHECK(content_of(path) == "old");
  CHECK(files_in(dir.path()) == 2);  // the old file and the temporary one
  REQUIRE(file.commit().has_value());
  CHECK(content_of(path) == "game 1\ngame 2\n");
  CHECK(files_in(dir.path()) == 1);
}

TEST_CASE("AtomicFileWriter: abandoned, it leaves the old file and no temporary one", "[daemon][files]") {
  test::TempDir dir;
  const auto path = dir.path() / "out.pgn";
  std::ofstream(path) << "old";
  {
    daemon::AtomicFileWriter file(path.string());
    file.write("half a file");
  }
  CHECK(content_of(path) == "old");
  CHECK(files_in(dir.path()) == 1);
}

TEST_CASE("AtomicFileWriter: a folder that is not there is an error at commit, with the path", "[daemon][files]") {
  test::TempDir dir;
  const auto path = dir.path() / "missing" / "out.pgn";
  daemon::AtomicFileWriter file(path.string());
  file.write("text");  // does nothing
  const auto committed = file.commit();
  REQUIRE_FALSE(committed.has_value());
  CHECK(committed.error().find("out.pgn") != std::string::npos);
  CHECK(committed.error().find("cannot create a temporary file") != std::string::npos);
  CHECK(files_in(dir.path()) == 0);
}

TEST_CASE("write_file_atomically: the same through one part, new files get the umask's permissions", "[daemon][files]") {
  test::TempDir dir;
  const auto path = dir.path() / "new.epd";
  REQUIRE(daemon::write_file_atomically(path.string(), "a b c d;\n").has_value());
  CHECK(content_of(path) == "a b c d;\n");
  struct stat st {};
  REQUIRE(stat(path.c_str(), &st) == 0);
  const mode_t mask = umask(0);
  umask(mask);
  CHECK((st.st_mode & 0777) == (0666 & ~mask));
}

TEST_CASE("AtomicFileWriter: a device or a FIFO is written in place, never replaced by a file", "[daemon][files]") {
  // -o /dev/null (or a named pipe) run as root: a rename over it would put a regular file where
  // the device was, for every program on the machine.
  test::TempDir dir;
  const auto fifo = dir.path() / "pipe";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  // Held open for reading and writing by the test, the FIFO never blocks the writer, and what
  // was written waits in the pipe (a regression renames a file over it: nothing arrives).
  const int held = open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  REQUIRE(held >= 0);
  daemon::AtomicFileWriter file(fifo.string());
  file.write("one ");
  file.write("two\n");
  CHECK(file.commit().has_value());
  char buffer[64] = {};
  const ssize_t n = read(held, buffer, sizeof buffer);
  close(held);
  CHECK(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0) == "one two\n");
  struct stat st {};
  REQUIRE(stat(fifo.c_str(), &st) == 0);
  CHECK(S_ISFIFO(st.st_mode));
  CHECK(files_in(dir.path()) == 1);  // no temporary file left beside it
  // A character device (a null device of the test's own, made where root may make one: the
  // test never writes to the machine's /dev/null, which a regression would replace) stays one.
  if (geteuid() == 0) {
    const auto null = dir.path() / "null";
    REQUIRE(mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    REQUIRE(daemon::write_file_atomically(null.string(), "nothing\n").has_value());
    REQUIRE(stat(null.c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    CHECK(files_in(dir.path()) == 2);
  }
}

TEST_CASE("AtomicFileWriter: a symbolic link keeps pointing at its file, which gets the new content", "[daemon][files]") {
  test::TempDir dir;
  const auto real = dir.path() / "real.epd", link = dir.path() / "link.epd";
  { std::ofstream(real) << "old\n"; }
  std::filesystem::create_symlink(real, link);
  REQUIRE(daemon::write_file_atomically(link.string(), "new\n").has_value());
  CHECK(std::filesystem::is_symlink(link));
  CHECK(content_of(real) == "new\n");
}

TEST_CASE("check_stdio_once: one '-' per direction, inputs and outputs apart", "[daemon][files][stdio]") {
  using Outputs = std::vector<std::optional<std::string>>;
  const auto [inputs, outputs, error] = GENERATE(table<std::vector<std::string>, Outputs, std::string>({
      {{"-"}, {std::string("-")}, ""},                              // a filter: stdin to stdout
      {{"a.pgn", "-"}, {std::nullopt, std::string("x.json")}, ""},  // outputs not given are skipped
      {{"-", "a.pgn", "-"}, {}, "'-' is given as more than one input"},
      {{"a.epd"}, {std::string("-"), std::nullopt, std::string("-")}, "'-' is given as more than one output"},
      {{"--"}, {std::string("-o"), std::string("./-")}, ""},  // only '-' itself is a standard stream
  }));
  CAPTURE(inputs, error);
  const auto once = daemon::check_stdio_once(inputs, outputs);
  if (error.empty()) {
    CHECK(once);
  } else {
    REQUIRE_FALSE(once);
    CHECK(once.error().find(error) != std::string::npos);
  }
}

namespace {

// Runs `body` with descriptor `fd` (0 or 1) replaced by one end of a pipe; `other` is the other
// end, for the test, which may close it (and set it to -1). The process's own descriptor comes
// back after.
template <class Body>
void with_pipe_as(int fd, Body body) {
  // What the test runner has buffered goes out first, not into the pipe.
  std::cout.flush();
  std::fflush(stdout);
  int ends[2];
  REQUIRE(pipe(ends) == 0);
  const int mine = fd == 0 ? ends[0] : ends[1];
  // The process's descriptor comes back however the body ends (a failed REQUIRE throws): Catch's
  // own report must not go into the pipe.
  struct Restore {
    int fd, saved, other;
    ~Restore() {
      dup2(saved, fd);
      close(saved);
      if (other >= 0) close(other);
    }
  } restore{fd, dup(fd), fd == 0 ? ends[1] : ends[0]};
  dup2(mine, fd);
  close(mine);
  body(restore.other);
}

}  // namespace

TEST_CASE("read_whole_file: '-' is standard input, read once: a second read is refused, not empty", "[daemon][files][stdio]") {
  with_pipe_as(0, [](int& writer) {
    const std::string bytes("1k6/8/8/8/8/8/8/K7 w - - id \"a\";\n\0binary\n", 42);
    REQUIRE(write(writer, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
    close(std::exchange(writer, -1));  // the end of the input
    CHECK(daemon::check_readable_file("-"));
    const auto first = daemon::read_whole_file("-");
    REQUIRE(first);
    CHECK(*first == bytes);
    const auto again = daemon::read_whole_file("-");
    REQUIRE_FALSE(again);
    CHECK(again.error() == "- (standard input): read already (standard input can be read once)");
  });
}

TEST_CASE("AtomicFileWriter: '-' writes standard output as the parts come, and says a reader gone", "[daemon][files][stdio]") {
  with_pipe_as(1, [](int& reader) {
    CHECK(daemon::check_writable_output("-"));
    daemon::AtomicFileWriter out("-");
    out.write("game 1\n");
    // Written at once, not at commit: a filter's output flows.
    char buffer[64] = {};
    REQUIRE(read(reader, buffer, sizeof buffer) == 7);
    CHECK(std::string(buffer, 7) == "game 1\n");
    out.write("game 2\n");
    CHECK(out.commit());
    REQUIRE(read(reader, buffer, sizeof buffer) == 7);
    CHECK(std::string(buffer, 7) == "game 2\n");
  });
  with_pipe_as(1, [](int& reader) {
    const auto previous = std::signal(SIGPIPE, SIG_IGN);  // as main does
    close(std::exchange(reader, -1));  // no reader left: EPIPE
    daemon::AtomicFileWriter out("-");
    out.write("game 1\n");
    CHECK(out.failed());
    const auto committed = out.commit();
    REQUIRE_FALSE(committed);
    CHECK(committed.error() == "- (standard output): write failed: Broken pipe");
    std::signal(SIGPIPE, previous);
  });
}
