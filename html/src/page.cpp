#include "html/page.hpp"

#include <stdexcept>
#include <utility>

namespace epdd::html {

namespace {

// The page's own style: readable tables, charts that fit the width, print-friendly colours.
constexpr std::string_view kBaseStyle =
    R"(body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:1em auto;max-width:75em;padding:0 1em;color:#222;background:#fff}
h1{font-size:1.6em}h2{font-size:1.3em;border-bottom:1px solid #ccc;padding-bottom:.2em}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.4em 1.5em}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:nth-child(even){background:#fafafa}
details{margin:.5em 0}summary{cursor:pointer}
svg{max-width:100%;height:auto}svg text{font-family:"DejaVu Sans",Verdana,sans-serif}
)";

void append_cell(std::string& out, const char* tag, const Cell& cell) {
  out += '<';
  out += tag;
  if (cell.numeric) out += " class=\"num\"";
  out += '>';
  out += cell.content.str();
  out += "</";
  out += tag;
  out += '>';
}

}  // namespace

Table::Table(std::vector<std::string> header, std::string_view css_class)
    : header_(std::move(header)), css_class_(css_class) {}

Table& Table::add_row(std::vector<Cell> cells) {
  if (cells.size() != header_.size()) {
    throw std::invalid_argument("html::Table: a row of " + std::to_string(cells.size()) +
                                " cells in a table of " + std::to_string(header_.size()) + " columns");
  }
  rows_.push_back(std::move(cells));
  return *this;
}

Markup Table::markup() const {
  std::string out = "<table";
  if (!css_class_.empty()) {
    out += " class=\"";
    append_escaped(out, css_class_);
    out += '"';
  }
  out += "><thead><tr>";
  for (const std::string& title : header_) append_cell(out, "th", Cell(title));
  out += "</tr></thead><tbody>";
  for (const auto& row : rows_) {
    out += "<tr>";
    for (const Cell& cell : row) append_cell(out, "td", cell);
    out += "</tr>";
  }
  out += "</tbody></table>";
  return Markup::trusted(std::move(out));
}

Markup link_to(std::string_view target, std::string_view text) {
  std::string out = "<a href=\"#" + anchor_id(target) + "\">";
  append_escaped(out, text);
  out += "</a>";
  return Markup::trusted(std::move(out));
}

Markup details(std::string_view summary, const Markup& body, bool open) {
  std::string out = open ? "<details open><summary>" : "<details><summary>";
  append_escaped(out, summary);
  out += "</summary>";
  out += body.str();
  out += "</details>";
  return Markup::trusted(std::move(out));
}

Section::Section(std::string_view id, std::string_view heading) : id_(anchor_id(id)), heading_(heading) {}

Section& Section::add_paragraph(std::string_view text) {
  body_ += "<p>";
  append_escaped(body_, text);
  body_ += "</p>\n";
  return *this;
}

Section& Section::add(const Markup& markup) {
  body_ += markup.str();
  body_ += '\n';
  return *this;
}

Page::Page(std::string_view title) : title_(title) {}

void Page::add_style(std::string_view css) {
  if (css.find('<') != std::string_view::npos) {
    throw std::invalid_argument("html::Page::add_style: CSS with '<' could end the <style> element");
  }
  style_.append(css);
  style_ += '\n';
}

Section& Page::add_section(std::string_view id, std::string_view heading) {
  return sections_.emplace_back(id, heading);
}

std::string Page::document() const {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'\">\n"
      "<meta name=\"generator\" content=\"epdd\">\n<title>";
  append_escaped(out, title_);
  out += "</title>\n<style>\n";
  out += kBaseStyle;
  out += style_;
  out += "</style>\n</head>\n<body>\n<h1>";
  append_escaped(out, title_);
  out += "</h1>\n";
  if (!sections_.empty()) {
    out += "<nav><ul>";
    for (const Section& section : sections_) {
      out += "<li><a href=\"#" + section.id() + "\">";
      append_escaped(out, section.heading());
      out += "</a></li>";
    }
    out += "</ul></nav>\n";
  }
  for (const Section& section : sections_) {
    out += "<section id=\"" + section.id() + "\"><h2>";
    append_escaped(out, section.heading());
    out += "</h2>\n";
    out += section.body();
    out += "</section>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace epdd::html
