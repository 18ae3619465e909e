// html/: the pieces epdd's HTML reports are built from. A module of its own beside epd, pgn and
// uci, using core only (a board diagram needs core::Board); the workflows (suites, annotate,
// book) build their pages with it, and cli for `epdd report` (issue 20).
//
// Decisions this module keeps:
// - One self-contained document: styles inline, no external URL, no script. Charts are inline
//   SVG written here, not a JavaScript library: a page is readable with scripts disabled (tables
//   are HTML, charts are SVG that needs no script), small (a 3,000-position suite must stay under
//   2 MB), and testable by counting SVG elements. Scripts, if any are added later, only enhance.
// - Every string that comes from input reaches the output through escape(): element content
//   and attribute values alike. Text inside <script> or <style> is never input: this module
//   emits no script, and its <style> holds only the program's own CSS (Page refuses CSS with a
//   '<' in it).
//
// escape.hpp: making any bytes safe and valid as HTML text.
#pragma once

#include <string>
#include <string_view>

namespace epdd::html {

// Markup this module vouches for: escaped text, or elements built by html/ from escaped parts.
// Page, Table and the SVG pieces take Markup where they take markup, and text (escaped on the
// way in) everywhere else, so that input cannot reach the document unescaped by accident.
class Markup {
 public:
  Markup() = default;
  // Escaped text (escape() below).
  static Markup text(std::string_view text);
  // Markup written by the program, not from input: element names, attributes of our own. The
  // caller promises that every input string in it went through escape().
  static Markup trusted(std::string markup) { return Markup(std::move(markup)); }

  const std::string& str() const { return markup_; }
  bool empty() const { return markup_.empty(); }
  Markup& operator+=(const Markup& other) {
    markup_ += other.markup_;
    return *this;
  }

 private:
  explicit Markup(std::string markup) : markup_(std::move(markup)) {}
  std::string markup_;
};

// Appends `text` to `out` escaped for HTML element content and for a quoted attribute value
// (one form serves both): & < > " ' become &amp; &lt; &gt; &quot; &#39;. Any bytes are
// accepted and the output is always valid UTF-8 that an HTML parser reads without a parse
// error: a byte that does not start a valid UTF-8 sequence (RFC 3629, as core::utf8_length)
// becomes U+FFFD, one per byte; the control characters HTML forbids in its input stream (C0
// but tab, line feed and carriage return; DEL; C1 U+0080..U+009F) become U+FFFD too, and so do
// the noncharacters (U+FDD0..U+FDEF, U+xFFFE, U+xFFFF). Everything else passes unchanged.
void append_escaped(std::string& out, std::string_view text);

// append_escaped() into a new string.
std::string escape(std::string_view text);

// `text` as an id for an element and a "#id" link target: letters, digits, '-' and '_' kept,
// every other byte written as '.' and two hex digits, prefixed by "id-" so that it starts with
// a letter. Two different texts never give the same id, and the result needs no escaping.
std::string anchor_id(std::string_view text);

}  // namespace epdd::html
