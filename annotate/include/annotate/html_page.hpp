// The annotation page (issue 20): one self-contained HTML document made from the JSON summaries
// of annotation runs (summary_report.hpp, format "epdd annotation 1"), the page `epdd report`
// writes for them.
//
// What it shows, in this order:
// - "Runs": a table with a row per input (its name, engine, limits, games, games written back
//   unchanged), how to read the graphs, the games written back unchanged (line and why) and
//   the runs' notes;
// - "Players": per input a table with a row per player (games, inaccuracies, mistakes, blunders,
//   ACPL, moves judged), as the summary has them (a run's totals are not added across runs:
//   the JSON's ACPL is rounded, and the same name in two runs may be two players);
// - a section per game, of every input in input order: its tags (players, event, date,
//   result), a table of the two sides' counts and ACPL, the evaluation graph (White's winning
//   chances per ply, lichess's view, a mark per judged ply coloured by kind) and the table of its
//   inaccuracies, mistakes and blunders: the move played (numbered), the judgement, the
//   evaluation after it and the better move.
// Several inputs make one page with all their games, each game's section naming its input.
//
// What it promises: every string of the input (names, tags, moves, evaluations, notes) reaches
// the page escaped, through html/; the page has no script and fetches nothing. Classes name what
// a test counts: table.runs, table.players, table.sides, table.judged (a row per judged move),
// svg.eval-graph (one per game) with circle.mark.inaccuracy|mistake|blunder.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "annotate/summary_report.hpp"  // kAnnotationFormat, the "format" this page is for
#include "core/expected.hpp"

namespace epdd::annotate {

// One annotation summary: the name it is shown by (a file, "job 12") and its JSON text.
struct SummaryInput {
  std::string name;
  std::string json;
};

// The page of one or more summaries. An input that is not such a summary (not JSON, another
// format, a key missing or of the wrong type) is an error naming the input and the place in it
// ("kasparov.json: games[2].plies[7].wc: not a number or null"); nothing is thrown.
Expected<std::string, std::string> annotation_page(std::span<const SummaryInput> inputs);

// The same for any inputs with a `name` and a `json` (`epdd report`'s ReportInput).
template <class Inputs>
Expected<std::string, std::string> annotation_page_of(const Inputs& inputs) {
  std::vector<SummaryInput> copies;
  for (const auto& in : inputs) copies.push_back({in.name, in.json});
  return annotation_page(copies);
}

}  // namespace epdd::annotate
