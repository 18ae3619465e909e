#include "epd/document.hpp"

#include <cstdio>

namespace epdd::epd {

bool LineSplitter::next(std::string_view& line, std::string_view& ending) {
  if (pos_ >= bytes_.size()) return false;
  const std::size_t nl = bytes_.find('\n', pos_);
  const std::size_t end = nl == std::string_view::npos ? bytes_.size() : nl;
  std::size_t content_end = end;
  if (nl == std::string_view::npos) ending = "";
  else if (end > pos_ && bytes_[end - 1] == '\r') {
    ending = "\r\n";
    --content_end;
  } else {
    ending = "\n";
  }
  line = bytes_.substr(pos_, content_end - pos_);
  pos_ = nl == std::string_view::npos ? bytes_.size() : nl + 1;
  return true;
}

std::size_t EpdDocument::record_count() const {
  std::size_t n = 0;
  for (const EpdLine& l : lines) n += l.record.has_value();
  return n;
}

namespace {

// Drops NUL bytes (noting where) and notes the first byte outside printing ASCII.
std::string clean_line(std::string_view raw, std::size_t line, Diagnostics& diags) {
  std::string out;
  out.reserve(raw.size());
  bool nul_noted = false;
  bool non_ascii_noted = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c == 0) {
      if (!nul_noted)
        diags.add(Problem::NulByte, line, i + 1, "NUL byte in the line (dropped)");
      nul_noted = true;
      continue;
    }
    if ((c >= 0x80 || (c < 0x20 && c != '\t')) && !non_ascii_noted) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      diags.add(Problem::NonAscii, line, i + 1,
                std::string("byte ") + hex + " is not printing ASCII (kept as it is; " +
                    (c >= 0x80 ? "Latin-1 or UTF-8 text?)" : "a control character)"));
      non_ascii_noted = true;
    }
    out += static_cast<char>(c);
  }
  if (out.size() > 1024)
    diags.add(Problem::LineTooLong, line, 1025,
              "line of " + std::to_string(out.size()) +
                  " characters (the standard asks readers to handle at least 1024)");
  return out;
}

}  // namespace

EpdDocument read_document(std::string_view bytes, Diagnostics& diags) {
  EpdDocument doc;
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") {
    doc.bom = true;
    bytes.remove_prefix(3);
    diags.add(Problem::ByteOrderMark, 1, 1, "UTF-8 byte order mark at the start of the file (set aside)");
  }
  LineSplitter lines(bytes);
  std::string_view raw, ending;
  bool crlf_noted = false;
  for (std::size_t n = 1; lines.next(raw, ending); ++n) {
    if (ending == "\r\n" && !crlf_noted) {
      diags.add(Problem::CrLf, n, raw.size() + 1, "CRLF line endings (kept as they are)");
      crlf_noted = true;
    }
    EpdLine line;
    line.ending = ending;
    line.record = EpdRecord::parse(clean_line(raw, n, diags), n, diags, &line.text);
    doc.lines.push_back(std::move(line));
  }
  return doc;
}

std::string write_document(const EpdDocument& doc, WriteStyle style) {
  std::string out;
  if (doc.bom) out += "\xEF\xBB\xBF";
  for (const EpdLine& line : doc.lines) {
    if (line.record)
      out += style == WriteStyle::Canonical ? line.record->canonical_text() : line.record->preserved_text();
    else
      out += line.text;
    out += line.ending;
  }
  return out;
}

}  // namespace epdd::epd
