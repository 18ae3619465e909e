// html_demo: prints a page with every piece of html/ (issue 20), for the browser test
// (browser_test.sh) and for looking at. What it holds, which the test counts in the browser's
// DOM: 2 board diagrams (2 x 32 dark squares, 32 + 6 pieces, 1 arrow), a line chart of 3 series, a bar
// chart of 5 bars, an evaluation graph with 4 marks (1 inaccuracy, 1 mistake, 2 blunders), a
// table of 3 rows; a hostile string (a <script> element and quotes) in every kind of field.
//   html_demo > demo.html
//   html_demo 3000 > large.html   (also a table of 3,000 positions, 300 with a board diagram)
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/fen.hpp"
#include "html/page.hpp"
#include "html/svg.hpp"

using namespace epdd;
using namespace epdd::html;

namespace {

const std::string kHostile = "<script>alert(\"x\")</script>' \" &amp;";

void boards(Page& page) {
  Section& section = page.add_section("boards", "Board diagrams");
  BoardOptions start;
  start.label = "Start, 1.e4";
  start.arrows = {{core::Square::E2, core::Square::E4}};
  section.add(board_diagram(core::Board(), start));
  auto board = core::parse_fen("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1");
  if (!board) throw std::runtime_error("html_demo: bad FEN");
  BoardOptions black;
  black.label = kHostile;
  black.flipped = true;
  section.add(board_diagram(*board, black));
}

void charts(Page& page) {
  LineChart curve;
  curve.title = "Solved positions by time to solution";
  curve.x_label = "time to solution (s)";
  curve.y_label = "solved";
  curve.x_scale = Scale::Log10;
  for (const auto& [name, speed] : {std::pair{std::string("Stockfish 15.1"), 1.0},
                                    std::pair{std::string("Ethereal 13"), 2.5}, std::pair{kHostile, 6.0}}) {
    Series series{name, {}};
    for (int solved = 1; solved <= 40; ++solved)
      series.points.push_back({0.01 * speed * std::pow(1.2, solved), double(solved)});
    curve.series.push_back(series);
  }
  page.add_section("curve", "Solve-time curve").add(line_chart(curve));

  BarChart themes;
  themes.title = "STS themes (points of 1000)";
  themes.max = 1000;
  themes.bars = {{"Undermining", 812, ""},
                 {"Open files and diagonals", 745, ""},
                 {"Knight outposts", 690, ""},
                 {"Square vacancy", 599, "599 / 1000"},
                 {kHostile, 431, ""}};
  page.add_section("themes", "STS themes").add(bar_chart(themes));

  EvalGraph graph;
  graph.title = "White's winning chances, " + kHostile;
  for (int ply = 1; ply <= 80; ++ply)
    graph.values.push_back(std::tanh(std::sin(ply / 9.0) * 1.5 + (ply > 60 ? (ply - 60) / 8.0 : 0)));
  graph.values[30] = std::nullopt;
  graph.marks = {
      {12, MarkKind::Inaccuracy}, {25, MarkKind::Mistake}, {44, MarkKind::Blunder}, {61, MarkKind::Blunder}};
  page.add_section("eval", "Evaluation graph").add(eval_graph(graph));
}

void table(Page& page) {
  Table positions({"Id", "Engine move", "Key", "Time (s)"}, "positions");
  positions.add_row({"wac.001", "Qg6", "Qg6", Cell::number("0.12")});
  positions.add_row({kHostile, kHostile, Cell(link_to("boards", "board")), Cell::number("1.50")});
  positions.add_row({"sts.042", "Rd1", "Rd1", Cell::number("31.20")});
  Section& section = page.add_section("positions", "Positions " + kHostile);
  section.add_paragraph("Three positions; the second has hostile text in every field: " + kHostile);
  section.add(positions);
  section.add_details("The moves " + kHostile, Markup::text("1. e4 e5 2. Nf3 " + kHostile));
}

// The size of a suite page: `rows` table rows (a 3,000-position suite), every tenth position
// with a board diagram in a <details> block (the unsolved ones of a strong engine's STS run).
void large_table(Page& page, int rows) {
  Table positions({"Id", "Engine move", "Key", "Time (s)", "Diagram"}, "large");
  for (int i = 1; i <= rows; ++i) {
    const std::string id = "STS(v1.0) theme " + std::to_string(i / 100 + 1) + "." + std::to_string(i % 100);
    Markup diagram;
    if (i % 10 == 0) {
      BoardOptions options;
      options.label = id;
      options.arrows = {{core::Square::G1, core::Square::F3}};
      diagram = details("board", board_diagram(core::Board(), options));
    }
    positions.add_row({id, "Nf3", "Nf3 Nc3", Cell::number(std::to_string(i % 60) + ".25"), Cell(diagram)});
  }
  page.add_section("large", std::to_string(rows) + " positions").add(positions);
}

}  // namespace

// html_demo [ROWS]: with ROWS, a table of that many positions is added (for timing a large page).
int main(int argc, char** argv) {
  Page page("epdd html demo " + kHostile);
  boards(page);
  charts(page);
  table(page);
  if (argc > 1) large_table(page, std::atoi(argv[1]));
  std::cout << page.document();
  return std::cout ? 0 : 1;
}
