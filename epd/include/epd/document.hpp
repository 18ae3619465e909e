// An EPD file as read: every line kept, records parsed, the rest (blank lines, comments,
// lines that are not records) verbatim, each line with its own line ending.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "epd/record.hpp"

namespace epdd::epd {

struct EpdLine {
  std::optional<EpdRecord> record;
  std::string text;         // the line as read when it is not a record
  std::string_view ending;  // "\n", "\r\n", or "" for a last line without one
};

struct EpdDocument {
  bool bom = false;  // the file started with a UTF-8 byte order mark (kept when written)
  std::vector<EpdLine> lines;
  std::size_t record_count() const;
};

// Splits bytes into lines: CRLF and LF endings kept per line, a UTF-8 BOM noted and set aside,
// NUL bytes dropped with a note, non-ASCII bytes noted once per line. Never fails: what is not
// a record is kept as text.
EpdDocument read_document(std::string_view bytes, Diagnostics& diags);

enum class WriteStyle : std::uint8_t {
  Preserved,  // unchanged operations byte for byte, changed ones rewritten
  Canonical,  // every record in canonical form
};

// The document as text; lines that are not records and every line ending are kept as read.
std::string write_document(const EpdDocument& doc, WriteStyle style);

// Whether the bytes are a PGN file rather than EPD: the first line that is not blank (after a
// BOM) is a PGN tag pair such as `[Event "..."]`, which no EPD record can start with. For
// commands that read EPD, to point to the PGN commands instead of reporting every line.
bool looks_like_pgn(std::string_view bytes);

// One raw line made readable the way every EPD reader here reads it: NUL bytes dropped (noted
// once per line), the first byte outside printing ASCII noted (kept), an overlong line noted.
// For formats built on EPD lines (perft files) that parse the line themselves.
std::string clean_line(std::string_view raw, std::size_t line, Diagnostics& diags);

// Reads lines one at a time from a buffer.
class LineSplitter {
 public:
  explicit LineSplitter(std::string_view bytes) : bytes_(bytes) {}
  // The next line without its ending, and the ending; false at the end.
  bool next(std::string_view& line, std::string_view& ending);

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

// Reads an EPD buffer one line at a time, with the same handling as read_document (which is
// built on it): for consumers that look at each record once and need not keep the file.
class EpdStreamReader {
 public:
  EpdStreamReader(std::string_view bytes, Diagnostics& diags);
  bool bom() const { return bom_; }
  // The next line (record or text); false at the end.
  bool next(EpdLine& line);
  // 1-based number of the line last returned.
  std::size_t line_number() const { return line_; }

 private:
  LineSplitter lines_;
  Diagnostics& diags_;
  bool bom_ = false;
  bool crlf_noted_ = false;
  std::size_t line_ = 0;
};

}  // namespace epdd::epd
