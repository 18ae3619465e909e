#include "pgn/lexer.hpp"

#include <array>
#include <cstring>

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
    pos_ = line_start_ = 3;
  }
}

Lexer::Lexer(std::istream& in) : in_(&in) {
  fill(3);
  if (data_.substr(0, 3) == "\xEF\xBB\xBF") {
    bom_ = true;
    pos_ = line_start_ = 3;
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

void Lexer::newline_at(std::size_t pos) {
  const std::size_t length = consumed_ + pos - line_start_;  // without the newline
  if (length + 1 > 255 && long_line_ == 0) long_line_ = line_;
  if (pos > 0 && data_[pos - 1] == '\r' && crlf_line_ == 0) crlf_line_ = line_;
  ++line_;
  line_start_ = consumed_ + pos + 1;
}

void Lexer::skip_lines(std::size_t n) {
  // (memchr: a comment's bytes pass here once, at the speed of the C library's search.)
  const char* const base = data_.data();
  const std::size_t end = pos_ + n;
  for (std::size_t i = pos_; i < end; ++i) {
    const void* newline = std::memchr(base + i, '\n', end - i);
    if (!newline) break;
    i = static_cast<std::size_t>(static_cast<const char*>(newline) - base);
    newline_at(i);
  }
  pos_ = end;
}

void Lexer::skip_space() {
  for (;;) {
    const char* const base = data_.data();
    std::size_t i = pos_;
    const std::size_t size = data_.size();
    for (; i < size && is_space(base[i]); ++i)
      if (base[i] == '\n') newline_at(i);
    pos_ = i;
    if (i < size || !fill(1)) return;
  }
}

Token Lexer::make(TokenKind kind, std::size_t start, std::size_t end, std::size_t line, std::size_t column,
                  bool unterminated) {
  return Token{kind, data_.substr(start, end - start), line, column, unterminated, column == 1};
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
  if (at_end()) return Token{TokenKind::End, {}, line_, column()};
  const std::size_t line = line_;
  const std::size_t column = this->column();
  const char c = data_[pos_];
  // Each case returns its token whole: building one in a local and patching a flag afterwards
  // made GCC copy it through the stack with a partial store in the way (a store-forwarding
  // stall that cost a quarter of the PGN reader's time).
  switch (c) {
    case '"': return lex_string(line, column);
    case '{': return lex_brace(line, column);
    case ';': return lex_to_eol(TokenKind::LineComment, 1, line, column);
    case '.': skip(1); return make(TokenKind::Period, pos_ - 1, pos_, line, column);
    case '*': skip(1); return make(TokenKind::Asterisk, pos_ - 1, pos_, line, column);
    case '[': skip(1); return make(TokenKind::LeftBracket, pos_ - 1, pos_, line, column);
    case ']': skip(1); return make(TokenKind::RightBracket, pos_ - 1, pos_, line, column);
    case '(': skip(1); return make(TokenKind::LeftParen, pos_ - 1, pos_, line, column);
    case ')': skip(1); return make(TokenKind::RightParen, pos_ - 1, pos_, line, column);
    case '<': skip(1); return make(TokenKind::LeftAngle, pos_ - 1, pos_, line, column);
    case '>': skip(1); return make(TokenKind::RightAngle, pos_ - 1, pos_, line, column);
    case '$': {
      skip(1);
      std::size_t n = 0;
      while (peek(n) >= '0' && peek(n) <= '9') ++n;
      skip(n);
      return make(TokenKind::Nag, pos_ - n, pos_, line, column);
    }
    case '%':
      if (column == 1) return lex_to_eol(TokenKind::Escape, 1, line, column);
      [[fallthrough]];
    default:
      if (is_symbol_start(c) || (c == '-' && peek(1) == '-')) return lex_symbol(line, column);
      if (c == '!' || c == '?') {
        std::size_t n = 0;
        while (peek(n) == '!' || peek(n) == '?') ++n;
        skip(n);
        return make(TokenKind::Other, pos_ - n, pos_, line, column);
      }
      // Anything else, a control character or a newline-free byte, is one token by itself.
      skip(1);
      return make(TokenKind::Other, pos_ - 1, pos_, line, column);
  }
}

Token Lexer::lex_string(std::size_t line, std::size_t column) {
  skip(1);  // the opening quote
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
      skip(n + 1);
      return make(TokenKind::String, start, pos_ - 1, line, column);
    }
    ++n;
  }
  skip(n);
  return make(TokenKind::String, start, pos_, line, column, true);
}

Token Lexer::lex_brace(std::size_t line, std::size_t column) {
  skip(1);  // '{'
  const std::size_t start = pos_;
  std::size_t n = 0;  // the bytes after '{' known to hold no '}'
  for (;;) {
    if (pos_ + n >= data_.size() && !fill(n + 1)) break;
    const char* const from = data_.data() + pos_;
    if (const void* close = std::memchr(from + n, '}', data_.size() - pos_ - n)) {
      skip_lines(static_cast<std::size_t>(static_cast<const char*>(close) - from) + 1);
      return make(TokenKind::BraceComment, start, pos_ - 1, line, column);
    }
    n = data_.size() - pos_;
  }
  skip_lines(n);
  return make(TokenKind::BraceComment, start, pos_, line, column, true);
}

Token Lexer::lex_to_eol(TokenKind kind, std::size_t skip_first, std::size_t line, std::size_t column) {
  skip(skip_first);
  const std::size_t start = pos_;
  std::size_t n = 0;
  while (!(pos_ + n >= data_.size() && !fill(n + 1)) && data_[pos_ + n] != '\n') ++n;
  std::size_t end = n;
  if (end > 0 && data_[pos_ + end - 1] == '\r') --end;
  skip(n);
  return make(kind, start, start + end, line, column);
}

Token Lexer::lex_symbol(std::size_t line, std::size_t column) {
  // Most symbols lie well inside the buffer: scan without refilling; near its end, peek().
  std::size_t n = 0;
  if (data_[pos_] == '-') {
    n = 2;  // "--", the null move
  } else {
    const char* const p = data_.data() + pos_;
    const std::size_t room = data_.size() - pos_;
    while (n < room && is_symbol_char(p[n])) ++n;
    if (n == room)
      while (is_symbol_char(peek(n))) ++n;
    // "1/2-1/2": '/' is not a symbol character, but the draw marker is one token.
    if (n == 1 && data_[pos_] == '1' && peek(1) == '/' && peek(2) == '2' && peek(3) == '-' && peek(4) == '1' &&
        peek(5) == '/' && peek(6) == '2')
      n = 7;
  }
  // A move's suffix annotation is the last part of its symbol.
  while (peek(n) == '!' || peek(n) == '?') ++n;
  skip(n);
  return make(TokenKind::Symbol, pos_ - n, pos_, line, column);
}

std::string unescape(std::string_view text) {
  if (text.find('\\') == std::string_view::npos) return std::string(text);  // nearly always
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == '"' || text[i + 1] == '\\')) ++i;
    out += text[i];
  }
  return out;
}

}  // namespace epdd::pgn
