// The annotation page (issue 20, point 1) from the golden JSON of real runs: the fake engine's
// Kasparov - Deep Blue and mate cases (tests/golden/annotate/{kasparov,mates}.json, made by
// golden_test.sh and mates_test.sh) and Stockfish's at 20,000 nodes (kasparov-stockfish.json,
// made by tests/integration/html/annotation_page_test.sh). Every count the page must show is
// worked out here from the JSON itself, not from the page's code.
#include "annotate/html_page.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "html/escape.hpp"
#include "test_support.hpp"

using namespace epdd;
using Json = nlohmann::ordered_json;

namespace {

std::string golden(const std::string& name) { return test::read_file(std::string(EPDD_GOLDEN_DIR) + "/annotate/" + name); }

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The text of the <section> whose id is made from `id`, up to its end.
std::string section(const std::string& page, const std::string& id) {
  const std::size_t start = page.find("<section id=\"" + html::anchor_id(id) + "\">");
  if (start == std::string::npos) return "";
  return page.substr(start, page.find("</section>", start) - start);
}

// The rows of the body of the first table of class `css` in `text`.
std::size_t table_rows(const std::string& text, const std::string& css) {
  const std::size_t start = text.find("<table class=\"" + css + "\">");
  if (start == std::string::npos) return 0;
  const std::size_t body = text.find("<tbody>", start);
  const std::size_t end = text.find("</tbody>", body);
  return count(text.substr(body, end - body), "<tr>");
}

std::string page_of(const std::vector<annotate::SummaryInput>& inputs) {
  auto page = annotate::annotation_page(inputs);
  INFO((page ? "" : page.error()));
  REQUIRE(page);
  return *page;
}

// Each game's section against its JSON: the graph, the marks by kind, the judged moves' rows.
void check_games(const std::string& page, const Json& summary, const std::string& id_prefix) {
  for (const Json& game : summary["games"]) {
    const std::string s = section(page, id_prefix + std::to_string(game["number"].get<int>()));
    INFO("game " << game["number"]);
    REQUIRE_FALSE(s.empty());
    CHECK(count(s, "<svg class=\"chart eval-graph\"") == 1);
    std::map<std::string, std::size_t> kinds;
    std::size_t valued = 0;
    for (const Json& ply : game["plies"]) {
      if (ply.contains("judgement")) ++kinds[ply["judgement"].get<std::string>()];
      valued += !ply["wc"].is_null();
    }
    for (const char* kind : {"inaccuracy", "mistake", "blunder"})
      CHECK(count(s, std::string("<circle class=\"mark ") + kind + "\"") == kinds[kind]);
    CHECK(table_rows(s, "judged") == kinds["inaccuracy"] + kinds["mistake"] + kinds["blunder"]);
    CHECK(table_rows(s, "sides") == 2);
    // The graph's line has a point per ply with a value: M or L before each.
    const std::size_t d = s.find("d=\"", s.find("class=\"eval\""));
    const std::string line = s.substr(d, s.find('"', d + 3) - d);
    CHECK(count(line, "M") + count(line, "L") == valued);
    CHECK(s.find(html::escape(game["white"].get<std::string>())) != std::string::npos);
    CHECK(s.find(html::escape(game["event"].get<std::string>())) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("The annotation page of each golden summary has every game, mark, judged move and player", "[annotate][page]") {
  const std::string name = GENERATE("kasparov.json", "mates.json", "kasparov-stockfish.json");
  INFO(name);
  const std::string json = golden(name);
  const Json summary = Json::parse(json);
  const std::string page = page_of({{name, json}});
  CHECK(count(page, "<svg class=\"chart eval-graph\"") == summary["games"].size());
  CHECK(count(page, "<section id=") == summary["games"].size() + 2);  // runs, players, the games
  CHECK(table_rows(page, "runs") == 1);
  CHECK(table_rows(page, "players") == summary["players"].size());
  for (const Json& player : summary["players"]) {
    INFO(player["name"]);
    const std::string shown = player["name"] == "" ? "(no name)" : player["name"].get<std::string>();
    const std::string cells = "<td>" + html::escape(shown) + "</td><td class=\"num\">" +
                              std::to_string(player["games"].get<int>()) + "</td><td class=\"num\">" +
                              std::to_string(player["inaccuracies"].get<int>()) + "</td><td class=\"num\">" +
                              std::to_string(player["mistakes"].get<int>()) + "</td><td class=\"num\">" +
                              std::to_string(player["blunders"].get<int>()) + "</td><td class=\"num\">" +
                              (player["acpl"].is_null() ? "-" : std::to_string(player["acpl"].get<int>()));
    CHECK(page.find(cells) != std::string::npos);
  }
  check_games(page, summary, "game-");
  CHECK(page.find("<script") == std::string::npos);
}

TEST_CASE("A judged move is listed numbered, with its judgement, eval, accuracy and better move", "[annotate][page]") {
  const std::string page = page_of({{"mates.json", golden("mates.json")}});
  // mates.json game 1: 1. f3 (-0.75, mistake, accuracy 63.0, d4 was better), 2. g4 (#-1, blunder, 15.4, Nc3).
  const std::string s = section(page, "game-1");
  CHECK(s.find("<tr><td>1. f3</td><td>Mistake</td><td class=\"num\">-0.75</td><td class=\"num\">63.0%</td><td>d4</td></tr>") != std::string::npos);
  CHECK(s.find("<tr><td>2. g4</td><td>Blunder</td><td class=\"num\">#-1</td><td class=\"num\">15.4%</td><td>Nc3</td></tr>") != std::string::npos);
  CHECK(s.find("Event: 01 Fool&#39;s mate: White lets a mate in.") != std::string::npos);
  CHECK(s.find("<p class=\"moves\">1. f3? (-0.75) e5 (-0.76) 2. g4?? (#-1) Qh4# (#-0)</p>") != std::string::npos);
  // Black's moves are numbered with "...": game 2's 3... Nf6 lets a mate in.
  CHECK(section(page, "game-2").find("<td>3... Nf6</td><td>Blunder</td><td class=\"num\">#1</td><td class=\"num\">9.2%</td><td>g6</td>") !=
        std::string::npos);
}

TEST_CASE("Several summaries make one page with all their games, each naming its input", "[annotate][page]") {
  const Json first = Json::parse(golden("kasparov-stockfish.json"));
  const Json second = Json::parse(golden("mates.json"));
  const std::string page = page_of({{"sf.json", first.dump()}, {"mates.json", second.dump()}});
  CHECK(count(page, "<svg class=\"chart eval-graph\"") == first["games"].size() + second["games"].size());
  CHECK(table_rows(page, "runs") == 2);
  CHECK(count(page, "<table class=\"players\">") == 2);
  check_games(page, first, "game-1-");
  check_games(page, second, "game-2-");
  CHECK(section(page, "game-2-1").find("From mates.json.") != std::string::npos);
  CHECK(section(page, "game-1-1").find("From sf.json.") != std::string::npos);
}

// Every string of the JSON (but "format" and the judgements' words, which the page checks) is
// replaced in turn by a hostile text naming its place; each must come out escaped, as text.
TEST_CASE("Every string field of the summary reaches the page escaped", "[annotate][page]") {
  const Json original = Json::parse(golden("mates.json"));
  std::vector<Json::json_pointer> fields;
  std::function<void(const Json&, const Json::json_pointer&)> walk = [&](const Json& j, const Json::json_pointer& at) {
    if (j.is_string() && at.to_string() != "/format" && at.back() != "judgement") fields.push_back(at);
    if (j.is_object())
      for (const auto& [k, v] : j.items()) walk(v, at / k);
    if (j.is_array())
      for (std::size_t i = 0; i < j.size(); ++i) walk(j[i], at / i);
  };
  Json with_notes = original;
  with_notes["notes"].push_back("a note");
  with_notes["kept"].push_back(Json{{"line", 3}, {"why", "3:1: no game"}});
  walk(with_notes, Json::json_pointer());
  CHECK(fields.size() > 100);
  for (const auto& field : fields) {
    INFO(field.to_string());
    Json j = with_notes;
    const std::string hostile = "<script>alert('" + field.to_string() + "')</script>\"'&";
    j[field] = hostile;
    const std::string page = page_of({{"in.json", j.dump()}});
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find(html::escape(hostile)) != std::string::npos);
  }
  const std::string named = page_of({{"<script>alert(1)</script>\"'&.json", original.dump()}});
  CHECK(named.find("<script") == std::string::npos);
  CHECK(named.find("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;.json") != std::string::npos);
}

TEST_CASE("An input that is not an annotation summary is an error naming it and the place", "[annotate][page]") {
  const Json good = Json::parse(golden("mates.json"));
  const auto error = [](const std::string& json) {
    auto page = annotate::annotation_page(std::vector<annotate::SummaryInput>{{"in.json", json}});
    REQUIRE_FALSE(page);
    return page.error();
  };
  CHECK(error("{\"games\": [") == "in.json: not JSON");
  CHECK(error("[]") == "in.json: not an object");
  Json j = good;
  j["format"] = "epdd suite 1";
  CHECK(error(j.dump()) == "in.json: format: \"epdd suite 1\" is not \"epdd annotation 1\"");
  j = good;
  j["games"][2]["plies"][1]["wc"] = "high";
  CHECK(error(j.dump()) == "in.json: games[2].plies[1].wc: not a number or null");
  j = good;
  j["games"][0]["plies"][0]["judgement"] = "dubious";
  CHECK(error(j.dump()) == "in.json: games[0].plies[0].judgement: \"dubious\" is not inaccuracy, mistake or blunder");
  j = good;
  j["games"][1].erase("first_ply");
  CHECK(error(j.dump()) == "in.json: games[1]: has no \"first_ply\"");
  j = Json::parse(golden("kasparov.json"));  // mates.json's games name no player: it has none
  REQUIRE_FALSE(j["players"].empty());
  j["players"][0]["acpl"] = -3;
  CHECK(error(j.dump()) == "in.json: players[0].acpl: -3 is not a count");
  CHECK_FALSE(annotate::annotation_page({}));
}
