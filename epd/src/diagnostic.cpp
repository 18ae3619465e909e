#include "epd/diagnostic.hpp"

namespace epdd::epd {

namespace {

// Names are stable: reports and tests count by them.
constexpr core::ProblemInfo<Problem> kProblems[] = {
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

}  // namespace

const char* name(Problem p) { return core::info_of(kProblems, p).name; }
Severity severity_of(Problem p) { return core::info_of(kProblems, p).severity; }

}  // namespace epdd::epd
