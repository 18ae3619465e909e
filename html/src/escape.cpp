#include "html/escape.hpp"

#include <cstdint>

#include "core/text.hpp"

namespace epdd::html {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The code point of a valid UTF-8 sequence of n bytes (2..4) at the start of s.
std::uint32_t code_point(std::string_view s, std::size_t n) {
  const auto b = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[i])); };
  if (n == 2) return ((b(0) & 0x1F) << 6) | (b(1) & 0x3F);
  if (n == 3) return ((b(0) & 0x0F) << 12) | ((b(1) & 0x3F) << 6) | (b(2) & 0x3F);
  return ((b(0) & 0x07) << 18) | ((b(1) & 0x3F) << 12) | ((b(2) & 0x3F) << 6) | (b(3) & 0x3F);
}

// A code point HTML's tokenizer reports as a parse error in the input stream: a C1 control or a
// noncharacter (the ASCII ones are handled byte by byte).
bool forbidden_non_ascii(std::uint32_t cp) {
  return cp <= 0x9F || (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

void append_ascii(std::string& out, char c) {
  switch (c) {
    case '&': out += "&amp;"; return;
    case '<': out += "&lt;"; return;
    case '>': out += "&gt;"; return;
    case '"': out += "&quot;"; return;
    case '\'': out += "&#39;"; return;
    case '\t':
    case '\n':
    case '\r': out += c; return;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) out += kReplacement;
      else out += c;
  }
}

}  // namespace

Markup Markup::text(std::string_view text) { return Markup(escape(text)); }

void append_escaped(std::string& out, std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      append_ascii(out, text[i]);
      ++i;
      continue;
    }
    const std::size_t n = core::utf8_length(text.substr(i));
    if (n == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (forbidden_non_ascii(code_point(text.substr(i), n))) out += kReplacement;
    else out.append(text.substr(i, n));
    i += n;
  }
}

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  append_escaped(out, text);
  return out;
}

std::string anchor_id(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "id-";
  out.reserve(out.size() + text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (keep) {
      out += ch;
    } else {
      out += '.';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace epdd::html
