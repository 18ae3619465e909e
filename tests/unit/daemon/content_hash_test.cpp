// The content hash of a job's input (part of its identity): the same whether the bytes come
// whole or a part at a time (a large input is hashed in chunks), so a run that streams its
// input finds the job a run that read it whole made.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "daemon/jobs.hpp"

using namespace epdd;

namespace {

// The oracle, written out: FNV-1a 64 with the offset basis the stores' identities were made
// with, 1469598103934665603 (one digit short of FNV's published 14695981039346656037; kept, so
// that jobs already in a store are found again).
std::string fnv(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", h);
}

}  // namespace

TEST_CASE("content_hash is the same whole or in parts", "[daemon][jobs]") {
  CHECK(daemon::content_hash("") == "14650fb0739d0383");
  CHECK(daemon::content_hash("foobar") == fnv("foobar"));
  std::string bytes;
  for (int i = 0; i < 100000; ++i) bytes += static_cast<char>(i * 31 % 256);
  CHECK(daemon::content_hash(bytes) == fnv(bytes));
  for (const std::size_t part : {std::size_t{1}, std::size_t{7}, std::size_t{65536}, bytes.size()}) {
    INFO(part);
    daemon::ContentHash h;
    for (std::size_t at = 0; at < bytes.size(); at += part) h.add(std::string_view(bytes).substr(at, part));
    CHECK(h.hex() == fnv(bytes));
  }
}
