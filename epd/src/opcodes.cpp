#include "epd/opcodes.hpp"

#include <algorithm>
#include <charconv>

namespace epdd::epd {

namespace {

using T = OperandType;

constexpr OpcodeSpec kCatalogue[] = {
    {"acd", T::NonNegativeInteger, "analysis depth in plies"},
    {"acn", T::NonNegativeInteger, "analysis count: nodes"},
    {"acs", T::NonNegativeInteger, "analysis count: seconds"},
    {"am", T::MoveSet, "avoid move(s)"},
    {"bm", T::MoveSet, "best move(s)"},
    {"c0", T::OptionalString, "comment 0"},
    {"c1", T::OptionalString, "comment 1"},
    {"c2", T::OptionalString, "comment 2"},
    {"c3", T::OptionalString, "comment 3"},
    {"c4", T::OptionalString, "comment 4"},
    {"c5", T::OptionalString, "comment 5"},
    {"c6", T::OptionalString, "comment 6"},
    {"c7", T::OptionalString, "comment 7"},
    {"c8", T::OptionalString, "comment 8"},
    {"c9", T::OptionalString, "comment 9"},
    {"ce", T::Centipawns, "centipawn evaluation from the side to move"},
    {"dm", T::PositiveInteger, "direct mate: full moves to mate"},
    {"draw_accept", T::None, "accept a draw offer"},
    {"draw_claim", T::None, "claim a draw"},
    {"draw_offer", T::None, "offer a draw"},
    {"draw_reject", T::None, "reject a draw offer"},
    {"eco", T::OptionalString, "ECO opening code"},
    {"fmvn", T::PositiveInteger, "fullmove number"},
    {"hmvc", T::NonNegativeInteger, "halfmove clock"},
    {"id", T::String, "position identification"},
    {"nic", T::OptionalString, "New In Chess opening code"},
    {"noop", T::Any, "no operation"},
    {"pm", T::SingleMove, "predicted move"},
    {"pv", T::MoveSequence, "predicted variation"},
    {"rc", T::PositiveInteger, "repetition count"},
    {"resign", T::None, "the side to move resigns"},
    {"sm", T::SingleMove, "supplied move"},
    {"tcgs", T::PositiveInteger, "telecommunication: game selector"},
    {"tcri", T::TwoStrings, "telecommunication: receiver address and name"},
    {"tcsi", T::TwoStrings, "telecommunication: sender address and name"},
    {"v0", T::OptionalString, "variation name 0"},
    {"v1", T::OptionalString, "variation name 1"},
    {"v2", T::OptionalString, "variation name 2"},
    {"v3", T::OptionalString, "variation name 3"},
    {"v4", T::OptionalString, "variation name 4"},
    {"v5", T::OptionalString, "variation name 5"},
    {"v6", T::OptionalString, "variation name 6"},
    {"v7", T::OptionalString, "variation name 7"},
    {"v8", T::OptionalString, "variation name 8"},
    {"v9", T::OptionalString, "variation name 9"},
};

bool all_digits(std::string_view t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::span<const OpcodeSpec> opcode_catalogue() { return kCatalogue; }

const OpcodeSpec* find_opcode(std::string_view opcode) {
  const auto it = std::lower_bound(std::begin(kCatalogue), std::end(kCatalogue), opcode,
                                   [](const OpcodeSpec& s, std::string_view o) { return s.opcode < o; });
  return it != std::end(kCatalogue) && it->opcode == opcode ? &*it : nullptr;
}

std::optional<long long> parse_integer(std::string_view text, bool* plus) {
  if (plus) *plus = false;
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    if (plus) *plus = digits[0] == '+';
    digits.remove_prefix(1);
  }
  if (!all_digits(digits)) return std::nullopt;
  long long value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  return negative ? -value : value;
}

bool is_float(std::string_view text) {
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  const auto dot = text.find('.');
  return dot != std::string_view::npos && all_digits(text.substr(0, dot)) && all_digits(text.substr(dot + 1));
}

}  // namespace epdd::epd
