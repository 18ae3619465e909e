#include "book/contradictions.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "annotate/judgement.hpp"
#include "book/first_paths.hpp"
#include "core/notation.hpp"

namespace epdd::book {

namespace {

// The mover's wins and losses among a move's games.
std::uint32_t wins_of(const Contradiction& c) {
  return c.mover == core::Color::White ? c.stats.white_wins : c.stats.black_wins;
}
std::uint32_t losses_of(const Contradiction& c) {
  return c.mover == core::Color::White ? c.stats.black_wins : c.stats.white_wins;
}

// The kind of contradiction of a score and a value, if they contradict.
std::optional<ContradictionKind> kind_of(double score, int value, const ContradictionOptions& o) {
  if (score >= o.high_score && value <= -o.value_cp) return ContradictionKind::ScoresAboveValue;
  if (score <= o.low_score && value >= o.value_cp) return ContradictionKind::ScoresBelowValue;
  return std::nullopt;
}

// The move of edge e from `parent` judged, if it has the games and the value to be.
std::optional<Contradiction> judged(const Dag& dag, const Backsolved& values, const ContradictionOptions& o,
                                    NodeId parent, EdgeId e) {
  const Edge& edge = dag.edge(e);
  const auto& child_ce = values.nodes[edge.child].ce;
  Contradiction c;
  c.stats = edge.stats;
  c.scored_games = c.stats.white_wins + c.stats.draws + c.stats.black_wins;
  if (!child_ce || c.scored_games == 0 || c.scored_games < o.min_games) return std::nullopt;
  c.parent = parent;
  c.edge = e;
  c.mover = dag.key(parent)->side;
  c.score = (wins_of(c) + c.stats.draws / 2.0) / c.scored_games;
  c.value = ce_through_move(*child_ce);
  const auto kind = kind_of(c.score, c.value, o);
  if (!kind) return std::nullopt;
  c.kind = *kind;
  c.expected = (1.0 + annotate::winning_chances(c.value)) / 2.0;
  c.badness = std::abs(c.score - c.expected);
  return c;
}

double rounded(double x) { return std::round(x * 10000.0) / 10000.0; }

// A value for the mover as pawns or mate in moves ("+1.20", "#3").
std::string value_text(int ce) {
  const auto score = core::Score::from_ce(ce);
  return score ? score->to_pawns_string() : std::to_string(ce);
}

}  // namespace

std::vector<Contradiction> find_contradictions(const Dag& dag, const Backsolved& values,
                                               const ContradictionOptions& options) {
  const FirstPaths paths = first_paths(dag);
  std::vector<Contradiction> list;
  for (const NodeId n : paths.order) {
    if (dag.is_leaf(n)) continue;
    std::optional<core::Board> board;  // made for the first listed move only
    for (EdgeId e : dag.edges_of(n)) {
      auto c = judged(dag, values, options, n, e);
      if (!c) continue;
      if (!board) board = board_of(dag, n);
      c->move = core::to_san(*board, dag.edge(e).move);
      auto moves = first_path_moves(paths, n);
      moves.push_back(c->move);
      const NodeId root = paths.root[n];
      c->line = numbered_line(moves, dag.key(root)->side);
      if (root != 0) c->line = paths.label.at(root) + ": " + c->line;
      list.push_back(std::move(*c));
    }
  }
  std::stable_sort(list.begin(), list.end(), [](const Contradiction& a, const Contradiction& b) {
    if (a.badness != b.badness) return a.badness > b.badness;
    if (a.scored_games != b.scored_games) return a.scored_games > b.scored_games;
    return a.line < b.line;
  });
  return list;
}

std::string contradictions_text(const std::vector<Contradiction>& list) {
  if (list.empty()) return "no contradictions\n";
  std::string out = fmt::format("{:>7}  {:>6}  {:>5}  {:<14}  {:>7}  {:>8}  {}\n", "badness", "score", "games",
                                "mover +W =D -L", "value", "expected", "line");
  for (const Contradiction& c : list) {
    const std::string results = fmt::format("+{} ={} -{}", wins_of(c), c.stats.draws, losses_of(c));
    out += fmt::format("{:>7.3f}  {:>5.1f}%  {:>5}  {:<14}  {:>7}  {:>7.1f}%  {}\n", c.badness, 100.0 * c.score,
                       c.scored_games, results, value_text(c.value), 100.0 * c.expected, c.line);
  }
  return out;
}

std::string contradictions_json(const Dag& dag, const std::vector<Contradiction>& list) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const Contradiction& c : list) {
    nlohmann::ordered_json j;
    j["line"] = c.line;
    j["move"] = c.move;
    j["position"] = dag.epd(c.parent);
    j["mover"] = c.mover == core::Color::White ? "white" : "black";
    j["games"] = c.stats.games;
    j["white_wins"] = c.stats.white_wins;
    j["draws"] = c.stats.draws;
    j["black_wins"] = c.stats.black_wins;
    j["scored_games"] = c.scored_games;
    j["score"] = rounded(c.score);
    j["value"] = c.value;
    j["expected"] = rounded(c.expected);
    j["badness"] = rounded(c.badness);
    j["kind"] = c.kind == ContradictionKind::ScoresAboveValue ? "scores_above_value" : "scores_below_value";
    array.push_back(std::move(j));
  }
  return array.dump(2) + "\n";
}

}  // namespace epdd::book
