// Leaf values from an analyst's EPD: ce, pv, acd/acn/acs into LeafValues and LeafAnalyses.
#include "book/leaf_import.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "book/analysis_record.hpp"
#include "book/inputs.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "epd/document.hpp"

namespace epdd::book {

namespace {

// What one record says about its leaf: the reader of analysis records annotate's --import uses too.
using Imported = RecordValue;

Expected<Imported, std::string> read_leaf(const epd::EpdRecord& record, const core::Board& board,
                                          const ImportOptions& options, const std::string& where,
                                          ImportReport& report) {
  return value_of_record(record, board, options.ce_for_white, where, report.notes);
}

// Puts an imported value in place of, or beside, what the leaf has (see Merge).
void merge(NodeId n, Imported imported, Merge how, LeafValues& values, LeafAnalyses& analyses,
           ImportReport& report) {
  const auto had = values.find(n);
  if (had != values.end() && how == Merge::Deeper) {
    const auto old = analyses.find(n);
    const int old_depth = old == analyses.end() ? 0 : old->second.depth;
    const int new_depth = imported.analysis ? imported.analysis->depth : 0;
    if (new_depth <= old_depth) {
      ++report.kept;
      return;
    }
  }
  ++(had == values.end() ? report.added : report.replaced);
  values.insert_or_assign(n, imported.score);
  if (imported.analysis)
    analyses.insert_or_assign(n, std::move(*imported.analysis));
  else
    analyses.erase(n);
}

}  // namespace

ImportReport import_leaf_values(const Dag& dag, std::string_view text, std::string_view name,
                                const ImportOptions& options, LeafValues& values, LeafAnalyses& analyses) {
  ImportReport report;
  std::vector<std::pair<std::size_t, std::string>> errors;  // by line, for the report in line order
  epd::Diagnostics diags;
  epd::EpdStreamReader reader(text, diags);
  epd::EpdLine line;
  while (reader.next(line)) {
    if (!line.record) continue;
    ++report.records;
    const epd::EpdRecord& record = *line.record;
    const std::size_t at = reader.line_number();
    const std::string where = std::string(name) + ":" + std::to_string(at);
    auto board = read_epd_position(record.position(), options.chess960);
    if (!board) {
      errors.emplace_back(at, where + ": not a legal position: " + board.error());
      continue;
    }
    const NodeId n = dag.find(*board);
    if (n == Dag::kNoNode) {
      ++report.not_in_book;
      continue;
    }
    if (!dag.is_leaf(n)) {
      ++report.not_a_leaf;
      continue;
    }
    if (dag.node(n).terminal != Terminal::None) {
      ++report.terminal;
      continue;
    }
    auto imported = read_leaf(record, *board, options, where, report);
    if (!imported) {
      errors.emplace_back(at, where + ": " + imported.error());
      continue;
    }
    ++report.matched;
    merge(n, std::move(*imported), options.merge, values, analyses, report);
  }
  for (const epd::Diagnostic& d : diags.items())
    if (d.severity == epd::Severity::Error)
      errors.emplace_back(d.line, core::escaped(name) + ":" + std::to_string(d.line) + ": " + core::one_line(d.message));
  std::stable_sort(errors.begin(), errors.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& e : errors) report.errors.push_back(std::move(e.second));
  return report;
}

}  // namespace epdd::book
