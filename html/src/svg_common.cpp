#include "svg_common.hpp"

#include <array>
#include <charconv>
#include <cmath>

#include "html/escape.hpp"

namespace epdd::html::detail {

std::string coord(double value) {
  double rounded = std::round(value * 10) / 10;
  if (rounded == 0) rounded = 0;  // no "-0"
  std::array<char, 32> buffer{};
  const auto result =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), rounded, std::chars_format::fixed, 1);
  std::string out(buffer.data(), result.ptr);
  if (out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
  return out;
}

std::string figure(double value) {
  if (std::abs(value) < 1e-12) value = 0;
  std::array<char, 32> buffer{};
  const auto result =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::general, 6);
  return std::string(buffer.data(), result.ptr);
}

std::string_view series_colour(std::size_t i) {
  static constexpr std::array<std::string_view, 8> kPalette = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                                               "#e69f00", "#56b4e9", "#000000", "#999999"};
  return kPalette[i % kPalette.size()];
}

bool series_dashed(std::size_t i) { return i >= 8; }

LinearAxis linear_axis(double lo, double hi, bool widen) {
  if (!(hi > lo)) {  // one value (or none): a range around it, from 0 up when it is 0
    const double pad = lo == 0 ? 1 : std::abs(lo) / 10;
    hi = lo + pad;
    if (lo != 0) lo -= pad;
  }
  const double raw = (hi - lo) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude;
  if (widen) {
    lo = std::floor(lo / step + 1e-9) * step;
    hi = std::ceil(hi / step - 1e-9) * step;
  }
  return {lo, hi, step};
}

std::vector<double> ticks(const LinearAxis& axis) {
  std::vector<double> out;
  const double first = std::ceil(axis.min / axis.step - 1e-9);
  for (double k = first; k * axis.step <= axis.max + axis.step * 1e-9; ++k) out.push_back(k * axis.step);
  return out;
}

std::size_t label_length(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

void append_attribute(std::string& out, std::string_view name, std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  append_escaped(out, value);
  out += '"';
}

std::string chart_start(std::string_view kind, int width, double height, std::string_view title) {
  const std::string w = std::to_string(width), h = coord(height);
  std::string out = "<svg class=\"chart ";
  out += kind;
  out += "\" viewBox=\"0 0 " + w + " " + h + "\" width=\"" + w + "\" height=\"" + h + "\" role=\"img\"";
  append_attribute(out, "aria-label", title);
  out += '>';
  return out;
}

}  // namespace epdd::html::detail
