// Each opcode of the standard's catalogue, checked: operand counts, types, ranges, moves, and the
// cross-checks (pm/pv, ce/dm, draw_claim/sm).
#include <algorithm>

#include "epd/opcodes.hpp"
#include "epd_test_support.hpp"

using namespace epdd;

namespace {

// White to move; Bxf7+ and Ng5 are legal, Bxf7+ Kxf7 Ng5+ is a legal line.
constexpr const char* kPos = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq -";
// White promotes on a8 or b8.
constexpr const char* kPromo = "1n2k3/P7/8/8/8/8/8/4K3 w - -";

using Kinds = std::map<std::string, std::size_t>;

struct Case {
  const char* position;
  std::string ops;
  Kinds expected;  // problem kinds reported, counted; empty: clean
};

void run(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    const auto checked = test::check_line(std::string(c.position) + " " + c.ops);
    std::string messages;
    for (const auto& d : checked.diags.items()) messages += "\n  " + std::string(epd::name(d.problem)) + ": " + d.message;
    INFO(c.ops << messages);
    CHECK(test::count_kinds(checked.diags) == c.expected);
  }
}

}  // namespace

TEST_CASE("The catalogue holds every opcode of the standard, in ASCII order", "[epd][opcodes]") {
  const auto catalogue = epd::opcode_catalogue();
  CHECK(catalogue.size() == 45);  // 35 opcodes, c0-c9 and v0-v9 counted one by one
  CHECK(std::is_sorted(catalogue.begin(), catalogue.end(),
                       [](const auto& a, const auto& b) { return a.opcode < b.opcode; }));
  for (const char* op : {"acd", "acn", "acs", "am", "bm", "c0", "c9", "ce", "dm", "draw_accept", "draw_claim",
                         "draw_offer", "draw_reject", "eco", "fmvn", "hmvc", "id", "nic", "noop", "pm", "pv", "rc",
                         "resign", "sm", "tcgs", "tcri", "tcsi", "v0", "v9"})
    CHECK(epd::find_opcode(op) != nullptr);
  CHECK(epd::find_opcode("D1") == nullptr);
  CHECK(epd::is_private_opcode("D1"));
  CHECK_FALSE(epd::is_private_opcode("bm"));
}

TEST_CASE("Integer and float operand syntax", "[epd][opcodes]") {
  bool plus = false;
  CHECK(epd::parse_integer("42") == 42);
  CHECK(epd::parse_integer("-32767") == -32767);
  CHECK(epd::parse_integer("+5", &plus) == 5);
  CHECK(plus);
  CHECK(epd::parse_integer("9000000000000000000") == 9000000000000000000LL);
  for (const char* bad : {"", "+", "-", "5a", "1.0", " 5", "0x10", "99999999999999999999"})
    CHECK_FALSE(epd::parse_integer(bad));
  for (const char* good : {"1.5", "-0.25", "+3.0", "0.0"}) CHECK(epd::is_float(good));
  for (const char* bad : {"1.", ".5", "1", "1e5", "1.5.2", "+.5", "a.b"}) CHECK_FALSE(epd::is_float(bad));
}

TEST_CASE("Integer opcodes: acd acn acs dm fmvn hmvc rc tcgs", "[epd][check]") {
  run({
      {kPos, "acd 20; acn 123456789012; acs 0; fmvn 12; hmvc 5; rc 1; tcgs 4;", {}},
      {kPos, "acd -1;", {{"operand-range", 1}}},
      {kPos, "acs x;", {{"operand-type", 1}}},
      {kPos, "acn;", {{"operand-count", 1}}},
      {kPos, "acd 1 2;", {{"operand-count", 1}}},
      {kPos, "dm 3;", {}},
      {kPos, "dm 0;", {{"operand-range", 1}}},
      {kPos, "dm -15;", {{"operand-range", 1}}},
      {kPos, "fmvn 0;", {{"operand-range", 1}}},
      {kPos, "hmvc -1;", {{"operand-range", 1}}},
      {kPos, "hmvc 70000;", {{"operand-range", 1}}},
      {kPos, "rc 0;", {{"operand-range", 1}}},
      {kPos, "tcgs 0;", {{"operand-range", 1}}},
      {kPos, "acd 2.5;", {{"operand-type", 1}}},
  });
}

