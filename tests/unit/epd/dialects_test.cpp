// Dialects of real suites (issue 13 and 14): what cannot be read is kept verbatim by every writer,
// stray placeholders and glued operations are read with a note, operations epdd appends stay
// readable after unterminated text, and X-FEN castling is recognised without --chess960.
#include "epd_test_support.hpp"

#include "core/notation.hpp"

using namespace epdd;

namespace {

// The canonical form of one line, as `epdd epd format` writes it.
std::string format_line(const std::string& line, epd::Diagnostics& d) {
  return epd::format_stream(line + "\n", {}, false, d).text;
}

std::vector<std::string> san_of(const test::CheckedLine& c, std::string_view opcode) {
  const auto& ops = c.record.operations();
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (ops[i].opcode == opcode && c.checked.moves[i]) {
      std::vector<std::string> out;
      for (core::Move m : *c.checked.moves[i]) out.push_back(core::to_san(*c.checked.board, m));
      return out;
    }
  return {};
}

const std::string kQxa1 = "rn2kbnr/pp3pp1/4p3/3pP1Bp/2pP3P/2P5/Pq2NPP1/RN1Q1RK1 b kq -";

}  // namespace

TEST_CASE("Format keeps text that is not an operation, byte for byte", "[epd][dialect]") {
  // matetrack files carry `PV: d5e6;`, `ep;` and `00:00;` beside bm.
  const std::string line = "8/8/8/8/8/5k2/8/Q4K2 w - - bm Qa3+; PV: a1a3; 00:00; ep;";
  epd::Diagnostics d;
  const std::string out = format_line(line, d);
  CHECK_THAT(out, Catch::Contains("PV: a1a3;"));
  CHECK_THAT(out, Catch::Contains("00:00;"));
  CHECK_THAT(out, Catch::Contains("ep;"));
  CHECK_THAT(out, Catch::Contains("bm Qa3+;"));
  // A fixed point.
  epd::Diagnostics again;
  CHECK(format_line(out.substr(0, out.size() - 1), again) == out);
}

TEST_CASE("A stray '-' after the four fields is a placeholder, the operations after it are read", "[epd][dialect]") {
  const std::string line = kQxa1 + " - bm Qxa1; id \"x\";";
  const auto c = test::check_line(line);
  CHECK(c.record.find("bm") != nullptr);
  CHECK(san_of(c, "bm") == std::vector<std::string>{"Qxa1"});
  const auto* note = test::find_kind(c.diags, epd::Problem::Placeholder);
  REQUIRE(note != nullptr);
  CHECK(note->severity == epd::Severity::Note);
  CHECK(note->column == kQxa1.size() + 2);
  CHECK(test::find_kind(c.diags, epd::Problem::OpcodeSyntax) == nullptr);
  // Nothing lost in either writer: the '-' stays where it was.
  epd::Diagnostics d;
  CHECK(format_line(line, d) == kQxa1 + " - bm Qxa1; id \"x\";\n");
  CHECK(c.record.preserved_text() == line);
}

TEST_CASE("A lone number after the fields (one FEN counter) is a placeholder too", "[epd][dialect]") {
  const auto c = test::check_line(kQxa1 + " 0 bm Qxa1;");
  CHECK(san_of(c, "bm") == std::vector<std::string>{"Qxa1"});
  CHECK(test::find_kind(c.diags, epd::Problem::Placeholder) != nullptr);
}

TEST_CASE("A known opcode inside a move list starts a new operation", "[epd][dialect]") {
  // A real mate suite: `bm Rc8+ dm 26` with no ';' at all.
  const std::string line = "6k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1 bm Rc8+ dm 26";
  const auto c = test::check_line(line);
  REQUIRE(c.record.operations().size() == 2);
  CHECK(san_of(c, "bm") == std::vector<std::string>{"Rc8#"});
  CHECK(c.record.single_operand("dm") == std::optional<std::string_view>("26"));
  CHECK(test::find_kind(c.diags, epd::Problem::IllegalMove) == nullptr);
  const auto* glued = test::find_kind(c.diags, epd::Problem::GluedOperation);
  REQUIRE(glued != nullptr);
  CHECK(glued->column == line.find("dm") + 1);
  // Written back with the ';' it lacked, and read the same way again.
  epd::Diagnostics d;
  const std::string out = format_line(line, d);
  CHECK(out == "6k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - bm Rc8#; dm 26; fmvn 1; hmvc 0;\n");
  CHECK(c.record.preserved_text() == "6k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 0 1 bm Rc8+; dm 26");
}

