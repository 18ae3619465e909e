#include "pgn/diagnostic.hpp"

namespace epdd::pgn {

namespace {

// Names are stable: reports and tests count by them.
constexpr core::ProblemInfo<Problem> kProblems[] = {
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

}  // namespace

const char* name(Problem p) { return core::info_of(kProblems, p).name; }
Severity severity_of(Problem p) { return core::info_of(kProblems, p).severity; }

}  // namespace epdd::pgn
