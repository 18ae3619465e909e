#include "pgn/diagnostic.hpp"

#include <algorithm>

namespace epdd::pgn {

namespace {

struct ProblemInfo {
  Problem problem;
  const char* name;
  Severity severity;
};

// Names are stable: reports and tests count by them.
constexpr ProblemInfo kProblems[] = {
    {Problem::ByteOrderMark, "byte-order-mark", Severity::Note},
    {Problem::CrLf, "crlf", Severity::Note},
    {Problem::LineTooLong, "line-too-long", Severity::Note},
    {Problem::UnexpectedCharacter, "unexpected-character", Severity::Error},
    {Problem::UnterminatedString, "unterminated-string", Severity::Error},
    {Problem::StringTooLong, "string-too-long", Severity::Warning},
    {Problem::UnterminatedComment, "unterminated-comment", Severity::Error},
    {Problem::BraceInComment, "brace-in-comment", Severity::Note},
    {Problem::ReservedToken, "reserved-token", Severity::Warning},
    {Problem::TagSyntax, "tag-syntax", Severity::Error},
    {Problem::DuplicateTag, "duplicate-tag", Severity::Warning},
    {Problem::TagValue, "tag-value", Severity::Warning},
    {Problem::SetUp, "setup", Severity::Error},
    {Problem::SetUpTolerated, "setup-tolerated", Severity::Warning},
    {Problem::ResultMismatch, "result-mismatch", Severity::Warning},
    {Problem::MissingResult, "missing-result", Severity::Warning},
    {Problem::PlyCount, "ply-count", Severity::Warning},
    {Problem::MoveNumber, "move-number", Severity::Warning},
    {Problem::IllegalMove, "illegal-move", Severity::Error},
    {Problem::AmbiguousMove, "ambiguous-move", Severity::Error},
    {Problem::MoveForm, "move-form", Severity::Note},
    {Problem::NullMove, "null-move", Severity::Note},
    {Problem::BadNag, "bad-nag", Severity::Error},
    {Problem::Parenthesis, "parenthesis", Severity::Error},
    {Problem::PgcData, "pgc-data", Severity::Error},
    {Problem::MoveFile, "move-file", Severity::Error},
};

const ProblemInfo& info(Problem p) {
  return *std::find_if(std::begin(kProblems), std::end(kProblems), [p](const ProblemInfo& i) { return i.problem == p; });
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

}  // namespace epdd::pgn
