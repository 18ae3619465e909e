// The bar chart of svg.hpp: title on top, one row per bar (label, bar, figure), the value axis's
// figures below.
#include <algorithm>
#include <cmath>
#include <string>

#include "html/svg.hpp"
#include "svg_common.hpp"

namespace epdd::html {

namespace {

constexpr double kTop = 36, kRow = 22, kBarHeight = 16, kRight = 90, kBelow = 24;

// Where the bars go: the value axis, the plot's left edge and width, and its height (a row a bar).
struct Layout {
  detail::LinearAxis axis;
  double left = 0, width = 0, plot_height = 0;

  double x(double v) const {
    return left + std::clamp((v - axis.min) / (axis.max - axis.min), 0.0, 1.0) * width;
  }
};

Layout layout(const BarChart& chart) {
  double lo = 0, hi = 0;
  std::size_t longest = 0;
  for (const Bar& bar : chart.bars) {
    if (std::isfinite(bar.value)) {
      lo = std::min(lo, bar.value);
      hi = std::max(hi, bar.value);
    }
    longest = std::max(longest, detail::label_length(bar.label));
  }
  Layout l;
  l.axis = chart.max ? detail::linear_axis(lo, std::max(*chart.max, lo), false)
                     : detail::linear_axis(lo, hi, true);
  // About 7 pixels a character at 12 px: the label column fits the longest label, within limits.
  l.left = std::clamp(7.0 * static_cast<double>(longest), 60.0, 280.0) + 10;
  l.width = std::max(chart.width - l.left - kRight, 10.0);
  l.plot_height = kRow * static_cast<double>(chart.bars.size());
  return l;
}

// Gridlines at the value axis's ticks, and their figures below the plot.
void append_grid(std::string& out, const Layout& l) {
  std::string grid, figures;
  for (const double t : detail::ticks(l.axis)) {
    const std::string x = detail::coord(l.x(t));
    grid += "M" + x + "," + detail::coord(kTop) + "V" + detail::coord(kTop + l.plot_height);
    figures += "<text class=\"tick\" x=\"" + x + "\" y=\"" + detail::coord(kTop + l.plot_height + 16) +
               "\">" + detail::figure(t) + "</text>";
  }
  out += "<path class=\"grid\" fill=\"none\" stroke=\"#ddd\" d=\"" + grid + "\"/>";
  out += "<g font-size=\"11\" fill=\"#333\" text-anchor=\"middle\">" + figures + "</g>";
}

// Row i: the label, the bar from the zero line to the value, the figure beyond the bar's end.
void append_bar(std::string& out, const Layout& l, const Bar& bar, std::size_t i) {
  const double value = std::isfinite(bar.value) ? bar.value : 0;
  const double row = kTop + kRow * static_cast<double>(i), centre = row + kRow / 2;
  const double zero = l.x(0), end = l.x(value);
  out += "<text class=\"label\" x=\"" + detail::coord(l.left - 6) + "\" y=\"" + detail::coord(centre) +
         "\" text-anchor=\"end\">";
  append_escaped(out, bar.label);
  out += "</text><rect class=\"bar\"";
  detail::append_attribute(out, "data-label", bar.label);
  out += " x=\"" + detail::coord(std::min(zero, end)) + "\" y=\"" +
         detail::coord(row + (kRow - kBarHeight) / 2) + "\" width=\"" + detail::coord(std::abs(end - zero)) +
         "\" height=\"" + detail::coord(kBarHeight) + "\" fill=\"" + std::string(detail::series_colour(0)) +
         "\"/>";
  out += "<text class=\"value\" x=\"" + detail::coord(std::max(zero, end) + 4) + "\" y=\"" +
         detail::coord(centre) + "\">";
  append_escaped(out, bar.value_text.empty() ? detail::figure(bar.value) : bar.value_text);
  out += "</text>";
}

}  // namespace

Markup bar_chart(const BarChart& chart) {
  const Layout l = layout(chart);
  const double height = kTop + l.plot_height + kBelow;
  std::string out = detail::chart_start("bar-chart", chart.width, height, chart.title);
  out += "<text class=\"title\" x=\"" + detail::coord(l.left + l.width / 2) +
         "\" y=\"20\" font-size=\"15\" text-anchor=\"middle\" fill=\"#222\">";
  append_escaped(out, chart.title);
  out += "</text>";
  append_grid(out, l);
  out += "<g font-size=\"12\" fill=\"#222\" dominant-baseline=\"central\">";
  for (std::size_t i = 0; i < chart.bars.size(); ++i) append_bar(out, l, chart.bars[i], i);
  out += "</g><path class=\"zero\" stroke=\"#555\" d=\"M" + detail::coord(l.x(0)) + "," +
         detail::coord(kTop) + "V" + detail::coord(kTop + l.plot_height) + "\"/></svg>";
  return Markup::trusted(std::move(out));
}

}  // namespace epdd::html
