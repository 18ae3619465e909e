// html/svg.hpp: board diagrams, line and bar charts and evaluation graphs, checked by their
// structure: counts of elements, coordinates of known points, escaping (issue 20).
#include "html/svg.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/fen.hpp"
#include "markup_search.hpp"

using namespace epdd;
using namespace epdd::html;
using namespace epdd::html::testing;

namespace {

// The start tags that begin with `start` ("<rect", "<polyline class=\"series\""), each up to '>'.
std::vector<std::string> tags(const std::string& svg, const std::string& start) {
  std::vector<std::string> out;
  for (std::size_t at = svg.find(start); at != std::string::npos; at = svg.find(start, at + 1)) {
    out.push_back(svg.substr(at, svg.find('>', at) - at + 1));
  }
  return out;
}

// The value of attribute `name` in a start tag ("" when it has none).
std::string attr(const std::string& tag, const std::string& name) {
  const std::string key = " " + name + "=\"";
  const std::size_t at = tag.find(key);
  if (at == std::string::npos) return "";
  const std::size_t start = at + key.size();
  return tag.substr(start, tag.find('"', start) - start);
}

double number(const std::string& tag, const std::string& name) { return std::stod(attr(tag, name)); }

// The text of a group <g class="NAME">...</g> up to its first "</g>" (the groups of the board
// that a test reads hold no group).
std::string group(const std::string& svg, const std::string& name) {
  const std::size_t at = svg.find("<g class=\"" + name + "\"");
  if (at == std::string::npos) return "";
  return svg.substr(at, svg.find("</g>", at) - at);
}

std::vector<Point> polyline_points(const std::string& tag) {
  std::vector<Point> out;
  const std::string text = attr(tag, "points");
  const char* p = text.c_str();
  char* end = nullptr;
  while (*p != '\0') {
    const double x = std::strtod(p, &end);
    p = end + 1;  // the comma
    const double y = std::strtod(p, &end);
    p = *end == ' ' ? end + 1 : end;
    out.push_back({x, y});
  }
  return out;
}

core::Board board_from(const char* fen) {
  auto board = core::parse_fen(fen);
  REQUIRE(board.has_value());
  return *board;
}

}  // namespace

// ---- board ----

TEST_CASE("a board diagram has 64 squares, a glyph per piece, coordinates and the side to move",
          "[html][svg][board]") {
  const std::string svg = board_diagram(core::Board()).str();
  REQUIRE(svg.rfind("<svg class=\"board\"", 0) == 0);
  // The light squares are the board's background, the dark ones one path of 32 squares.
  const auto light = tags(svg, "<rect class=\"light\"");
  REQUIRE(light.size() == 1);
  CHECK(number(light[0], "width") == 80);
  CHECK(number(light[0], "height") == 80);
  const auto dark = tags(svg, "<path class=\"dark\"");
  REQUIRE(dark.size() == 1);
  CHECK(count(attr(dark[0], "d"), "M") == 32);
  CHECK(count(attr(dark[0], "d"), "h10v10h-10z") == 32);
  CHECK(count(group(svg, "pieces white"), "<text ") == 16);
  CHECK(count(group(svg, "pieces black"), "<text ") == 16);
  CHECK(count(group(svg, "coords"), "<text ") == 16);
  CHECK(tags(svg, "<circle class=\"to-move white\"").size() == 1);
  CHECK(svg.find("<title>White to move</title>") != std::string::npos);
  CHECK(count(svg, "class=\"arrow\"") == 0);
  CHECK(svg.substr(svg.size() - 6) == "</svg>");
}

