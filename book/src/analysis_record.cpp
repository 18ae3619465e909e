#include "book/analysis_record.hpp"

#include <algorithm>
#include <charconv>
#include <utility>

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

// The record's pv as UCI moves from `board`, cut at the first move that is not legal (a note).
std::vector<std::string> pv_of(const epd::Operation& op, const core::Board& start, const std::string& where,
                               std::vector<std::string>& notes) {
  std::vector<std::string> pv;
  core::Board board = start.detached();
  const auto castling = core::uci_castling_for(board);
  for (const epd::Operand& operand : op.operands) {
    auto move = core::parse_san(board, operand.text);
    if (!move) {
      notes.push_back(where + ": pv cut at \"" + operand.text + "\" (move " + std::to_string(pv.size() + 1) +
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

}  // namespace

Expected<RecordValue, std::string> value_of_record(const epd::EpdRecord& record, const core::Board& board,
                                                   bool ce_for_white, const std::string& where,
                                                   std::vector<std::string>& notes) {
  const auto ce_text = record.single_operand("ce");
  if (!record.find("ce")) return unexpected(std::string("no ce: a record needs its value"));
  auto ce = ce_text ? integer_of(*ce_text) : std::nullopt;
  if (!ce) return unexpected(std::string("ce is not an integer"));
  if (ce_for_white && board.side_to_move() == core::Color::Black) *ce = -*ce;
  auto score = core::Score::from_ce(*ce);
  if (!score) return unexpected("ce " + std::string(*ce_text) + ": " + score.error());
  RecordValue value{*score, std::nullopt};
  std::uint64_t depth = 0, nodes = 0, seconds = 0;
  bool analysed = record.find("pv") != nullptr;
  std::string error;
  if (!count_of(record, "acd", depth, analysed, error) || !count_of(record, "acn", nodes, analysed, error) ||
      !count_of(record, "acs", seconds, analysed, error))
    return unexpected(error);
  if (!analysed) return value;
  uci::Analysis a;
  a.depth = static_cast<int>(depth);
  a.nodes = nodes;
  a.time_ms = seconds * 1000;
  a.lines.resize(1);
  a.lines[0].depth = a.depth;
  a.lines[0].score = *score;
  a.lines[0].nodes = nodes;
  a.lines[0].time_ms = a.time_ms;
  if (const epd::Operation* pv = record.find("pv")) a.lines[0].pv = pv_of(*pv, board, where, notes);
  if (!a.lines[0].pv.empty()) a.bestmove = a.lines[0].pv.front();
  value.analysis = std::move(a);
  return value;
}

ImportedAnalyses import_analyses(std::string_view text, std::string_view name) {
  ImportedAnalyses out;
  std::vector<std::pair<std::size_t, std::string>> errors;  // by line, for the report in line order
  epd::Diagnostics diags;
  epd::EpdStreamReader reader(text, diags);
  epd::EpdLine line;
  const std::string file = core::escaped(name);
  while (reader.next(line)) {
    if (!line.record) continue;
    ++out.records;
    const std::size_t at = reader.line_number();
    const std::string where = file + ":" + std::to_string(at);
    auto board = epd::position_board(line.record->position());
    if (!board) {
      errors.emplace_back(at, where + ": not a legal position: " + board.error());
      continue;
    }
    auto value = value_of_record(*line.record, *board, false, where, out.notes);
    if (!value) {
      errors.emplace_back(at, where + ": " + value.error());
      continue;
    }
    uci::Analysis a;
    if (value->analysis) a = std::move(*value->analysis);
    else {
      a.lines.resize(1);
      a.lines[0].score = value->score;
    }
    out.by_key.insert_or_assign(board->polyglot_key(), std::move(a));
  }
  for (const epd::Diagnostic& d : diags.items())
    if (d.severity == epd::Severity::Error) errors.emplace_back(d.line, file + ":" + std::to_string(d.line) + ": " + core::one_line(d.message));
  std::stable_sort(errors.begin(), errors.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (auto& e : errors) out.errors.push_back(std::move(e.second));
  return out;
}

}  // namespace epdd::book
