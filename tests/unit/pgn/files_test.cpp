// Every PGN in ../shared/data (edge cases included): read without a crash, games and
// diagnostics pinned by kind, and both round trips (tree and bytes) exact.
#include "pgn_test_support.hpp"
#include "test_support.hpp"

using namespace epdd;

namespace {

using Kinds = std::map<std::string, std::size_t>;

struct File {
  const char* path;
  std::size_t games;
  Kinds kinds;
};

// Every kind named is a real quirk of its file: e.g. cutechess's TimeControl "10+0.05",
// lichess's "180+0", Date "1957" in fischer.pgn, the nested braces of nested-comment.pgn.
const File kFiles[] = {
    {"pgn/chess960-cutechess.pgn", 4, {{"tag-value", 4}}},
    {"pgn/heavily-annotated.pgn", 1, {{"move-form", 3}, {"tag-value", 1}}},
    {"pgn/kasparov-deep-blue-1997.pgn", 6, {{"tag-value", 6}}},
    {"pgn/lichess-eval-clk.pgn", 8, {{"line-too-long", 1}, {"tag-value", 16}}},
    {"pgn/tcec-engine-comments.pgn", 100, {{"line-too-long", 1}}},
    {"pgn/twic0920.pgn", 2245, {}},
    {"pgn/edge-cases/fischer.pgn", 34, {{"tag-value", 30}}},
    {"pgn/edge-cases/najdorf.pgn", 8, {}},
    {"pgn/edge-cases/nested-comment.pgn", 1, {{"brace-in-comment", 1}, {"illegal-move", 1}}},
    {"pgn/edge-cases/petrosian.pgn", 35, {{"tag-value", 7}}},
    {"pgn/edge-cases/test-allownullmoves.pgn", 2, {{"null-move", 2}}},
    {"pgn/edge-cases/test-checkmate.pgn", 2, {{"tag-value", 1}}},
    {"pgn/edge-cases/test-e.pgn", 6, {{"tag-value", 2}}},
    {"pgn/edge-cases/test-fifty.pgn", 2, {}},
    {"pgn/edge-cases/test-fixresulttags-in.pgn", 5, {}},
    {"pgn/edge-cases/test-fuzzydepth.pgn", 4, {}},
    {"pgn/edge-cases/test-long-line.pgn", 1, {}},
    {"pgn/edge-cases/test-nagcomments.pgn", 1, {}},
    {"pgn/edge-cases/test-nobadresults.pgn", 9, {{"result-mismatch", 9}, {"tag-value", 54}}},
    {"pgn/edge-cases/test-nomovenumbers.pgn", 1, {{"tag-value", 1}}},
    {"pgn/edge-cases/test-promotion-in.pgn", 8, {{"move-form", 8}, {"tag-value", 56}}},
    {"pgn/edge-cases/test-repetition.pgn", 12, {}},
    {"pgn/edge-cases/test-setup-in.pgn", 2, {}},
    {"pgn/edge-cases/test-splitvariants.pgn", 1, {}},
    {"pgn/edge-cases/test-stalemate.pgn", 3, {{"tag-value", 1}}},
    {"books/2moves_v2.pgn", 12092, {{"crlf", 1}}},
};

std::string export_all(const std::vector<pgn::Game>& games) {
  std::string out;
  for (const auto& g : games) pgn::append_game(out, g);
  return out;
}

}  // namespace

TEST_CASE("Shared PGN files: games and diagnostics pinned, both round trips exact", "[pgn][data]") {
  for (const File& f : kFiles) {
    INFO(f.path);
    const auto first = test::read(test::read_file(test::shared_data(f.path)));
    CHECK(first.games.size() == f.games);
    CHECK(test::count_kinds(first.diags) == f.kinds);
    // import -> export -> import: the same trees.
    const std::string exported = export_all(first.games);
    const auto second = test::read(exported);
    REQUIRE(second.games.size() == first.games.size());
    std::size_t same = 0;
    for (std::size_t i = 0; i < first.games.size(); ++i) same += first.games[i].same_tree(second.games[i]);
    CHECK(same == first.games.size());
    // export -> import -> export: the same bytes.
    CHECK(export_all(second.games) == exported);
  }
}

TEST_CASE("Shared PGN files: every diagnostic has a 1-based line and column", "[pgn][data]") {
  // An editor jumps to FILE:LINE:COLUMN: column 0 (a missing-tag warning once said 1:0) is none.
  for (const File& f : kFiles) {
    INFO(f.path);
    const auto r = test::read(test::read_file(test::shared_data(f.path)));
    for (const auto& d : r.diags.items()) {
      INFO(d.message);
      CHECK(d.line >= 1);
      CHECK(d.column >= 1);
    }
  }
}
