// The PGN lexer: the standard's tokens (strings with escapes, symbols, '.', '*', brackets,
// parentheses, angle brackets, NAGs), brace and rest-of-line comments, and '%' escape lines.
// Tokens are views into the lexer's buffer, valid until the next call to next(): callers copy
// what they keep. Reading from a stream keeps only the text of the current token in memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

namespace epdd::pgn {

enum class TokenKind : std::uint8_t {
  End,
  String,        // text between the quotes, escapes still in (see unescape)
  Symbol,        // letters, digits, _+#=:- ; a move's !? suffix, "--" and "1/2-1/2" included
  Period,
  Asterisk,
  LeftBracket,
  RightBracket,
  LeftParen,
  RightParen,
  LeftAngle,
  RightAngle,
  Nag,           // the digits after '$' (empty for a lone '$')
  BraceComment,  // text between the braces
  LineComment,   // text after ';' to the end of the line
  Escape,        // a line starting with '%', without the '%'
  Other,         // any other character (or a run of '!'/'?' standing alone)
};

struct Token {
  TokenKind kind = TokenKind::End;
  std::string_view text;
  std::size_t line = 0;
  std::size_t column = 0;
  bool unterminated = false;  // a string or brace comment that reached the end of its line/file
  bool first_on_line = false;
};

class Lexer {
 public:
  // Over a whole buffer that outlives the lexer.
  explicit Lexer(std::string_view text);
  // Over a stream, read in chunks.
  explicit Lexer(std::istream& in);

  Token next();

  // Facts about the input seen so far, for the reader's diagnostics.
  bool had_bom() const { return bom_; }
  std::size_t first_crlf_line() const { return crlf_line_; }
  std::size_t first_long_line() const { return long_line_; }
  std::size_t bytes_consumed() const { return consumed_ + pos_; }

 private:
  bool fill(std::size_t need);  // makes pos_ + need bytes available if the input has them
  char peek(std::size_t ahead = 0) {
    if (pos_ + ahead >= data_.size() && !fill(ahead + 1)) return '\0';
    return data_[pos_ + ahead];
  }
  bool at_end() { return pos_ >= data_.size() && !fill(1); }
  // Moves over n bytes known to hold no newline.
  void skip(std::size_t n) { pos_ += n; }
  // Moves over n bytes that may hold newlines, counting lines.
  void skip_lines(std::size_t n);
  void newline_at(std::size_t pos);  // the byte at pos (in data_) is '\n'
  std::size_t column() const { return consumed_ + pos_ - line_start_ + 1; }
  void skip_space();
  Token make(TokenKind kind, std::size_t start, std::size_t end, std::size_t line, std::size_t column,
             bool unterminated = false);
  Token lex_string(std::size_t line, std::size_t column);
  Token lex_brace(std::size_t line, std::size_t column);
  Token lex_to_eol(TokenKind kind, std::size_t skip, std::size_t line, std::size_t column);
  Token lex_symbol(std::size_t line, std::size_t column);

  std::istream* in_ = nullptr;
  std::string buffer_;     // stream mode: the text from the current token on
  std::string_view data_;  // what next() reads: the whole text, or buffer_
  std::size_t pos_ = 0;
  std::size_t consumed_ = 0;    // bytes dropped from the front of buffer_
  std::size_t line_ = 1;
  std::size_t line_start_ = 0;  // absolute offset of the current line's first byte
  bool bom_ = false;
  std::size_t crlf_line_ = 0;
  std::size_t long_line_ = 0;
};

// A string token's text with its escapes (\" and \\) resolved.
std::string unescape(std::string_view text);

}  // namespace epdd::pgn
