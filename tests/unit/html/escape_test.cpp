// html::escape: any bytes in, valid HTML text out (issue 20).
#include "html/escape.hpp"

#include <catch2/catch.hpp>
#include <cctype>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

using epdd::html::anchor_id;
using epdd::html::escape;
using epdd::html::Markup;

namespace {

using namespace std::string_literals;

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The test's own UTF-8 decoder (RFC 3629, written from the table of its section 4): the code
// points of `s`, or nullopt when `s` is not valid UTF-8.
std::optional<std::vector<std::uint32_t>> decode(const std::string& s) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < s.size();) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    int n = b0 < 0x80 ? 1 : (b0 >> 5) == 6 ? 2 : (b0 >> 4) == 14 ? 3 : (b0 >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return std::nullopt;
    std::uint32_t cp = n == 1 ? b0 : n == 2 ? (b0 & 0x1F) : n == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    for (int k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (b & 0x3F);
    }
    const std::uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    out.push_back(cp);
    i += n;
  }
  return out;
}

// What the HTML standard's tokenizer calls a parse error in the input stream (section 13.2.3.5):
// controls other than ASCII whitespace, and noncharacters.
bool html_forbids(std::uint32_t cp) {
  const bool control =
      (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r' && cp != '\f') || (cp >= 0x7F && cp <= 0x9F);
  const bool noncharacter = (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
  return control || noncharacter;
}

void require_safe(const std::string& input) {
  const std::string out = escape(input);
  INFO("input of " << input.size() << " bytes");
  const auto cps = decode(out);
  REQUIRE(cps.has_value());
  for (const std::uint32_t cp : *cps) {
    REQUIRE_FALSE(html_forbids(cp));
    REQUIRE(cp != '<');
    REQUIRE(cp != '>');
    REQUIRE(cp != '"');
    REQUIRE(cp != '\'');
  }
  // Every '&' starts one of the five references escape() writes.
  for (std::size_t at = out.find('&'); at != std::string::npos; at = out.find('&', at + 1)) {
    const std::string rest = out.substr(at, 6);
    const bool known = rest.rfind("&amp;", 0) == 0 || rest.rfind("&lt;", 0) == 0 ||
                       rest.rfind("&gt;", 0) == 0 || rest.rfind("&quot;", 0) == 0 ||
                       rest.rfind("&#39;", 0) == 0;
    REQUIRE(known);
  }
}

}  // namespace

TEST_CASE("escape writes the five characters that end text or attributes as references", "[html][escape]") {
  CHECK(escape("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;");
  CHECK(escape(R"(a"b'c&d)") == "a&quot;b&#39;c&amp;d");
  CHECK(escape("\" onmouseover=\"alert(1)") == "&quot; onmouseover=&quot;alert(1)");
  CHECK(escape("&amp;") == "&amp;amp;");
  CHECK(escape("") == "");
  CHECK(escape("Kasparov, G. 1-0 e4 e5") == "Kasparov, G. 1-0 e4 e5");
}

TEST_CASE("escape keeps valid UTF-8 and the whitespace HTML allows", "[html][escape]") {
  const std::string text =
      "Nepomniachtchi \xE2\x80\x93 Ding \xE2\x99\x94 \xF0\x9F\x98\x80 Gr\xC3\xBC"
      "nfeld";
  CHECK(escape(text) == text);
  CHECK(escape("a\tb\nc\rd") == "a\tb\nc\rd");
}

TEST_CASE("escape replaces NUL, a lone 0xff and broken UTF-8 by U+FFFD, one per byte", "[html][escape]") {
  CHECK(escape("a\0b"s) == "a" + kReplacement + "b");
  CHECK(escape("\xff") == kReplacement);
  CHECK(escape("x\xffy") == "x" + kReplacement + "y");
  // A truncated three-byte sequence: its two bytes, each replaced.
  CHECK(escape("\xE2\x99") == kReplacement + kReplacement);
  // An overlong '<' (C0 BC) must not come back as '<'.
  CHECK(escape("\xC0\xBC") == kReplacement + kReplacement);
  // A UTF-16 surrogate written as UTF-8 (ED A0 80) is not UTF-8.
  CHECK(escape("\xED\xA0\x80") == kReplacement + kReplacement + kReplacement);
}

TEST_CASE("escape replaces the controls and noncharacters HTML forbids in its input", "[html][escape]") {
  CHECK(escape("\x01\x1b\x7f") == kReplacement + kReplacement + kReplacement);
  CHECK(escape("\xC2\x85") == kReplacement);          // U+0085, a C1 control
  CHECK(escape("\xC2\xA0") == "\xC2\xA0");            // U+00A0 is no control
  CHECK(escape("\xEF\xB7\x90") == kReplacement);      // U+FDD0
  CHECK(escape("\xEF\xBF\xBE") == kReplacement);      // U+FFFE
  CHECK(escape("\xF0\x9F\xBF\xBF") == kReplacement);  // U+1FFFF
  CHECK(escape("\xEF\xBF\xBD") == kReplacement);      // U+FFFD itself stays
}

TEST_CASE("escape gives valid, safe HTML text for every byte and for random bytes", "[html][escape]") {
  for (int b = 0; b < 256; ++b) require_safe(std::string(1, static_cast<char>(b)));
  std::mt19937 random(20);
  std::uniform_int_distribution<int> byte(0, 255), length(0, 40);
  for (int round = 0; round < 2000; ++round) {
    std::string input(static_cast<std::size_t>(length(random)), '\0');
    for (char& c : input) c = static_cast<char>(byte(random));
    require_safe(input);
  }
}

TEST_CASE("Markup::text escapes and Markup::trusted keeps markup as written", "[html][escape]") {
  CHECK(Markup::text("<b>").str() == "&lt;b&gt;");
  CHECK(Markup::trusted("<b>bold</b>").str() == "<b>bold</b>");
  Markup both = Markup::trusted("<i>");
  both += Markup::text("a&b");
  CHECK(both.str() == "<i>a&amp;b");
}

TEST_CASE("anchor_id gives ids of safe characters that tell every text apart", "[html][escape]") {
  CHECK(anchor_id("wac.001") == "id-wac.2e001");
  CHECK(anchor_id("STS 1") == "id-STS.201");
  CHECK(anchor_id("a\"><script>") == "id-a.22.3e.3cscript.3e");
  CHECK(anchor_id("") == "id-");
  CHECK(anchor_id("a.20") != anchor_id("a "));
  for (const char c : anchor_id("\xff\x00<>\"' &#"s)) {
    const bool safe = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    CHECK(safe);
  }
}
