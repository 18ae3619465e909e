// The line chart of svg.hpp: title on top, the plot, tick labels and the x label below it, then
// the legend, one row per series.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "html/svg.hpp"
#include "svg_common.hpp"

namespace epdd::html {

namespace {

constexpr double kLeft = 64, kRight = 24, kTop = 36, kBelow = 52, kLegendRow = 18;

// An axis as drawn: its range, how values map onto [0, 1], and where its ticks are.
struct Axis {
  Scale scale = Scale::Linear;
  double min = 0, max = 1;
  std::vector<double> ticks;

  // 0 at min, 1 at max, clamped; a log axis puts x <= 0 at 0.
  double fraction(double v) const {
    double t = 0;
    if (scale == Scale::Log10)
      t = v <= 0 ? 0 : (std::log10(v) - std::log10(min)) / (std::log10(max) - std::log10(min));
    else t = (v - min) / (max - min);
    return std::clamp(t, 0.0, 1.0);
  }
};

Axis linear(std::optional<Range> given, double lo, double hi) {
  const detail::LinearAxis axis =
      given ? detail::linear_axis(given->min, given->max, false) : detail::linear_axis(lo, hi, true);
  return {Scale::Linear, axis.min, axis.max, detail::ticks(axis)};
}

Axis log10_axis(std::optional<Range> given, double lo, double hi) {
  Axis axis{Scale::Log10, 1, 10, {}};
  if (given) {
    if (!(given->min > 0) || !(given->max > given->min)) {
      throw std::invalid_argument("html::line_chart: a log axis needs 0 < min < max");
    }
    axis.min = given->min;
    axis.max = given->max;
  } else if (hi > 0) {
    const double low = std::floor(std::log10(lo > 0 ? lo : hi)), high = std::ceil(std::log10(hi));
    axis.min = std::pow(10.0, low);
    axis.max = std::pow(10.0, high > low ? high : low + 1);
  }
  for (double k = std::ceil(std::log10(axis.min) - 1e-9); k <= std::log10(axis.max) + 1e-9; ++k) {
    axis.ticks.push_back(std::pow(10.0, k));
  }
  return axis;
}

// The axes of a chart: the data's extent (finite points only; on a log axis the smallest x
// above 0), widened as svg.hpp says, or the given ranges.
std::pair<Axis, Axis> axes(const LineChart& chart) {
  double x_lo = INFINITY, x_hi = -INFINITY, x_positive = INFINITY, y_lo = 0, y_hi = 0;
  for (const Series& series : chart.series) {
    for (const Point& p : series.points) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      x_lo = std::min(x_lo, p.x);
      x_hi = std::max(x_hi, p.x);
      if (p.x > 0) x_positive = std::min(x_positive, p.x);
      y_lo = std::min(y_lo, p.y);
      y_hi = std::max(y_hi, p.y);
    }
  }
  if (x_lo > x_hi) x_lo = x_hi = 0;
  Axis x = chart.x_scale == Scale::Log10
               ? log10_axis(chart.x_range, std::isfinite(x_positive) ? x_positive : 0, x_hi)
               : linear(chart.x_range, x_lo, x_hi);
  return {x, linear(chart.y_range, y_lo, y_hi)};
}

void append_axes(std::string& out, const PlotArea& area, const Axis& x, const Axis& y) {
  const double bottom = area.top + area.height, right = area.left + area.width;
  std::string grid, labels;
  for (const double t : x.ticks) {
    const std::string px = detail::coord(area.left + x.fraction(t) * area.width);
    grid += "M" + px + "," + detail::coord(area.top) + "V" + detail::coord(bottom);
    labels += "<text class=\"tick x\" x=\"" + px + "\" y=\"" + detail::coord(bottom + 16) + "\">" +
              detail::figure(t) + "</text>";
  }
  for (const double t : y.ticks) {
    const std::string py = detail::coord(bottom - y.fraction(t) * area.height);
    grid += "M" + detail::coord(area.left) + "," + py + "H" + detail::coord(right);
    labels += "<text class=\"tick y\" x=\"" + detail::coord(area.left - 6) + "\" y=\"" + py +
              "\" text-anchor=\"end\" dominant-baseline=\"central\">" + detail::figure(t) + "</text>";
  }
  out += "<path class=\"grid\" fill=\"none\" stroke=\"#ddd\" d=\"" + grid + "\"/>";
  out += "<path class=\"axes\" fill=\"none\" stroke=\"#555\" d=\"M" + detail::coord(area.left) + "," +
         detail::coord(area.top) + "V" + detail::coord(bottom) + "H" + detail::coord(right) + "\"/>";
  out += "<g font-size=\"11\" fill=\"#333\" text-anchor=\"middle\">" + labels + "</g>";
}

void append_labels(std::string& out, const LineChart& chart, const PlotArea& area) {
  out += "<g fill=\"#222\" text-anchor=\"middle\">";
  out += "<text class=\"title\" x=\"" + detail::coord(area.left + area.width / 2) +
         "\" y=\"20\" font-size=\"15\">";
  append_escaped(out, chart.title);
  out += "</text><text class=\"axis-label\" x=\"" + detail::coord(area.left + area.width / 2) + "\" y=\"" +
         detail::coord(area.top + area.height + 36) + "\" font-size=\"12\">";
  append_escaped(out, chart.x_label);
  const std::string middle = detail::coord(area.top + area.height / 2);
  out += "</text><text class=\"axis-label\" x=\"14\" y=\"" + middle +
         "\" font-size=\"12\" transform=\"rotate(-90 14 " + middle + ")\">";
  append_escaped(out, chart.y_label);
  out += "</text></g>";
}

void append_series(std::string& out, const Series& series, std::size_t i, const PlotArea& area, const Axis& x,
                   const Axis& y) {
  out += "<polyline class=\"series\"";
  detail::append_attribute(out, "data-series", series.name);
  out += " fill=\"none\" stroke=\"";
  out += detail::series_colour(i);
  out += detail::series_dashed(i) ? "\" stroke-dasharray=\"6 3" : "";
  out += "\" stroke-width=\"2\" stroke-linejoin=\"round\" points=\"";
  bool first = true;
  for (const Point& p : series.points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue;
    if (!first) out += ' ';
    first = false;
    out += detail::coord(area.left + x.fraction(p.x) * area.width) + "," +
           detail::coord(area.top + area.height - y.fraction(p.y) * area.height);
  }
  out += "\"/>";
}

void append_legend(std::string& out, const LineChart& chart, const PlotArea& area) {
  double row = area.top + area.height + kBelow;
  for (std::size_t i = 0; i < chart.series.size(); ++i, row += kLegendRow) {
    const std::string y = detail::coord(row);
    out += "<line x1=\"" + detail::coord(area.left) + "\" y1=\"" + y + "\" x2=\"" +
           detail::coord(area.left + 24) + "\" y2=\"" + y + "\" stroke=\"" +
           std::string(detail::series_colour(i)) + "\" stroke-width=\"2\"" +
           (detail::series_dashed(i) ? " stroke-dasharray=\"6 3\"" : "") + "/>";
    out += "<text class=\"legend\" x=\"" + detail::coord(area.left + 30) + "\" y=\"" + y +
           "\" font-size=\"12\" dominant-baseline=\"central\">";
    append_escaped(out, chart.series[i].name);
    out += "</text>";
  }
}

}  // namespace

PlotArea plot_area(const LineChart& chart) {
  return {kLeft, kTop, std::max(chart.width - kLeft - kRight, 10.0),
          static_cast<double>(std::max(chart.plot_height, 10))};
}

Markup line_chart(const LineChart& chart) {
  const PlotArea area = plot_area(chart);
  const auto [x, y] = axes(chart);
  const double height =
      area.top + area.height + kBelow + kLegendRow * static_cast<double>(chart.series.size());
  std::string out = detail::chart_start("line-chart", chart.width, height, chart.title);
  append_axes(out, area, x, y);
  append_labels(out, chart, area);
  for (std::size_t i = 0; i < chart.series.size(); ++i) append_series(out, chart.series[i], i, area, x, y);
  append_legend(out, chart, area);
  out += "</svg>";
  return Markup::trusted(std::move(out));
}

}  // namespace epdd::html
