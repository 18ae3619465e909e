#include "uci/program_hash.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include <fmt/core.h>

namespace epdd::uci {

namespace {

constexpr std::uint64_t kP1 = 0x9E3779B185EBCA87ull;
constexpr std::uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;
constexpr std::uint64_t kP3 = 0x165667B19E3779F9ull;
constexpr std::uint64_t kP4 = 0x85EBCA77C2B2AE63ull;
constexpr std::uint64_t kP5 = 0x27D4EB2F165667C5ull;

std::uint64_t rotl(std::uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// Little-endian reads, whatever the machine: the hash is the same everywhere.
std::uint64_t read64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}
std::uint32_t read32(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

std::uint64_t mix(std::uint64_t acc, std::uint64_t input) { return rotl(acc + input * kP2, 31) * kP1; }
std::uint64_t merge(std::uint64_t acc, std::uint64_t v) { return (acc ^ mix(0, v)) * kP1 + kP4; }

}  // namespace

void Xxh64::update(std::string_view bytes) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size();
  length_ += n;
  if (buffered_ > 0) {
    const std::size_t take = std::min(n, 32 - buffered_);
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    n -= take;
    if (buffered_ < 32) return;
    for (int i = 0; i < 4; ++i) v_[i] = mix(v_[i], read64(buffer_ + 8 * i));
    buffered_ = 0;
  }
  for (; n >= 32; p += 32, n -= 32)
    for (int i = 0; i < 4; ++i) v_[i] = mix(v_[i], read64(p + 8 * i));
  std::memcpy(buffer_, p, n);
  buffered_ = n;
}

std::uint64_t Xxh64::digest() const {
  std::uint64_t h;
  if (length_ >= 32) {
    h = rotl(v_[0], 1) + rotl(v_[1], 7) + rotl(v_[2], 12) + rotl(v_[3], 18);
    for (const std::uint64_t v : v_) h = merge(h, v);
  } else {
    h = kP5;  // seed 0
  }
  h += length_;
  const unsigned char* p = buffer_;
  std::size_t n = buffered_;
  for (; n >= 8; p += 8, n -= 8) h = rotl(h ^ mix(0, read64(p)), 27) * kP1 + kP4;
  if (n >= 4) {
    h = rotl(h ^ (static_cast<std::uint64_t>(read32(p)) * kP1), 23) * kP2 + kP3;
    p += 4;
    n -= 4;
  }
  for (; n > 0; ++p, --n) h = rotl(h ^ (*p * kP5), 11) * kP1;
  h ^= h >> 33;
  h *= kP2;
  h ^= h >> 29;
  h *= kP3;
  h ^= h >> 32;
  return h;
}

Expected<std::string, std::string> resolve_program(const ProcessSpec& spec) {
  const std::string& program = spec.program;
  if (program.empty()) return unexpected(std::string("no program given"));
  if (program.find('/') != std::string::npos) {
    if (program.front() == '/' || spec.working_directory.empty()) return program;
    return spec.working_directory + "/" + program;
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return unexpected(fmt::format("'{}' is not found in PATH", program));
}

Expected<std::string, std::string> program_content_hash(const ProcessSpec& spec) {
  auto file = resolve_program(spec);
  if (!file) return unexpected(file.error());
  struct stat st {};
  if (stat(file->c_str(), &st) != 0) return unexpected(fmt::format("{}: {}", *file, std::strerror(errno)));
  using Key = std::tuple<std::string, long long, long long, long long>;
  const Key key{*file, static_cast<long long>(st.st_size), static_cast<long long>(st.st_mtim.tv_sec),
                static_cast<long long>(st.st_mtim.tv_nsec)};
  static std::mutex mutex;
  static std::map<Key, std::string> known;
  {
    std::lock_guard lock(mutex);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  std::ifstream in(*file, std::ios::binary);
  if (!in) return unexpected(fmt::format("{}: cannot be read", *file));
  Xxh64 hash;
  std::vector<char> chunk(1 << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    hash.update(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
  }
  if (in.bad()) return unexpected(fmt::format("{}: a read failed", *file));
  std::string text = fmt::format("xxh64 {:016x}", hash.digest());
  std::lock_guard lock(mutex);
  known[key] = text;
  return text;
}

std::string program_identity(const ProcessSpec& spec) {
  auto hash = program_content_hash(spec);
  std::string out = hash ? "program " + *hash : "program unread " + spec.program;
  out += ", args [";
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    out += i ? ", \"" : "\"";
    for (const char c : spec.args[i]) {
      const auto u = static_cast<unsigned char>(c);
      // Parentheses are escaped too: an identity's settings are read back up to its last " (".
      if (c == '"' || c == '\\') out += {'\\', c};
      else if (u < 0x20 || u == 0x7f || c == '(' || c == ')') out += fmt::format("\\x{:02x}", u);
      else out += c;
    }
    out += '"';
  }
  return out + "]";
}

}  // namespace epdd::uci
