#include "pgn/lexer.hpp"

#include <array>

namespace epdd::pgn {

namespace {

// Characters that continue a symbol (the standard's list).
constexpr std::array<bool, 256> make_symbol_table() {
  std::array<bool, 256> t{};
  for (int c = 'a'; c <= 'z'; ++c) t[c] = true;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = true;
  for (int c = '0'; c <= '9'; ++c) t[c] = true;
  for (char c : std::string_view("_+#=:-")) t[static_cast<unsigned char>(c)] = true;
  return t;
}
constexpr std::array<bool, 256> kSymbolChar = make_symbol_table();

bool is_symbol_char(char c) { return kSymbolChar[static_cast<unsigned char>(c)]; }
bool is_symbol_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

constexpr std::size_t kChunk = 1 << 16;

}  // namespace

Lexer::Lexer(std::string_view text) : data_(text) {
  if (data_.substr(0, 3) == "\xEF\xBB\xBF") {
    bom_ = true;
    pos_ = 3;
  }
}

Lexer::Lexer(std::istream& in) : in_(&in) {
  fill(3);
  if (data_.substr(0, 3) == "\xEF\xBB\xBF") {
    bom_ = true;
    pos_ = 3;
  }
}

bool Lexer::fill(std::size_t need) {
  if (!in_) return false;
  while (data_.size() < pos_ + need) {
    const std::size_t old = buffer_.size();
    buffer_.resize(old + kChunk);
    in_->read(buffer_.data() + old, static_cast<std::streamsize>(kChunk));
    const auto got = static_cast<std::size_t>(in_->gcount());
    buffer_.resize(old + got);
    data_ = buffer_;
    if (got == 0) return false;
  }
  return true;
}

void Lexer::advance(std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const char c = data_[pos_++];
    if (c == '\n') {
      if (line_length_ + 1 > 255 && long_line_ == 0) long_line_ = line_;
      if (pos_ >= 2 && data_[pos_ - 2] == '\r' && crlf_line_ == 0) crlf_line_ = line_;
      ++line_;
      column_ = 1;
      line_length_ = 0;
    } else {
      ++column_;
      ++line_length_;
    }
  }
}

void Lexer::skip_space() {
  while (!at_end() && is_space(data_[pos_])) advance();
}

Token Lexer::make(TokenKind kind, std::size_t start, std::size_t end, std::size_t line, std::size_t column) {
  Token t;
  t.kind = kind;
  t.text = data_.substr(start, end - start);
  t.line = line;
  t.column = column;
  return t;
}

Token Lexer::next() {
  // Stream mode: what lies before the cursor is no longer needed; drop it a chunk at a time.
  if (in_ && pos_ >= kChunk) {
    consumed_ += pos_;
    buffer_.erase(0, pos_);
    pos_ = 0;
    data_ = buffer_;
  }
  skip_space();
  if (at_end()) return Token{TokenKind::End, {}, line_, column_};
  const std::size_t line = line_;
  const std::size_t column = column_;
  const char c = data_[pos_];
  Token t;
  switch (c) {
    case '"': t = lex_string(line, column); break;
    case '{': t = lex_brace(line, column); break;
    case ';': t = lex_to_eol(TokenKind::LineComment, 1, line, column); break;
    case '.': advance(); t = make(TokenKind::Period, pos_ - 1, pos_, line, column); break;
    case '*': advance(); t = make(TokenKind::Asterisk, pos_ - 1, pos_, line, column); break;
    case '[': advance(); t = make(TokenKind::LeftBracket, pos_ - 1, pos_, line, column); break;
    case ']': advance(); t = make(TokenKind::RightBracket, pos_ - 1, pos_, line, column); break;
    case '(': advance(); t = make(TokenKind::LeftParen, pos_ - 1, pos_, line, column); break;
    case ')': advance(); t = make(TokenKind::RightParen, pos_ - 1, pos_, line, column); break;
    case '<': advance(); t = make(TokenKind::LeftAngle, pos_ - 1, pos_, line, column); break;
    case '>': advance(); t = make(TokenKind::RightAngle, pos_ - 1, pos_, line, column); break;
    case '$': {
      advance();
      std::size_t n = 0;
      while (peek(n) >= '0' && peek(n) <= '9') ++n;
      advance(n);
      t = make(TokenKind::Nag, pos_ - n, pos_, line, column);
      break;
    }
    case '%':
      if (column == 1) {
        t = lex_to_eol(TokenKind::Escape, 1, line, column);
        break;
      }
      [[fallthrough]];
    default:
      if (is_symbol_start(c) || (c == '-' && peek(1) == '-')) {
        t = lex_symbol(line, column);
      } else if (c == '!' || c == '?') {
        std::size_t n = 0;
        while (peek(n) == '!' || peek(n) == '?') ++n;
        advance(n);
        t = make(TokenKind::Other, pos_ - n, pos_, line, column);
      } else {
        advance();
        t = make(TokenKind::Other, pos_ - 1, pos_, line, column);
      }
  }
  t.first_on_line = column == 1;
  return t;
}

