// `epdd pgn check|export|sort|to-epd`.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "pgn/diagnostic.hpp"

namespace epdd::cli {

struct PgnCheckOptions {
  std::vector<std::string> files;
  bool all = false;  // every diagnostic, not the first few of each kind
  pgn::Severity min_severity = pgn::Severity::Note;
  std::optional<std::string> from;  // pgn, pgc, clm: the files' format, over suffix and content
};
// Exit status: 0 no errors, 1 errors, 2 a file could not be read.
int run_pgn_check(const PgnCheckOptions& options, std::ostream& out, std::ostream& err);

enum class PgnAction { Export, Sort, ToEpd };

struct PgnWriteOptions {
  PgnAction action = PgnAction::Export;
  std::string file;
  std::optional<std::string> output;  // written atomically; stdout without it
  bool reduced = false;               // export/sort: reduced export format
  bool comments = false;              // to-epd: comments as c0
  std::optional<std::string> from;    // pgn, pgc, clm: the input's format, over suffix and content
};
// Export format (optionally sorted into the standard's collation order) or EPD, one record per
// position. Exit status: 0 clean, 1 games with errors (kept up to the error), 2 unreadable or
// unwritable.
int run_pgn_write(const PgnWriteOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
