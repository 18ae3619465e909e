// The book-grow kind's plan (daemon/src/kinds/book_grow_kind.cpp) over a store that is a list of
// rows here: the growth goes on only once every item of a round is answered, whatever the order
// the answers come in; a plan made afresh from the same rows (a rerun, another daemon, a render)
// gives the same items; a failed item is a final answer; a row for another position is not taken.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/board.hpp"
#include "core/fen.hpp"
#include "core/notation.hpp"
#include "daemon/analysis_run.hpp"
#include "daemon/job_kind.hpp"
#include "store/analysis_json.hpp"
#include "store/store.hpp"

using namespace epdd;

namespace {

// The rows of a job's items as a store would hold them.
struct Rows {
  std::map<std::size_t, store::ItemRow> rows;
  std::vector<store::ItemRow> read(std::size_t first, std::size_t last) const {
    std::vector<store::ItemRow> out;
    for (auto it = rows.lower_bound(first); it != rows.end() && it->first < last; ++it) out.push_back(it->second);
    return out;
  }
  // The plan's items added as Pending (items already there kept, as Store::add_items does).
  void add(const std::map<std::size_t, uci::AnalysisRequest>& planned) {
    for (const auto& [i, r] : planned)
      if (!rows.count(i)) {
        store::ItemRow row;
        row.index = static_cast<std::int64_t>(i);
        row.key = daemon::cache_key(r, "E");
        row.state = store::ItemState::Pending;
        rows.emplace(i, row);
      }
  }
  // An answer: its first legal move, a score from the position.
  void answer(std::size_t i, const std::map<std::size_t, uci::AnalysisRequest>& planned, bool fail = false) {
    store::ItemRow& row = rows.at(i);
    if (fail) {
      row.state = store::ItemState::Failed;
      row.error = "engine crashed";
      return;
    }
    const auto board = core::parse_fen(planned.at(i).fen);
    REQUIRE(board);
    uci::Analysis a;
    a.engine = "E";
    uci::PvLine line;
    line.score = core::Score::centipawns(static_cast<int>(planned.at(i).fen.size() * 7 % 90) - 45);
    line.pv = {core::to_uci(board->legal_moves()[0])};
    a.lines = {line};
    row.state = store::ItemState::Done;
    row.result = store::analysis_to_json(a);
  }
};

struct Grower {
  const daemon::JobKind& kind = *daemon::find_kind("book-grow");
  daemon::JobSpec spec;
  daemon::AnalysisRun run;
  explicit Grower(const Rows& rows, bool extend) {
    spec.kind = "book-grow";
    spec.limits.nodes = 1000;
    spec.options["expansions"] = "6";
    const auto bytes = kind.read_input("", spec);
    REQUIRE(bytes);
    run = kind.start(*bytes, spec);
    run.items = [&rows](std::size_t first, std::size_t last) { return rows.read(first, last); };
    run.extend = extend;
  }
  std::map<std::size_t, uci::AnalysisRequest> plan() { return kind.plan(spec, run); }
};

std::vector<std::string> fens(const std::map<std::size_t, uci::AnalysisRequest>& planned) {
  std::vector<std::string> out;
  for (const auto& [i, r] : planned) out.push_back(r.fen);
  return out;
}

}  // namespace

TEST_CASE("book-grow's plan: rounds wait for every answer in any order, and a fresh plan of the same rows is the same",
          "[daemon][grow]") {
  REQUIRE(daemon::find_kind("book-grow"));
  Rows rows;
  Grower live(rows, true);
  auto planned = live.plan();
  REQUIRE(planned.size() == 1);  // the start position
  rows.add(planned);
  rows.answer(0, planned);
  planned = live.plan();
  REQUIRE(planned.size() == 21);  // and its 20 children
  rows.add(planned);
  // Round after round, the answers given back to front, a few at a time, the last one failed:
  // no round is planned before the one before is answered whole.
  for (int round = 0; round < 5; ++round) {
    std::vector<std::size_t> pending;
    for (const auto& [i, row] : rows.rows)
      if (row.state == store::ItemState::Pending) pending.push_back(i);
    REQUIRE_FALSE(pending.empty());
    std::reverse(pending.begin(), pending.end());
    for (std::size_t k = 0; k < pending.size(); ++k) {
      const std::size_t before = planned.size();
      rows.answer(pending[k], planned, round == 4 && k == 0);
      planned = live.plan();
      INFO("round " << round << ", answer " << k << " of " << pending.size());
      if (k + 1 < pending.size()) CHECK(planned.size() == before);
    }
    CHECK(planned.size() > rows.rows.size());
    rows.add(planned);
  }
  // A rerun, another daemon and a render plan from the rows alone: the same items, in order.
  Grower again(rows, true);
  CHECK(fens(again.plan()) == fens(planned));
  std::map<std::size_t, uci::AnalysisRequest> stored_only;
  for (const auto& [i, r] : planned)
    if (rows.rows.count(i)) stored_only.emplace(i, r);
  Grower render(rows, false);
  CHECK(fens(render.plan()) == fens(stored_only));
}

TEST_CASE("book-grow's plan: a row holding another position than the growth's item is not taken", "[daemon][grow]") {
  Rows rows;
  Grower live(rows, true);
  auto planned = live.plan();
  rows.add(planned);
  rows.answer(0, planned);
  planned = live.plan();
  rows.add(planned);
  for (std::size_t i = 1; i < planned.size(); ++i) rows.answer(i, planned);
  // Item 5 holds another position's key (a store whose growth went another way).
  rows.rows.at(5).key = rows.rows.at(6).key;
  Grower other(rows, true);
  CHECK(other.plan().size() == planned.size());  // stopped at item 5: no round after it
}
