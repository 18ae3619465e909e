#include "suites/write_back.hpp"

#include <algorithm>
#include <string>

#include "core/notation.hpp"
#include "epd/check.hpp"

namespace epdd::suites {

namespace {

std::vector<epd::Operand> plain(std::string text) { return {epd::Operand{std::move(text), false, 0}}; }

// The record's operations as opcode -> operand texts, one entry per occurrence.
std::multimap<std::string, std::vector<std::string>> snapshot(const epd::EpdRecord& record) {
  std::multimap<std::string, std::vector<std::string>> out;
  for (const epd::Operation& op : record.operations()) {
    if (op.opcode.empty()) continue;
    std::vector<std::string> texts;
    for (const epd::Operand& a : op.operands) texts.push_back(a.text);
    out.emplace(op.opcode, std::move(texts));
  }
  return out;
}

WriteBackChanges compare(const std::multimap<std::string, std::vector<std::string>>& before,
                         const epd::EpdRecord& record) {
  WriteBackChanges changes;
  const auto after = snapshot(record);
  for (auto it = before.begin(); it != before.end(); it = before.upper_bound(it->first)) {
    const std::string& opcode = it->first;
    const std::size_t had = before.count(opcode), has = after.count(opcode);
    for (std::size_t k = has; k < had; ++k) changes.removed.push_back(opcode);
    const bool key = opcode == "am" || opcode == "bm" || opcode == "dm";
    if (key && has > 0 && after.find(opcode)->second != it->second) changes.changed.push_back(opcode);
  }
  return changes;
}

}  // namespace

void ChangeCounts::add(const WriteBackChanges& c) {
  for (const auto& op : c.removed) ++removed_[op];
  for (const auto& op : c.changed) ++changed_[op];
}

std::string ChangeCounts::describe() const {
  std::string out;
  const auto list = [&](const std::map<std::string, std::size_t>& counts, const char* what) {
    std::vector<std::pair<std::size_t, std::string>> rows;
    for (const auto& [op, n] : counts) rows.emplace_back(n, op);
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [n, op] : rows) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + op + " " + what;
  };
  list(removed_, "removed");
  list(changed_, "changed");
  return out;
}

bool has_analysis(const epd::EpdRecord& record) {
  for (const char* op : kAnalysisOpcodes)
    if (record.find(op)) return true;
  return false;
}

std::vector<std::string> san_line(const core::Board& start, const std::vector<std::string>& uci_moves) {
  std::vector<std::string> out;
  core::Board board = start.detached();
  const auto castling = core::uci_castling_for(start);
  for (const auto& text : uci_moves) {
    auto move = core::parse_uci(board, text, castling);
    if (!move) break;
    out.push_back(core::to_san(board, *move));
    board.make_move(*move);
  }
  return out;
}

std::vector<std::string> engine_line(const core::Board& board, const uci::Analysis& a) {
  if (a.bestmove.empty()) return {};
  // Line 1 as the engine's deepest complete iteration left it; the bestmove alone without one.
  if (!a.lines.empty() && !a.lines.front().pv.empty()) return san_line(board, a.lines.front().pv);
  return san_line(board, {a.bestmove});
}

std::string mate_contradiction(const core::Board& start, const uci::PvLine& line) {
  // Only a mate for the side to move is a claim of dm.
  if (!line.score.is_mate() || line.score.mate_plies() <= 0) return {};
  return uci::mate_contradiction(start, line, core::uci_castling_for(start));
}

WriteBackChanges write_analysis(epd::EpdRecord& record, const core::Board& board, const uci::Analysis& a,
                                const WriteBackOptions& options) {
  const auto before = snapshot(record);
  const auto set_or_erase = [&](const char* opcode, std::vector<epd::Operand> operands) {
    if (operands.empty()) record.erase(opcode);
    else record.set(opcode, std::move(operands));
  };
  const bool terminal = a.status == core::GameStatus::Checkmate || a.status == core::GameStatus::Stalemate;
  record.set("acd", plain(std::to_string(terminal ? 0 : a.depth)));
  record.set("acn", plain(std::to_string(terminal ? 0 : a.nodes)));
  record.set("acs", plain(std::to_string(terminal ? 0 : a.time_ms / 1000)));

  std::optional<core::Score> score;
  if (a.status == core::GameStatus::Checkmate) score = core::Score::mate_in_plies(0);  // ce -32767: mated now
  else if (a.status == core::GameStatus::Stalemate) score = core::Score::centipawns(0);
  else if (!a.lines.empty()) score = a.lines.front().score;
  if (score) {
    int ce = score->to_ce();
    // Negating the ce number (not the score) keeps "checkmated now" right: mate in 0 has no sign.
    if (options.ce_for_white && board.side_to_move() == core::Color::Black) ce = -ce;
    record.set("ce", plain(std::to_string(ce)));
  } else {
    record.erase("ce");
  }

  std::vector<epd::Operand> pm, pv, bm, dm;
  const auto line = engine_line(board, a);
  if (!line.empty()) {
    pm = plain(line.front());
    bm = plain(line.front());
  }
  for (const auto& san : line) pv.push_back(epd::Operand{san, false, 0});
  set_or_erase("pm", std::move(pm));
  set_or_erase("pv", std::move(pv));
  if (options.solution_opcodes) {
    set_or_erase("bm", std::move(bm));
    // A forced mate only where the PV does not contradict it.
    if (score && score->is_mate() && score->mate_plies() > 0 && !a.lines.empty() &&
        mate_contradiction(board, a.lines.front()).empty())
      dm = plain(std::to_string(score->mate_moves()));
    set_or_erase("dm", std::move(dm));
  }
  if (options.counters_as_operations) epd::counters_to_operations(record);
  return compare(before, record);
}

}  // namespace epdd::suites
