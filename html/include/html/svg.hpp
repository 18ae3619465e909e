// svg.hpp: the pictures of the reports, as inline SVG that needs no script (issue 20): a board
// diagram, a line chart (the solve-time curve), a horizontal bar chart (STS themes) and a
// per-ply evaluation graph. Each returns Markup to put into a Section or a table Cell. Every
// text label (titles, series names, bar labels) goes through escape(). No element has an id
// (a page holds many diagrams, and ids must be unique), and nothing refers to anything outside
// the picture. Elements carry classes (and data- attributes naming what they show) so that a
// test or a browser can count series, bars, squares and marks.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/board.hpp"
#include "core/types.hpp"
#include "html/escape.hpp"

namespace epdd::html {

// ---- board diagram ----

// An arrow from the centre of one square to the centre of another (a move, a key move).
struct Arrow {
  core::Square from = core::Square::None;
  core::Square to = core::Square::None;
};

struct BoardOptions {
  // Drawn in order over the pieces; an arrow with Square::None at either end is a programmer
  // error (std::invalid_argument).
  std::vector<Arrow> arrows;
  // Black at the bottom (the view of the side to move, when it is Black's).
  bool flipped = false;
  // The diagram's accessible name (<title>), e.g. the position's id; escaped.
  std::string label;
  // Side length of a square in pixels as the diagram is shown (it scales with the page).
  int square_pixels = 40;
};

// An 8x8 diagram of the position: the light squares as the background <rect class="light">,
// the 32 dark ones as <path class="dark"> of one "Mx,yh10v10h-10z" per square (side 10 in the
// picture's units, a1 dark); one <text> per piece in <g class="pieces white"> and <g
// class="pieces black"> (the Unicode chess glyphs, White's drawn white with a dark outline); the
// files and ranks at the edges (16 <text> in <g class="coords">); a round marker beside the edge
// of the side to move (<circle class="to-move white|black">, also said in the <title>). Arrows
// are <g class="arrow" data-from="e2" data-to="e4">, a line and a head. About 3 KB with 32
// pieces.
Markup board_diagram(const core::Board& board, const BoardOptions& options = {});

// ---- charts ----

enum class Scale { Linear, Log10 };

struct Point {
  double x = 0;
  double y = 0;
};

// One line of a chart: its name (escaped; shown in the legend and as data-series on its
// element) and its points, drawn in the order given.
struct Series {
  std::string name;
  std::vector<Point> points;
};

// An axis range. Without one the chart takes it from the data: linear axes are widened to
// whole tick steps (the y axis always includes 0), a log axis to whole decades.
struct Range {
  double min = 0;
  double max = 1;
};

struct LineChart {
  std::string title;
  std::string x_label;
  std::string y_label;
  Scale x_scale = Scale::Linear;
  std::optional<Range> x_range;
  std::optional<Range> y_range;
  std::vector<Series> series;
  // Size of the whole picture in pixels; the legend (one row per series) adds to the height.
  int width = 720;
  int plot_height = 320;
};

// Where a chart's plot area lies in the picture's coordinates (pixels, y downwards): the axes'
// ranges map linearly (or by log10) onto [left, left + width] and [top + height, top].
struct PlotArea {
  double left = 0;
  double top = 0;
  double width = 0;
  double height = 0;
};
PlotArea plot_area(const LineChart& chart);

// The chart: axes with ticks and labels, the title, a legend, and one
// <polyline class="series" data-series="NAME"> per series (colour by position in the list).
// On a log axis a point at x <= 0 (a position solved at once) is drawn on the left edge; a point
// outside a given range is drawn on the nearest edge. Non-finite coordinates are left out (a
// series of NaNs is an empty line).
Markup line_chart(const LineChart& chart);

// One bar: its label and value (both shown); `value_text` replaces the shown figure when set
// (e.g. "812 / 1000").
struct Bar {
  std::string label;
  double value = 0;
  std::string value_text;
};

struct BarChart {
  std::string title;
  std::vector<Bar> bars;
  // The value axis: from min(0, smallest value) to `max`; without `max`, to the largest value (at
  // least 0) widened to a whole tick step.
  std::optional<double> max;
  int width = 720;
};

// Horizontal bars, one row each in the given order: <rect class="bar" data-label="LABEL"> from
// the zero line to the value, the label left of the plot, the figure right of the bar, and
// value gridlines with their figures.
Markup bar_chart(const BarChart& chart);

// ---- evaluation graph ----

enum class MarkKind { Inaccuracy, Mistake, Blunder };

// "inaccuracy", "mistake", "blunder": the mark's class.
const char* mark_class(MarkKind kind);

struct PlyMark {
  int ply = 0;
  MarkKind kind = MarkKind::Inaccuracy;
};

struct EvalGraph {
  std::string title;
  // values[i]: White's winning chances in [-1, 1] after ply first_ply + i (ply 1 is White's
  // first move); clamped to [-1, 1]; nullopt or NaN where there is no evaluation (a gap).
  std::vector<std::optional<double>> values;
  int first_ply = 1;
  std::vector<PlyMark> marks;
  int width = 720;
  int plot_height = 160;
};

// The graph: a zero line, the area between it and the values (White above), the values as
// <path class="eval">, and per mark a <circle class="mark KIND" data-ply="N"> on the value at
// that ply (on the zero line where there is none). The ply axis covers every value and mark.
Markup eval_graph(const EvalGraph& graph);

}  // namespace epdd::html
