// Mutated real lines through reading, checking and formatting: nothing crashes (the sanitizer
// build runs this too), and format stays a fixed point even on damaged input.
#include <random>

#include "epd_test_support.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

std::string mutate(std::string line, std::mt19937& rng) {
  static const std::string kBytes = std::string("\";=-+#xO0123456789 abcdefghKQkqRNBPp/\t;;\"\"") + '\0' + "\xFF\xE9";
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t at = line.empty() ? 0 : rng() % line.size();
    const char c = kBytes[rng() % kBytes.size()];
    switch (rng() % 3) {
      case 0: line.insert(line.begin() + static_cast<std::ptrdiff_t>(at), c); break;
      case 1: if (!line.empty()) line.erase(at, 1); break;
      default: if (!line.empty()) line[at] = c; break;
    }
  }
  return line;
}

}  // namespace

TEST_CASE("Mutated EPD lines never crash the reader, checker or formatter", "[epd][robustness]") {
  std::string source = test::read_file(test::shared_data("suites/wac-analysed.epd")) +
                       test::read_file(test::shared_data("suites/mate_in_2.epd")).substr(0, 20000);
  std::vector<std::string> lines;
  epd::LineSplitter split(source);
  std::string_view line, ending;
  while (split.next(line, ending)) lines.emplace_back(line);
  std::mt19937 rng(3);
  std::string damaged;
  for (int i = 0; i < 3000; ++i) damaged += mutate(lines[rng() % lines.size()], rng) + (i % 7 ? "\n" : "\r\n");
  epd::Diagnostics d;
  CHECK(epd::check_stream(damaged, {}, d) > 0);
  const std::string once = epd::format_stream(damaged, {}, false, d).text;
  d.clear();
  const std::string twice = epd::format_stream(once, {}, false, d).text;
  CHECK(once == twice);
}

TEST_CASE("A stray carriage return at the end of a record keeps canonical writing a fixed point", "[epd][robustness]") {
  // Found by tests/fuzz/epd_fuzz (regressions/epd/crash-canonical-EPD-is-not-a-fixed-point-*):
  // "bm Kd2;\r \n" kept the CR as a fragment, written last before the "\n", which read again
  // is a CRLF line ending, so the second canonical text differed from the first.
  const std::string text = "4k3/8/8/8/8/8/8/4K3 w - - bm Kd2;\r \n";
  epd::Diagnostics diags;
  const std::string once = epd::write_document(epd::read_document(text, diags), epd::WriteStyle::Canonical);
  const std::string twice = epd::write_document(epd::read_document(once, diags), epd::WriteStyle::Canonical);
  CHECK(twice == once);
}

TEST_CASE("An opcode glued to a closing quote is read the same before and after canonical writing", "[epd][robustness]") {
  // Found by tests/fuzz/epd_fuzz (minimized: `pv ""pm`): read as an operand of pv, then written
  // with a space before it, where read again it is the opcode of a new operation.
  const std::string text = "4k3/8/8/8/8/8/8/4K3 w - - pv \"Kd2\"pm Kd2;\n";
  epd::Diagnostics diags;
  const std::string once = epd::write_document(epd::read_document(text, diags), epd::WriteStyle::Canonical);
  const std::string twice = epd::write_document(epd::read_document(once, diags), epd::WriteStyle::Canonical);
  CHECK(twice == once);
}
