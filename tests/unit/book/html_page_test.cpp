// The book page (book/html_page.hpp) from the golden JSON of tests/golden/book (real runs with the
// fake engine, regenerate.sh): every node of the JSON's tree is a list item at its ply, the best
// line follows the JSON's "best" moves, every valued first move is a bar, every contradiction a
// row; mates and unvalued nodes as the header says; every string of the JSON escaped; bad input
// an error, not an exception.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "book/html_page.hpp"
#include "../suites/json_mutations.hpp"

namespace {

using Json = nlohmann::ordered_json;

std::string golden(const std::string& name) {
  std::ifstream in(std::string(EPDD_GOLDEN_DIR) + "/book/" + name);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// The nodes of the JSON's tree by ply (0: the root), walked here.
void nodes_by_ply(const Json& node, int ply, std::map<int, std::size_t>& out) {
  ++out[ply];
  if (node.contains("children"))
    for (const Json& c : node["children"]) nodes_by_ply(c, ply + 1, out);
}

// The length of the best line in the tree: follow "best" while a child has that move.
std::size_t best_line_length(const Json& tree) {
  std::size_t n = 0;
  const Json* at = &tree;
  while (at->contains("children") && (*at)["best"].is_string()) {
    const Json* next = nullptr;
    for (const Json& c : (*at)["children"])
      if (c["move"] == (*at)["best"]) next = &c;
    if (!next) break;
    ++n;
    at = next;
  }
  return n;
}

// The part of `page` from the element with class `cls` to the end of that table.
std::string table_of(const std::string& page, const std::string& cls) {
  const auto start = page.find("<table class=\"" + cls + "\"");
  REQUIRE(start != std::string::npos);
  return page.substr(start, page.find("</table>", start) - start);
}

std::string render(const std::string& json) {
  auto page = epdd::book::book_page(json);
  INFO((page ? std::string() : page.error()));
  REQUIRE(page);
  return *page;
}

void check_structure(const std::string& name) {
  const std::string json = golden(name);
  const Json j = Json::parse(json);
  const std::string page = render(json);
  INFO(name);
  std::map<int, std::size_t> plies;
  nodes_by_ply(j["tree"], 0, plies);
  std::size_t nodes = 0;
  for (const auto& [ply, n] : plies) {
    CHECK(occurrences(page, "data-ply=\"" + std::to_string(ply) + "\"") == n);
    nodes += n;
  }
  CHECK(occurrences(page, "<li class=\"node") == nodes);
  CHECK(occurrences(page, "best-line\"") == best_line_length(j["tree"]) + 1);
  std::size_t valued = 0;
  for (const Json& c : j["tree"]["children"]) valued += !c["ce"].is_null();
  CHECK(occurrences(page, "class=\"bar\"") == valued);
  const auto& list = j["contradictions"];
  if (list.empty()) {
    CHECK(page.find("No contradictions") != std::string::npos);
  } else {
    const std::string rows = table_of(page, "contradictions");
    CHECK(occurrences(rows, "<tr>") == list.size() + 1);
    for (const Json& c : list) CHECK(rows.find("<td>" + c["line"].get<std::string>() + "</td>") != std::string::npos);
  }
  const std::string summary = table_of(page, "summary");
  for (const char* key : {"positions", "moves", "games", "leaves_analysed", "leaves_failed"})
    CHECK(summary.find("<td class=\"num\">" + std::to_string(j[key].get<long long>()) + "</td>") != std::string::npos);
  CHECK(summary.find(j["engine"].get<std::string>()) != std::string::npos);
  CHECK(summary.find(j["limits"].get<std::string>()) != std::string::npos);
}

// Every string of `j` but "format" replaced by `with`.
void replace_strings(Json& j, const std::string& with) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (j.is_object() && it.key() == "format") continue;
    if (it->is_string()) *it = with;
    else if (it->is_structured()) replace_strings(*it, with);
  }
}

}  // namespace

TEST_CASE("book_page: the twic0920 golden book's tree, bars, contradictions and summary are all there", "[book][page]") {
  check_structure("twic.json");
  const std::string page = render(golden("twic.json"));
  CHECK(page.find("1. e4") != std::string::npos);
  CHECK(page.find("1... c5") != std::string::npos);
  CHECK(page.find("<script") == std::string::npos);
}