TEST_CASE("ce: range, mate encoding, mate forms and dm", "[epd][check]") {
  run({
      {kPos, "ce 35;", {}},
      {kPos, "ce -32767;", {}},
      {kPos, "ce 32766; dm 1;", {}},
      {kPos, "ce 32764; dm 2;", {}},
      {kPos, "ce 32765;", {{"ce-mate", 1}}},   // mate for the side to move in 2 plies: cannot be
      {kPos, "ce -32766;", {{"ce-mate", 1}}},  // mated in 1 ply: cannot be
      {kPos, "ce 32762; dm 2;", {{"ce-mate", 1}}},
      {kPos, "ce 32767;", {{"operand-range", 1}}},
      {kPos, "ce -32768;", {{"operand-range", 1}}},
      {kPos, "ce x;", {{"operand-type", 1}}},
      {kPos, "ce;", {{"operand-count", 1}}},
      {kPos, "ce +M2;", {{"ce-mate", 1}}},
      {kPos, "ce #-3;", {{"ce-mate", 1}}},
  });
  auto c = test::check_line(std::string(kPos) + " ce +M2;");
  REQUIRE(c.checked.ce);
  CHECK(c.checked.ce->to_ce() == 32764);
  auto m = test::check_line(std::string(kPos) + " ce -M1;");
  CHECK(m.checked.ce->to_ce() == -32765);
}

TEST_CASE("String opcodes: c0-c9 v0-v9 eco nic id tcri tcsi", "[epd][check]") {
  const std::string long_text(300, 'x');
  run({
      {kPos, "c0 \"a comment\"; c9; eco \"C50\"; id \"x\"; nic; v0 \"Italian\";", {}},
      {kPos, "c0 text;", {{"unquoted-string", 1}}},
      {kPos, "c0 \"a\" \"b\";", {{"operand-count", 1}}},
      {kPos, "id;", {{"operand-count", 1}}},
      {kPos, "id BK.01;", {{"unquoted-string", 1}}},
      {kPos, "c1 \"" + long_text + "\";", {{"string-length", 1}}},
      {kPos, "tcri \"me@example.org\" \"Me\"; tcsi \"you@example.org\" \"You\";", {}},
      {kPos, "tcri \"me@example.org\";", {{"operand-count", 1}}},
  });
}

TEST_CASE("Opcodes without operands, noop, unknown and private opcodes", "[epd][check]") {
  run({
      {kPos, "draw_accept; draw_reject; resign;", {}},
      {kPos, "resign now;", {{"operand-count", 1}}},
      {kPos, "draw_offer; sm Ng5;", {}},
      {kPos, "draw_claim;", {{"draw-needs-sm", 1}}},
      {kPos, "draw_offer;", {{"draw-needs-sm", 1}}},
      {kPos, "noop 1 \"two\" three;", {}},
      {kPos, "foo 1;", {{"unknown-opcode", 1}}},
      {kPos, "D1 20; Private \"anything\";", {}},
  });
}

TEST_CASE("Move opcodes: am bm pm pv sm, legal from the position", "[epd][check]") {
  run({
      {kPos, "am Nc3; bm Bxf7+ Ng5;", {}},
      {kPos, "bm Ng5 Bxf7+;", {{"move-order", 1}}},
      {kPos, "bm Bxf7;", {{"move-form", 1}}},            // check not marked
      {kPos, "bm Nf3-g5;", {{"move-form", 1}}},          // long algebraic
      {kPos, "bm f3g5;", {{"move-form", 1}}},            // UCI
      {kPos, "bm Ng5!;", {{"move-form", 1}}},            // annotation
      {kPos, "bm Nd2;", {{"illegal-move", 1}}},           // d2 holds a pawn
      {kPos, "bm Nxe5 Qe2 Kf1;", {{"move-order", 1}}},    // all legal, not sorted
      {kPos, "am e5;", {{"illegal-move", 1}}},
      {kPos, "sm Ng5;", {}},
      {kPos, "sm Ng5 Nc3;", {{"operand-count", 1}}},
      {kPos, "pm Bxf7+; pv Bxf7+ Kxf7 Ng5+;", {}},
      {kPos, "pm Ng5; pv Bxf7+ Kxf7 Ng5+;", {{"pm-pv", 1}}},
      {kPos, "pv Bxf7+ Kxf7 Bxf7;", {{"illegal-move", 1}}},
      {kPos, "pv;", {}},
      {kPromo, "bm a8=Q;", {}},
      {kPromo, "bm a8 = B;", {{"move-form", 1}}},
      {kPromo, "bm a8= N;", {{"move-form", 1}}},
      {kPromo, "bm a8Q+ axb8=Q+;", {{"move-form", 1}}},   // no '=', and a check that is not
      {kPromo, "bm a8;", {{"illegal-move", 1}}},
  });
  epd::CheckOptions no_moves;
  no_moves.moves = false;
  auto c = test::check_line(std::string(kPos) + " bm Nd2;", no_moves);
  CHECK(c.diags.size() == 0);
}

