// Checking a whole file: diagnostics counted per kind and severity, only the first few of each
// kind kept when asked (memory does not grow with their number), passed on in file order.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "epd_test_support.hpp"

using namespace epdd;
using epd::Problem;
using epd::Severity;

namespace {

// Each record: two unknown opcodes (notes; the opcodes in ASCII order) and a last operation
// without ';' (a warning, found by the reader at the end of the line, before the checker's notes
// at columns before it); every `illegal_every`-th record a bm that is illegal (an error).
struct Suite {
  std::size_t records = 0;
  std::size_t illegal_every = 0;
  std::string text;
  std::size_t illegal() const { return records / illegal_every; }
};

Suite suite(std::size_t records, std::size_t illegal_every) {
  Suite s{records, illegal_every, {}};
  for (std::size_t i = 1; i <= records; ++i)
    s.text += std::string("4k3/8/8/8/8/8/4P3/4K3 w - - bar 1; bm ") + (i % illegal_every ? "e4" : "e5") +
              "; foo 2; id \"r" + std::to_string(i) + "\"\n";
  return s;
}

bool in_file_order(const std::vector<epd::Diagnostic>& items) {
  return std::is_sorted(items.begin(), items.end(), epd::Diagnostics::before);
}

}  // namespace

TEST_CASE("check_stream on many records: every diagnostic counted per kind, only the first five of each kept",
          "[epd][diagnostics]") {
  const Suite s = suite(30000, 1000);
  epd::Diagnostics d;
  d.keep_per_kind(5);
  REQUIRE(epd::check_stream(s.text, {}, d) == s.records);
  CHECK(d.count(Problem::UnknownOpcode) == 2 * s.records);
  CHECK(d.count(Problem::MissingSemicolon) == s.records);
  CHECK(d.count(Problem::IllegalMove) == s.illegal());
  CHECK(d.count(Severity::Note) == 2 * s.records);
  CHECK(d.count(Severity::Warning) == s.records);
  CHECK(d.count(Severity::Error) == s.illegal());
  CHECK(d.size() == 3 * s.records + s.illegal());
  // Held: five of each of the three kinds, whatever the number of records.
  REQUIRE(d.items().size() == 15);
  CHECK(in_file_order(d.items()));
  std::vector<std::size_t> illegal_lines;
  for (const auto& item : d.items())
    if (item.problem == Problem::IllegalMove) illegal_lines.push_back(item.line);
  CHECK(illegal_lines == std::vector<std::size_t>{1000, 2000, 3000, 4000, 5000});
}

TEST_CASE("check_stream and format_stream pass every diagnostic on as it comes, in file order", "[epd][diagnostics]") {
  const Suite s = suite(500, 50);
  for (const bool format : {false, true}) {
    epd::Diagnostics d;
    d.keep_per_kind(0);
    std::vector<epd::Diagnostic> seen;
    d.on_add([&](const epd::Diagnostic& item) { seen.push_back(item); });
    if (format) epd::format_stream(s.text, {}, false, d);
    else epd::check_stream(s.text, {}, d);
    INFO((format ? "format_stream" : "check_stream"));
    CHECK(d.items().empty());
    CHECK(seen.size() == 3 * s.records + s.illegal());
    CHECK(in_file_order(seen));
  }
}
