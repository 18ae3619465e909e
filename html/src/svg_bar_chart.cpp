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

}  // namespace

Markup bar_chart(const BarChart& chart) {
  double lo = 0, hi = 0;
  std::size_t longest = 0;
  for (const Bar& bar : chart.bars) {
    if (std::isfinite(bar.value)) {
      lo = std::min(lo, bar.value);
      hi = std::max(hi, bar.value);
    }
    longest = std::max(longest, detail::label_length(bar.label));
  }
  const detail::LinearAxis axis = chart.max ? detail::linear_axis(lo, std::max(*chart.max, lo), false)
                                            : detail::linear_axis(lo, hi, true);
  // About 7 pixels a character at 12 px: the label column fits the longest label, within limits.
  const double left = std::clamp(7.0 * static_cast<double>(longest), 60.0, 280.0) + 10;
  const double width = std::max(chart.width - left - kRight, 10.0);
  const double plot_height = kRow * static_cast<double>(chart.bars.size());
  const double height = kTop + plot_height + kBelow;
  const auto px = [&](double v) {
    return left + std::clamp((v - axis.min) / (axis.max - axis.min), 0.0, 1.0) * width;
  };

  std::string out = "<svg class=\"chart bar-chart\" viewBox=\"0 0 " + std::to_string(chart.width) + " " +
                    detail::coord(height) + "\" width=\"" + std::to_string(chart.width) + "\" height=\"" +
                    detail::coord(height) + "\" role=\"img\"";
  detail::append_attribute(out, "aria-label", chart.title);
  out += "><text class=\"title\" x=\"" + detail::coord(left + width / 2) +
         "\" y=\"20\" font-size=\"15\" text-anchor=\"middle\" fill=\"#222\">";
  append_escaped(out, chart.title);
  out += "</text>";
  // Gridlines and their figures.
  std::string grid, figures;
  for (const double t : detail::ticks(axis)) {
    const std::string x = detail::coord(px(t));
    grid += "M" + x + "," + detail::coord(kTop) + "V" + detail::coord(kTop + plot_height);
    figures += "<text class=\"tick\" x=\"" + x + "\" y=\"" + detail::coord(kTop + plot_height + 16) + "\">" +
               detail::figure(t) + "</text>";
  }
  out += "<path class=\"grid\" fill=\"none\" stroke=\"#ddd\" d=\"" + grid + "\"/>";
  out += "<g font-size=\"11\" fill=\"#333\" text-anchor=\"middle\">" + figures + "</g>";
  out += "<g font-size=\"12\" fill=\"#222\" dominant-baseline=\"central\">";
  const double zero = px(0);
  for (std::size_t i = 0; i < chart.bars.size(); ++i) {
    const Bar& bar = chart.bars[i];
    const double value = std::isfinite(bar.value) ? bar.value : 0;
    const double row = kTop + kRow * static_cast<double>(i), centre = row + kRow / 2;
    const double end = px(value);
    out += "<text class=\"label\" x=\"" + detail::coord(left - 6) + "\" y=\"" + detail::coord(centre) +
           "\" text-anchor=\"end\">";
    append_escaped(out, bar.label);
    out += "</text><rect class=\"bar\"";
    detail::append_attribute(out, "data-label", bar.label);
    out += " x=\"" + detail::coord(std::min(zero, end)) + "\" y=\"" +
           detail::coord(row + (kRow - kBarHeight) / 2) + "\" width=\"" +
           detail::coord(std::abs(end - zero)) + "\" height=\"" + detail::coord(kBarHeight) + "\" fill=\"" +
           std::string(detail::series_colour(0)) + "\"/>";
    out += "<text class=\"value\" x=\"" + detail::coord(std::max(zero, end) + 4) + "\" y=\"" +
           detail::coord(centre) + "\">";
    append_escaped(out, bar.value_text.empty() ? detail::figure(bar.value) : bar.value_text);
    out += "</text>";
  }
  out += "</g><path class=\"zero\" stroke=\"#555\" d=\"M" + detail::coord(zero) + "," + detail::coord(kTop) +
         "V" + detail::coord(kTop + plot_height) + "\"/></svg>";
  return Markup::trusted(std::move(out));
}

}  // namespace epdd::html