TEST_CASE("a board diagram puts each square and piece where the file and rank say", "[html][svg][board]") {
  // After 1.e4 c5: a white pawn on e4, a black one on c5.
  const core::Board board = board_from("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2");
  // The picture: ranks' labels in x 0..5, square (file f, rank r) at x = 5 + 10 f,
  // y = 10 (7 - r) with White at the bottom; mirrored in both axes when flipped.
  const auto centre = [](int file, int rank, bool flipped) {
    const int col = flipped ? 7 - file : file, row = flipped ? rank : 7 - rank;
    return Point{5 + 10.0 * col + 5, 10.0 * row + 5};
  };
  for (const bool flipped : {false, true}) {
    BoardOptions options;
    options.flipped = flipped;
    const std::string svg = board_diagram(board, options).str();
    INFO("flipped " << flipped);
    const auto white = tags(group(svg, "pieces white"), "<text ");
    const auto black = tags(group(svg, "pieces black"), "<text ");
    CHECK(white.size() == 16);
    CHECK(black.size() == 16);
    const Point e4 = centre(4, 3, flipped), c5 = centre(2, 4, flipped), a1 = centre(0, 0, flipped);
    const auto at = [](const std::vector<std::string>& pieces, Point p) {
      int n = 0;
      for (const auto& tag : pieces) n += number(tag, "x") == p.x && number(tag, "y") == p.y;
      return n;
    };
    CHECK(at(white, e4) == 1);
    CHECK(at(black, c5) == 1);
    CHECK(at(white, a1) == 1);
    CHECK(at(black, e4) + at(white, c5) == 0);
    // a1 is dark, h1 light (not in the dark squares' path), wherever they are drawn.
    const auto corner = [](Point centre) {
      return "M" + std::to_string(static_cast<int>(centre.x - 5)) + "," +
             std::to_string(static_cast<int>(centre.y - 5)) + "h";
    };
    const std::string dark = attr(tags(svg, "<path class=\"dark\"")[0], "d");
    CHECK(count(dark, corner(a1)) == 1);
    CHECK(count(dark, corner(centre(7, 0, flipped))) == 0);
    CHECK(count(dark, corner(centre(7, 1, flipped))) == 1);  // h2
  }
}

