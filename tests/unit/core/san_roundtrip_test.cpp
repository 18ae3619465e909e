// Every mainline move of real PGN files is read, played and written back; the written SAN must
// equal the file's (canonical) SAN. The movetext scan here is deliberately minimal (tags,
// comments, variations, NAGs, move numbers, results) until the PGN module brings the real
// reader; variations are skipped because their positions would need that reader.
#include <cctype>

#include "core_test_support.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

struct RoundTrip {
  int games = 0;
  long moves = 0;
  long mismatches = 0;
  long lenient = 0;
  std::vector<std::string> problems;  // the first few, for the failure message
};

bool is_result(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

std::string tag_value(std::string_view line) {
  const auto open = line.find('"');
  const auto close = line.rfind('"');
  return open == std::string_view::npos || close <= open ? std::string() : std::string(line.substr(open + 1, close - open - 1));
}

RoundTrip round_trip(const std::string& text) {
  RoundTrip r;
  core::Board board;
  std::string fen;
  bool chess960 = false;
  bool in_movetext = false;
  int depth = 0;
  auto report = [&](std::string what) {
    if (r.problems.size() < 10) r.problems.push_back("game " + std::to_string(r.games) + ": " + what);
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '[' && !in_movetext && depth == 0) {
      const std::size_t end = text.find('\n', i);
      const std::string_view line(text.data() + i, (end == std::string::npos ? text.size() : end) - i);
      if (line.rfind("[FEN ", 0) == 0) fen = tag_value(line);
      if (line.rfind("[Variant ", 0) == 0) chess960 = tag_value(line).find("960") != std::string::npos ||
                                                     tag_value(line) == "fischerandom";
      i = end == std::string::npos ? text.size() : end;
      continue;
    }
    if (c == '{') {
      i = text.find('}', i);
      i = i == std::string::npos ? text.size() : i + 1;
      continue;
    }
    if (c == ';') {
      i = text.find('\n', i);
      continue;
    }
    if (c == '(' || c == ')') {
      depth += c == '(' ? 1 : -1;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           std::string_view("{}();").find(text[end]) == std::string_view::npos)
      ++end;
    std::string token = text.substr(i, end - i);
    i = end;
    if (depth > 0 || token[0] == '$') continue;
    if (!in_movetext) {
      in_movetext = true;
      ++r.games;
      board = fen.empty() ? core::Board() : test::board_from(fen, chess960);
    }
    if (is_result(token)) {
      in_movetext = false;
      fen.clear();
      chess960 = false;
      continue;
    }
    std::size_t digits = 0;
    while (digits < token.size() && std::isdigit(static_cast<unsigned char>(token[digits]))) ++digits;
    if (digits > 0 && digits < token.size() && token[digits] == '.') {
      token.erase(0, token.find_first_not_of('.', digits));
      if (token.empty() || token.find_first_not_of('.') == std::string::npos) continue;
    }
    auto m = core::parse_san(board, token);
    if (!m) {
      report("'" + token + "': " + m.error().message);
      ++r.mismatches;
      depth = 1 << 20;  // skip the rest of this game's movetext
      continue;
    }
    const std::string written = core::to_san(board, m->move);
    const std::string bare = token.substr(0, token.size() - m->annotation.size());
    if (m->leniency != core::Leniency::None) {
      ++r.lenient;
      report("'" + token + "' read leniently: " + core::describe(m->leniency));
    } else if (written != bare) {
      ++r.mismatches;
      report("'" + token + "' written back as '" + written + "'");
    }
    board.make_move(m->move);
    ++r.moves;
  }
  return r;
}

}  // namespace

TEST_CASE("SAN round trip over TWIC 920 (2245 games)", "[core][san][data]") {
  const RoundTrip r = round_trip(test::read_file(test::shared_data("pgn/twic0920.pgn")));
  for (const auto& p : r.problems) UNSCOPED_INFO(p);
  CHECK(r.games == 2245);
  CHECK(r.moves == 182591);
  CHECK(r.mismatches == 0);
  CHECK(r.lenient == 0);
}

TEST_CASE("SAN round trip over Chess960 games from cutechess", "[core][san][data][chess960]") {
  const RoundTrip r = round_trip(test::read_file(test::shared_data("pgn/chess960-cutechess.pgn")));
  for (const auto& p : r.problems) UNSCOPED_INFO(p);
  CHECK(r.games == 4);
  CHECK(r.moves == 396);
  CHECK(r.mismatches == 0);
  CHECK(r.lenient == 0);
}