TEST_CASE("Record-level checks: duplicates, order, position", "[epd][check]") {
  run({
      {kPos, "id \"a\"; id \"b\";", {{"duplicate-opcode", 1}}},
      {kPos, "id \"a\"; bm Ng5;", {{"operation-order", 1}}},
      {"8/8/8/8/8/8/8/8 w - -", "id \"no kings\";", {{"position", 1}}},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq -", "id \"x\";", {{"position-tolerated", 1}}},
  });
  auto c = test::check_line("8/8/8/8/8/8/8/8 w - - id \"no kings\";");
  CHECK_FALSE(c.checked.board);
  const auto* d = test::find_kind(c.diags, epd::Problem::Position);
  REQUIRE(d);
  CHECK(d->message == "piece placement: White has 0 kings (exactly one is needed)");
  CHECK(d->column == 1);
  auto t = test::check_line("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - id \"x\";");
  REQUIRE(t.checked.board);
  CHECK_FALSE(t.checked.board->has_castling_right(core::Color::White, core::CastlingSide::King));
  CHECK(test::find_kind(t.diags, epd::Problem::PositionTolerated)->column == 47);  // the castling field
}

TEST_CASE("Chess960 positions with X-FEN castling are read as X-FEN without the option, with a note",
          "[epd][check][chess960]") {
  const std::string text = "nrkbqrbn/pppppppp/8/8/8/8/PPPPPPPP/NRKBQRBN w KQkq - bm Nb3;";
  epd::CheckOptions chess960;
  chess960.chess960 = true;
  CHECK(test::check_line(text, chess960).diags.size() == 0);
  // As standard chess none of the four rights could stand (the kings are on c1/c8); as X-FEN all
  // four do, so that reading is taken and said once, and no right is dropped.
  const auto c = test::check_line(text);
  CHECK(test::count_kinds(c.diags) == std::map<std::string, std::size_t>{{"xfen-castling", 1}});
  REQUIRE(c.checked.board);
  CHECK(c.checked.board->castling_rook(core::Color::White, core::CastlingSide::Queen) == core::Square::B1);
  CHECK(c.checked.board->castling_rook(core::Color::Black, core::CastlingSide::King) == core::Square::F8);
}

TEST_CASE("canonicalize: SAN, sorted sets, quoted strings, numbers", "[epd][check]") {
  auto c = test::check_line(std::string(kPos) +
                            "  bm Ng5 Bc4xf7+; pv Bc4xf7+ e8f7 f3g5+; id BK.01; acd +20; ce +M2; foo bar;");
  epd::canonicalize(c.record, c.checked);
  CHECK(c.record.canonical_text() == std::string(kPos) +
                                         " bm Bxf7+ Ng5; pv Bxf7+ Kxf7 Ng5+; id \"BK.01\"; acd 20; ce 32764; foo bar;");
  // A canonical record is read back to the same bytes, and canonicalize leaves it alone.
  const std::string canonical = c.record.canonical_text();
  auto again = test::check_line(canonical);
  epd::canonicalize(again.record, again.checked);
  CHECK(again.record.canonical_text() == canonical);
  CHECK(again.record.preserved_text() == canonical);
}

TEST_CASE("c0-c9 and v0-v9 registers over a sequence of records", "[epd][registers]") {
  epd::Registers reg;
  epd::Diagnostics d;
  auto apply = [&](const std::string& ops) { reg.apply(*epd::EpdRecord::parse(std::string(kPos) + " " + ops, 1, d)); };
  apply("c0 \"game\"; c1 \"first\"; c5 \"five\"; v0 \"Italian\"; eco \"C50\";");
  CHECK(reg.comment(0) == "game");
  CHECK(reg.comment(1) == "first");
  CHECK(reg.comment(5) == "five");
  CHECK(reg.variation(0) == "Italian");
  CHECK(reg.eco() == "C50");
  // c1 clears c1..c9, then sets c1; c0 is untouched.
  apply("c1 \"second\";");
  CHECK(reg.comment(0) == "game");
  CHECK(reg.comment(1) == "second");
  CHECK_FALSE(reg.comment(5));
  // Without an operand: clear only.
  apply("c0; eco;");
  CHECK_FALSE(reg.comment(0));
  CHECK_FALSE(reg.comment(1));
  CHECK_FALSE(reg.eco());
  CHECK(reg.variation(0) == "Italian");
  apply("v1 \"Giuoco Piano\"; v0 \"Italian Game\";");
  CHECK(reg.variation(0) == "Italian Game");
  CHECK_FALSE(reg.variation(1));  // v0 after v1 in the same record clears it (left to right)
  reg.reset();
  CHECK_FALSE(reg.variation(0));
}
