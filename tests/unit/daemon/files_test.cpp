// Atomic outputs: a reader sees the old file or the whole new one, never a part, and a writer
// that fails or is abandoned leaves nothing behind.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

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
