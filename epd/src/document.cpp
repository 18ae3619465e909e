#include "epd/document.hpp"

#include <algorithm>
#include <cctype>
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

bool is_plain(unsigned char c) { return c >= 0x20 && c < 0x80; }

}  // namespace

// Lines of plain ASCII (nearly all) are copied whole.
std::string clean_line(std::string_view raw, std::size_t line, Diagnostics& diags) {
  if (raw.size() > 1024)
    diags.add(Problem::LineTooLong, line, 1025,
              "line of " + std::to_string(raw.size()) +
                  " characters (the standard asks readers to handle at least 1024)");
  const auto odd = std::find_if(raw.begin(), raw.end(), [](char c) {
    return !is_plain(static_cast<unsigned char>(c)) && c != '\t';
  });
  if (odd == raw.end()) return std::string(raw);
  std::string out;
  out.reserve(raw.size());
  bool nul_noted = false;
  bool non_ascii_noted = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    if (c == 0) {
      if (!nul_noted) diags.add(Problem::NulByte, line, i + 1, "NUL byte in the line (dropped)");
      nul_noted = true;
      continue;
    }
    if (!is_plain(c) && c != '\t' && !non_ascii_noted) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", c);
      diags.add(Problem::NonAscii, line, i + 1,
                std::string("byte ") + hex + " is not printing ASCII (kept as it is; " +
                    (c >= 0x80 ? "Latin-1 or UTF-8 text?)" : "a control character)"));
      non_ascii_noted = true;
    }
    out += static_cast<char>(c);
  }
  return out;
}

namespace {

std::string_view without_bom(std::string_view bytes) {
  return bytes.substr(0, 3) == "\xEF\xBB\xBF" ? bytes.substr(3) : bytes;
}

}  // namespace

EpdStreamReader::EpdStreamReader(std::string_view bytes, Diagnostics& diags)
    : lines_(without_bom(bytes)), diags_(diags), bom_(without_bom(bytes).size() != bytes.size()) {
  if (bom_) diags_.add(Problem::ByteOrderMark, 1, 1, "UTF-8 byte order mark at the start of the file (set aside)");
}

bool EpdStreamReader::next(EpdLine& line) {
  std::string_view raw, ending;
  if (!lines_.next(raw, ending)) return false;
  ++line_;
  if (ending == "\r\n" && !crlf_noted_) {
    diags_.add(Problem::CrLf, line_, raw.size() + 1, "CRLF line endings (kept as they are)");
    crlf_noted_ = true;
  }
  line.ending = ending;
  line.text.clear();
  line.record = EpdRecord::parse(clean_line(raw, line_, diags_), line_, diags_, &line.text);
  return true;
}

bool looks_like_pgn(std::string_view bytes) {
  LineSplitter lines(without_bom(bytes));
  for (std::string_view line, ending; lines.next(line, ending);) {
    const std::size_t start = line.find_first_not_of(" \t");
    if (start == std::string_view::npos) continue;
    line.remove_prefix(start);
    if (line.size() < 2 || line[0] != '[') return false;
    std::size_t i = 1;
    while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_')) ++i;
    if (i == 1) return false;
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    return i < line.size() && line[i] == '"';
  }
  return false;
}

EpdDocument read_document(std::string_view bytes, Diagnostics& diags) {
  EpdDocument doc;
  EpdStreamReader reader(bytes, diags);
  doc.bom = reader.bom();
  for (EpdLine line; reader.next(line);) doc.lines.push_back(std::move(line));
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
