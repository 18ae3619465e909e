#include "annotate/html_page.hpp"

#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "annotate/summary_report.hpp"
#include "core/text.hpp"
#include "html/page.hpp"
#include "html/svg.hpp"

namespace epdd::annotate {

namespace {

using Json = nlohmann::json;

// ---- the summary, read ----

struct Side {
  int inaccuracies = 0, mistakes = 0, blunders = 0, moves = 0;
  std::optional<int> acpl;
  std::optional<double> accuracy;  // absent from summaries written before accuracy was
};

// A judgement's word in the JSON, its mark on the graph, and how the page writes it.
struct Kind {
  std::string_view json;
  html::MarkKind mark;
  const char* word;
  const char* sign;
};
constexpr Kind kKinds[] = {{"inaccuracy", html::MarkKind::Inaccuracy, "Inaccuracy", "?!"},
                           {"mistake", html::MarkKind::Mistake, "Mistake", "?"},
                           {"blunder", html::MarkKind::Blunder, "Blunder", "??"}};

struct Ply {
  std::string san;
  std::string eval;  // as shown: "+0.35", "#-3", "" for none
  std::optional<double> chances;
  const Kind* judgement = nullptr;  // none when the move was not judged so
  std::string better;
  std::optional<double> accuracy;
};

struct Game {
  long long number = 0;
  std::string white, black, event, date, result;
  Side white_side, black_side;
  int first_ply = 1;
  std::vector<Ply> plies;
};

struct Player {
  std::string name;
  int games = 0;
  Side side;
};

struct Run {
  std::string name, engine, limits;
  std::vector<Game> games;
  std::vector<Player> players;
  std::vector<std::string> kept;  // "line 12: why", the games written back unchanged
  std::vector<std::string> notes;
};

// A bad input: where in the JSON ("games[2].plies[7].wc") and what is wrong.
struct BadInput {
  std::string where, why;
};

const Json& member(const Json& object, const char* key, const std::string& where) {
  if (!object.is_object()) throw BadInput{where, "not an object"};
  const auto it = object.find(key);
  if (it == object.end()) throw BadInput{where, fmt::format("has no \"{}\"", key)};
  return *it;
}

std::string path(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }
std::string path(const std::string& where, std::size_t i) { return fmt::format("{}[{}]", where, i); }

std::string text(const Json& object, const char* key, const std::string& where) {
  const Json& v = member(object, key, where);
  if (!v.is_string()) throw BadInput{path(where, key), "not a string"};
  return v.get<std::string>();
}

long long whole(const Json& object, const char* key, const std::string& where) {
  const Json& v = member(object, key, where);
  if (!v.is_number_integer()) throw BadInput{path(where, key), "not a whole number"};
  return v.get<long long>();
}

int count(const Json& object, const char* key, const std::string& where) {
  const long long n = whole(object, key, where);
  if (n < 0 || n > 1'000'000'000) throw BadInput{path(where, key), fmt::format("{} is not a count", n)};
  return static_cast<int>(n);
}

const Json& array(const Json& object, const char* key, const std::string& where) {
  const Json& v = member(object, key, where);
  if (!v.is_array()) throw BadInput{path(where, key), "not an array"};
  return v;
}

// An accuracy: a number from 0 to 100, or null or absent (a summary from before accuracy was).
std::optional<double> percent_of(const Json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || object[key].is_null()) return std::nullopt;
  const Json& v = object[key];
  if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 100)
    throw BadInput{path(where, key), "not a percent from 0 to 100 or null"};
  return v.get<double>();
}

// SIDE's keys of `object` (a game side or a player).
Side side_of(const Json& object, const std::string& where) {
  Side s{count(object, "inaccuracies", where), count(object, "mistakes", where), count(object, "blunders", where),
         count(object, "moves", where), std::nullopt, std::nullopt};
  if (!member(object, "acpl", where).is_null()) s.acpl = count(object, "acpl", where);
  s.accuracy = percent_of(object, "accuracy", where);
  return s;
}

// The evaluation as the page shows it: centipawns as signed pawns, a mate's text as it is.
std::string eval_shown(const Json& v, const std::string& where) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_number_integer()) throw BadInput{where, "not centipawns, a mate's text or null"};
  const long long cp = v.get<long long>();
  return fmt::format("{}{}.{:02}", cp < 0 ? "-" : "+", std::llabs(cp) / 100, std::llabs(cp) % 100);
}

