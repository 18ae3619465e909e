// Which engine a cache entry belongs to is more than its `id name` (issue 14): a wrapper script,
// another build with the same name, or other arguments make another engine. This is the part of
// an engine's identity that the running program cannot tell us: the content of its executable,
// and its argument vector, in a form that is the same on every machine (content, not path).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "uci/process.hpp"

namespace epdd::uci {

// XXH64 (seed 0) of some bytes, streamed: the well-known fast non-cryptographic 64-bit hash, as
// `xxhsum -H1` prints it. It tells builds apart; it is no defence against someone who crafts a
// collision on purpose.
class Xxh64 {
 public:
  void update(std::string_view bytes);
  std::uint64_t digest() const;

 private:
  std::uint64_t v_[4] = {0x9E3779B185EBCA87ull + 0xC2B2AE3D27D4EB4Full, 0xC2B2AE3D27D4EB4Full, 0,
                         0 - 0x9E3779B185EBCA87ull};
  unsigned char buffer_[32] = {};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

// The file a spec's program names, as it will be run: a name without '/' looked up in PATH, a
// relative path taken from the working directory. An error says why it cannot be found.
Expected<std::string, std::string> resolve_program(const ProcessSpec& spec);

// "xxh64 0123456789abcdef": the hash of the program's file. Remembered for the life of the
// process by path, size and modification time, so that a daemon restarting engines reads a
// 50 MB Stockfish once, and a rebuilt engine is hashed again.
Expected<std::string, std::string> program_content_hash(const ProcessSpec& spec);

// What an engine's identity adds to `id name` and options: "program xxh64 0123456789abcdef,
// args ["--script", "x.txt"]" (each argument quoted, with `"` `\` escaped and parentheses and
// control bytes as \xNN, so that two argument vectors never read alike). A program that cannot
// be read is named by its path instead ("program unread /x/y").
std::string program_identity(const ProcessSpec& spec);

}  // namespace epdd::uci