TEST_CASE("A square that is also an opcode (c4) stays a move", "[epd][dialect]") {
  const auto c = test::check_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm c4 e4; id \"start\";");
  CHECK(san_of(c, "bm") == std::vector<std::string>{"c4", "e4"});
  CHECK(test::find_kind(c.diags, epd::Problem::GluedOperation) == nullptr);
}

TEST_CASE("Operations appended after unterminated text stay readable", "[epd][dialect]") {
  for (const std::string& tail : {std::string(" id \"x\"; 1 e4!"), std::string(" 0 4; v=-385"),
                                  std::string(" id \"x\""), std::string(" c0 \"unterminated")}) {
    const std::string line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -" + tail;
    INFO(line);
    epd::Diagnostics d;
    auto r = epd::EpdRecord::parse(line, 1, d);
    REQUIRE(r);
    r->set("pm", {{"e4", false, 0}});
    r->set("acd", {{"12", false, 0}});
    const std::string written = r->preserved_text();
    // Everything that was there is still there, each operation and fragment as written.
    for (const epd::Operation& op : r->operations())
      if (op.unchanged()) CHECK_THAT(written, Catch::Contains(line.substr(op.source_offset, op.source_length)));
    epd::Diagnostics d2;
    auto back = epd::EpdRecord::parse(written, 1, d2);
    REQUIRE(back);
    CHECK(back->operations().size() == r->operations().size());
    CHECK(back->single_operand("pm") == std::optional<std::string_view>("e4"));
    CHECK(back->single_operand("acd") == std::optional<std::string_view>("12"));
  }
}

TEST_CASE("KQkq with the king off the e-file is read as X-FEN with a note", "[epd][dialect]") {
  const std::string line = "brnbnkqr/pppppppp/8/8/8/8/PPPPPPPP/BRNBNKQR w KQkq - id \"960\";";
  const auto c = test::check_line(line);
  REQUIRE(c.checked.board);
  CHECK(c.checked.board->chess960());
  for (core::Color color : {core::Color::White, core::Color::Black})
    for (core::CastlingSide side : {core::CastlingSide::King, core::CastlingSide::Queen})
      CHECK(c.checked.board->castling_rook(color, side) != core::Square::None);
  const auto* note = test::find_kind(c.diags, epd::Problem::XFenCastling);
  REQUIRE(note != nullptr);
  CHECK(note->severity == epd::Severity::Note);
  CHECK(test::find_kind(c.diags, epd::Problem::PositionTolerated) == nullptr);
  CHECK(test::find_kind(c.diags, epd::Problem::Position) == nullptr);
}

TEST_CASE("KQkq with the king on e1 and no rook in the corner is not read as X-FEN", "[epd][dialect]") {
  // A standard game whose h1 rook went to g1: the right is wrong, not Chess960.
  const auto c = test::check_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBR1 w KQkq -");
  REQUIRE(c.checked.board);
  CHECK_FALSE(c.checked.board->chess960());
  CHECK(c.checked.board->castling_rook(core::Color::White, core::CastlingSide::King) == core::Square::None);
  CHECK(test::find_kind(c.diags, epd::Problem::PositionTolerated) != nullptr);
}

TEST_CASE("FEN counters that would not check stay counters when formatted", "[epd][dialect]") {
  // `1 0`: a fullmove number 0 would be `fmvn 0`, which the standard rejects.
  const std::string line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1 0 id \"a\";";
  epd::Diagnostics d;
  const std::string once = format_line(line, d);
  epd::Diagnostics checked_in, checked_out;
  epd::check_stream(line + "\n", {}, checked_in);
  epd::check_stream(once, {}, checked_out);
  CHECK(checked_out.count(epd::Severity::Error) == checked_in.count(epd::Severity::Error));
  CHECK(checked_out.count(epd::Severity::Error) == 0);
  epd::Diagnostics again;
  CHECK(format_line(once.substr(0, once.size() - 1), again) == once);
  // Valid counters still become hmvc/fmvn.
  epd::Diagnostics d2;
  CHECK(format_line("8/8/8/8/8/5k2/8/Q4K2 w - - 3 40", d2) == "8/8/8/8/8/5k2/8/Q4K2 w - - fmvn 40; hmvc 3;\n");
}
