#include "core/text.hpp"

#include <catch2/catch.hpp>

using epdd::core::escaped;

TEST_CASE("escaped keeps printing ASCII and valid UTF-8 as they are", "[core][text]") {
  CHECK(escaped("wac.epd") == "wac.epd");
  CHECK(escaped("") == "");
  CHECK(escaped("Réti \xE2\x99\x94 \xF0\x9F\x98\x80") == "Réti \xE2\x99\x94 \xF0\x9F\x98\x80");
}

TEST_CASE("escaped shows control bytes as C escapes", "[core][text]") {
  using namespace std::string_literals;
  CHECK(escaped("D6 490598959 \0"s) == "D6 490598959 \\0");
  CHECK(escaped("a\nfake log line") == "a\\nfake log line");
  CHECK(escaped("\t\r\x1b[31m\x1f\x7f") == "\\t\\r\\x1b[31m\\x1f\\x7f");
}

TEST_CASE("escaped shows bytes that are not UTF-8 as hex", "[core][text]") {
  CHECK(escaped("caf\xE9") == "caf\\xe9");                 // Latin-1
  CHECK(escaped("\xC0\xAF") == "\\xc0\\xaf");              // overlong
  CHECK(escaped("\xED\xA0\x80") == "\\xed\\xa0\\x80");     // surrogate
  CHECK(escaped("\xF4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  CHECK(escaped("\xE2\x99") == "\\xe2\\x99");              // cut short
}

TEST_CASE("escaped never makes two inputs look the same", "[core][text]") {
  // A literal backslash-n in a name must not read as an escaped newline.
  CHECK(escaped("a\\n") == "a\\\\n");
  CHECK(escaped("a\\n") != escaped("a\n"));
  CHECK(escaped("\\x1b") != escaped("\x1b"));
}