TEST_CASE("a board diagram marks Black to move on Black's edge", "[html][svg][board]") {
  const core::Board board = board_from("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
  const std::string svg = board_diagram(board).str();
  const auto marker = tags(svg, "<circle class=\"to-move black\"");
  REQUIRE(marker.size() == 1);
  CHECK(number(marker[0], "cy") < 40);  // the top half: Black's side
  CHECK(svg.find("<title>Black to move</title>") != std::string::npos);
  BoardOptions flipped;
  flipped.flipped = true;
  CHECK(number(tags(board_diagram(board, flipped).str(), "<circle class=\"to-move black\"")[0], "cy") > 40);
  CHECK(count(group(svg, "pieces white"), "<text ") + count(group(svg, "pieces black"), "<text ") == 2);
}

TEST_CASE("a board diagram draws arrows from square centre to square centre", "[html][svg][board]") {
  BoardOptions options;
  options.arrows = {{core::Square::E2, core::Square::E4}, {core::Square::G1, core::Square::F3}};
  const std::string svg = board_diagram(core::Board(), options).str();
  const auto arrows = tags(svg, "<g class=\"arrow\"");
  REQUIRE(arrows.size() == 2);
  CHECK(attr(arrows[0], "data-from") == "e2");
  CHECK(attr(arrows[0], "data-to") == "e4");
  const auto lines = tags(svg, "<line ");
  REQUIRE(lines.size() == 2);
  CHECK(number(lines[0], "x1") == 50);  // the centre of e2
  CHECK(number(lines[0], "y1") == 65);
  CHECK(number(lines[0], "x2") == 50);  // towards e4 (y 45), short of it by the head
  CHECK(number(lines[0], "y2") > 45);
  CHECK(count(svg, "<polygon ") == 2);
  options.arrows.push_back({core::Square::None, core::Square::E4});
  CHECK_THROWS_AS(board_diagram(core::Board(), options), std::invalid_argument);
}

TEST_CASE("a board diagram's label is escaped", "[html][svg][board]") {
  BoardOptions options;
  options.label = kHostile;
  const std::string svg = board_diagram(core::Board(), options).str();
  CHECK(count(svg, "<script") == 0);
  CHECK(count(svg, kHostileEscaped) >= 1);
}

// ---- line chart ----

namespace {

LineChart three_runs() {
  LineChart chart;
  chart.title = "Solved by time";
  chart.x_label = "seconds";
  chart.y_label = "solved";
  chart.x_scale = Scale::Log10;
  chart.series = {{"Stockfish 15.1", {{0.02, 1}, {0.5, 10}, {30, 20}}},
                  {"Ethereal", {{0.1, 2}, {3, 8}}},
                  {kHostile, {{0.3, 1}}}};
  return chart;
}

}  // namespace

TEST_CASE("a line chart has one polyline per series, named, and a legend entry each", "[html][svg][chart]") {
  const std::string svg = line_chart(three_runs()).str();
  const auto lines = tags(svg, "<polyline class=\"series\"");
  REQUIRE(lines.size() == 3);
  CHECK(attr(lines[0], "data-series") == "Stockfish 15.1");
  CHECK(attr(lines[1], "data-series") == "Ethereal");
  CHECK(attr(lines[2], "data-series") == kHostileEscaped);
  CHECK(polyline_points(lines[0]).size() == 3);
  CHECK(polyline_points(lines[1]).size() == 2);
  CHECK(tags(svg, "<text class=\"legend\"").size() == 3);
  CHECK(count(svg, "<script") == 0);
  CHECK(count(svg, ">Solved by time<") == 1);
  // Colours differ between series.
  CHECK(attr(lines[0], "stroke") != attr(lines[1], "stroke"));
}

TEST_CASE("a line chart maps a known point on a log x axis", "[html][svg][chart]") {
  LineChart chart;
  chart.x_scale = Scale::Log10;
  chart.x_range = Range{1, 1000};
  chart.y_range = Range{0, 100};
  chart.series = {{"a", {{10, 50}, {1000, 100}, {1, 0}, {0, 20}, {5000, 200}}}};
  const PlotArea area = plot_area(chart);
  REQUIRE(area.width > 100);
  REQUIRE(area.height > 100);
  const auto points = polyline_points(tags(line_chart(chart).str(), "<polyline class=\"series\"")[0]);
  REQUIRE(points.size() == 5);
  // log10(10) is a third of the way from log10(1) to log10(1000); 50 is half of 100.
  CHECK(points[0].x == Approx(area.left + area.width / 3).margin(0.1));
  CHECK(points[0].y == Approx(area.top + area.height / 2).margin(0.1));
  CHECK(points[1].x == Approx(area.left + area.width).margin(0.1));
  CHECK(points[1].y == Approx(area.top).margin(0.1));
  CHECK(points[2].x == Approx(area.left).margin(0.1));
  CHECK(points[2].y == Approx(area.top + area.height).margin(0.1));
  // x = 0 on a log axis: the left edge; outside the given range: the nearest edge.
  CHECK(points[3].x == Approx(area.left).margin(0.1));
  CHECK(points[4].x == Approx(area.left + area.width).margin(0.1));
  CHECK(points[4].y == Approx(area.top).margin(0.1));
}

TEST_CASE("a line chart's log axis has a tick per decade, its range taken from the data",
          "[html][svg][chart]") {
  const std::string svg = line_chart(three_runs()).str();  // x from 0.02 to 30
  std::vector<std::string> labels;
  for (const auto& tag : tags(svg, "<text class=\"tick x\"")) {
    const std::size_t start = svg.find(tag) + tag.size();
    labels.push_back(svg.substr(start, svg.find('<', start) - start));
  }
  CHECK(labels == std::vector<std::string>{"0.01", "0.1", "1", "10", "100"});
}

TEST_CASE("a linear axis is widened to whole steps and the y axis starts at 0", "[html][svg][chart]") {
  LineChart chart;
  chart.series = {{"a", {{3, 7}, {47, 93}}}};
  const std::string svg = line_chart(chart).str();
  std::vector<std::string> x_labels, y_labels;
  for (const auto& [cls, out] : {std::pair{"x", &x_labels}, std::pair{"y", &y_labels}}) {
    for (const auto& tag : tags(svg, std::string("<text class=\"tick ") + cls + "\"")) {
      const std::size_t start = svg.find(tag) + tag.size();
      out->push_back(svg.substr(start, svg.find('<', start) - start));
    }
  }
  CHECK(x_labels == std::vector<std::string>{"0", "10", "20", "30", "40", "50"});
  CHECK(y_labels == std::vector<std::string>{"0", "20", "40", "60", "80", "100"});
}

TEST_CASE("a line chart with no series or no points is still a chart", "[html][svg][chart]") {
  LineChart chart;
  chart.title = "empty";
  CHECK(tags(line_chart(chart).str(), "<polyline").empty());
  chart.series = {{"none", {}}, {"nan", {{std::nan(""), 1}}}};
  const auto lines = tags(line_chart(chart).str(), "<polyline class=\"series\"");
  REQUIRE(lines.size() == 2);
  CHECK(attr(lines[1], "points").empty());
}

// ---- bar chart ----

TEST_CASE("a bar chart has one bar per entry, its length proportional to the value", "[html][svg][chart]") {
  BarChart chart;
  chart.title = "STS themes";
  chart.bars = {{"Undermining", 25, ""}, {"Open files", 100, "100 / 100"}, {kHostile, 50, ""}};
  const std::string svg = bar_chart(chart).str();
  const auto bars = tags(svg, "<rect class=\"bar\"");
  REQUIRE(bars.size() == 3);
  CHECK(attr(bars[0], "data-label") == "Undermining");
  CHECK(attr(bars[2], "data-label") == kHostileEscaped);
  CHECK(number(bars[1], "width") == Approx(4 * number(bars[0], "width")).margin(0.2));
  CHECK(number(bars[2], "width") == Approx(2 * number(bars[0], "width")).margin(0.2));
  CHECK(number(bars[0], "x") == number(bars[1], "x"));
  CHECK(number(bars[0], "y") < number(bars[1], "y"));
  CHECK(count(svg, ">100 / 100<") == 1);
  CHECK(count(svg, ">25<") == 1);
  CHECK(count(svg, "<script") == 0);
  CHECK(count(svg, ">" + kHostileEscaped + "<") == 1);
}

TEST_CASE("a bar chart with a negative value draws it left of the zero line", "[html][svg][chart]") {
  BarChart chart;
  chart.bars = {{"up", 10, ""}, {"down", -10, ""}};
  const auto bars = tags(bar_chart(chart).str(), "<rect class=\"bar\"");
  REQUIRE(bars.size() == 2);
  CHECK(number(bars[0], "width") == Approx(number(bars[1], "width")).margin(0.1));
  CHECK(number(bars[1], "x") + number(bars[1], "width") == Approx(number(bars[0], "x")).margin(0.1));
}

// ---- evaluation graph ----

namespace {

double mark_y(const std::string& svg, int ply) {
  for (const auto& tag : tags(svg, "<circle class=\"mark ")) {
    if (attr(tag, "data-ply") == std::to_string(ply)) return number(tag, "cy");
  }
  FAIL("no mark at ply " << ply);
  return 0;
}

}  // namespace

TEST_CASE("an evaluation graph marks plies by kind, on the clamped value", "[html][svg][eval]") {
  EvalGraph graph;
  graph.title = kHostile;
  graph.values = {0.1, 0.0, 5.0, 1.0, -1.0, -7.0, std::nullopt};
  graph.marks = {{2, MarkKind::Inaccuracy}, {3, MarkKind::Mistake}, {4, MarkKind::Blunder},
                 {5, MarkKind::Blunder},    {6, MarkKind::Mistake}, {7, MarkKind::Blunder}};
  const std::string svg = eval_graph(graph).str();
  CHECK(tags(svg, "<circle class=\"mark inaccuracy\"").size() == 1);
  CHECK(tags(svg, "<circle class=\"mark mistake\"").size() == 2);
  CHECK(tags(svg, "<circle class=\"mark blunder\"").size() == 3);
  CHECK(tags(svg, "<path class=\"eval\"").size() == 1);
  // +5 is drawn as +1, -7 as -1; +1 and -1 lie symmetric about 0; no value: on the zero line.
  CHECK(mark_y(svg, 3) == mark_y(svg, 4));
  CHECK(mark_y(svg, 6) == mark_y(svg, 5));
  CHECK(mark_y(svg, 4) < mark_y(svg, 2));
  CHECK(mark_y(svg, 4) + mark_y(svg, 5) == Approx(2 * mark_y(svg, 2)).margin(0.1));
  CHECK(mark_y(svg, 7) == mark_y(svg, 2));
  CHECK(count(svg, "<script") == 0);
  CHECK(count(svg, kHostileEscaped) >= 1);
}

TEST_CASE("an evaluation graph leaves a gap where a ply has no value", "[html][svg][eval]") {
  EvalGraph graph;
  graph.values = {0.1, 0.2, std::nullopt, 0.3, std::nan(""), -0.2};
  const std::string svg = eval_graph(graph).str();
  const std::string d = attr(tags(svg, "<path class=\"eval\"")[0], "d");
  CHECK(count(d, "M") == 3);
  CHECK(count(d, "L") == 1);
  // Plies are evenly spaced: ply 4 is twice as far from ply 2 as ply 2 is from ply 1.
  graph.marks = {{1, MarkKind::Mistake}, {2, MarkKind::Mistake}, {4, MarkKind::Mistake}};
  const std::string marked = eval_graph(graph).str();
  std::vector<double> xs;
  for (const auto& tag : tags(marked, "<circle class=\"mark ")) xs.push_back(number(tag, "cx"));
  REQUIRE(xs.size() == 3);
  CHECK(xs[2] - xs[1] == Approx(2 * (xs[1] - xs[0])).margin(0.1));
}

TEST_CASE("mark kinds have the class names the pages style", "[html][svg][eval]") {
  CHECK(std::string(mark_class(MarkKind::Inaccuracy)) == "inaccuracy");
  CHECK(std::string(mark_class(MarkKind::Mistake)) == "mistake");
  CHECK(std::string(mark_class(MarkKind::Blunder)) == "blunder");
}
