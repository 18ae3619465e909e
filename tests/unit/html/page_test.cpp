// html::Page, Table and details: one self-contained document, every input string escaped
// (issue 20).
#include "html/page.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "markup_search.hpp"

using namespace epdd::html;
using namespace epdd::html::testing;

namespace {

// The attribute values following each `name=` in `text`.
std::vector<std::string> attribute_values(const std::string& text, const std::string& name) {
  std::vector<std::string> values;
  const std::string key = name + "=\"";
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
    const std::size_t start = at + key.size();
    values.push_back(text.substr(start, text.find('"', start) - start));
  }
  return values;
}

Page demo_page(const std::string& text) {
  Page page(text);
  Section& first = page.add_section(text, text);
  first.add_paragraph(text);
  Table table({text, "Score"});
  table.add_row({text, Cell::number("1.5")});
  table.add_row({Cell(link_to(text, text)), Cell::number(text)});
  first.add(table);
  first.add_details(text, Markup::text(text));
  page.add_section("second", "Second").add_paragraph("two");
  return page;
}

}  // namespace

TEST_CASE("a page is one UTF-8 document with a title, contents and its sections in order", "[html][page]") {
  Page page("Suite run");
  page.add_section("solved", "Solved").add_paragraph("12 of 20");
  page.add_section("unsolved", "Unsolved").add_paragraph("8 of 20");
  const std::string doc = page.document();
  REQUIRE(doc.rfind("<!DOCTYPE html>\n", 0) == 0);
  const std::size_t charset = doc.find("<meta charset=\"utf-8\">");
  REQUIRE(charset != std::string::npos);
  CHECK(charset < doc.find("<title>Suite run</title>"));
  CHECK(doc.find("<h1>Suite run</h1>") != std::string::npos);
  const std::size_t solved = doc.find("<section id=\"id-solved\"><h2>Solved</h2>");
  const std::size_t unsolved = doc.find("<section id=\"id-unsolved\"><h2>Unsolved</h2>");
  REQUIRE(solved != std::string::npos);
  REQUIRE(unsolved != std::string::npos);
  CHECK(solved < doc.find("<p>12 of 20</p>"));
  CHECK(doc.find("<p>12 of 20</p>") < unsolved);
  CHECK(count(doc, "<section ") == 2);
  CHECK(count(doc, "</section>") == 2);
  // The table of contents links to each section, before the first.
  CHECK(doc.find("<a href=\"#id-solved\">Solved</a>") < solved);
  CHECK(doc.find("<a href=\"#id-unsolved\">Unsolved</a>") < solved);
  CHECK(doc.substr(doc.size() - 8) == "</html>\n");
}

TEST_CASE("a table has a header row and escaped cells, figures right-aligned", "[html][page]") {
  Table table({"Id", "Move"}, "positions");
  table.add_row({"wac.001", "Qg6"}).add_row({"<b>", Cell::number("42")});
  CHECK(table.rows() == 2);
  const std::string html = table.markup().str();
  CHECK(html.rfind("<table class=\"positions\"><thead><tr><th>Id</th><th>Move</th></tr></thead><tbody>", 0) ==
        0);
  CHECK(html.find("<tr><td>wac.001</td><td>Qg6</td></tr>") != std::string::npos);
  CHECK(html.find("<tr><td>&lt;b&gt;</td><td class=\"num\">42</td></tr>") != std::string::npos);
  CHECK(count(html, "<tr>") == 3);
  CHECK(html.substr(html.size() - 16) == "</tbody></table>");
}

TEST_CASE("a table row of the wrong width is refused", "[html][page]") {
  Table table({"a", "b"});
  CHECK_THROWS_AS(table.add_row({"only one"}), std::invalid_argument);
  CHECK_THROWS_AS(table.add_row({"1", "2", "3"}), std::invalid_argument);
  CHECK(table.rows() == 0);
}

TEST_CASE("details and links are built of escaped parts", "[html][page]") {
  CHECK(details("Show <8>", Markup::text("a&b")).str() ==
        "<details><summary>Show &lt;8&gt;</summary>a&amp;b</details>");
  CHECK(details("s", Markup(), true).str() == "<details open><summary>s</summary></details>");
  CHECK(link_to("wac 1", "<1>").str() == "<a href=\"#id-wac.201\">&lt;1&gt;</a>");
}

TEST_CASE("the page's CSS cannot end its style element", "[html][page]") {
  Page page("t");
  page.add_style(".bar { fill: #4a7; }");
  CHECK(page.document().find(".bar { fill: #4a7; }") != std::string::npos);
  CHECK_THROWS_AS(page.add_style("p{}</style><script>alert(1)</script>"), std::invalid_argument);
  CHECK(page.document().find("alert") == std::string::npos);
}

TEST_CASE("a hostile string through every field of a page stays text", "[html][page]") {
  const std::string doc = demo_page(kHostile).document();
  CHECK(count(doc, "<script") == 0);
  CHECK(count(doc, "alert(1)") == count(doc, kHostileEscaped));
  // title, h1, toc link, h2, paragraph, header cell, two cells and a link text, a figure cell,
  // details summary and body: 11 places.
  CHECK(count(doc, kHostileEscaped) == 11);
  // Ids and link targets are anchor ids: nothing to escape in them.
  for (const std::string& id : attribute_values(doc, "id"))
    CHECK(id.find_first_of("<>\"'& ") == std::string::npos);
}

TEST_CASE("a page refers to nothing outside itself", "[html][page]") {
  const std::string doc = demo_page(kHostile + " http://example.com/x.png").document();
  // The URL of the input is text (after "&amp; "), never an attribute; in ids it is spelled
  // "http.3a.2f.2f"; the other "http" is the http-equiv of the Content-Security-Policy.
  CHECK(count(doc, "http:") == 11);
  CHECK(count(doc, "http:") == count(doc, "&amp; http://example.com"));
  CHECK(count(doc, "http") == count(doc, "http:") + count(doc, "http.3a") + count(doc, "http-equiv="));
  CHECK(count(doc, "http-equiv=") == 1);
  CHECK(count(doc, "src=") == 0);
  CHECK(count(doc, "url(") == 0);
  CHECK(count(doc, "@import") == 0);
  const auto hrefs = attribute_values(doc, "href");
  CHECK(hrefs.size() == 3);  // two in the contents, one link in a cell, and no other
  for (const std::string& href : hrefs) CHECK(href.rfind("#id-", 0) == 0);
  CHECK(doc.find("content=\"default-src 'none'; style-src 'unsafe-inline'\"") != std::string::npos);
}
