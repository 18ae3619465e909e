#include "annotate/summary_report.hpp"

#include <fmt/format.h>

#include <map>

#include <nlohmann/json.hpp>

namespace epdd::annotate {

namespace {

using Json = nlohmann::ordered_json;

struct Player {
  std::string name;
  int games = 0;
  SideSummary total;
};

// Players by tag text, in the order they first appear.
std::vector<Player> players_of(const AnnotatedFile& file) {
  std::vector<Player> players;
  std::map<std::string, std::size_t> index;
  const auto add = [&](const std::string& name, const SideSummary& side, bool new_game) {
    auto [it, fresh] = index.emplace(name, players.size());
    if (fresh) players.push_back({name, 0, {}});
    Player& p = players[it->second];
    p.games += new_game;
    p.total.merge(side);
  };
  for (const GameSummary& g : file.games) {
    add(g.white, g.white_side, true);
    add(g.black, g.black_side, g.black != g.white);
  }
  return players;
}

// SIDE's keys added to `j`.
void add_side(Json& j, const SideSummary& s) {
  j["inaccuracies"] = s.inaccuracies;
  j["mistakes"] = s.mistakes;
  j["blunders"] = s.blunders;
  j["moves"] = s.moves;
  const auto acpl = s.average_centipawn_loss();
  j["acpl"] = acpl ? Json(*acpl) : Json(nullptr);
}

Json side_json(const SideSummary& s) {
  Json j = Json::object();
  add_side(j, s);
  return j;
}

std::string side_text(const SideSummary& s) {
  const auto acpl = s.average_centipawn_loss();
  return fmt::format("{} inaccuracies, {} mistakes, {} blunders, ACPL {} ({} moves judged)", s.inaccuracies, s.mistakes,
                     s.blunders, acpl ? std::to_string(*acpl) : "-", s.moves);
}

std::string shown(const std::string& name) { return name.empty() ? "(no name)" : name; }

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

}  // namespace

// The text nlohmann's dump(2) would write for the whole object (the golden files pin it), built
// a game at a time.
std::string summary_json(const AnnotatedFile& file, const std::string& engine, const std::string& limits) {
  std::string out = "{\n  \"engine\": ";
  append_dump(out, Json(engine), 1);
  out += ",\n  \"limits\": ";
  append_dump(out, Json(limits), 1);
  out += ",\n";
  append_array(out, "games", file.games, [](const GameSummary& g) {
    Json game;
    game["number"] = g.number;
    game["white"] = g.white;
    game["black"] = g.black;
    game["white_side"] = side_json(g.white_side);
    game["black_side"] = side_json(g.black_side);
    return game;
  });
  append_array(out, "players", players_of(file), [](const Player& p) {
    Json player;
    player["name"] = p.name;
    player["games"] = p.games;
    add_side(player, p.total);
    return player;
  });
  append_array(out, "kept", file.kept, [](const auto& kept) { return Json{{"line", kept.first}, {"why", kept.second}}; });
  append_array(out, "notes", file.notes, [](const std::string& note) { return Json(note); }, true);
  return out + "}\n";
}

std::string summary_text(const AnnotatedFile& file) {
  std::string out;
  for (const GameSummary& g : file.games) {
    out += fmt::format("game {}: {} - {}\n", g.number, shown(g.white), shown(g.black));
    out += fmt::format("  White {}\n", side_text(g.white_side));
    out += fmt::format("  Black {}\n", side_text(g.black_side));
  }
  const std::vector<Player> players = players_of(file);
  if (!players.empty()) out += "players over the file:\n";
  for (const Player& p : players)
    out += fmt::format("  {} ({} game{}): {}\n", shown(p.name), p.games, p.games == 1 ? "" : "s", side_text(p.total));
  for (const std::string& note : file.notes) out += "note: " + note + "\n";
  return out;
}

}  // namespace epdd::annotate
