#include "annotate/polyglot.hpp"

namespace epdd::annotate {

Expected<std::unordered_set<std::uint64_t>, std::string> polyglot_keys(std::string_view bytes) {
  constexpr std::size_t kEntry = 16;
  if (bytes.size() % kEntry != 0)
    return unexpected("a Polyglot book is 16-byte entries, but this one has " + std::to_string(bytes.size()) +
                      " bytes (" + std::to_string(bytes.size() % kEntry) +
                      " left over): the file is cut short or not a Polyglot book");
  std::unordered_set<std::uint64_t> keys;
  keys.reserve(bytes.size() / kEntry);
  for (std::size_t at = 0; at < bytes.size(); at += kEntry) {
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < 8; ++i) key = key << 8 | static_cast<unsigned char>(bytes[at + i]);
    keys.insert(key);
  }
  return keys;
}

}  // namespace epdd::annotate
