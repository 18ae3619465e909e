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
  std::optional<std::string> html;    // the page of that JSON (epdd report), self-contained HTML
};

// Exit status: see analysis_run.hpp (0; 1 some leaves could not be analysed; 2; 3; 130
// interrupted: rerun to resume).
int run_book_backsolve(BookOptions options, std::ostream& out, std::ostream& err);

// `epdd book grow`: the book of those inputs (or the start position, without one) grown by
// drop-out expansion (daemon's book-grow kind, book/grow.hpp), written as backsolve writes it.
// Exit status: as run_book_backsolve.
int run_book_grow(BookOptions options, std::ostream& out, std::ostream& err);

// `epdd book leaves`: the leaves of the book the same inputs make, as EPD for an analyst to fill
// in (BOOKUP's round trip; the file comes back through `book backsolve --import`).
struct BookLeavesOptions {
  std::vector<std::string> inputs;
  std::optional<std::string> output;  // default: standard output
  int max_ply = 0;                    // 0: every ply
  int min_games = 1;
  bool link_epd = false;
  bool chess960 = false;
};
// Exit status: 0 written; 2 bad arguments or input.
int run_book_leaves(const BookLeavesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
