#include "core/text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace epdd::core {

std::size_t utf8_length(std::string_view s) {
  if (s.empty()) return 0;
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const auto cont = [&](std::size_t i) { return i < s.size() && (b(i) & 0xC0) == 0x80; };
  const unsigned char c = b(0);
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    if (!cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && b(1) < 0xA0) return 0;   // overlong
    if (c == 0xED && b(1) >= 0xA0) return 0;  // surrogate
    return 3;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && b(1) < 0x90) return 0;   // overlong
    if (c == 0xF4 && b(1) >= 0x90) return 0;  // above U+10FFFF
    return 4;
  }
  return 0;
}

namespace {

void hex_escape(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[c >> 4];
  out += kHex[c & 15];
}

}  // namespace

std::string escaped(std::string_view text) {
  const bool plain = std::all_of(text.begin(), text.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c >= 0x20 && c < 0x7F && c != '\\';
  });
  if (plain) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t n = utf8_length(text.substr(i));
      if (n == 0) {
        hex_escape(out, c);
        ++i;
      } else if (n == 2 && c == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
        // U+0080..U+009F, the C1 controls (0x9B is a terminal's CSI): its two bytes as hex.
        hex_escape(out, c);
        hex_escape(out, static_cast<unsigned char>(text[i + 1]));
        i += 2;
      } else {
        out.append(text.substr(i, n));
        i += n;
      }
      continue;
    }
    ++i;
    switch (c) {
      case '\0': out += "\\0"; break;
      case '\t': out += "\\t"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7F) hex_escape(out, c);
        else out += static_cast<char>(c);
    }
  }
  return out;
}

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    // Eight ASCII bytes at a time (most text is ASCII).
    if (std::uint64_t word = 0; i + 8 <= text.size()) {
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text.substr(i));
    if (n == 0) return false;
    i += n;
  }
  return true;
}

void latin1_to_utf8(std::string_view in, std::string& out) {
  // ASCII, by far the most common, is the same bytes.
  unsigned char any = 0;
  for (char c : in) any |= static_cast<unsigned char>(c);
  if (any < 0x80) {
    out.assign(in);
    return;
  }
  out.clear();
  out.reserve(in.size() + in.size() / 4);
  for (char ch : in) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x80) {
      out += ch;
    } else {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
}

std::string as_utf8(std::string_view text) {
  if (is_utf8(text)) return std::string(text);
  std::string out;
  latin1_to_utf8(text, out);
  return out;
}

std::string one_line(std::string_view text) {
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; })) return std::string(text);
  // A backslash is never part of a UTF-8 sequence: the pieces between them are escaped alone.
  std::string out;
  out.reserve(text.size() + 8);
  for (std::size_t start = 0;;) {
    const auto slash = text.find('\\', start);
    out += escaped(text.substr(start, slash == std::string_view::npos ? slash : slash - start));
    if (slash == std::string_view::npos) return out;
    out += '\\';
    start = slash + 1;
  }
}

std::string ascii_lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return ascii_lower(x) == ascii_lower(y); });
}

std::size_t edit_distance_ignoring_case(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = ascii_lower(a[i - 1]) == ascii_lower(b[j - 1]);
      const std::size_t next = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.size()];
}

std::vector<std::string_view> nearest_names(std::string_view name, std::span<const std::string_view> candidates) {
  constexpr std::size_t kMaxEdits = 2;
  std::vector<std::string_view> nearest;
  std::size_t best = kMaxEdits + 1;
  for (const std::string_view candidate : candidates) {
    const std::size_t d = edit_distance_ignoring_case(name, candidate);
    if (d > kMaxEdits || d >= name.size() || d > best) continue;
    if (d < best) nearest.clear();
    best = d;
    nearest.push_back(candidate);
  }
  return nearest;
}

std::string counted(std::size_t n, std::string_view one, std::string_view many) {
  std::string out = std::to_string(n);
  out += ' ';
  out.append(n == 1 ? one : many);
  return out;
}

}  // namespace epdd::core
