// The opcode catalogue: every opcode of the PGN standard's EPD section (plus the widely used
// acd), with the type of its operands.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace epdd::epd {

enum class OperandType : std::uint8_t {
  None,                // no operands: draw_accept, draw_claim, draw_offer, draw_reject, resign
  NonNegativeInteger,  // acd, acn, acs, hmvc
  PositiveInteger,     // dm, fmvn, rc, tcgs
  Centipawns,          // ce: -32767..32766, mates above 32000 / below -32000
  OptionalString,      // c0-c9, v0-v9, eco, nic: one string or none
  String,              // id: one string
  TwoStrings,          // tcri, tcsi: address and name
  MoveSet,             // am, bm: moves from the position, in ASCII order
  MoveSequence,        // pv: moves played one after another
  SingleMove,          // pm, sm: exactly one move
  Any,                 // noop
};

struct OpcodeSpec {
  std::string_view opcode;
  OperandType type;
  std::string_view meaning;
};

// The whole catalogue in ASCII order.
std::span<const OpcodeSpec> opcode_catalogue();
// The entry for an opcode, or nullptr for an opcode the standard does not define.
const OpcodeSpec* find_opcode(std::string_view opcode);
// Private opcodes start with an upper-case letter (the standard: used by one program only).
inline bool is_private_opcode(std::string_view opcode) {
  return !opcode.empty() && opcode[0] >= 'A' && opcode[0] <= 'Z';
}
inline bool is_move_type(OperandType t) {
  return t == OperandType::MoveSet || t == OperandType::MoveSequence || t == OperandType::SingleMove;
}

// An integer operand as the standard writes it: optional sign, digits. nullopt otherwise.
// `plus` reports a '+' sign (allowed, discouraged).
std::optional<long long> parse_integer(std::string_view text, bool* plus = nullptr);
// A floating point operand as the standard writes it: optional sign, digits, '.', digits.
bool is_float(std::string_view text);

}  // namespace epdd::epd
