// Diagnostics of EPD reading and checking: where (line, column), how bad, which kind, and a
// sentence a person understands. A kind has a stable name so that reports can count them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostic_log.hpp"

namespace epdd::epd {

using core::Severity;

using core::to_string;

// Every kind of problem the reader and the checker report.
enum class Problem : std::uint8_t {
  ByteOrderMark,      // UTF-8 BOM at the start of the file (skipped)
  NulByte,            // NUL byte (skipped)
  CrLf,               // CRLF line endings (kept)
  NonAscii,           // a byte outside printing ASCII (kept; Latin-1 or UTF-8 text)
  LineTooLong,        // longer than the 1024 characters the standard asks readers to handle
  NotARecord,         // fewer than four fields: not an EPD record
  Spacing,            // more than one space, or tabs, between fields or operations
  FenCounters,        // FEN halfmove clock and fullmove number after the four fields
  Position,           // the four fields are not a legal position
  PositionTolerated,  // the four fields were read leniently (see the message)
  XFenCastling,       // KQkq with a king off the e-file: read as X-FEN (Chess960), rights kept
  OpcodeSyntax,       // something that is not an opcode where one should be
  Placeholder,        // a lone '-' or number where an operation would start (kept, skipped)
  GluedOperation,     // a known opcode inside another operation's moves: a new operation starts
  OpcodeLength,       // an opcode longer than the standard's 15 characters
  MissingSemicolon,   // the last operation is not terminated by ';'
  UnterminatedString, // a quoted string without its closing quote
  UnknownOpcode,      // a lower-case opcode the standard does not define (ignored, kept)
  DuplicateOpcode,    // the same opcode twice in a record
  OperationOrder,     // operations not in ASCII order of their opcodes
  OperandCount,       // too many or too few operands for the opcode
  OperandType,        // an operand of the wrong type (integer, string, ...)
  OperandRange,       // an integer outside the opcode's range
  UnquotedString,     // a string operand written without quotes
  StringLength,       // a string of 256 bytes or more
  IllegalMove,        // a move that is not legal in the position (or after the moves before it)
  AmbiguousMove,      // a move that fits several legal moves
  MoveForm,           // a legal move written in a form other than SAN (UCI, long algebraic, ...)
  MoveOrder,          // bm/am operands not in ASCII order
  PmPv,               // pm differs from the first move of pv
  CeMate,             // ce mate encoding inconsistent (parity, dm, or a form like +M1)
  DrawNeedsSm,        // draw_claim or draw_offer without an sm operation
  MateKey,            // bm #N / #-N: the matetrack convention, a mate key rather than a move
};

// Stable short name of a problem kind ("missing-semicolon").
const char* name(Problem p);
// The severity a problem kind is reported with.
Severity severity_of(Problem p);

struct Diagnostic {
  Problem problem;
  Severity severity;
  std::size_t line = 0;    // 1-based; 0 when not tied to a line
  std::size_t column = 0;  // 1-based; 0 when not tied to a column
  std::string message;
};

// Collects diagnostics; readers and checkers append, callers read or print them. Counts per
// kind and severity, a limit on how many of each kind are kept, a listener: core::DiagnosticLog.
class Diagnostics : public core::DiagnosticLog<Diagnostic> {
 public:
  using DiagnosticLog::add;
  void add(Problem p, std::size_t line, std::size_t column, std::string message) {
    add(Diagnostic{p, severity_of(p), line, column, std::move(message)});
  }
};

}  // namespace epdd::epd
