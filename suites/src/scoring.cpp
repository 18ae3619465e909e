#include "suites/scoring.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/core.h>

#include "core/notation.hpp"
#include "core/text.hpp"
#include "epd/matetrack.hpp"
#include "epd/opcodes.hpp"
#include "suites/write_back.hpp"

namespace epdd::suites {

namespace {

Expected<core::Move, std::string> read_move(const core::Board& board, std::string_view opcode, std::string_view text) {
  core::SanReadOptions options;
  options.verify_check_marks = false;
  auto move = core::parse_san(board, text, options);
  if (!move) return unexpected(fmt::format("{} {}: {}", opcode, core::quoted_escaped(text), move.error().message));
  return move->move;
}

// Every operand of the first `opcode` operation as a move.
Expected<std::vector<core::Move>, std::string> read_moves(const epd::EpdRecord& record, const core::Board& board,
                                                          std::string_view opcode) {
  std::vector<core::Move> out;
  const epd::Operation* op = record.find(opcode);
  if (!op) return out;
  for (const auto& operand : op->operands) {
    auto move = read_move(board, opcode, operand.text);
    if (!move) return unexpected(move.error());
    out.push_back(*move);
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> out;
  for (;;) {
    s = trim(s);
    if (s.empty()) return out;
    const auto end = std::min(s.find(' '), s.find('\t'));
    out.push_back(s.substr(0, end));
    if (end == std::string_view::npos) return out;
    s.remove_prefix(end);
  }
}

std::optional<int> read_points(std::string_view text) {
  int value = 0;
  text = trim(text);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// STS points: c0 "f5=10, Be5+=2" (the split is at the last '=': "e8=Q=10"), else c7 moves
// with c8 points. A c0 that is an ordinary comment (no '=') is not points.
Expected<std::vector<std::pair<core::Move, int>>, std::string> read_points_list(const epd::EpdRecord& record,
                                                                              const core::Board& board) {
  std::vector<std::pair<core::Move, int>> out;
  // c0 is points only when every entry reads as move=points; otherwise it is a comment.
  if (auto c0 = record.single_operand("c0"); c0 && c0->find('=') != std::string_view::npos) {
    std::string_view rest = *c0;
    bool points_list = true;
    while (!rest.empty() && points_list) {
      const auto comma = rest.find(',');
      const std::string_view entry = trim(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (entry.empty()) continue;
      const auto eq = entry.rfind('=');
      const auto points = eq == std::string_view::npos ? std::nullopt : read_points(entry.substr(eq + 1));
      auto move = points ? read_move(board, "c0", trim(entry.substr(0, eq))) : unexpected(std::string());
      if (!points || !move) points_list = false;
      else out.emplace_back(*move, *points);
    }
    if (points_list) return out;
    out.clear();
  }
  auto c7 = record.single_operand("c7");
  auto c8 = record.single_operand("c8");
  if (!c7 || !c8) return out;
  auto moves = split_words(*c7);
  auto points = split_words(*c8);
  if (moves.size() != points.size())
    return unexpected(fmt::format("c7 has {} moves but c8 {} points", moves.size(), points.size()));
  for (std::size_t i = 0; i < moves.size(); ++i) {
    auto move = read_move(board, "c7", moves[i]);
    if (!move) return unexpected(move.error());
    auto p = read_points(points[i]);
    if (!p) return unexpected(fmt::format("c8 '{}': not a number of points", points[i]));
    out.emplace_back(*move, *p);
  }
  return out;
}

std::string join_san(const core::Board& board, const std::vector<core::Move>& moves) {
  std::string out;
  for (auto m : moves) {
    if (!out.empty()) out += ' ';
    out += core::to_san(board, m);
  }
  return out;
}

bool contains(const std::vector<core::Move>& moves, core::Move m) {
  return std::find(moves.begin(), moves.end(), m) != moves.end();
}

}  // namespace

const char* to_string(Rule rule) {
  switch (rule) {
    case Rule::Unscored: return "unscored";
    case Rule::Bm: return "bm";
    case Rule::Am: return "am";
    case Rule::BmAm: return "bm+am";
    case Rule::Dm: return "dm";
    case Rule::Matetrack: return "matetrack";
  }
  return "?";
}

Expected<Expectation, std::string> expectation_of(const epd::EpdRecord& record, const core::Board& board) {
  Expectation e;
  // A matetrack key is the bm operand: there are no moves to read.
  e.mate_key = epd::matetrack_mate(record);
  auto bm = e.mate_key ? std::vector<core::Move>() : read_moves(record, board, "bm");
  if (!bm) return unexpected(bm.error());
  auto am = read_moves(record, board, "am");
  if (!am) return unexpected(am.error());
  e.bm = std::move(*bm);
  e.am = std::move(*am);
  if (auto dm = record.single_operand("dm")) {
    auto n = epd::parse_integer(*dm);
    if (!n || *n < 1 || *n > 500) return unexpected(fmt::format("dm '{}': not a number of moves from 1 to 500", *dm));
    e.dm = static_cast<int>(*n);
  }
  auto points = read_points_list(record, board);
  if (!points) return unexpected(points.error());
  e.points = std::move(*points);

  if (e.mate_key) {
    e.rule = Rule::Matetrack;
    e.text = "bm " + mate_text(*e.mate_key);
  } else if (e.dm) {
    e.rule = Rule::Dm;
    e.text = fmt::format("dm {}", *e.dm);
    if (!e.bm.empty()) e.text += fmt::format(" (bm {})", join_san(board, e.bm));
  } else if (!e.bm.empty() && !e.am.empty()) {
    e.rule = Rule::BmAm;
    e.text = fmt::format("bm {} am {}", join_san(board, e.bm), join_san(board, e.am));
  } else if (!e.bm.empty()) {
    e.rule = Rule::Bm;
    e.text = "bm " + join_san(board, e.bm);
  } else if (!e.am.empty()) {
    e.rule = Rule::Am;
    e.text = "am " + join_san(board, e.am);
  } else if (e.sts()) {
    // Points without bm: the moves with the most points are the solution.
    int best = 0;
    for (const auto& [m, p] : e.points) best = std::max(best, p);
    for (const auto& [m, p] : e.points)
      if (p == best) e.bm.push_back(m);
    e.rule = Rule::Bm;
    e.text = "bm " + join_san(board, e.bm);
  }
  return e;
}

namespace {

// Why line 1 has no mate to judge ("no mate found (score cp 35)"): no line, no mate score, or
// (for_side_to_move) a mate against the side to move. Empty when it has one.
std::string no_mate(const uci::Analysis& a, bool for_side_to_move) {
  if (a.lines.empty()) return "no score reported";
  const core::Score s = a.lines.front().score;
  if (!s.is_mate() || s.mate_plies() == 0 || (for_side_to_move && s.mate_plies() < 0))
    return fmt::format("no mate found (score {})", s.to_uci_string());
  return {};
}

// The mate line 1 reports for the side to move, if any, checked against its PV where the PV
// reaches the mate. Empty note: a mate no longer than `n` that holds.
std::string check_mate(const core::Board& board, const uci::Analysis& a, int n) {
  if (auto none = no_mate(a, true); !none.empty()) return none;
  const core::Score s = a.lines.front().score;
  if (s.mate_moves() > n) return fmt::format("mate in {}, longer than dm {}", s.mate_moves(), n);
  return mate_contradiction(board, a.lines.front());
}

// Why a matetrack record is not solved; empty when it is.
std::string mate_note(const MateResult& r, const uci::Analysis& a) {
  if (r.solved()) return {};
  if (!r.found) return no_mate(a, false);
  const std::string found = *r.found > 0 ? fmt::format("mate in {}", *r.found) : fmt::format("mated in {}", -*r.found);
  if (r.outcome == MateOutcome::Wrong) return fmt::format("{}: the wrong side for the key {}", found, mate_text(r.key));
  return fmt::format("{}, longer than the key {}", found, mate_text(r.key));
}

}  // namespace

Verdict score(const Expectation& e, const core::Board& board, const uci::Analysis& a) {
  Verdict v;
  v.scored = e.rule != Rule::Unscored;
  const auto castling = core::uci_castling_for(board);
  std::optional<core::Move> found;
  if (!a.bestmove.empty())
    if (auto m = core::parse_uci(board, a.bestmove, castling)) found = *m;
  if (found) v.found = core::to_san(board, *found);

  // Whether a move the engine had at some point would solve the record.
  const auto solves = [&](core::Move m) {
    switch (e.rule) {
      case Rule::Bm: return contains(e.bm, m);
      case Rule::Am: return !contains(e.am, m);
      case Rule::BmAm: return contains(e.bm, m) && !contains(e.am, m);
      case Rule::Dm:
      case Rule::Matetrack: return found && m == *found;  // the mate is judged on the final line
      case Rule::Unscored: return false;
    }
    return false;
  };
  if (e.sts()) {
    for (const auto& [m, p] : e.points) {
      v.max_points = std::max(v.max_points, p);
      if (found && m == *found) v.points = p;
    }
  }
  if (!v.scored) return v;
  if (!found) {
    v.note = "the engine had no move";
    return v;
  }
  if (e.rule == Rule::Dm) {
    v.note = check_mate(board, a, *e.dm);
    v.solved = v.note.empty();
  } else if (e.rule == Rule::Matetrack) {
    v.mate = score_mate_key(*e.mate_key, board, a);
    v.solved = v.mate->solved();
    v.note = mate_note(*v.mate, a);
  } else {
    v.solved = solves(*found);
  }
  if (!v.solved) return v;

  // The last run of reports whose move solves, up to the end, starts at the solution.
  std::optional<std::size_t> start;
  for (std::size_t i = a.iterations.size(); i-- > 0;) {
    auto m = core::parse_uci(board, a.iterations[i].move, castling);
    if (!m || !solves(*m)) break;
    start = i;
  }
  if (start) {
    const auto& it = a.iterations[*start];
    v.to_solution = ToSolution{it.depth, it.nodes, it.time_ms};
  } else {
    // The engine printed no line with the move (or switched at its last word): the whole search.
    v.to_solution = ToSolution{a.depth, a.nodes, a.time_ms};
  }
  return v;
}

std::string sts_theme(std::string_view id) {
  if (id.starts_with("STS")) {
    if (const auto close = id.find(") "); close != std::string_view::npos && close < 16) id.remove_prefix(close + 2);
    else if (const auto space = id.find(' '); space != std::string_view::npos) id.remove_prefix(space + 1);
  }
  if (const auto dot = id.rfind('.'); dot != std::string_view::npos && dot + 1 < id.size() &&
                                      id.find_first_not_of("0123456789", dot + 1) == std::string_view::npos)
    id = id.substr(0, dot);
  return std::string(trim(id));
}

}  // namespace epdd::suites
