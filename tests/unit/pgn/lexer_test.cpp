// The standard's tokens, with line and column.
#include <sstream>

#include <catch2/catch.hpp>

#include "pgn/lexer.hpp"

using namespace epdd::pgn;

namespace {

std::vector<std::pair<TokenKind, std::string>> tokens(std::string_view text) {
  Lexer lex(text);
  std::vector<std::pair<TokenKind, std::string>> out;
  for (Token t = lex.next(); t.kind != TokenKind::End; t = lex.next()) out.emplace_back(t.kind, std::string(t.text));
  return out;
}

}  // namespace

TEST_CASE("Lexer: every token kind of the standard", "[pgn][lexer]") {
  using K = TokenKind;
  // Brace comments do not nest: "{c {d}" ends at the first '}', leaving "x" and a stray '}'.
  const auto t = tokens("[Event \"a \\\"b\\\" c\\\\\"] 12... e8=Q+! $14 {c {d} x} ( ) < > * 1/2-1/2 0-1 -- Z0 O-O-O ; rest {no}\n"
                        "%escape\n @ !? ");
  const std::vector<std::pair<K, std::string>> expected = {
      {K::LeftBracket, "["}, {K::Symbol, "Event"}, {K::String, "a \\\"b\\\" c\\\\"}, {K::RightBracket, "]"},
      {K::Symbol, "12"}, {K::Period, "."}, {K::Period, "."}, {K::Period, "."}, {K::Symbol, "e8=Q+!"}, {K::Nag, "14"},
      {K::BraceComment, "c {d"}, {K::Symbol, "x"}, {K::Other, "}"},
      {K::LeftParen, "("}, {K::RightParen, ")"}, {K::LeftAngle, "<"}, {K::RightAngle, ">"}, {K::Asterisk, "*"},
      {K::Symbol, "1/2-1/2"}, {K::Symbol, "0-1"}, {K::Symbol, "--"}, {K::Symbol, "Z0"}, {K::Symbol, "O-O-O"},
      {K::LineComment, " rest {no}"}, {K::Escape, "escape"}, {K::Other, "@"}, {K::Other, "!?"},
  };
  CHECK(t == expected);
  CHECK(unescape("a \\\"b\\\" c\\\\") == "a \"b\" c\\");
}

TEST_CASE("Lexer: lines and columns, CRLF, BOM, unterminated strings and comments", "[pgn][lexer]") {
  Lexer lex("\xEF\xBB\xBF[A \"x\r\n  e4 {open");
  CHECK(lex.had_bom());
  Token t = lex.next();
  CHECK((t.line == 1 && t.column == 1));
  lex.next();
  t = lex.next();
  CHECK(t.kind == TokenKind::String);
  CHECK(t.unterminated);
  CHECK(t.text == "x");
  t = lex.next();
  CHECK(t.text == "e4");
  CHECK((t.line == 2 && t.column == 3));
  t = lex.next();
  CHECK(t.kind == TokenKind::BraceComment);
  CHECK(t.unterminated);
  CHECK(lex.first_crlf_line() == 1);
  // '%' escapes only in the first column.
  Lexer pct(" %x");
  CHECK(pct.next().kind == TokenKind::Other);
}

TEST_CASE("Lexer: a stream and a buffer give the same tokens", "[pgn][lexer]") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "1. e4 {comment number " + std::to_string(i) + "} e5 ; line\n";
  std::istringstream in(text);
  Lexer a(text), b(in);
  for (;;) {
    const Token x = a.next();
    const Token y = b.next();
    REQUIRE(x.kind == y.kind);
    REQUIRE(x.text == y.text);
    REQUIRE(x.line == y.line);
    REQUIRE(x.column == y.column);
    if (x.kind == TokenKind::End) break;
  }
}
