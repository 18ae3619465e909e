// UCI engine output: any bytes, cut at newlines, each line read with parse_engine_line (id,
// option, bestmove, info, uciok, readyok, anything else); property: the message read writes
// (engine_line) to a line that reads back to an equal message, well formed (an info line's
// `malformed` aside), and writing that is a fixed point.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "fuzz_check.hpp"
#include "uci/protocol.hpp"

using namespace epdd;

namespace {

void check_line(std::string_view line) {
  uci::EngineMessage first = uci::parse_engine_line(line);
  const std::string written = uci::engine_line(first);
  const uci::EngineMessage again = uci::parse_engine_line(written);
  if (auto* info = std::get_if<uci::Info>(&first)) {
    const auto* info_again = std::get_if<uci::Info>(&again);
    fuzz::require(info_again != nullptr, "an info line written reads back as another kind", line, written);
    fuzz::require(!info_again->malformed, "an info line written reads back malformed", line, written);
    info->malformed = false;
  }
  fuzz::require(again == first, "engine_line then parse_engine_line gives another message", line, written);
  fuzz::require(uci::engine_line(again) == written, "engine_line is not a fixed point", written,
                uci::engine_line(again));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text = fuzz::as_text(data, size);
  while (true) {
    const std::size_t end = text.find('\n');
    check_line(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return 0;
}
