// Leaf values from an analyst's EPD: ce, pv, acd/acn/acs into LeafValues and LeafAnalyses.
#include "book/leaf_import.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "book/inputs.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "epd/document.hpp"

namespace epdd::book {

namespace {

// An integer operand (a leading '+' allowed, as in "+25"), or nullopt.
std::optional<long long> integer_of(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  long long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// What one record says about its leaf.
struct Imported {
  core::Score score = core::Score::centipawns(0);
  std::optional<uci::Analysis> analysis;  // when the record has pv, acd, acn or acs
};

// The record's pv as UCI moves from `board`, cut at the first move that is not legal (a note).
std::vector<std::string> pv_of(const epd::Operation& op, const core::Board& start, const std::string& where,
                               ImportReport& report) {
  std::vector<std::string> pv;
  core::Board board = start.detached();
  const auto castling = core::uci_castling_for(board);
  for (const epd::Operand& operand : op.operands) {
    auto move = core::parse_san(board, operand.text);
    if (!move) {
      report.notes.push_back(where + ": pv cut at \"" + operand.text + "\" (move " + std::to_string(pv.size() + 1) +
                             "): " + move.error().message);
      break;
    }
    pv.push_back(core::to_uci(move->move, castling));
    board.make_move(move->move);
  }
  return pv;
}

// A non-negative integer opcode's value; an error when present but not one.
bool count_of(const epd::EpdRecord& record, std::string_view opcode, std::uint64_t& out, bool& present,
              std::string& error) {
  if (!record.find(opcode)) return true;
  present = true;
  const auto text = record.single_operand(opcode);
  const auto value = text ? integer_of(*text) : std::nullopt;
  if (!value || *value < 0) {
    error = std::string(opcode) + " is not a count (a non-negative integer)";
    return false;
  }
  out = static_cast<std::uint64_t>(*value);
  return true;
}

// The value and analysis of a leaf's record, or why there is none.
Expected<Imported, std::string> read_leaf(const epd::EpdRecord& record, const core::Board& board,
                                          const ImportOptions& options, const std::string& where,
                                          ImportReport& report) {
  const auto ce_text = record.single_operand("ce");
  if (!record.find("ce")) return unexpected(std::string("no ce: a leaf's record needs its value"));
  auto ce = ce_text ? integer_of(*ce_text) : std::nullopt;
  if (!ce) return unexpected(std::string("ce is not an integer"));
  if (options.ce_for_white && board.side_to_move() == core::Color::Black) *ce = -*ce;
  auto score = core::Score::from_ce(*ce);
  if (!score) return unexpected("ce " + std::string(*ce_text) + ": " + score.error());
  Imported imported{*score, std::nullopt};
  std::uint64_t depth = 0, nodes = 0, seconds = 0;
  bool analysed = record.find("pv") != nullptr;
  std::string error;
  if (!count_of(record, "acd", depth, analysed, error) || !count_of(record, "acn", nodes, analysed, error) ||
      !count_of(record, "acs", seconds, analysed, error))
    return unexpected(error);
  if (!analysed) return imported;
  uci::Analysis a;
  a.depth = static_cast<int>(depth);
  a.nodes = nodes;
  a.time_ms = seconds * 1000;
  a.lines.resize(1);
  a.lines[0].depth = a.depth;
  a.lines[0].score = *score;
  a.lines[0].nodes = nodes;
  a.lines[0].time_ms = a.time_ms;
  if (const epd::Operation* pv = record.find("pv")) a.lines[0].pv = pv_of(*pv, board, where, report);
  if (!a.lines[0].pv.empty()) a.bestmove = a.lines[0].pv.front();
  imported.analysis = std::move(a);
  return imported;
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
