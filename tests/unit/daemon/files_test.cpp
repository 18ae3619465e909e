// Atomic outputs: a reader sees the old file or the whole new one, never a part, and a writer
// that fails or is abandoned leaves nothing behind.
#include <sys/stat.h>

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
