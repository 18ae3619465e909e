#include "annotate/summary_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "annotate/eval_comment.hpp"
#include "core/text.hpp"

namespace epdd::annotate {

namespace {

using Json = nlohmann::ordered_json;

// An accuracy as the JSON gives it: rounded to one decimal.
double one_decimal(double v) { return std::round(v * 10) / 10; }

// An accuracy as a terminal shows it: a whole percent, rounded as lichess shows its own.
std::string percent_text(std::optional<double> v) { return v ? fmt::format("{}%", std::lround(*v)) : "-"; }

// SIDE's keys added to `j`.
void add_side(Json& j, const SideSummary& s) {
  j["inaccuracies"] = s.inaccuracies;
  j["mistakes"] = s.mistakes;
  j["blunders"] = s.blunders;
  j["moves"] = s.moves;
  const auto acpl = s.average_centipawn_loss();
  j["acpl"] = acpl ? Json(*acpl) : Json(nullptr);
  const auto accuracy = s.accuracy();
  j["accuracy"] = accuracy ? Json(one_decimal(*accuracy)) : Json(nullptr);
}

Json side_json(const SideSummary& s) {
  Json j = Json::object();
  add_side(j, s);
  return j;
}

std::string side_text(const SideSummary& s) {
  const auto acpl = s.average_centipawn_loss();
  const auto n = [](int count) { return static_cast<std::size_t>(std::max(count, 0)); };
  return fmt::format("{}, {}, {}, ACPL {}, accuracy {} ({} judged)",
                     core::counted(n(s.inaccuracies), "inaccuracy", "inaccuracies"),
                     core::counted(n(s.mistakes), "mistake", "mistakes"), core::counted(n(s.blunders), "blunder", "blunders"),
                     acpl ? std::to_string(*acpl) : "-", percent_text(s.accuracy()),
                     core::counted(n(s.moves), "move", "moves"));
}

// A name for the terminal: escaped (a tag may hold an escape sequence), "(no name)" when empty.
std::string shown(const std::string& name) { return name.empty() ? "(no name)" : core::escaped(name); }

// `j` as dump(2) writes it at `depth` levels of nesting: each line after the first indented by
// 2 x depth more. Input text that is not UTF-8 (old PGN in Latin-1) is replaced, never a throw.
void append_dump(std::string& out, const Json& j, int depth) {
  const std::string text = j.dump(2, ' ', false, Json::error_handler_t::replace);
  const std::string indent(static_cast<std::size_t>(2 * depth), ' ');
  for (std::size_t from = 0;;) {
    const std::size_t eol = text.find('\n', from);
    out.append(text, from, eol == std::string::npos ? std::string::npos : eol + 1 - from);
    if (eol == std::string::npos) break;
    out += indent;
    from = eol + 1;
  }
}

// Writes `"key": [ ... ]` at depth 1 the way dump(2) writes an array member of the top object,
// one element at a time (`each(element)` fills one; a file of thousands of games never holds
// them all as JSON values at once).
template <class Range, class Each>
void append_array(std::string& out, std::string_view key, const Range& range, Each each, bool last = false) {
  out += fmt::format("  \"{}\": [", key);
  bool first = true;
  for (const auto& element : range) {
    out += first ? "\n    " : ",\n    ";
    first = false;
    append_dump(out, each(element), 2);
  }
  out += first ? "]" : "\n  ]";
  out += last ? "\n" : ",\n";
}

// The evaluation as the [%eval] has it, White's view: centipawns as a number, a mate as its
// text ("#3", "#-3", "#0" Black checkmated, "#-0" White checkmated); null without one.
Json eval_json(const PlyRecord& p) {
  if (!p.eval) return nullptr;
  if (p.eval->is_mate()) {
    const std::string command = format_eval(*p.eval, p.to_move);  // "[%eval #-3]"
    return command.substr(7, command.size() - 8);
  }
  return p.to_move == core::Color::White ? p.eval->cp() : -p.eval->cp();
}

// White's winning chances rounded to 3 decimals (a mate: +-1, the lichess graph's limit).
Json chances_json(const PlyRecord& p) {
  if (!p.eval) return nullptr;
  const bool white_to_move = p.to_move == core::Color::White;
  if (p.eval->is_mate()) {
    const bool mover_mates = p.eval->mate_plies() > 0;  // mate in 0: the side to move is mated
    return mover_mates == white_to_move ? 1 : -1;
  }
  const double chances = winning_chances(white_to_move ? p.eval->cp() : -p.eval->cp());
  return std::round(chances * 1000) / 1000;
}

Json ply_json(const PlyRecord& p) {
  Json ply;
  ply["san"] = p.san;
  ply["eval"] = eval_json(p);
  ply["wc"] = chances_json(p);
  if (p.accuracy) ply["accuracy"] = one_decimal(*p.accuracy);
  if (p.judgement != Judgement::None) {
    std::string kind(word(p.judgement));
    kind[0] = static_cast<char>(kind[0] - 'A' + 'a');
    ply["judgement"] = kind;
    if (!p.better.empty()) ply["better"] = p.better;
  }
  return ply;
}

Json game_json(const GameSummary& g) {
  Json game;
  game["number"] = g.number;
  game["white"] = g.white;
  game["black"] = g.black;
  game["white_side"] = side_json(g.white_side);
  game["black_side"] = side_json(g.black_side);
  game["event"] = g.event;
  game["date"] = g.date;
  game["result"] = g.result;
  game["first_ply"] = g.first_ply;
  return game;
}

// A game at depth 2 as dump(2) writes it, but its "plies" (last) one per line, each compact:
// a file of 13,000 positions stays a few hundred KB.
void append_game(std::string& out, const GameSummary& g) {
  std::string game;
  append_dump(game, game_json(g), 2);
  const std::size_t close = game.rfind('\n');  // before the closing brace
  out.append(game, 0, close);
  out += ",\n      \"plies\": [";
  for (std::size_t i = 0; i < g.plies.size(); ++i) {
    out += i == 0 ? "\n        " : ",\n        ";
    out += ply_json(g.plies[i]).dump(-1, ' ', false, Json::error_handler_t::replace);
  }
  out += g.plies.empty() ? "]" : "\n      ]";
  out.append(game, close);
}

}  // namespace

SummaryWriter::SummaryWriter(const std::string& engine, const std::string& limits, Sink json, Sink text)
    : json_(std::move(json)), text_(std::move(text)) {
  if (!json_) return;
  std::string out = "{\n  \"format\": ";
  append_dump(out, Json(kAnnotationFormat), 1);
  out += ",\n  \"engine\": ";
  append_dump(out, Json(engine), 1);
  out += ",\n  \"limits\": ";
  append_dump(out, Json(limits), 1);
  out += ",\n  \"games\": [";
  json_(out);
}

void SummaryWriter::add_player(const std::string& name, const SideSummary& side, bool new_game) {
  // "?" is the standard's unknown player, and no name is none: neither is one player.
  const auto first = name.find_first_not_of(" \t");
  if (first == std::string::npos || (name.find_last_not_of(" \t") == first && name[first] == '?')) return;
  auto [it, fresh] = player_index_.emplace(name, players_.size());
  if (fresh) players_.push_back({name, 0, {}});
  Player& p = players_[it->second];
  p.games += new_game;
  p.total.merge(side);
}

void SummaryWriter::game(const GameSummary& g) {
  add_player(g.white, g.white_side, true);
  add_player(g.black, g.black_side, g.black != g.white);
  if (json_) {
    std::string out = games_ == 0 ? "\n    " : ",\n    ";
    append_game(out, g);
    json_(out);
  }
  ++games_;
  if (text_)
    text_(fmt::format("game {}: {} - {}\n  White {}\n  Black {}\n", g.number, shown(g.white), shown(g.black),
                      side_text(g.white_side), side_text(g.black_side)));
}

void SummaryWriter::finish(const std::vector<std::pair<std::size_t, std::string>>& kept,
                           const std::vector<std::string>& notes) {
  if (json_) {
    std::string out = games_ == 0 ? "],\n" : "\n  ],\n";
    append_array(out, "players", players_, [](const Player& p) {
      Json player;
      player["name"] = p.name;
      player["games"] = p.games;
      add_side(player, p.total);
      return player;
    });
    append_array(out, "kept", kept, [](const auto& k) { return Json{{"line", k.first}, {"why", k.second}}; });
    append_array(out, "notes", notes, [](const std::string& note) { return Json(note); }, true);
    json_(out + "}\n");
  }
  if (text_) {
    std::string out;
    if (!players_.empty()) out += "players over the file:\n";
    for (const Player& p : players_)
      out += fmt::format("  {} ({} game{}): {}\n", shown(p.name), p.games, p.games == 1 ? "" : "s", side_text(p.total));
    for (const std::string& note : notes) out += "note: " + note + "\n";
    text_(out);
  }
}

// The text nlohmann's dump(2) would write for the whole object, the plies one per line (the
// golden files pin it).
std::string summary_json(const AnnotatedFile& file, const std::string& engine, const std::string& limits) {
  std::string out;
  SummaryWriter writer(engine, limits, [&](std::string_view part) { out += part; }, nullptr);
  for (const GameSummary& g : file.games) writer.game(g);
  writer.finish(file.kept, file.notes);
  return out;
}

std::string summary_text(const AnnotatedFile& file) {
  std::string out;
  SummaryWriter writer("", "", nullptr, [&](std::string_view part) { out += part; });
  for (const GameSummary& g : file.games) writer.game(g);
  writer.finish(file.kept, file.notes);
  return out;
}

}  // namespace epdd::annotate
