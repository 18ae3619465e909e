// Every EPD suite in ../shared/data/suites: read without a crash, its real quirks pinned by
// kind (a change in leniency shows here), and the canonical form a fixed point.
#include "epd_test_support.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

struct Suite {
  const char* file;
  std::size_t records;
  std::map<std::string, std::size_t> kinds;
  bool canonical;  // the file is already canonical: format leaves every byte
};

// What `epdd epd check` finds in each file (every kind named is a real quirk of the file:
// e.g. "bm bm Bh2-f4" in mate_in_2, PVs cut mid-move in wac-analysed, dm 0 in endgame-dm-4).
const Suite kSuites[] = {
    {"bk.epd", 24, {}, true},
    {"endgame-dm-4.epd", 48, {{"operand-range", 8}}, true},
    {"mate_in_1.epd", 64, {{"ce-mate", 64}, {"move-form", 133}, {"move-order", 1}}, false},
    {"mate_in_2.epd", 880, {{"ce-mate", 880}, {"illegal-move", 1}, {"move-form", 3562}, {"move-order", 25}}, false},
    {"mate_in_3.epd", 1277, {{"ce-mate", 1277}, {"move-form", 7690}, {"move-order", 11}}, false},
    {"mate_in_4.epd", 1100, {{"ce-mate", 1100}, {"move-form", 8831}, {"move-order", 8}}, false},
    {"sts.epd", 1500, {{"crlf", 1}, {"operation-order", 1500}}, true},
    {"wac-analysed.epd", 299,
     {{"ce-mate", 2}, {"crlf", 1}, {"illegal-move", 3}, {"move-form", 36}, {"operation-order", 299}}, false},
    {"wac.epd", 300, {}, true},
};

std::string format(const std::string& bytes) {
  epd::Diagnostics d;
  const std::string streamed = epd::format_stream(bytes, {}, false, d).text;
  // The in-memory path must agree with the streaming one.
  auto c = epd::check_document(bytes, {});
  epd::canonicalize_document(c, false);
  CHECK(epd::write_document(c.doc, epd::WriteStyle::Canonical) == streamed);
  return streamed;
}

}  // namespace

TEST_CASE("Shared EPD suites: quirks pinned by kind", "[epd][data]") {
  for (const Suite& s : kSuites) {
    const std::string bytes = test::read_file(test::shared_data(std::string("suites/") + s.file));
    const auto c = epd::check_document(bytes, {});
    INFO(s.file);
    CHECK(c.doc.record_count() == s.records);
    CHECK(test::count_kinds(c.diags) == s.kinds);
    epd::Diagnostics streamed;
    CHECK(epd::check_stream(bytes, {}, streamed) == s.records);
    CHECK(test::count_kinds(streamed) == s.kinds);
  }
}

TEST_CASE("Shared EPD suites: format is a fixed point and canonical files are untouched", "[epd][data]") {
  for (const Suite& s : kSuites) {
    const std::string bytes = test::read_file(test::shared_data(std::string("suites/") + s.file));
    INFO(s.file);
    const std::string once = format(bytes);
    CHECK(format(once) == once);
    if (s.canonical) CHECK(once == bytes);
    // Lossless: read and written back without changes, every file is its own bytes.
    epd::Diagnostics d;
    CHECK(epd::write_document(epd::read_document(bytes, d), epd::WriteStyle::Preserved) == bytes);
  }
}
