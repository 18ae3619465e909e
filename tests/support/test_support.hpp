// Helpers shared by the tests: shared data paths, temporary files, board shortcuts.
#pragma once

#include <stdlib.h>  // mkdtemp

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

namespace epdd::test {

// A file under ../shared/data; fails the test (with the path) if it is not there.
inline std::filesystem::path shared_data(std::string_view relative) {
  const std::filesystem::path p = std::filesystem::path(EPDD_SHARED_DATA) / relative;
  INFO("shared test data expected at " << p.string() << " (CI checks out shared/ beside the project)");
  REQUIRE(std::filesystem::exists(p));
  return p;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A temporary directory removed with the object.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "epdd-test-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path write(const std::string& name, std::string_view content) const {
    const auto p = path_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace epdd::test
