// `epdd epd check` and `epdd epd format`.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "epd/diagnostic.hpp"

namespace epdd::cli {

struct EpdCheckOptions {
  std::vector<std::string> files;
  bool chess960 = false;  // KQkq castling letters mean the outermost rooks (X-FEN)
  bool moves = true;      // check move operands against the positions
  bool all = false;       // print every diagnostic, not the first few of each kind
  epd::Severity min_severity = epd::Severity::Note;
};

// Prints `file:line:col: severity: message [kind]` lines and a summary per file.
// Exit status: 0 no errors, 1 errors, 2 a file could not be read.
int run_epd_check(const EpdCheckOptions& options, std::ostream& out, std::ostream& err);

struct EpdFormatOptions {
  std::string file;
  std::optional<std::string> output;  // written atomically; stdout without it
  bool sort_ops = false;              // operations in ASCII order of their opcodes
  bool chess960 = false;
  bool counters_as_operations = true;  // FEN counters after the fields as hmvc/fmvn (--counters ops)
};

// Canonical rewrite: moves in SAN, strings quoted, single spaces; nothing else changed.
// Exit status: 0 clean, 1 records with errors were kept as written, 2 unreadable or unwritable.
int run_epd_format(const EpdFormatOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
