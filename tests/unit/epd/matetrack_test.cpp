// The matetrack convention: `bm #N` / `bm #-N` is a mate key, read by one accessor, noted (not
// an illegal move) by the checker, and kept as written by format.
#include "epd/matetrack.hpp"
#include "epd_test_support.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

// White to move mates in 1 (Rh8#); the first record of the shared classic280 file is a KBB-K
// mate in 15.
constexpr const char* kMateIn1 = "k7/8/1K6/8/8/8/8/7R w - -";

}  // namespace

TEST_CASE("parse_mate_key: #N and #-N, nothing else", "[epd][matetrack]") {
  const std::vector<std::pair<std::string, std::optional<int>>> cases = {
      {"#1", 1},        {"#15", 15},          {"#-1", -1},         {"#-32", -32},      {"#500", 500},
      {"#-500", -500},  {"#007", 7},          {"#0", std::nullopt}, {"#-0", std::nullopt},
      {"#501", std::nullopt}, {"#+3", std::nullopt}, {"#", std::nullopt}, {"#-", std::nullopt},
      {"#3x", std::nullopt},  {"# 3", std::nullopt}, {"#--3", std::nullopt}, {"Qh7#", std::nullopt},
      {"3", std::nullopt},    {"", std::nullopt},    {"#99999999999999999999", std::nullopt},
  };
  for (const auto& [text, value] : cases) {
    INFO(text);
    CHECK(epd::parse_mate_key(text) == value);
  }
}

TEST_CASE("matetrack_mate: the key of a record's bm, when bm is one mate key", "[epd][matetrack]") {
  const std::vector<std::pair<std::string, std::optional<int>>> cases = {
      {"bm #1;", 1},
      {"bm #-3; id \"mated\";", -3},
      {"id \"x\"; bm #2; PV: h1h8;", 2},
      {"bm Rh8;", std::nullopt},
      {"bm #1 Rh8;", std::nullopt},  // a key and a move: not the convention (the checker says why)
      {"am #1;", std::nullopt},
      {"dm 1;", std::nullopt},
      {"", std::nullopt},
  };
  for (const auto& [ops, value] : cases) {
    const auto c = test::check_line(std::string(kMateIn1) + " " + ops);
    INFO(ops);
    CHECK(epd::matetrack_mate(c.record) == value);
  }
}

TEST_CASE("check: a matetrack key is a note, not an illegal move", "[epd][matetrack]") {
  using Kinds = std::map<std::string, std::size_t>;
  const auto key = test::check_line(std::string(kMateIn1) + " bm #1;");
  CHECK(test::count_kinds(key.diags) == Kinds{{"mate-key", 1}});
  const epd::Diagnostic* d = test::find_kind(key.diags, epd::Problem::MateKey);
  REQUIRE(d);
  CHECK(d->severity == epd::Severity::Note);
  CHECK(d->column == 30);  // the operand
  CHECK(d->message == "bm #1: matetrack convention, mate in 1 for the side to move");

  const auto mated = test::check_line("k7/8/1K6/8/8/8/8/7R b - - bm #-1;");
  REQUIRE(test::find_kind(mated.diags, epd::Problem::MateKey));
  CHECK(test::find_kind(mated.diags, epd::Problem::MateKey)->message ==
        "bm #-1: matetrack convention, the side to move gets mated in 1");

  // Not keys: still moves that are not legal (or not moves at all).
  for (const char* ops : {"bm #0;", "bm #+1;", "bm #1 Rh8;", "am #1;", "pv #1;"}) {
    const auto c = test::check_line(std::string(kMateIn1) + " " + ops);
    INFO(ops);
    CHECK(test::find_kind(c.diags, epd::Problem::IllegalMove));
    CHECK_FALSE(test::find_kind(c.diags, epd::Problem::MateKey));
  }
  // The other move opcodes of a matetrack record are still checked.
  const auto pm = test::check_line(std::string(kMateIn1) + " bm #1; pm Rh9;");
  CHECK(test::count_kinds(pm.diags) == Kinds{{"illegal-move", 1}, {"mate-key", 1}});
}

TEST_CASE("format: a matetrack key is kept as written", "[epd][matetrack]") {
  const std::string text = std::string(kMateIn1) + " bm #1; id \"x\";\nk7/8/1K6/8/8/8/8/7R b - - bm #-1;\n";
  epd::Diagnostics d;
  const auto result = epd::format_stream(text, {}, false, d);
  CHECK(result.text == text);
  CHECK(result.rewritten == 0);
  auto c = epd::check_document(text, {});
  epd::canonicalize_document(c, true);
  CHECK(epd::write_document(c.doc, epd::WriteStyle::Canonical) == text);
}

TEST_CASE("The shared matetrack-classic280.epd: 280 keys, each a note, format untouched", "[epd][matetrack][data]") {
  const std::string bytes = test::read_file(test::shared_data("suites/matetrack-classic280.epd"));
  const auto c = epd::check_document(bytes, {});
  CHECK(c.doc.record_count() == 280);
  CHECK(test::count_kinds(c.diags) == std::map<std::string, std::size_t>{{"mate-key", 280}});
  std::size_t mating = 0, mated = 0;
  for (const auto& line : c.doc.lines) {
    if (!line.record) continue;
    const auto key = epd::matetrack_mate(*line.record);
    REQUIRE(key);
    (*key > 0 ? mating : mated) += 1;
  }
  // Counted independently of the reader: lines with "bm #-".
  std::size_t minus = 0;
  for (std::size_t at = bytes.find("bm #-"); at != std::string::npos; at = bytes.find("bm #-", at + 1)) ++minus;
  CHECK(mated == minus);
  CHECK(mating + mated == 280);
  epd::Diagnostics d;
  CHECK(epd::format_stream(bytes, {}, false, d).text == bytes);
}
