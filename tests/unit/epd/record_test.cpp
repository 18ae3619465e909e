// Reading EPD lines: every lenient form real suites use, and lossless writing back.
#include "epd_test_support.hpp"

using namespace epdd;
using epd::Problem;

namespace {

constexpr const char* kPos = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -";

std::string line(const std::string& ops) { return std::string(kPos) + (ops.empty() ? "" : " " + ops); }

}  // namespace

TEST_CASE("EPD records: operations, operands and quoting are read as written", "[epd][record]") {
  epd::Diagnostics d;
  auto r = epd::EpdRecord::parse(line("bm Bxf7+ Ng5; id \"test; with semicolon\"; c0 \"\"; resign;"), 7, d);
  REQUIRE(r);
  CHECK(d.size() == 0);
  CHECK(r->line() == 7);
  CHECK(r->field(0) == "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R");
  CHECK(r->field(1) == "w");
  CHECK(r->field(2) == "KQkq");
  CHECK(r->field(3) == "-");
  REQUIRE(r->operations().size() == 4);
  const auto& bm = r->operations()[0];
  CHECK(bm.opcode == "bm");
  REQUIRE(bm.operands.size() == 2);
  CHECK(bm.operands[0].text == "Bxf7+");
  CHECK_FALSE(bm.operands[0].quoted);
  CHECK(bm.operands[0].column == 68);
  CHECK(bm.operands[1].column == 74);
  CHECK(r->operations()[1].operands[0].text == "test; with semicolon");
  CHECK(r->operations()[1].operands[0].quoted);
  CHECK(r->operations()[2].operands[0].text.empty());
  CHECK(r->operations()[2].operands[0].quoted);
  CHECK(r->operations()[3].operands.empty());
  CHECK(r->single_operand("id") == "test; with semicolon");
}

TEST_CASE("EPD lenient forms are read and reported", "[epd][record]") {
  struct Case {
    std::string text;
    Problem reported;    // the one diagnostic of reading
    std::string opcode;  // an operation that must have been read
    std::string operand;
  };
  const std::vector<Case> cases = {
      {line("bm Bxf7+; id \"x\""), Problem::MissingSemicolon, "id", "x"},
      {line("bm  Bxf7+;  id \"x\";"), Problem::Spacing, "id", "x"},
      {std::string(kPos) + "\tbm Bxf7+;", Problem::Spacing, "bm", "Bxf7+"},
      {"  " + line("bm Bxf7+;"), Problem::Spacing, "bm", "Bxf7+"},
      {line("bm Bxf7+;id \"x\";"), Problem::Spacing, "id", "x"},
      {line("0 3 bm Bxf7+;"), Problem::FenCounters, "bm", "Bxf7+"},
      {line("id \"unterminated"), Problem::UnterminatedString, "id", "unterminated"},
      {line("bm: Bxf7+; id \"x\";"), Problem::OpcodeSyntax, "id", "x"},
      {line("this_opcode_is_far_too_long 1;"), Problem::OpcodeLength, "this_opcode_is_far_too_long", "1"},
  };
  for (const auto& c : cases) {
    epd::Diagnostics d;
    auto r = epd::EpdRecord::parse(c.text, 1, d);
    INFO(c.text);
    REQUIRE(r);
    REQUIRE(d.size() == 1);
    CHECK(d.items()[0].problem == c.reported);
    const auto* op = r->find(c.opcode);
    REQUIRE(op);
    REQUIRE_FALSE(op->operands.empty());
    CHECK(op->operands[0].text == c.operand);
  }
}

TEST_CASE("FEN counters after the fields are kept and read as hmvc and fmvn", "[epd][record]") {
  auto c = test::check_line(line("12 34 bm Bxf7+;"));
  REQUIRE(c.record.fen_counters());
  CHECK(c.record.fen_counters()->halfmove == "12");
  CHECK(c.record.fen_counters()->fullmove == "34");
  REQUIRE(c.checked.board);
  CHECK(c.checked.board->halfmove_clock() == 12);
  CHECK(c.checked.board->fullmove_number() == 34);
  CHECK(c.record.preserved_text() == line("12 34 bm Bxf7+;"));
  epd::canonicalize(c.record, c.checked);
  CHECK(c.record.canonical_text() == line("bm Bxf7+; fmvn 34; hmvc 12;"));
}

TEST_CASE("Lines that are not records are kept and not mistaken", "[epd][record]") {
  epd::Diagnostics d;
  std::string rejected;
  CHECK_FALSE(epd::EpdRecord::parse("", 1, d, &rejected));
  CHECK_FALSE(epd::EpdRecord::parse("   ", 2, d, &rejected));
  CHECK(rejected == "   ");
  CHECK_FALSE(epd::EpdRecord::parse("# a comment; bm e4;", 3, d, &rejected));
  CHECK(rejected == "# a comment; bm e4;");
  CHECK(d.size() == 0);
  CHECK_FALSE(epd::EpdRecord::parse("8/8/8/8/8/8/8/8 w", 4, d, &rejected));
  REQUIRE(d.size() == 1);
  CHECK(d.items()[0].problem == Problem::NotARecord);
  CHECK(d.items()[0].message == "only 2 fields: an EPD record starts with four (placement, side to move, castling, en passant)");
  // Four fields and nothing else is a record.
  auto plain = epd::EpdRecord::parse(kPos, 5, d);
  REQUIRE(plain);
  CHECK(plain->operations().empty());
}

