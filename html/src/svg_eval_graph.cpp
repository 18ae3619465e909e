// The evaluation graph of svg.hpp: White's winning chances per ply, +1 at the top, -1 at the
// bottom, the area between the zero line and the values shaded (the lichess view).
#include <algorithm>
#include <cmath>
#include <string>

#include "html/svg.hpp"
#include "svg_common.hpp"

namespace epdd::html {

namespace {

constexpr double kLeft = 40, kRight = 16, kTop = 28, kBelow = 24;

struct Geometry {
  int first_ply = 1, last_ply = 2;
  double left = kLeft, top = kTop, width = 100, height = 100;

  double x(int ply) const { return left + width * (ply - first_ply) / std::max(last_ply - first_ply, 1); }
  double y(double value) const { return top + height * (1 - std::clamp(value, -1.0, 1.0)) / 2; }
};

// "12." for White's twelfth move, "12..." for Black's: ply 1 is 1.
std::string move_name(int ply) { return std::to_string((ply + 1) / 2) + (ply % 2 == 1 ? "." : "..."); }

// The values as a line (one subpath per run without gaps; a lone value a dot) and the area.
void append_values(std::string& out, const EvalGraph& graph, const Geometry& g) {
  std::string line, area;
  const std::string zero = detail::coord(g.y(0));
  std::size_t i = 0;
  const auto has = [&](std::size_t k) {
    return k < graph.values.size() && graph.values[k] && !std::isnan(*graph.values[k]);
  };
  while (i < graph.values.size()) {
    if (!has(i)) {
      ++i;
      continue;
    }
    const std::size_t start = i;
    for (; has(i); ++i) {
      const std::string p = detail::coord(g.x(graph.first_ply + static_cast<int>(i))) + "," +
                            detail::coord(g.y(*graph.values[i]));
      line += (i == start ? "M" : "L") + p;
      area += (i == start ? "M" + p.substr(0, p.find(',')) + "," + zero + "L" : "L") + p;
    }
    if (i - start == 1) line += "h0";
    area += "L" + detail::coord(g.x(graph.first_ply + static_cast<int>(i) - 1)) + "," + zero + "Z";
  }
  out += "<path class=\"eval-area\" fill=\"#c8c8c8\" d=\"" + area + "\"/>";
  out +=
      "<path class=\"eval\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\" stroke-linecap=\"round\" "
      "d=\"" +
      line + "\"/>";
}

void append_marks(std::string& out, const EvalGraph& graph, const Geometry& g) {
  for (const PlyMark& mark : graph.marks) {
    const long k = mark.ply - graph.first_ply;
    const bool valued = k >= 0 && static_cast<std::size_t>(k) < graph.values.size() &&
                        graph.values[static_cast<std::size_t>(k)] &&
                        !std::isnan(*graph.values[static_cast<std::size_t>(k)]);
    const double value = valued ? *graph.values[static_cast<std::size_t>(k)] : 0;
    const char* colour = mark.kind == MarkKind::Blunder   ? "#d55e00"
                         : mark.kind == MarkKind::Mistake ? "#e69f00"
                                                          : "#56b4e9";
    out += std::string("<circle class=\"mark ") + mark_class(mark.kind) + "\" data-ply=\"" +
           std::to_string(mark.ply) + "\" cx=\"" + detail::coord(g.x(mark.ply)) + "\" cy=\"" +
           detail::coord(g.y(value)) + "\" r=\"3.5\" fill=\"" + colour +
           "\" stroke=\"#222\" stroke-width=\"0.8\"><title>" + move_name(mark.ply) + " " +
           mark_class(mark.kind) + "</title></circle>";
  }
}

// Move numbers under the plot, a round step giving at most about 12 of them.
void append_move_numbers(std::string& out, const Geometry& g) {
  const int moves = (g.last_ply - g.first_ply) / 2 + 1;
  int step = 1;
  for (const int s : {1, 2, 5, 10, 20, 50, 100, 200, 500}) {
    step = s;
    if (moves / s <= 12) break;
  }
  out += "<g font-size=\"10\" fill=\"#333\" text-anchor=\"middle\">";
  for (int move = std::max((g.first_ply + 1) / 2, 1); 2 * move - 1 <= g.last_ply; ++move) {
    if (move % step != 0 || 2 * move - 1 < g.first_ply) continue;
    out += "<text class=\"tick\" x=\"" + detail::coord(g.x(2 * move - 1)) + "\" y=\"" +
           detail::coord(g.top + g.height + 14) + "\">" + std::to_string(move) + "</text>";
  }
  out += "</g>";
}

}  // namespace

const char* mark_class(MarkKind kind) {
  switch (kind) {
    case MarkKind::Inaccuracy: return "inaccuracy";
    case MarkKind::Mistake: return "mistake";
    case MarkKind::Blunder: return "blunder";
  }
  return "";
}

Markup eval_graph(const EvalGraph& graph) {
  Geometry g;
  g.first_ply = graph.first_ply;
  g.last_ply = graph.first_ply + std::max(static_cast<int>(graph.values.size()) - 1, 0);
  for (const PlyMark& mark : graph.marks) {
    g.first_ply = std::min(g.first_ply, mark.ply);
    g.last_ply = std::max(g.last_ply, mark.ply);
  }
  g.width = std::max(graph.width - kLeft - kRight, 10.0);
  g.height = std::max(graph.plot_height, 10);
  const double height = kTop + g.height + kBelow;
  std::string out = detail::chart_start("eval-graph", graph.width, height, graph.title);
  out += "<text class=\"title\" x=\"" + detail::coord(g.left + g.width / 2) +
         "\" y=\"18\" font-size=\"14\" text-anchor=\"middle\" fill=\"#222\">";
  append_escaped(out, graph.title);
  out += "</text><rect x=\"" + detail::coord(g.left) + "\" y=\"" + detail::coord(g.top) + "\" width=\"" +
         detail::coord(g.width) + "\" height=\"" + detail::coord(g.height) +
         "\" fill=\"#f6f6f6\" stroke=\"#999\"/>";
  append_values(out, graph, g);
  out += "<path class=\"zero\" stroke=\"#777\" d=\"M" + detail::coord(g.left) + "," + detail::coord(g.y(0)) +
         "h" + detail::coord(g.width) + "\"/>";
  out += "<g font-size=\"10\" fill=\"#333\" text-anchor=\"end\" dominant-baseline=\"central\"><text x=\"" +
         detail::coord(g.left - 4) + "\" y=\"" + detail::coord(g.y(1)) + "\">+1</text><text x=\"" +
         detail::coord(g.left - 4) + "\" y=\"" + detail::coord(g.y(0)) + "\">0</text><text x=\"" +
         detail::coord(g.left - 4) + "\" y=\"" + detail::coord(g.y(-1)) + "\">\u22121</text></g>";
  append_move_numbers(out, g);
  append_marks(out, graph, g);
  out += "</svg>";
  return Markup::trusted(std::move(out));
}

}  // namespace epdd::html
