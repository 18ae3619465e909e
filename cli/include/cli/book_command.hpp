// `epdd book backsolve`: an opening book from PGN games, Polyglot books and EPD records as one
// DAG of positions, its leaves analysed by an engine (through the store: resumable, cached),
// every position's value backsolved to the root, written as EPD, one PGN game and a Polyglot
// book, with a report (daemon's book job kind, book/).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "daemon/analysis_run.hpp"

namespace epdd::cli {

struct BookOptions {
  daemon::AnalysisSettings analysis;  // spec.options: the kind's own settings (--max-ply, --pgn ...)
  std::vector<std::string> inputs;    // .pgn, .bin, .epd
  std::optional<std::string> output;  // the book as EPD (default: standard output)
  std::optional<std::string> json;    // the report as JSON
};

// Exit status: see analysis_run.hpp (0; 1 some leaves could not be analysed; 2; 3; 130
// interrupted: rerun to resume).
int run_book_backsolve(BookOptions options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