TEST_CASE("book_page: the scripted golden book's mates, unvalued leaf and failed leaf", "[book][page]") {
  check_structure("scripted.json");
  const std::string page = render(golden("scripted.json"));
  // The start: ce 32760, White mates in 7 plies: 4 moves; 1. d4 (Black to move) ce -32761: Black
  // is mated in 6 plies, White mates in 3 moves. 1. e4 e5 2. Bc4 crashed: no value, listed.
  CHECK(page.find("#4 (ce 32760, from the side to move), incomplete") != std::string::npos);
  CHECK(page.find("<span class=\"move\">1. d4</span><span class=\"value\">#3</span>") != std::string::npos);
  CHECK(page.find("<span class=\"move\">2. Bc4</span><span class=\"value\">no value</span>") != std::string::npos);
  CHECK(page.find("<td>1. e4 e5 2. Bc4</td>") != std::string::npos);
  CHECK(page.find("best line (in the tree)</td><td>1. d4 d5 2. c4</td>") != std::string::npos);
  // The first moves' bars: d4 a mate for White (#4 in the mover's view), drawn at the clamp.
  CHECK(page.find("data-label=\"d4\"") != std::string::npos);
  CHECK(page.find(">#4<") != std::string::npos);
}

TEST_CASE("book_page: every string of the JSON comes out escaped", "[book][page]") {
  const std::string hostile = "<script>alert(1)</script>\"'&";
  const std::string escaped = "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;";
  for (const char* name : {"twic.json", "scripted.json"}) {
    INFO(name);
    Json j = Json::parse(golden(name));
    j["notes"] = Json::array({"a note"});
    j["import"] = Json{{"file", "f.epd"}, {"records", 1}, {"errors", Json::array({"an error"})}};
    replace_strings(j, hostile);
    const std::string page = render(j.dump());
    CHECK(page.find("<script") == std::string::npos);
    CHECK(page.find(hostile) == std::string::npos);
    CHECK(page.find("alert(1)</") == std::string::npos);
    // Shown: input, engine, limits, the note, the import's file and error, every tree move and
    // best line move, every contradiction's line, mover and kind, the unvalued leaves' id and position.
    std::size_t shown = 6;
    std::map<int, std::size_t> plies;
    nodes_by_ply(j["tree"], 0, plies);
    for (const auto& [ply, n] : plies) shown += n;
    shown += 3 * j["contradictions"].size() + 2 * j["unvalued_leaves"].size();
    CHECK(occurrences(page, escaped) >= shown);
    // The structure is the same as with the real strings.
    CHECK(occurrences(page, "<li class=\"node") == occurrences(render(golden(name)), "<li class=\"node"));
  }
}

TEST_CASE("book_page: what is not a book report is an error that says so", "[book][page]") {
  CHECK_FALSE(epdd::book::book_page("not json"));
  CHECK_FALSE(epdd::book::book_page("[1, 2]"));
  // Past a double's range: the JSON library throws out_of_range, not parse_error.
  const auto huge = epdd::book::book_page(R"({"format": "epdd book 1", "positions": 1e616})", "b.json");
  REQUIRE_FALSE(huge);
  CHECK(huge.error().find("b.json: not a book report: not JSON (a number past a double's range") == 0);
  const auto other = epdd::book::book_page(R"({"format": "epdd suite 1"})");
  REQUIRE_FALSE(other);
  CHECK(other.error().find("epdd suite 1") != std::string::npos);
  Json j = Json::parse(golden("scripted.json"));
  j["positions"] = "many";
  const auto wrong = epdd::book::book_page(j.dump());
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error() == "positions: \"many\" is not a count");
  // A report from before the tree: the page says it has none.
  j = Json::parse(golden("scripted.json"));
  j.erase("tree");
  const auto old = epdd::book::book_page(j.dump());
  REQUIRE(old);
  CHECK(old->find("This report has no tree") != std::string::npos);
  CHECK(old->find("#4 (ce 32760, from the side to move), incomplete") != std::string::npos);  // root_ce
}

// Issue 20 review: a tree 20,000 deep overflowed the stack (depth_of, TreeWriter).
TEST_CASE("book_page: a tree deeper than the bound is refused with its place, one within it is drawn", "[book][page]") {
  const auto nested = [](int depth) {
    Json j = Json::parse(golden("scripted.json"));
    Json node = Json{{"move", "e4"}, {"ce", 10}};
    for (int i = 0; i < depth - 1; ++i) node = Json{{"move", "e4"}, {"ce", 10}, {"children", Json::array({node})}};
    j["tree"]["children"] = Json::array({node});
    return j;
  };
  // Built as text: a 20,000-deep nlohmann value cannot be built by the recursion above in a test.
  // (Its opening and closing halves built apart: the same text, without copying it 20,000 times.)
  std::string opening, closing;
  for (int i = 0; i < 20'000; ++i) {
    opening += R"({"move": "e4", "children": [)";
    closing += "]}";
  }
  const std::string deep = opening + R"({"move": "e4", "ce": 10})" + closing;
  Json j = Json::parse(golden("scripted.json"));
  j["tree"]["children"] = Json::array();
  std::string text = j.dump();
  const std::string hole = R"("children":[])";
  const auto at = text.find(hole, text.find("\"tree\""));
  REQUIRE(at != std::string::npos);
  text.replace(at, hole.size(), R"("children":[)" + deep + "]");
  const auto refused = epdd::book::book_page(text);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error(), Catch::StartsWith("tree.children[0].children[0]"));
  CHECK_THAT(refused.error(), Catch::Contains("(ply 101): the tree is deeper than 100 plies"));
  CHECK(refused.error().size() < 200);  // the place shortened, not 100 "children[0]"
  CHECK(epdd::book::book_page(nested(100).dump()));
  const auto too_deep = epdd::book::book_page(nested(101).dump());
  REQUIRE_FALSE(too_deep);
  CHECK_THAT(too_deep.error(), Catch::Contains("deeper than 100 plies"));
}

