// Every EPD suite in ../shared/data/suites: read without a crash, its real quirks pinned by
// kind (a change in leniency shows here), and the canonical form a fixed point.
#include "epd_test_support.hpp"
#include "test_support.hpp"

#include <set>

#include "epd/opcodes.hpp"

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
    {"matetrack-classic280.epd", 280, {{"mate-key", 280}}, true},
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

namespace {

// A token as written, without a trailing ';' and surrounding quotes: `"WAC.001";` -> WAC.001.
std::string bare(std::string_view t) {
  if (!t.empty() && t.back() == ';') t.remove_suffix(1);
  if (!t.empty() && t.front() == '"') t.remove_prefix(1);
  if (!t.empty() && t.back() == '"') t.remove_suffix(1);
  return std::string(t);
}

struct Token {
  std::string text;
  std::size_t offset;
};

std::vector<Token> tokens(std::string_view line) {
  std::vector<Token> out;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    out.push_back({bare(line.substr(start, i - start)), start});
  }
  return out;
}

// The moves of the k-th operation with this opcode, sorted when the order does not matter.
std::optional<std::vector<core::Move>> moves_of(const epd::EpdRecord& r, const epd::CheckedRecord& c,
                                                const std::string& opcode, int k) {
  for (std::size_t i = 0; i < r.operations().size(); ++i)
    if (r.operations()[i].opcode == opcode && k-- == 0) {
      if (!c.moves[i]) return std::nullopt;
      auto moves = *c.moves[i];
      if (opcode == "am" || opcode == "bm")
        std::sort(moves.begin(), moves.end(), [](core::Move a, core::Move b) { return a.raw() < b.raw(); });
      return moves;
    }
  return std::nullopt;
}

// Which operations a formatter may rewrite token by token (moves into SAN, ce mate forms into
// numbers, '+' signs dropped): their content is compared as read instead of as text.
bool rewritable(const epd::Operation& op, std::size_t i, const epd::CheckedRecord& c) {
  const auto* spec = epd::find_opcode(op.opcode);
  if (!spec) return false;
  if (epd::is_move_type(spec->type)) return c.moves[i].has_value();
  return spec->type == epd::OperandType::Centipawns || spec->type == epd::OperandType::NonNegativeInteger ||
         spec->type == epd::OperandType::PositiveInteger;
}

// One input record against its formatted line: keys equal, nothing lost.
void compare_record(const epd::EpdRecord& in, const epd::CheckedRecord& ci, const epd::EpdRecord& out,
                    const epd::CheckedRecord& co) {
  INFO("line " << in.line() << ": " << in.source());
  INFO("formatted: " << out.source());
  std::map<std::string, int> seen;
  for (const epd::Operation& op : in.operations()) {
    if (op.opcode.empty()) continue;
    const int k = seen[op.opcode]++;
    if (op.opcode == "bm" || op.opcode == "am" || op.opcode == "pv" || op.opcode == "pm") {
      const auto a = moves_of(in, ci, op.opcode, k);
      if (a) CHECK(moves_of(out, co, op.opcode, k) == a);
    }
    if (op.opcode == "ce" && ci.ce) CHECK(co.ce == ci.ce);
  }
  for (const char* key : {"bm", "am", "dm"}) {
    const epd::Operation* a = in.find(key);
    const epd::Operation* b = out.find(key);
    CHECK((a == nullptr) == (b == nullptr));
    if (a && b && !moves_of(in, ci, key, 0)) {  // not read as moves (a dm, a mate key): as written
      std::vector<std::string> ta, tb;
      for (const auto& x : a->operands) ta.push_back(x.text);
      for (const auto& x : b->operands) tb.push_back(x.text);
      CHECK(ta == tb);
    }
  }
  std::multiset<std::string> written;
  for (const Token& t : tokens(out.source())) written.insert(t.text);
  for (const Token& t : tokens(in.source())) {
    if (const auto it = written.find(t.text); it != written.end()) {
      written.erase(it);
      continue;
    }
    const auto& ops = in.operations();
    bool covered = false;
    for (std::size_t i = 0; i < ops.size() && !covered; ++i)
      covered = t.offset >= ops[i].source_offset && t.offset < ops[i].source_offset + ops[i].source_length &&
                rewritable(ops[i], i, ci);
    INFO("token '" << t.text << "' at column " << t.offset + 1);
    CHECK(covered);
  }
}

std::vector<std::filesystem::path> shared_suites() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(test::shared_data("suites")))
    if (e.is_regular_file() && e.path().extension() == ".epd") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("Every shared suite: format twice changes nothing the second time, keeps every key and token",
          "[epd][data]") {
  const auto files = shared_suites();
  REQUIRE(files.size() >= 10);
  for (const auto& file : files) {
    INFO(file.string());
    const std::string bytes = test::read_file(file);
    epd::Diagnostics d1, d2, d3;
    const std::string once = epd::format_stream(bytes, {}, false, d1).text;
    CHECK(epd::format_stream(once, {}, false, d2).text == once);
    const auto in = epd::check_document(bytes, {});
    const auto out = epd::check_document(once, {});
    // `epd check` on the formatted file finds no error the input did not have.
    CHECK(out.diags.count(epd::Severity::Error) <= in.diags.count(epd::Severity::Error));
    REQUIRE(in.doc.lines.size() == out.doc.lines.size());
    for (std::size_t i = 0; i < in.doc.lines.size(); ++i) {
      REQUIRE(in.doc.lines[i].record.has_value() == out.doc.lines[i].record.has_value());
      if (in.doc.lines[i].record)
        compare_record(*in.doc.lines[i].record, in.checked[i], *out.doc.lines[i].record, out.checked[i]);
      else
        CHECK(in.doc.lines[i].text == out.doc.lines[i].text);
    }
  }
}

TEST_CASE("Every shared suite: every diagnostic has a 1-based line and column", "[epd][data]") {
  for (const auto& file : shared_suites()) {
    INFO(file.string());
    const auto c = epd::check_document(test::read_file(file), {});
    for (const auto& d : c.diags.items()) {
      INFO(d.message);
      CHECK(d.line >= 1);
      CHECK(d.column >= 1);
    }
  }
}
