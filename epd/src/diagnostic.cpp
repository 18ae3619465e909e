#include "epd/diagnostic.hpp"

#include <algorithm>

namespace epdd::epd {

namespace {

struct ProblemInfo {
  Problem problem;
  const char* name;
  Severity severity;
};

// Names are stable: reports and tests count by them.
constexpr ProblemInfo kProblems[] = {
    {Problem::ByteOrderMark, "byte-order-mark", Severity::Note},
    {Problem::NulByte, "nul-byte", Severity::Warning},
    {Problem::CrLf, "crlf", Severity::Note},
    {Problem::NonAscii, "non-ascii", Severity::Note},
    {Problem::LineTooLong, "line-too-long", Severity::Note},
    {Problem::NotARecord, "not-a-record", Severity::Error},
    {Problem::Spacing, "spacing", Severity::Note},
    {Problem::FenCounters, "fen-counters", Severity::Note},
    {Problem::Position, "position", Severity::Error},
    {Problem::PositionTolerated, "position-tolerated", Severity::Warning},
    {Problem::XFenCastling, "xfen-castling", Severity::Note},
    {Problem::OpcodeSyntax, "opcode-syntax", Severity::Error},
    {Problem::Placeholder, "placeholder", Severity::Note},
    {Problem::GluedOperation, "glued-operation", Severity::Note},
    {Problem::OpcodeLength, "opcode-length", Severity::Note},
    {Problem::MissingSemicolon, "missing-semicolon", Severity::Warning},
    {Problem::UnterminatedString, "unterminated-string", Severity::Error},
    {Problem::UnknownOpcode, "unknown-opcode", Severity::Note},
    {Problem::DuplicateOpcode, "duplicate-opcode", Severity::Warning},
    {Problem::OperationOrder, "operation-order", Severity::Note},
    {Problem::OperandCount, "operand-count", Severity::Error},
    {Problem::OperandType, "operand-type", Severity::Error},
    {Problem::OperandRange, "operand-range", Severity::Error},
    {Problem::UnquotedString, "unquoted-string", Severity::Warning},
    {Problem::StringLength, "string-length", Severity::Error},
    {Problem::IllegalMove, "illegal-move", Severity::Error},
    {Problem::AmbiguousMove, "ambiguous-move", Severity::Error},
    {Problem::MoveForm, "move-form", Severity::Note},
    {Problem::MoveOrder, "move-order", Severity::Note},
    {Problem::PmPv, "pm-pv", Severity::Warning},
    {Problem::CeMate, "ce-mate", Severity::Warning},
    {Problem::DrawNeedsSm, "draw-needs-sm", Severity::Warning},
    {Problem::MateKey, "mate-key", Severity::Note},
};

const ProblemInfo& info(Problem p) {
  const auto it = std::find_if(std::begin(kProblems), std::end(kProblems), [p](const ProblemInfo& i) { return i.problem == p; });
  return *it;
}

}  // namespace

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "?";
}

const char* name(Problem p) { return info(p).name; }
Severity severity_of(Problem p) { return info(p).severity; }

}  // namespace epdd::epd