const Kind* judgement_of(const Json& ply, const std::string& where) {
  if (!ply.contains("judgement")) return nullptr;
  const std::string kind = text(ply, "judgement", where);
  for (const Kind& k : kKinds)
    if (k.json == kind) return &k;
  throw BadInput{path(where, "judgement"), fmt::format("\"{}\" is not inaccuracy, mistake or blunder", kind)};
}

Ply ply_of(const Json& j, const std::string& where) {
  Ply p;
  p.san = text(j, "san", where);
  p.eval = eval_shown(member(j, "eval", where), path(where, "eval"));
  const Json& wc = member(j, "wc", where);
  if (!wc.is_null() && !wc.is_number()) throw BadInput{path(where, "wc"), "not a number or null"};
  if (wc.is_number()) p.chances = wc.get<double>();
  p.judgement = judgement_of(j, where);
  if (j.contains("better")) p.better = text(j, "better", where);
  p.accuracy = percent_of(j, "accuracy", where);
  return p;
}

Game game_of(const Json& j, const std::string& where) {
  Game g;
  g.number = whole(j, "number", where);
  g.white = text(j, "white", where);
  g.black = text(j, "black", where);
  g.white_side = side_of(member(j, "white_side", where), path(where, "white_side"));
  g.black_side = side_of(member(j, "black_side", where), path(where, "black_side"));
  g.event = text(j, "event", where);
  g.date = text(j, "date", where);
  g.result = text(j, "result", where);
  const long long first = whole(j, "first_ply", where);
  if (first < 1 || first > 100'000) throw BadInput{path(where, "first_ply"), fmt::format("{} is not a ply", first)};
  g.first_ply = static_cast<int>(first);
  const Json& plies = array(j, "plies", where);
  for (std::size_t i = 0; i < plies.size(); ++i) g.plies.push_back(ply_of(plies[i], path(path(where, "plies"), i)));
  return g;
}

Run run_of(const Json& j, std::string name) {
  Run run;
  run.name = std::move(name);
  if (const std::string f = text(j, "format", ""); f != kAnnotationFormat)
    throw BadInput{"format", fmt::format("\"{}\" is not \"{}\"", f, kAnnotationFormat)};
  run.engine = text(j, "engine", "");
  run.limits = text(j, "limits", "");
  const Json& games = array(j, "games", "");
  for (std::size_t i = 0; i < games.size(); ++i) run.games.push_back(game_of(games[i], path("games", i)));
  const Json& players = array(j, "players", "");
  for (std::size_t i = 0; i < players.size(); ++i) {
    const std::string where = path("players", i);
    run.players.push_back({text(players[i], "name", where), count(players[i], "games", where), side_of(players[i], where)});
  }
  const Json& kept = array(j, "kept", "");
  for (std::size_t i = 0; i < kept.size(); ++i)
    run.kept.push_back(fmt::format("line {}: {}", whole(kept[i], "line", path("kept", i)), text(kept[i], "why", path("kept", i))));
  const Json& notes = array(j, "notes", "");
  for (std::size_t i = 0; i < notes.size(); ++i) {
    if (!notes[i].is_string()) throw BadInput{path("notes", i), "not a string"};
    run.notes.push_back(notes[i].get<std::string>());
  }
  return run;
}

Expected<Run, std::string> read_run(const SummaryInput& in) {
  const Json j = Json::parse(in.json, nullptr, false);
  if (j.is_discarded()) return unexpected(fmt::format("{}: not JSON", in.name));
  try {
    return run_of(j, in.name);
  } catch (const BadInput& bad) {
    return unexpected(fmt::format("{}: {}{}{}", in.name, bad.where, bad.where.empty() ? "" : ": ", bad.why));
  }
}

// ---- the page ----

// A player's name as shown ("(no name)" as summary_text says it), a tag's ("-" when absent).
std::string shown(const std::string& name) { return name.empty() ? "(no name)" : name; }
std::string tag_shown(const std::string& value) { return value.empty() ? "-" : value; }
std::string acpl_text(const Side& s) { return s.acpl ? std::to_string(*s.acpl) : "-"; }
std::string accuracy_text(std::optional<double> a) { return a ? fmt::format("{:.1f}%", *a) : "-"; }

std::vector<html::Cell> side_cells(const Side& s) {
  return {html::Cell::number(std::to_string(s.inaccuracies)), html::Cell::number(std::to_string(s.mistakes)),
          html::Cell::number(std::to_string(s.blunders)), html::Cell::number(acpl_text(s)),
          html::Cell::number(accuracy_text(s.accuracy)), html::Cell::number(std::to_string(s.moves))};
}

// A row: `first` cells, then the side's figures.
std::vector<html::Cell> row(std::vector<html::Cell> first, const Side& s) {
  for (html::Cell& c : side_cells(s)) first.push_back(std::move(c));
  return first;
}

// "12. Nf3" for White's 12th move, "12... Nf6" for Black's.
std::string numbered(int ply, const std::string& san) {
  return fmt::format("{}{} {}", (ply + 1) / 2, ply % 2 == 1 ? "." : "...", san);
}

void add_runs(html::Page& page, const std::vector<Run>& runs) {
  html::Section& s = page.add_section("runs", "Runs");
  html::Table table({"Input", "Engine", "Limits", "Games", "Kept unchanged"}, "runs");
  for (const Run& r : runs)
    table.add_row({r.name, r.engine, r.limits, html::Cell::number(std::to_string(r.games.size())),
                   html::Cell::number(std::to_string(r.kept.size()))});
  s.add(table);
  s.add_paragraph(
      "Each game's graph shows White's winning chances after each move, from +1 (White wins) to -1 (Black wins), "
      "lichess's 2 / (1 + exp(-0.00368208 cp)) - 1; the dots mark the judged moves: blue an inaccuracy, orange a "
      "mistake, red a blunder. A judged move's better move is the engine's first choice (\"-\" when that was the "
      "move played). Accuracy is lichess's: a move's from the mover's winning percent before and after it, a side's "
      "the mean of a volatility-weighted mean and a harmonic mean of its moves' (a player's: the mean of their "
      "games').");
  for (const Run& r : runs) {
    const std::string from = runs.size() > 1 ? r.name + ": " : "";
    for (const std::string& kept : r.kept) s.add_paragraph(from + "kept unchanged (not annotated), " + kept);
    for (const std::string& note : r.notes) s.add_paragraph(from + "note: " + note);
  }
}

void add_players(html::Page& page, const std::vector<Run>& runs) {
  html::Section& s = page.add_section("players", "Players");
  for (const Run& r : runs) {
    if (runs.size() > 1) s.add_paragraph(r.name + " (" + r.engine + ", " + r.limits + ")");
    html::Table table({"Player", "Games", "Inaccuracies", "Mistakes", "Blunders", "ACPL", "Accuracy", "Moves judged"}, "players");
    for (const Player& p : r.players) table.add_row(row({shown(p.name), html::Cell::number(std::to_string(p.games))}, p.side));
    s.add(table);
  }
}

html::Markup graph_of(const Game& g) {
  html::EvalGraph graph;
  graph.title = "White's winning chances";
  graph.first_ply = g.first_ply;
  for (std::size_t i = 0; i < g.plies.size(); ++i) {
    graph.values.push_back(g.plies[i].chances);
    if (g.plies[i].judgement) graph.marks.push_back({g.first_ply + static_cast<int>(i), g.plies[i].judgement->mark});
  }
  return html::eval_graph(graph);
}

// The main line as text: "1. e4 (+0.30) e5 (+0.41) 2. Ke2?? (-3.00)", a judged move with its sign.
html::Markup moves_text(const Game& g) {
  std::string out;
  for (std::size_t i = 0; i < g.plies.size(); ++i) {
    const int ply = g.first_ply + static_cast<int>(i);
    const Ply& p = g.plies[i];
    if (!out.empty()) out += ' ';
    if (ply % 2 == 1) out += fmt::format("{}. ", (ply + 1) / 2);
    else if (i == 0) out += fmt::format("{}... ", ply / 2);
    out += p.san;
    if (p.judgement) out += p.judgement->sign;
    if (!p.eval.empty()) out += " (" + p.eval + ")";
  }
  return html::Markup::trusted("<p class=\"moves\">" + html::escape(out) + "</p>");
}

void add_game(html::Page& page, const Run& run, std::size_t run_index, bool several, const Game& g) {
  const std::string id = several ? fmt::format("game-{}-{}", run_index + 1, g.number) : fmt::format("game-{}", g.number);
  html::Section& s = page.add_section(
      id, fmt::format("Game {}: {} - {}{}", g.number, shown(g.white), shown(g.black), g.result.empty() ? "" : ", " + g.result));
  s.add_paragraph(fmt::format("{}White: {}. Black: {}. Event: {}. Date: {}. Result: {}.",
                              several ? "From " + run.name + ". " : "", shown(g.white), shown(g.black), tag_shown(g.event),
                              tag_shown(g.date), tag_shown(g.result)));
  html::Table sides({"Side", "Player", "Inaccuracies", "Mistakes", "Blunders", "ACPL", "Accuracy", "Moves judged"}, "sides");
  sides.add_row(row({"White", shown(g.white)}, g.white_side));
  sides.add_row(row({"Black", shown(g.black)}, g.black_side));
  s.add(sides);
  s.add(graph_of(g));
  html::Table judged({"Move", "Judgement", "Evaluation after", "Accuracy", "Better move"}, "judged");
  for (std::size_t i = 0; i < g.plies.size(); ++i) {
    const Ply& p = g.plies[i];
    if (!p.judgement) continue;
    judged.add_row({numbered(g.first_ply + static_cast<int>(i), p.san), p.judgement->word,
                    html::Cell::number(p.eval.empty() ? "-" : p.eval), html::Cell::number(accuracy_text(p.accuracy)),
                    p.better.empty() ? "-" : p.better});
  }
  if (judged.rows() == 0) s.add_paragraph("No inaccuracy, mistake or blunder among the moves judged.");
  else s.add(judged);
  if (!g.plies.empty()) s.add_details(fmt::format("The moves ({} plies) with the evaluation after each", g.plies.size()),
                                      moves_text(g));
}

constexpr std::string_view kStyle =
    "table.judged td:nth-child(2){font-weight:bold}svg.eval-graph{display:block;margin:.5em 0}";

}  // namespace

Expected<std::string, std::string> annotation_page(std::span<const SummaryInput> inputs) {
  if (inputs.empty()) return unexpected(std::string("no annotation summary given"));
  std::vector<Run> runs;
  std::size_t games = 0;
  for (const SummaryInput& in : inputs) {
    auto run = read_run(in);
    if (!run) return unexpected(run.error());
    games += run->games.size();
    runs.push_back(std::move(*run));
  }
  const bool several = runs.size() > 1;
  html::Page page(several ? fmt::format("Annotated games: {} runs, {}", runs.size(), core::counted(games, "game", "games"))
                          : fmt::format("Annotated games: {} ({}, {})", runs[0].name, runs[0].engine, runs[0].limits));
  page.add_style(kStyle);
  add_runs(page, runs);
  add_players(page, runs);
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (const Game& g : runs[r].games) add_game(page, runs[r], r, several, g);
  return page.document();
}

}  // namespace epdd::annotate