Token Lexer::lex_string(std::size_t line, std::size_t column) {
  advance();  // the opening quote
  const std::size_t start = pos_;
  std::size_t n = 0;
  for (;;) {
    const char ch = peek(n);
    if (ch == '\0' && pos_ + n >= data_.size()) break;
    if (ch == '\n' || ch == '\r') break;
    if (ch == '\\' && (peek(n + 1) == '"' || peek(n + 1) == '\\')) {
      n += 2;
      continue;
    }
    if (ch == '"') {
      advance(n + 1);
      return make(TokenKind::String, start, pos_ - 1, line, column);
    }
    ++n;
  }
  advance(n);
  Token t = make(TokenKind::String, start, pos_, line, column);
  t.unterminated = true;
  return t;
}

Token Lexer::lex_brace(std::size_t line, std::size_t column) {
  advance();  // '{'
  const std::size_t start = pos_;
  std::size_t n = 0;
  for (;;) {
    if (pos_ + n >= data_.size() && !fill(n + 1)) break;
    if (data_[pos_ + n] == '}') {
      advance(n + 1);
      return make(TokenKind::BraceComment, start, pos_ - 1, line, column);
    }
    ++n;
  }
  advance(n);
  Token t = make(TokenKind::BraceComment, start, pos_, line, column);
  t.unterminated = true;
  return t;
}

Token Lexer::lex_to_eol(TokenKind kind, std::size_t skip, std::size_t line, std::size_t column) {
  advance(skip);
  const std::size_t start = pos_;
  std::size_t n = 0;
  while (!(pos_ + n >= data_.size() && !fill(n + 1)) && data_[pos_ + n] != '\n') ++n;
  std::size_t end = n;
  if (end > 0 && data_[pos_ + end - 1] == '\r') --end;
  advance(n);
  return make(kind, start, start + end, line, column);
}

Token Lexer::lex_symbol(std::size_t line, std::size_t column) {
  std::size_t n = 0;
  if (data_[pos_] == '-') {
    n = 2;  // "--", the null move
  } else {
    while (is_symbol_char(peek(n))) ++n;
    // "1/2-1/2": '/' is not a symbol character, but the draw marker is one token.
    if (n == 1 && data_[pos_] == '1' && peek(1) == '/' && peek(2) == '2' && peek(3) == '-' && peek(4) == '1' &&
        peek(5) == '/' && peek(6) == '2')
      n = 7;
  }
  // A move's suffix annotation is the last part of its symbol.
  while (peek(n) == '!' || peek(n) == '?') ++n;
  advance(n);
  return make(TokenKind::Symbol, pos_ - n, pos_, line, column);
}

std::string unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) ++i;
    out += text[i];
  }
  return out;
}

}  // namespace epdd::pgn
