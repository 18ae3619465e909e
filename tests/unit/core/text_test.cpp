#include "core/text.hpp"

#include <catch2/catch.hpp>

#include <string_view>
#include <vector>

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
  // The C1 controls in UTF-8 (U+009B is a CSI to many terminals), as a Latin-1 id decodes them.
  CHECK(escaped("\xC2\x9B" "2J \xC2\x80 \xC2\xA0") == "\\xc2\\x9b" "2J \\xc2\\x80 \xC2\xA0");
  CHECK(escaped(epdd::core::as_utf8("id\x9B")) == "id\\xc2\\x9b");
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

using epdd::core::edit_distance_ignoring_case;
using epdd::core::nearest_names;

TEST_CASE("edit_distance_ignoring_case counts insertions, deletions and substitutions", "[core][text]") {
  struct Case {
    std::string_view a, b;
    std::size_t distance;
  };
  const Case c = GENERATE(values<Case>({
      {"", "", 0},
      {"Hash", "Hash", 0},
      {"hash", "HASH", 0},  // case is no edit
      {"Hahs", "Hash", 2},  // a transposition is two substitutions
      {"Has", "Hash", 1},
      {"Hashh", "Hash", 1},
      {"Hesh", "Hash", 1},
      {"", "Hash", 4},
      {"Threads", "Thread", 1},
      {"kitten", "sitting", 3},
  }));
  CAPTURE(c.a, c.b);
  CHECK(edit_distance_ignoring_case(c.a, c.b) == c.distance);
  CHECK(edit_distance_ignoring_case(c.b, c.a) == c.distance);
}

TEST_CASE("nearest_names gives the nearest candidates within two edits, in their order", "[core][text]") {
  const std::vector<std::string_view> names = {"Threads", "Hash", "Clear Hash", "Ponder", "MultiPV", "Style", "Skill"};
  using List = std::vector<std::string_view>;
  CHECK(nearest_names("Hahs", names) == List{"Hash"});
  CHECK(nearest_names("hash", names) == List{"Hash"});
  CHECK(nearest_names("Thread", names) == List{"Threads"});
  CHECK(nearest_names("Multipv", names) == List{"MultiPV"});
  CHECK(nearest_names("Stile", names) == List{"Style"});
  const std::vector<std::string_view> ties = {"Bashful", "Hash", "Cash"};
  CHECK(nearest_names("Bash", ties) == List{"Hash", "Cash"});  // one edit each: both, in order
  CHECK(nearest_names("Clear Hahs", names) == List{"Clear Hash"});
  CHECK(nearest_names("Contempt", names).empty());  // nothing within two edits
  CHECK(nearest_names("Ha", names).empty());        // two edits, but no more edits than characters
  CHECK(nearest_names("", names).empty());
  CHECK(nearest_names("Hash", {}).empty());
}

TEST_CASE("counted gives a count its noun in the number it takes", "[core][text]") {
  CHECK(epdd::core::counted(0, "game", "games") == "0 games");
  CHECK(epdd::core::counted(1, "game", "games") == "1 game");
  CHECK(epdd::core::counted(2, "inaccuracy", "inaccuracies") == "2 inaccuracies");
  CHECK(epdd::core::counted(1, "inaccuracy", "inaccuracies") == "1 inaccuracy");
  CHECK(epdd::core::counted(21, "leaf", "leaves") == "21 leaves");
}

TEST_CASE("as_utf8 keeps UTF-8 and reads other text as Latin-1", "[core][text]") {
  using epdd::core::as_utf8;
  using epdd::core::is_utf8;
  // ISO 8859-1 is the byte's code point: 0xFC is U+00FC (C3 BC in UTF-8), 0xE9 U+00E9 (C3 A9).
  CHECK(as_utf8("M\xFCller") == "M\xC3\xBCller");
  CHECK(as_utf8("G\xE9za \xC1" "d\xE1m") == "G\xC3\xA9za \xC3\x81" "d\xC3\xA1m");
  CHECK(as_utf8("\xA0\xFF") == "\xC2\xA0\xC3\xBF");
  // Valid UTF-8 and ASCII stay as they are; one byte that is not UTF-8 makes the whole text Latin-1.
  CHECK(as_utf8("M\xC3\xBCller") == "M\xC3\xBCller");
  CHECK(as_utf8("Carlsen, Magnus") == "Carlsen, Magnus");
  CHECK(as_utf8("\xC3\xBC and \xFC") == "\xC3\x83\xC2\xBC and \xC3\xBC");
  CHECK(is_utf8(""));
  CHECK(is_utf8("\xE2\x86\x92"));
  CHECK_FALSE(is_utf8("\xE2\x86"));     // cut
  CHECK_FALSE(is_utf8("\xC0\xAF"));     // overlong
  CHECK_FALSE(is_utf8("\xED\xA0\x80"));  // a surrogate
  CHECK(is_utf8(as_utf8("\x80\x81\xFE")));
  // ASCII is read eight bytes at a time: a byte that is not UTF-8, or a character, at every
  // place around those words is still seen.
  for (std::size_t at = 0; at < 20; ++at) {
    INFO("at " << at);
    std::string text(20, 'a');
    CHECK(is_utf8(text));
    text[at] = '\xFC';
    CHECK_FALSE(is_utf8(text));
    text.replace(at, 1, "\xC3\xBC");
    CHECK(is_utf8(text));
    text.replace(at, 2, "\xE2\x86");  // cut by the 'a' after it (or the end)
    CHECK_FALSE(is_utf8(text));
  }
}

TEST_CASE("one_line escapes what escaped escapes but leaves backslashes, so escaped text stays", "[core][text]") {
  using epdd::core::escaped;
  using epdd::core::one_line;
  CHECK(one_line("plain") == "plain");
  CHECK(one_line("a\nb\x1b") == "a\\nb\\x1b");
  CHECK(one_line("'\xE9'") == "'\\xe9'");
  const std::string once = escaped("'\xE9' a\\b\n");
  CHECK(one_line(once) == once);
}
