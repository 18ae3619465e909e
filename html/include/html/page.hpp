// page.hpp: one self-contained HTML document (issue 20). A Page has a title, the program's own
// inline CSS and sections (each with an id, listed in a table of contents at the top); a
// section holds paragraphs, tables, <details> blocks and markup such as the SVG of svg.hpp.
// The document has no external URL anywhere: no src=, no href= but "#id" links to its own
// sections and anchors, and a Content-Security-Policy (default-src 'none') so that a browser
// would refuse to fetch or run anything even if a later change tried.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "html/escape.hpp"

namespace epdd::html {

// One table cell: text (escaped here) or markup (a board diagram, a link). Numbers are right-
// aligned (class "num") so that columns of figures line up.
struct Cell {
  Cell(std::string_view text) : content(Markup::text(text)) {}
  Cell(const std::string& text) : content(Markup::text(text)) {}
  Cell(const char* text) : content(Markup::text(text)) {}
  Cell(Markup markup) : content(std::move(markup)) {}
  // A right-aligned figure, already formatted by the caller.
  static Cell number(std::string_view text) {
    Cell cell(text);
    cell.numeric = true;
    return cell;
  }

  Markup content;
  bool numeric = false;
};

// A table with one header row and rows of cells. Every row has as many cells as the header has
// columns: a row of another width is a programmer error (std::invalid_argument), not a table
// that silently shifts its columns.
class Table {
 public:
  explicit Table(std::vector<std::string> header, std::string_view css_class = "");
  Table& add_row(std::vector<Cell> cells);
  std::size_t columns() const { return header_.size(); }
  std::size_t rows() const { return rows_.size(); }
  // <table class="..."><thead>...</thead><tbody>...</tbody></table>
  Markup markup() const;

 private:
  std::vector<std::string> header_;
  std::string css_class_;
  std::vector<std::vector<Cell>> rows_;
};

// <a href="#ID">text</a> with ID = anchor_id(target): a link to an element of the same page
// whose id was made by anchor_id() from the same text.
Markup link_to(std::string_view target, std::string_view text);

// <details><summary>summary</summary>body</details>: content the reader opens on demand (the
// unsolved positions of a long suite, the moves of a game). `open` shows it opened.
Markup details(std::string_view summary, const Markup& body, bool open = false);

// A <section> of a page: its id (anchor_id of the given text) and heading, then its content in
// the order it was added.
class Section {
 public:
  Section(std::string_view id, std::string_view heading);
  Section& add_paragraph(std::string_view text);
  Section& add(const Markup& markup);
  Section& add(const Table& table) { return add(table.markup()); }
  Section& add_details(std::string_view summary, const Markup& body, bool open = false) {
    return add(details(summary, body, open));
  }
  const std::string& id() const { return id_; }
  const std::string& heading() const { return heading_; }
  const std::string& body() const { return body_; }

 private:
  std::string id_;
  std::string heading_;
  std::string body_;
};

// A whole document. Sections are written in the order they were added, each listed in the
// table of contents; a reference returned by add_section stays valid while the Page lives.
class Page {
 public:
  explicit Page(std::string_view title);
  // CSS of the program, after the page's own. Never input: CSS with a '<' in it (which could
  // end the <style> element) is a programmer error, std::invalid_argument.
  void add_style(std::string_view css);
  Section& add_section(std::string_view id, std::string_view heading);
  // The document: <!DOCTYPE html>, UTF-8, title, style, contents, sections.
  std::string document() const;

 private:
  std::string title_;
  std::string style_;
  std::deque<Section> sections_;
};

}  // namespace epdd::html
