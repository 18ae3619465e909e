// An oracle for annotated PGN, independent of annotate/'s code: reads the text with the PGN
// reader, takes each main-line node's [%eval] with python-chess's own pattern, and recomputes
// the judgement NAGs (lichess's rule and the cp: rule, mate cases included) from the written
// evaluations with its own formulas. For annotate's unit tests and the CLI tests on real output.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "pgn/reader.hpp"

namespace epdd::test::oracle {

// python-chess chess.pgn EVAL_REGEX, as it is there.
inline const std::regex& eval_regex() {
  static const std::regex r(R"(\[%eval\s(?:#([+-]?\d+)|([+-]?(?:\d{0,10}\.\d{1,2}|\d{1,10}\.?)))(?:,(\d+))?\])");
  return r;
}
// The exact form epdd promises (issue 16): #N, #-N, or pawns with exactly two decimals and a
// minus sign only, then an optional ,depth.
inline const std::regex& strict_regex() {
  static const std::regex r(R"(^\[%eval (#-?\d+|-?\d+\.\d\d)(,\d+)?\]$)");
  return r;
}

// An evaluation from White's point of view.
struct WhiteEval {
  bool mate = false;
  int value = 0;              // centipawns, or mate moves (> 0 White mates, < 0 Black mates)
  bool white_mates = false;   // for mates: who mates ("#0" White has mated, "#-0" Black has)
};

// The node's [%eval] commands (every match of python-chess's pattern in its comments).
inline std::vector<std::string> eval_commands(const std::vector<std::string>& comments) {
  std::vector<std::string> out;
  for (const std::string& c : comments)
    for (auto it = std::sregex_iterator(c.begin(), c.end(), eval_regex()); it != std::sregex_iterator(); ++it)
      out.push_back(it->str());
  return out;
}

inline WhiteEval parse(const std::string& command) {
  std::smatch m;
  std::regex_search(command, m, eval_regex());
  WhiteEval e;
  if (m[1].matched) {
    e.mate = true;
    e.value = std::stoi(m[1].str());
    e.white_mates = m[1].str()[0] != '-';
  } else {
    e.value = static_cast<int>(std::lround(std::stod(m[2].str()) * 100));
  }
  return e;
}

inline std::vector<std::string> comments_of(const pgn::MoveNode& node) {
  std::vector<std::string> out;
  for (const pgn::Annotation& a : node.after)
    if (a.kind == pgn::Annotation::Kind::Comment) out.push_back(a.comment);
  return out;
}

// Each main-line position's evaluation (0 = start), nullopt where none is written.
inline std::vector<std::optional<WhiteEval>> evals(const pgn::Game& game) {
  std::vector<std::optional<WhiteEval>> out;
  const auto first = [](const std::vector<std::string>& comments) -> std::optional<WhiteEval> {
    const auto commands = eval_commands(comments);
    if (commands.empty()) return std::nullopt;
    return parse(commands.front());
  };
  out.push_back(first(game.main.comments_before));
  for (const pgn::MoveNode& node : game.main.moves) out.push_back(first(comments_of(node)));
  return out;
}

struct Rule {
  bool lichess = true;
  int inaccuracy = 0, mistake = 0, blunder = 0;  // the cp: rule's losses
};

// The mover's view of a White-view evaluation.
struct MoverEval {
  bool mate;
  bool mover_mates;  // mates only
  int cp;            // centipawns only
};
inline MoverEval mover_view(const WhiteEval& e, bool white_moved) {
  if (e.mate) return {true, e.white_mates == white_moved, 0};
  return {false, false, white_moved ? e.value : -e.value};
}

inline double wc(int cp) { return 2.0 / (1.0 + std::exp(-0.00368208 * cp)) - 1.0; }

// lila's capped centipawns (AccuracyCP): +-1000, a mate +-1000.
inline int capped(const MoverEval& e) {
  if (e.mate) return e.mover_mates ? 1000 : -1000;
  return std::clamp(e.cp, -1000, 1000);
}
inline int cp_loss(const MoverEval& before, const MoverEval& after) {
  return std::max(0, capped(before) - capped(after));
}

// The NAG the rule gives (0: none).
inline int judge(const Rule& rule, const MoverEval& b, const MoverEval& a) {
  if (!rule.lichess) {
    const int loss = cp_loss(b, a);
    return loss >= rule.blunder ? 4 : loss >= rule.mistake ? 2 : loss >= rule.inaccuracy ? 6 : 0;
  }
  if (!b.mate && !a.mate) {
    const double drop = wc(b.cp) - wc(a.cp);
    return drop >= 0.3 ? 4 : drop >= 0.2 ? 2 : drop >= 0.1 ? 6 : 0;
  }
  if (!b.mate && a.mate && !a.mover_mates) return b.cp < -999 ? 6 : b.cp < -700 ? 2 : 4;   // mate created
  if (b.mate && b.mover_mates && !a.mate) return a.cp > 999 ? 6 : a.cp > 700 ? 2 : 4;     // mate lost
  if (b.mate && b.mover_mates && a.mate && !a.mover_mates) return 4;                      // mate lost to mated
  return 0;
}

// Per main-line move (index p-1 for ply p): the NAG the rule gives from the written
// evaluations before and after it; nullopt where either is missing.
inline std::vector<std::optional<int>> expected_nags(const pgn::Game& game, const Rule& rule) {
  const auto e = evals(game);
  std::vector<std::optional<int>> out;
  core::Board board = game.start;
  for (std::size_t p = 1; p < e.size(); ++p) {
    const bool white = board.side_to_move() == core::Color::White;
    if (e[p - 1] && e[p]) out.push_back(judge(rule, mover_view(*e[p - 1], white), mover_view(*e[p], white)));
    else out.push_back(std::nullopt);
    const core::Move m = game.main.moves[p - 1].move;
    if (m.is_null()) board.make_null_move();
    else board.make_move(m);
  }
  return out;
}

// Per main-line move: its move-assessment NAG ($1-$6) as written, 0 when it has none.
inline std::vector<int> written_nags(const pgn::Game& game) {
  std::vector<int> out;
  for (const pgn::MoveNode& node : game.main.moves) {
    int nag = 0;
    for (const pgn::Annotation& a : node.after)
      if (a.kind == pgn::Annotation::Kind::Nag && a.nag >= 1 && a.nag <= 6 && nag == 0) nag = a.nag;
    out.push_back(nag);
  }
  return out;
}

// What is wrong with the evals of annotated output: every game's root and main-line nodes
// (those after which a position follows) must carry exactly one [%eval], in the strict form.
// Empty when all is well; also reports reader errors.
inline std::vector<std::string> eval_form_problems(std::string_view text) {
  pgn::Diagnostics diags;
  const auto games = pgn::read_games(text, diags);
  std::vector<std::string> problems;
  for (const pgn::Diagnostic& d : diags.items())
    if (d.severity == pgn::Severity::Error)
      problems.push_back("reader: " + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message);
  for (const pgn::Game& g : games) {
    const auto check = [&](const std::vector<std::string>& comments, const std::string& where) {
      const auto commands = eval_commands(comments);
      if (commands.size() != 1) {
        problems.push_back("game " + std::to_string(g.number) + " " + where + ": " + std::to_string(commands.size()) +
                           " [%eval] commands");
        return;
      }
      if (!std::regex_match(commands.front(), strict_regex()))
        problems.push_back("game " + std::to_string(g.number) + " " + where + ": " + commands.front() + " is not in the strict form");
    };
    check(g.main.comments_before, "start position");
    for (std::size_t p = 0; p < g.main.moves.size(); ++p) check(comments_of(g.main.moves[p]), "ply " + std::to_string(p + 1));
  }
  return problems;
}

}  // namespace epdd::test::oracle
