// Polyglot opening books as annotate reads them: only which positions are in the book.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>

#include "core/expected.hpp"

namespace epdd::annotate {

// A Polyglot book's position keys (16-byte big-endian entries; the key is the first 8 bytes,
// as core::Board::polyglot_key() computes it). A size that is not a multiple of 16 is an error
// naming the size and how many bytes are left over (the book is cut or not a book); so are an
// empty file and keys out of order (naming the entry: Polyglot books are sorted by key).
Expected<std::unordered_set<std::uint64_t>, std::string> polyglot_keys(std::string_view bytes);

}  // namespace epdd::annotate
