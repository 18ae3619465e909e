// Private helpers of the SVG pieces: numbers written compactly, the colours of series, axes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace epdd::html::detail {

// A coordinate rounded to one decimal, without a trailing ".0" ("50", "45.5", "-3.2").
std::string coord(double value);
// A figure for a tick or a bar: up to 6 significant digits, no trailing zeros ("0.01", "100").
std::string figure(double value);

// The colour of the i-th series (the Okabe-Ito palette, distinguishable by colour-blind
// readers), and whether it is dashed (from the ninth series on, when the colours repeat).
std::string_view series_colour(std::size_t i);
bool series_dashed(std::size_t i);

// A linear axis: the range and its tick step ("nice" steps of 1, 2 or 5 times a power of ten,
// about five of them).
struct LinearAxis {
  double min = 0;
  double max = 1;
  double step = 0.2;
};
// The axis over [lo, hi]; widen: extend the ends to whole steps (for ranges taken from data).
LinearAxis linear_axis(double lo, double hi, bool widen);
// The tick values of an axis: the multiples of its step within [min, max].
std::vector<double> ticks(const LinearAxis& axis);

// Number of characters (UTF-8 code points, roughly) of a label, for laying out its column.
std::size_t label_length(std::string_view text);

// The start tag of a chart: <svg class="chart KIND" viewBox="0 0 W H" width="W" height="H"
// role="img" aria-label="TITLE"> (the title escaped), the picture's units being pixels.
std::string chart_start(std::string_view kind, int width, double height, std::string_view title);

// ` name="ESCAPED"`: an attribute with an escaped value.
void append_attribute(std::string& out, std::string_view name, std::string_view value);

}  // namespace epdd::html::detail