TEST_CASE("book_page: a ce out of the EPD range or a negative count is refused with its place", "[book][page]") {
  const Json golden_json = Json::parse(golden("scripted.json"));
  REQUIRE(golden_json["tree"]["children"][0].contains("ce"));
  for (const Json& ce : {Json(1e308), Json(-2147483648LL), Json(32768), Json(-32768), Json(0.5), Json("7")}) {
    Json j = golden_json;
    j["tree"]["children"][0]["ce"] = ce;
    const auto page = epdd::book::book_page(j.dump(), "job 3");
    INFO(ce.dump());
    REQUIRE_FALSE(page);
    CHECK_THAT(page.error(), Catch::StartsWith("job 3: tree.children[0].ce: "));
    CHECK_THAT(page.error(), Catch::EndsWith("is not a ce (a whole number from -32767 to 32767)"));
  }
  Json j = golden_json;
  j["games"] = -1;
  auto page = epdd::book::book_page(j.dump());
  REQUIRE_FALSE(page);
  CHECK(page.error() == "games: -1 is not a count");
  j = golden_json;
  j["positions"] = "many";
  page = epdd::book::book_page(j.dump());
  REQUIRE_FALSE(page);
  CHECK(page.error() == "positions: \"many\" is not a count");
}

// Every key of the golden reports made wrong in every way: a page or an error naming the place.
TEST_CASE("book_page: every key of the golden reports mutated gives a page or an error with its place", "[book][page]") {
  std::size_t pages = 0, errors = 0;
  for (const char* name : {"scripted.json", "twic.json"})
    for (const auto& m : epdd::test::json_mutations(golden(name))) {
      INFO(name);
      const bool page = epdd::test::page_or_placed_error(
          m, "x.json", [](const std::string& text) { return epdd::book::book_page(text, "x.json"); });
      ++(page ? pages : errors);
    }
  CHECK(pages > 0);
  CHECK(errors > 500);
}

TEST_CASE("book_page: a grown book's expansions, only where the root moved, and a bad growth field refused", "[book][page]") {
  Json j = Json::parse(golden("scripted.json"));
  Json rounds = Json::array();
  // Expansions 1 and 2 with the same root (2 not drawn), 3 with a new value, 4 with a new line.
  const std::tuple<int, const char*, const char*> moved[] = {
      {20, "no move yet", "start"}, {20, "no move yet", "1. e4"}, {35, "1. e4", "1. d4"}, {35, "1. d4", "1. e4 e5"}};
  for (std::size_t i = 0; i < 4; ++i)
    rounds.push_back(Json{{"expansion", i + 1}, {"root_ce", std::get<0>(moved[i])}, {"root_line", std::get<1>(moved[i])},
                          {"expanded", std::get<2>(moved[i])}, {"new_positions", 20}, {"positions", 21 + 20 * i}});
  j["growth"] = Json{{"alpha", 50.0}, {"width", 0}, {"book_side", nullptr}, {"expansions", 4}, {"rounds", rounds}};
  const auto page = epdd::book::book_page(j.dump());
  REQUIRE(page);
  CHECK(page->find("4 expansions by drop-out expansion (alpha 50, every legal move)") != std::string::npos);
  const auto table = page->substr(page->find("class=\"growth\""));
  CHECK(occurrences(table, "<tr>") == 4);  // the header and expansions 1, 3, 4
  CHECK(table.find(">1. e4 e5<") != std::string::npos);
  CHECK(table.find(">41<") == std::string::npos);  // expansion 2's positions: not drawn
  j["growth"]["rounds"][2]["root_ce"] = 40000;
  const auto bad = epdd::book::book_page(j.dump());
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error(), Catch::StartsWith("growth.rounds[2].root_ce: "));
  j["growth"]["rounds"][2]["root_ce"] = 35;
  j["growth"]["alpha"] = "big";
  CHECK(epdd::book::book_page(j.dump()).error() == "growth.alpha: \"big\" is not a number from 0");
}
