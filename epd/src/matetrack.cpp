#include "epd/matetrack.hpp"

#include <charconv>

namespace epdd::epd {

std::optional<int> parse_mate_key(std::string_view text) {
  if (!text.starts_with('#')) return std::nullopt;
  text.remove_prefix(1);
  const bool mated = text.starts_with('-');
  if (mated) text.remove_prefix(1);
  // Digits only: from_chars would take a second sign ("#--3").
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
  int moves = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), moves);
  if (ec != std::errc() || end != text.data() + text.size() || moves < 1 || moves > 500) return std::nullopt;
  return mated ? -moves : moves;
}

std::optional<int> matetrack_mate(const EpdRecord& record) {
  const Operation* bm = record.find("bm");
  if (!bm || bm->operands.size() != 1) return std::nullopt;
  return parse_mate_key(bm->operands.front().text);
}

}  // namespace epdd::epd
