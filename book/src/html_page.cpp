#include "book/html_page.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "book/backsolve.hpp"
#include "book/first_paths.hpp"
#include "core/score.hpp"
#include "core/text.hpp"
#include "html/escape.hpp"
#include "html/page.hpp"
#include "html/svg.hpp"

namespace epdd::book {

namespace {

using Json = nlohmann::json;
using html::Cell;
using html::Markup;

constexpr int kMate = core::Score::kCeMate;
constexpr int kMateThreshold = core::Score::kCeMateThreshold;
constexpr double kBarClamp = 10.0;  // pawns: a mate's bar, and the longest any bar gets

constexpr std::string_view kStyle =
    R"(ol.tree,ol.tree ol{list-style:none;padding-left:1.6em;margin:.1em 0}ol.tree{padding-left:0}
li.node{margin:.15em 0}li.node>.move{display:inline-block;min-width:6em;font-weight:600}
li.node>.value{display:inline-block;min-width:4.5em;text-align:right;font-variant-numeric:tabular-nums}
li.node>.games,li.node>.flag,li.more{color:#666;font-size:.9em;margin-left:.8em}
li.best>.move{color:#0a5}li.best-line>.move{background:#dfd;border-radius:3px;padding:0 .2em}
li.best-line>.value{font-weight:600}.legend{color:#555;font-size:.9em}
)";

// A string field, "" when absent or null.
std::string text(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? std::string() : it->get<std::string>();
}

// A whole number field as text, "" when absent or null.
std::string count(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? std::string() : std::to_string(it->get<long long>());
}

// A ce field ("ce" by default), nullopt when absent or null (unvalued).
std::optional<int> ce_of(const Json& j, const char* key = "ce") {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  return it->get<int>();
}

// A true/false field, false when absent or null.
bool flag(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

// A whole number field, 0 when absent or null.
long long number(const Json& j, const char* key) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? 0 : it->get<long long>();
}

// A ce from the side to move (`white_to_move`) as White sees it: "+0.35", "-1.20", "0.00", "#3"
// (White mates in 3 moves), "#-2" (Black mates in 2), "#-0"/"#0" (White/Black checkmated).
std::string white_view(int ce, bool white_to_move) {
  const auto score = core::Score::from_ce(ce);
  if (!score) return std::to_string(ce);  // (the report's JSON holds ce in range)
  return score->to_white_pawns_string(white_to_move ? core::Color::White : core::Color::Black);
}

// A ce as its side sees it: "+0.35", "#3" (it mates in 3), "#-2" (it is mated in 2).
std::string own_view(int ce) { return white_view(ce, true); }

// Whether White moves in an EPD position ("w" its second field); White when it cannot be told.
bool white_moves(const std::string& position) {
  const auto space = position.find(' ');
  return space == std::string::npos || position.compare(space + 1, 1, "b") != 0;
}

// "1. e4", "1... e5" for the move at `ply` (1: the root's move) when the root's side is White or not.
std::string numbered(const std::string& san, int ply, bool root_white) {
  const int k = ply - 1 + (root_white ? 0 : 1);
  return fmt::format("{}{} {}", k / 2 + 1, k % 2 == 0 ? "." : "...", san);
}

// "1 game", "3 games".
std::string counted(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

bool white_at(int ply, bool root_white) { return (ply % 2 == 0) == root_white; }

// ---- summary

void add_row(html::Table& t, std::string_view what, const std::string& value, bool numeric = true) {
  if (!value.empty()) t.add_row({Cell(what), numeric ? Cell::number(value) : Cell(value)});
}

// The best line through the tree ("1. d4 d5 2. c4"): each node's "best" while the tree lists it.
std::string best_line(const Json& tree, bool root_white) {
  std::vector<std::string> sans;
  const Json* node = &tree;
  for (;;) {
    const std::string best = text(*node, "best");
    const auto children = node->find("children");
    if (best.empty() || children == node->end()) break;
    const auto next =
        std::find_if(children->begin(), children->end(), [&](const Json& c) { return text(c, "move") == best; });
    if (next == children->end()) break;
    sans.push_back(best);
    node = &*next;
  }
  return numbered_line(sans, root_white ? core::Color::White : core::Color::Black);
}

// The root's value: the tree's, or root_ce in a report without a tree.
std::string root_value(const Json& j, const Json& tree, bool root_white) {
  const bool in_tree = tree.is_object() && tree.contains("ce");
  const auto ce = in_tree ? ce_of(tree) : ce_of(j, "root_ce");
  if (!ce) return "no value (no leaf below it has one)";
  std::string out = fmt::format("{} (ce {}, from the side to move)", white_view(*ce, root_white), *ce);
  if (in_tree ? flag(tree, "incomplete") : flag(j, "root_incomplete")) out += ", incomplete: some leaves below have no value";
  return out;
}

Markup unvalued_table(const Json& leaves) {
  html::Table t({"Leaf", "Position"}, "unvalued");
  for (const Json& leaf : leaves) t.add_row({Cell(text(leaf, "id")), Cell(text(leaf, "position"))});
  return t.markup();
}

Markup text_list(const Json& lines) {
  std::string out = "<ul>";
  for (const Json& line : lines) out += "<li>" + html::escape(line.get<std::string>()) + "</li>";
  return Markup::trusted(out + "</ul>");
}

void add_import(html::Section& s, const Json& import) {
  s.add_paragraph(fmt::format(
      "Import {}: {} records, {} of them leaves of the book ({} added, {} kept their engine value, {} replaced it), {} not "
      "in the book, {} not leaves, {} decided by the rules.",
      text(import, "file"), count(import, "records"), count(import, "matched"), count(import, "added"),
      count(import, "kept"), count(import, "replaced"), count(import, "not_in_book"), count(import, "not_a_leaf"),
      count(import, "terminal")));
  const Json errors = import.value("errors", Json::array());
  if (!errors.empty()) s.add_details(counted(errors.size(), "error", "errors") + " in the import", text_list(errors));
}

void summary_section(html::Page& page, const Json& j, const Json& tree, bool root_white) {
  html::Section& s = page.add_section("summary", "Summary");
  html::Table t({"Item", "Value"}, "summary");
  std::string inputs = text(j, "input");
  for (const Json& more : j.value("more_inputs", Json::array())) inputs += ", " + more.get<std::string>();
  add_row(t, "input", inputs, false);
  add_row(t, "engine", text(j, "engine"), false);
  add_row(t, "limits", text(j, "limits"), false);
  add_row(t, "positions", count(j, "positions"));
  add_row(t, "book moves", count(j, "moves"));
  add_row(t, "games", count(j, "games"));
  add_row(t, "Polyglot entries", count(j, "polyglot_entries"));
  add_row(t, "EPD records", count(j, "epd_records"));
  add_row(t, "leaves analysed", count(j, "leaves_analysed"));
  add_row(t, "leaves imported", count(j, "leaves_imported"));
  add_row(t, "leaves failed", count(j, "leaves_failed"));
  const Json unvalued = j.value("unvalued_leaves", Json::array());
  add_row(t, "leaves without a value", std::to_string(unvalued.size()));
  add_row(t, "repetition groups", count(j, "cycle_groups"));
  if (number(j, "cycle_groups_unsolved") > 0)
    add_row(t, "groups too large to solve (unvalued)", count(j, "cycle_groups_unsolved"));
  add_row(t, "root value (White's view)", root_value(j, tree, root_white), false);
  if (tree.is_object()) add_row(t, "best line (in the tree)", best_line(tree, root_white), false);
  s.add(t);
  const Json notes = j.value("notes", Json::array());
  if (!notes.empty()) s.add_details(counted(notes.size(), "note", "notes") + " on the input", text_list(notes));
  if (j.contains("import") && j.at("import").is_object()) add_import(s, j.at("import"));
  if (!unvalued.empty())
    s.add_details(counted(unvalued.size(), "leaf", "leaves") + " without a value", unvalued_table(unvalued));
}

// ---- first moves

void first_moves_section(html::Page& page, const Json& tree, bool root_white) {
  const Json children = tree.value("children", Json::array());
  if (children.empty()) return;
  html::Section& s = page.add_section("first-moves", "First moves");
  html::BarChart chart;
  chart.title = fmt::format("Value of each first move for {} (pawns, backsolved)", root_white ? "White" : "Black");
  std::size_t unvalued = 0;
  for (const Json& c : children) {
    const auto ce = ce_of(c);
    if (!ce) {
      ++unvalued;
      continue;
    }
    const int value = ce_through_move(*ce);
    const double pawns = std::abs(value) > kMateThreshold ? (value > 0 ? kBarClamp : -kBarClamp)
                                                          : std::clamp(value / 100.0, -kBarClamp, kBarClamp);
    chart.bars.push_back({text(c, "move"), pawns, own_view(value)});
  }
  if (!chart.bars.empty()) s.add(html::bar_chart(chart));
  if (unvalued > 0) s.add_paragraph(counted(unvalued, "first move", "first moves") + " without a value not drawn.");
}

// ---- the tree

struct TreeWriter {
  bool root_white;
  std::string out;

  void node(const Json& n, int ply, bool best, bool on_best_line) {
    out += "<li class=\"node";
    out += best ? " best" : "";
    out += on_best_line ? " best-line" : "";
    out += fmt::format("\" data-ply=\"{}\"><span class=\"move\">", ply);
    html::append_escaped(out, numbered(text(n, "move"), ply, root_white));
    out += "</span>";
    body(n, ply, on_best_line);
    out += "</li>\n";
  }

  // The value, games and flags of a node, then its children.
  void body(const Json& n, int ply, bool on_best_line) {
    const auto ce = ce_of(n);
    out += "<span class=\"value\">";
    html::append_escaped(out, ce ? white_view(*ce, white_at(ply, root_white)) : "no value");
    out += "</span>";
    if (!count(n, "games").empty())
      out += fmt::format("<span class=\"games\">{}: +{} ={} -{}</span>",
                         counted(static_cast<std::size_t>(number(n, "games")), "game", "games"), count(n, "white_wins"),
                         count(n, "draws"), count(n, "black_wins"));
    std::string flags;
    if (flag(n, "incomplete")) flags += "incomplete";
    if (!text(n, "terminal").empty()) flags += (flags.empty() ? "" : ", ") + text(n, "terminal");
    if (flag(n, "repeats")) flags += (flags.empty() ? "" : ", ") + std::string("repeats a position of the line");
    if (!flags.empty()) out += "<span class=\"flag\">" + html::escape(flags) + "</span>";
    children(n, ply, on_best_line);
  }

  void children(const Json& n, int ply, bool on_best_line) {
    const auto kids = n.find("children");
    if (kids == n.end() || kids->empty()) return;
    const std::string best = text(n, "best");
    out += "\n<ol>\n";
    for (const Json& c : *kids) {
      const bool is_best = !best.empty() && text(c, "move") == best;
      node(c, ply + 1, is_best, on_best_line && is_best);
    }
    if (number(n, "more") > 0) out += fmt::format("<li class=\"more\">and {} more</li>\n", count(n, "more"));
    out += "</ol>";
  }
};

// The plies below a node that the tree lists.
int depth_of(const Json& n) {
  int depth = 0;
  if (const auto kids = n.find("children"); kids != n.end())
    for (const Json& c : *kids) depth = std::max(depth, 1 + depth_of(c));
  return depth;
}

void tree_section(html::Page& page, const Json& j, const Json& tree, bool root_white) {
  html::Section& s = page.add_section("tree", "The tree");
  if (!tree.is_object() || tree.empty()) {
    s.add_paragraph(j.contains("tree") ? "The book has no position." : "This report has no tree (epdd wrote none then).");
    return;
  }
  s.add_paragraph(fmt::format(
      "The top {} plies of the book from {} ({}): each move with its backsolved value from White's point of view "
      "(pawns; #N: White mates in N moves, #-N: Black does), the games that played it (+White wins =draws -Black "
      "wins), best first for the side that moves. The best move of each position is green, the best line highlighted.",
      depth_of(tree), text(tree, "label"), text(tree, "position")));
  TreeWriter w{root_white, "<ol class=\"tree\">\n<li class=\"node root best-line\" data-ply=\"0\"><span class=\"move\">"};
  html::append_escaped(w.out, text(tree, "label").empty() ? "root" : text(tree, "label"));
  w.out += "</span>";
  w.body(tree, 0, true);
  w.out += "</li>\n</ol>\n";
  s.add(Markup::trusted(std::move(w.out)));
}

// ---- contradictions

std::string percent(const Json& c, const char* key) {
  const auto it = c.find(key);
  return it == c.end() || it->is_null() ? std::string() : fmt::format("{:.1f}%", it->get<double>() * 100.0);
}

void contradictions_section(html::Page& page, const Json& j) {
  html::Section& s = page.add_section("contradictions", "Contradictions");
  const Json list = j.value("contradictions", Json::array());
  if (list.empty()) {
    s.add_paragraph("No contradictions: no move of at least 10 games with a result scores against its value.");
    return;
  }
  s.add_paragraph(fmt::format(
      "{} moves whose score in the games contradicts their backsolved value, worst first: the mover's score against the "
      "score the value predicts (the logistic curve annotate judges moves by).",
      list.size()));
  html::Table t({"Line", "Mover", "Games", "+ = - (White)", "Mover's score", "Expected", "Value for the mover", "Badness", "Kind"}, "contradictions");
  for (const Json& c : list) {
    const auto value = c.find("value");
    t.add_row({Cell(text(c, "line")), Cell(text(c, "mover")), Cell::number(count(c, "games")),
               Cell::number(fmt::format("+{} ={} -{}", count(c, "white_wins"), count(c, "draws"), count(c, "black_wins"))),
               Cell::number(percent(c, "score")), Cell::number(percent(c, "expected")),
               Cell::number(value == c.end() || value->is_null() ? "" : own_view(value->get<int>())),
               Cell::number(percent(c, "badness")),
               Cell(text(c, "kind") == "scores_above_value"   ? std::string("scores above its value")
                    : text(c, "kind") == "scores_below_value" ? std::string("scores below its value")
                                                              : text(c, "kind"))});
  }
  s.add(t);
}

// A grown book (epdd book grow): the expansions at which the root's value or best line moved.
void growth_section(html::Page& page, const Json& growth, bool root_white) {
  html::Section& s = page.add_section("growth", "Growth");
  const Json rounds = growth.value("rounds", Json::array());
  const Json side = growth.value("book_side", Json());
  s.add_paragraph(fmt::format("{} by drop-out expansion (alpha {}, {}{}); the expansions where the root's value or best "
                              "line moved, with the root as it stood before each.",
                              counted(rounds.size(), "expansion", "expansions"), growth.value("alpha", 0.0),
                              number(growth, "width") == 0 ? std::string("every legal move")
                                                           : fmt::format("the engine's {} best moves", number(growth, "width")),
                              side.is_string() ? ", a book for " + side.get<std::string>() : std::string()));
  html::Table t({"Expansion", "Root value", "Best line", "Expanded", "New positions", "Positions"}, "growth");
  std::optional<int> ce;
  std::string line;
  for (std::size_t i = 0; i < rounds.size(); ++i) {
    const Json& r = rounds[i];
    const auto now = ce_of(r, "root_ce");
    if (i > 0 && now == ce && text(r, "root_line") == line) continue;
    ce = now;
    line = text(r, "root_line");
    t.add_row({Cell::number(count(r, "expansion")), Cell::number(ce ? white_view(*ce, root_white) : std::string()),
               Cell(line), Cell(text(r, "expanded")), Cell::number(count(r, "new_positions")),
               Cell::number(count(r, "positions"))});
  }
  s.add(t);
}

// ---- the report, checked before the page reads it

// A bad value in the report: where ("tree.children[2].ce") and what is wrong.
struct BadInput {
  std::string where, why;
};

// The largest count believed (games, positions, ...): far above any real book.
constexpr long long kMaxCount = 1'000'000'000'000'000;

std::string place(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }
std::string place(const std::string& where, std::size_t i) { return fmt::format("{}[{}]", where, i); }

// A value as an error shows it: scalars as JSON, containers by their kind (they may be huge or deep).
std::string shown(const Json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  const std::string out = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  return out.size() > 60 ? out.substr(0, 57) + "..." : out;
}

// The field `key` of `object` when present and not null (every field of the report may be absent).
const Json* given(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

void check_texts_in(const Json& object, const std::string& where, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (const Json* v = given(object, key); v && !v->is_string())
      throw BadInput{place(where, key), fmt::format("{} is not a string", shown(*v))};
}

void check_counts_in(const Json& object, const std::string& where, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    const Json* v = given(object, key);
    if (v && (!v->is_number_integer() || (!v->is_number_unsigned() && v->get<long long>() < 0) ||
              (v->is_number_unsigned() && v->get<std::uint64_t>() > static_cast<std::uint64_t>(kMaxCount))))
      throw BadInput{place(where, key), fmt::format("{} is not a count", shown(*v))};
  }
}

void check_flags_in(const Json& object, const std::string& where, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (const Json* v = given(object, key); v && !v->is_boolean())
      throw BadInput{place(where, key), fmt::format("{} is not true or false", shown(*v))};
}

// A ce: a whole number within the EPD range (a mate is +-32767 less its plies).
void check_ce(const Json& object, const char* key, const std::string& where) {
  const Json* v = given(object, key);
  if (v && (!v->is_number_integer() || (v->is_number_unsigned() && v->get<std::uint64_t>() > kMate) ||
            (!v->is_number_unsigned() && std::abs(v->get<long long>()) > kMate)))
    throw BadInput{place(where, key), fmt::format("{} is not a ce (a whole number from {} to {})", shown(*v), -kMate, kMate)};
}

// A fraction (a score, 0 to 1).
void check_fractions_in(const Json& object, const std::string& where, std::initializer_list<const char*> keys) {
  for (const char* key : keys)
    if (const Json* v = given(object, key); v && (!v->is_number() || v->get<double>() < 0 || v->get<double>() > 1))
      throw BadInput{place(where, key), fmt::format("{} is not a fraction from 0 to 1", shown(*v))};
}

// The array `key` (nullptr when absent or null), each element checked by `element`.
template <class Element>
void check_array(const Json& object, const char* key, const std::string& where, Element&& element) {
  const Json* v = given(object, key);
  if (!v) return;
  if (!v->is_array()) throw BadInput{place(where, key), fmt::format("{} is not an array", shown(*v))};
  for (std::size_t i = 0; i < v->size(); ++i) element((*v)[i], place(place(where, key), i));
}

void check_object(const Json& v, const std::string& where) {
  if (!v.is_object()) throw BadInput{where, fmt::format("{} is not an object", shown(v))};
}

void check_string(const Json& v, const std::string& where) {
  if (!v.is_string()) throw BadInput{where, fmt::format("{} is not a string", shown(v))};
}

void check_node(const Json& n, const std::string& where, int ply) {
  check_object(n, where);
  if (ply > kMaxTreePlies) {
    // The place in full would be 100 "children[i]" long: its first plies, then the ply.
    std::size_t cut = 0;
    for (int k = 0; k < 4 && cut != std::string::npos; ++k) cut = where.find(".children", cut + 1);
    throw BadInput{fmt::format("{}... (ply {})", where.substr(0, cut), ply),
                   fmt::format("the tree is deeper than {} plies (the page draws no deeper)", kMaxTreePlies)};
  }
  check_texts_in(n, where, {"move", "label", "position", "best", "terminal"});
  check_ce(n, "ce", where);
  check_counts_in(n, where, {"games", "white_wins", "draws", "black_wins", "more", "moves"});
  check_flags_in(n, where, {"incomplete", "repeats"});
  check_array(n, "children", where, [&](const Json& c, const std::string& at) { check_node(c, at, ply + 1); });
}

void check_contradiction(const Json& c, const std::string& where) {
  check_object(c, where);
  check_texts_in(c, where, {"line", "move", "position", "mover", "kind"});
  check_counts_in(c, where, {"games", "white_wins", "draws", "black_wins", "scored_games"});
  check_fractions_in(c, where, {"score", "expected", "badness"});
  check_ce(c, "value", where);
}

// Every field the page reads, with its place: the page itself then reads without a surprise.
void check_report(const Json& j) {
  check_texts_in(j, "", {"input", "engine", "limits"});
  check_array(j, "more_inputs", "", check_string);
  check_counts_in(j, "", {"positions", "moves", "games", "polyglot_entries", "epd_records", "leaves_analysed",
                          "leaves_imported", "leaves_failed", "cycle_groups", "cycle_groups_unsolved"});
  check_array(j, "unvalued_leaves", "", [](const Json& leaf, const std::string& at) {
    check_object(leaf, at);
    check_texts_in(leaf, at, {"id", "position"});
  });
  check_ce(j, "root_ce", "");
  check_flags_in(j, "", {"root_incomplete"});
  check_array(j, "notes", "", check_string);
  if (const Json* import = given(j, "import")) {
    check_object(*import, "import");
    check_texts_in(*import, "import", {"file"});
    check_counts_in(*import, "import",
                    {"records", "matched", "added", "kept", "replaced", "not_in_book", "not_a_leaf", "terminal"});
    check_array(*import, "errors", "import", check_string);
  }
  if (const Json* tree = given(j, "tree")) check_node(*tree, "tree", 0);
  check_array(j, "contradictions", "", check_contradiction);
  if (const Json* growth = given(j, "growth")) {
    check_object(*growth, "growth");
    check_counts_in(*growth, "growth", {"width", "expansions"});
    check_texts_in(*growth, "growth", {"book_side"});
    if (const Json* alpha = given(*growth, "alpha"); alpha && (!alpha->is_number() || alpha->get<double>() < 0))
      throw BadInput{"growth.alpha", fmt::format("{} is not a number from 0", shown(*alpha))};
    check_array(*growth, "rounds", "growth", [](const Json& r, const std::string& at) {
      check_object(r, at);
      check_counts_in(r, at, {"expansion", "new_positions", "positions"});
      check_texts_in(r, at, {"root_line", "expanded"});
      check_ce(r, "root_ce", at);
    });
  }
}

std::string page_of(const Json& j) {
  const Json tree = j.value("tree", Json());
  const bool root_white = white_moves(tree.is_object() ? text(tree, "position") : "");
  html::Page page(fmt::format("epdd book: {}", text(j, "input")));
  page.add_style(kStyle);
  summary_section(page, j, tree, root_white);
  if (tree.is_object()) first_moves_section(page, tree, root_white);
  tree_section(page, j, tree, root_white);
  contradictions_section(page, j);
  if (const Json* growth = given(j, "growth"); growth && growth->is_object()) growth_section(page, *growth, root_white);
  return page.document();
}

}  // namespace

Expected<std::string, std::string> book_page(std::string_view json, std::string_view name) {
  const std::string who = name.empty() ? std::string() : fmt::format("{}: ", name);
  Json j;
  try {
    j = Json::parse(json);
  } catch (const nlohmann::json::parse_error& e) {
    return unexpected(fmt::format("{}not a book report: not JSON (it fails to parse at byte {})", who, e.byte));
  } catch (const nlohmann::json::exception& e) {  // out_of_range.406, the only other one parse throws
    return unexpected(fmt::format("{}not a book report: not JSON (a number past a double's range: {})", who, e.what()));
  }
  if (!j.is_object()) return unexpected(who + "not a book report: the JSON is not an object");
  const Json* format = given(j, "format");
  if (!format || !format->is_string() || format->get<std::string>() != kBookReportFormat)
    return unexpected(fmt::format("{}not a book report: its format is {}, not \"{}\"", who,
                                  !format                ? std::string("missing")
                                  : format->is_string() ? "\"" + core::escaped(format->get<std::string>()) + "\""
                                                         : shown(*format),
                                  kBookReportFormat));
  try {
    check_report(j);
  } catch (const BadInput& bad) {
    return unexpected(fmt::format("{}{}{}{}", who, bad.where, bad.where.empty() ? "" : ": ", bad.why));
  }
  try {
    return page_of(j);
  } catch (const nlohmann::json::exception& e) {  // a field check_report missed: still an error, not a throw
    return unexpected(fmt::format("{}not a book report: {}", who, e.what()));
  }
}

}  // namespace epdd::book
