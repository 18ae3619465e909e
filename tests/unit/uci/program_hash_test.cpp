// The engine identity's program part: XXH64 against values from Debian's libxxhash (the xxHash
// project's own implementation, computed once with a small C program), streaming in any
// chunking, content rather than path, and argument vectors that never read alike.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "uci/program_hash.hpp"

using namespace epdd::uci;

namespace {

std::uint64_t xxh64(std::string_view bytes) {
  Xxh64 h;
  h.update(bytes);
  return h.digest();
}

std::string big_input() {
  std::string s(100003, '\0');
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<char>(static_cast<unsigned char>(i * 31 + 7));
  return s;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/epdd-program-hash-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

std::string fmt_hash(std::uint64_t h) {
  char text[40];
  std::snprintf(text, sizeof text, "xxh64 %016llx", static_cast<unsigned long long>(h));
  return text;
}

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("program hash: XXH64 gives the xxHash project's values", "[uci]") {
  CHECK(xxh64("") == 0xef46db3751d8e999ull);
  CHECK(xxh64("a") == 0xd24ec4f1a98c6e5bull);
  CHECK(xxh64("abc") == 0x44bc2cf5ad770999ull);
  CHECK(xxh64("The quick brown fox jumps over the lazy dog") == 0x0b242d361fda71bcull);
  CHECK(xxh64("0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz!") == 0x259648762ea99bf0ull);
  CHECK(xxh64(big_input()) == 0xc333c0bff6f9efdbull);
}

TEST_CASE("program hash: the digest does not depend on how the bytes are cut", "[uci]") {
  const std::string input = big_input();
  for (const std::size_t piece : {1u, 3u, 7u, 31u, 32u, 33u, 1000u, 65536u}) {
    Xxh64 h;
    for (std::size_t at = 0; at < input.size(); at += piece) h.update(std::string_view(input).substr(at, piece));
    CHECK(h.digest() == 0xc333c0bff6f9efdbull);
  }
}

TEST_CASE("program hash: a program is known by its content, not its path, and a change is seen", "[uci]") {
  TempDir dir;
  write(dir.path / "a.sh", "#!/bin/sh\nexec fake --script x\n");
  std::filesystem::create_directory(dir.path / "other");
  std::filesystem::copy_file(dir.path / "a.sh", dir.path / "other" / "b.sh");
  ProcessSpec a{(dir.path / "a.sh").string(), {}, {}, {}};
  ProcessSpec b{(dir.path / "other" / "b.sh").string(), {}, {}, {}};
  auto ha = program_content_hash(a);
  auto hb = program_content_hash(b);
  REQUIRE(ha);
  REQUIRE(hb);
  CHECK(*ha == *hb);
  CHECK(*ha == fmt_hash(xxh64("#!/bin/sh\nexec fake --script x\n")));
  // A relative path is taken from the working directory the engine is started in.
  ProcessSpec relative{"other/b.sh", {}, dir.path.string(), {}};
  CHECK(program_content_hash(relative) == ha);
  // Rebuilt (another size and time): hashed again, not taken from what was remembered.
  write(dir.path / "a.sh", "#!/bin/sh\nexec fake --crash-at go\n");
  auto again = program_content_hash(a);
  REQUIRE(again);
  CHECK(*again != *ha);
  CHECK_FALSE(program_content_hash(ProcessSpec{(dir.path / "none").string(), {}, {}, {}}));
}

TEST_CASE("program hash: a name without a slash is the program PATH finds", "[uci]") {
  auto sh = resolve_program(ProcessSpec{"sh", {}, {}, {}});
  REQUIRE(sh);
  CHECK(std::filesystem::equivalent(*sh, "/bin/sh"));
  CHECK_FALSE(resolve_program(ProcessSpec{"no-such-program-epdd", {}, {}, {}}));
}

TEST_CASE("program hash: argument vectors that differ never read alike", "[uci]") {
  TempDir dir;
  write(dir.path / "e", "x");
  const std::string program = (dir.path / "e").string();
  const auto id = [&](std::vector<std::string> args) { return program_identity(ProcessSpec{program, std::move(args), {}, {}}); };
  CHECK(id({}) == "program " + fmt_hash(xxh64("x")) + ", args []");
  CHECK(id({"--script", "a b.txt"}) == "program " + fmt_hash(xxh64("x")) + ", args [\"--script\", \"a b.txt\"]");
  CHECK(id({"a b"}) != id({"a", "b"}));
  CHECK(id({"a\", \"b"}) != id({"a", "b"}));
  CHECK(id({"x\\"}) != id({"x\\\\"}));
  // Parentheses and control bytes are escaped: the identity is read back up to its last " (".
  CHECK(id({"f (1)\n"}) == "program " + fmt_hash(xxh64("x")) + ", args [\"f \\x281\\x29\\x0a\"]");
  CHECK(program_identity(ProcessSpec{(dir.path / "gone").string(), {}, {}, {}}).starts_with("program unread "));
}
