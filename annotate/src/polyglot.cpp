#include "annotate/polyglot.hpp"

namespace epdd::annotate {

Expected<std::unordered_set<std::uint64_t>, std::string> polyglot_keys(std::string_view bytes) {
  constexpr std::size_t kEntry = 16;
  if (bytes.size() % kEntry != 0)
    return unexpected("a Polyglot book is 16-byte entries, but this one has " + std::to_string(bytes.size()) +
                      " bytes (" + std::to_string(bytes.size() % kEntry) +
                      " left over): the file is cut short or not a Polyglot book");
  if (bytes.empty()) return unexpected(std::string("the file is empty: no Polyglot book"));
  std::unordered_set<std::uint64_t> keys;
  keys.reserve(bytes.size() / kEntry);
  std::uint64_t previous = 0;
  for (std::size_t at = 0; at < bytes.size(); at += kEntry) {
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < 8; ++i) key = key << 8 | static_cast<unsigned char>(bytes[at + i]);
    // Polyglot's books are sorted by key (its readers search them by bisection): a file of the
    // right size whose keys are not in order is no book (a PGN or a text of 16n bytes).
    if (at > 0 && key < previous)
      return unexpected("entry " + std::to_string(at / kEntry + 1) +
                        " has a key smaller than the one before: a Polyglot book is sorted by key, so this file is "
                        "not one");
    previous = key;
    keys.insert(key);
  }
  return keys;
}

}  // namespace epdd::annotate
