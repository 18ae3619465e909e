// Diagnostics of PGN reading: which game, where (line, column), the token, how bad, which kind,
// and a sentence a person understands. Kinds have stable names so that reports count them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/diagnostic_log.hpp"

namespace epdd::pgn {

using core::Severity;
using core::to_string;

enum class Problem : std::uint8_t {
  ByteOrderMark,        // UTF-8 BOM at the start (skipped)
  CrLf,                 // CRLF line endings
  LineTooLong,          // an import line longer than the standard's 255 characters
  UnexpectedCharacter,  // a character that starts no token
  UnterminatedString,   // a string without its closing quote on its line
  StringTooLong,        // a string of more than 255 characters
  UnterminatedComment,  // '{' without '}' before the end of the file
  BraceInComment,       // '{' inside a comment (comments do not nest)
  ReservedToken,        // '<' or '>' (reserved by the standard)
  TagSyntax,            // a tag pair that is not [Name "value"]
  DuplicateTag,         // the same tag name twice in a game
  TagValue,             // a tag value that breaks the tag's rules (Date, Round, TimeControl, ...)
  SetUp,                // SetUp/FEN/Variant problems: the start position cannot be used
  SetUpTolerated,       // a FEN tag read leniently (an en passant square beside a non-zero clock, ...)
  ResultMismatch,       // the Result tag differs from the game termination marker
  MissingResult,        // no game termination marker
  PlyCount,             // PlyCount differs from the moves of the main line
  MoveNumber,           // a move number that does not match the position
  IllegalMove,          // a move that is not legal here (the game keeps what came before)
  AmbiguousMove,        // a move that fits several legal moves
  MoveForm,             // a legal move not in canonical SAN (read leniently)
  NullMove,             // "--" or "Z0": an extension the standard does not define
  BadNag,               // '$' without a number 0-255
  Parenthesis,          // ')' without '(', '(' without ')', or a variation with no move before it
  PgcData,              // PGC input that cannot be read (truncated, corrupt): the file's reading stops
  MoveFile,             // a ChessLive! move file that does not follow its grammar or plays no legal move
};

const char* name(Problem p);
Severity severity_of(Problem p);

struct Diagnostic {
  Problem problem;
  Severity severity;
  std::size_t game = 0;  // 1-based game number in the file; 0 when between games
  std::size_t line = 0;  // 0 for binary input (PGC), whose message says the byte offset
  std::size_t column = 0;
  std::string token;  // the text at fault, when there is one
  std::string message;
};

// Collects diagnostics; the reader appends, callers read or print them. Counts per kind and
// severity, a limit on how many of each kind are kept, a listener: core::DiagnosticLog.
class Diagnostics : public core::DiagnosticLog<Diagnostic> {
 public:
  using DiagnosticLog::add;
  void add(Problem p, std::size_t game, std::size_t line, std::size_t column, std::string token, std::string message) {
    add(Diagnostic{p, severity_of(p), game, line, column, std::move(token), std::move(message)});
  }
};

}  // namespace epdd::pgn