TEST_CASE("Documents: BOM, NUL bytes, CRLF, Latin-1, blank and comment lines", "[epd][document]") {
  const std::string bytes = std::string("\xEF\xBB\xBF") + "# suite\r\n" + line("id \"caf\xE9\";") + "\r\n\r\n" +
                            line(std::string("bm Bx") + '\0' + "f7+;") + "\n" + line("id \"last\";");
  epd::Diagnostics d;
  const auto doc = epd::read_document(bytes, d);
  CHECK(doc.bom);
  REQUIRE(doc.lines.size() == 5);
  CHECK(doc.record_count() == 3);
  CHECK(doc.lines[0].text == "# suite");
  CHECK(doc.lines[0].ending == "\r\n");
  CHECK(doc.lines[1].record->single_operand("id") == "caf\xE9");
  CHECK(doc.lines[2].text.empty());
  CHECK(doc.lines[3].record->single_operand("bm") == "Bxf7+");
  CHECK(doc.lines[4].ending.empty());
  const auto kinds = test::count_kinds(d);
  CHECK(kinds == std::map<std::string, std::size_t>{{"byte-order-mark", 1}, {"crlf", 1}, {"non-ascii", 1}, {"nul-byte", 1}});
  // Written back: the same bytes but for the NUL byte, in both styles here (records are canonical).
  std::string without_nul = bytes;
  without_nul.erase(without_nul.find('\0'), 1);
  CHECK(epd::write_document(doc, epd::WriteStyle::Preserved) == without_nul);
  CHECK(epd::write_document(doc, epd::WriteStyle::Canonical) == without_nul);
}

TEST_CASE("Preserved writing changes only what was changed", "[epd][record]") {
  const std::string text = line("bm  Bxf7+ ;   id   \"x\";  c0 \"keep  this\";");
  epd::Diagnostics d;
  auto r = epd::EpdRecord::parse(text, 1, d);
  REQUIRE(r);
  CHECK(r->preserved_text() == text);
  SECTION("replacing an operation keeps the others byte for byte") {
    r->set("bm", {{"Ng5", false, 0}});
    CHECK(r->preserved_text() == line("bm Ng5;   id   \"x\";  c0 \"keep  this\";"));
  }
  SECTION("a new operation goes in ASCII order among the others") {
    r->set("acd", {{"20", false, 0}});
    r->set("ce", {{"35", false, 0}});
    r->set("pv", {{"Ng5", false, 0}});
    // Before the first greater opcode: ce goes before id; pv, greater than all, at the end.
    CHECK(r->preserved_text() == line("acd 20; bm  Bxf7+ ; ce 35;   id   \"x\";  c0 \"keep  this\"; pv Ng5;"));
  }
  SECTION("erasing an operation removes it with the space before it") {
    CHECK(r->erase("id") == 1);
    CHECK(r->preserved_text() == line("bm  Bxf7+ ;  c0 \"keep  this\";"));
  }
  SECTION("an unterminated last operation gets its ';' when another follows") {
    auto u = epd::EpdRecord::parse(line("bm Bxf7+"), 1, d);
    u->set("pv", {{"Bxf7+", false, 0}});
    CHECK(u->preserved_text() == line("bm Bxf7+; pv Bxf7+;"));
  }
  SECTION("duplicates are kept when read, and set() leaves one") {
    auto dup = epd::EpdRecord::parse(line("bm Bxf7+; bm Ng5;"), 1, d);
    CHECK(dup->operations().size() == 2);
    dup->set("bm", {{"Nc3", false, 0}});
    CHECK(dup->preserved_text() == line("bm Nc3;"));
  }
  SECTION("canonical text: single spaces, quotes as recorded, sorting on request") {
    CHECK(r->canonical_text() == line("bm Bxf7+; id \"x\"; c0 \"keep  this\";"));
    r->sort_operations();
    CHECK(r->canonical_text() == line("bm Bxf7+; c0 \"keep  this\"; id \"x\";"));
  }
}

TEST_CASE("Text that is not an operation is reported and kept by both writers", "[epd][record]") {
  const std::string text = line("bm Bxf7+; 123 garbage; id \"x\";");
  epd::Diagnostics d;
  auto r = epd::EpdRecord::parse(text, 1, d);
  REQUIRE(r);
  REQUIRE(d.size() == 1);
  CHECK(d.items()[0].problem == Problem::OpcodeSyntax);
  CHECK(d.items()[0].column == 75);
  CHECK(r->preserved_text() == text);
  CHECK(r->canonical_text() == text);
}
