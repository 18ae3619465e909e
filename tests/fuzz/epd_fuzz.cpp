// EPD: any bytes read as a document (every line a record read leniently, or kept as text);
// property: the canonical writer's output is a fixed point, write(read(write(x))) == write(x).
#include <cstdint>
#include <string>

#include "epd/document.hpp"
#include "fuzz_check.hpp"

using namespace epdd;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  epd::Diagnostics diags;
  const auto doc = epd::read_document(fuzz::as_text(data, size), diags);
  const std::string once = epd::write_document(doc, epd::WriteStyle::Canonical);
  epd::Diagnostics diags2;
  const auto doc2 = epd::read_document(once, diags2);
  // Not checked: the number of records. A record whose placement starts with the bytes of a
  // byte-order mark, first in the file after white space, is written with the mark first; read
  // again, the mark is set aside as a BOM and the line is no record (the text is still a fixed
  // point).
  const std::string twice = epd::write_document(doc2, epd::WriteStyle::Canonical);
  fuzz::require(twice == once, "canonical EPD is not a fixed point", once, twice);
  return 0;
}
