// `epdd annotate`: every main-line position of every game of a PGN file analysed by an engine,
// the games written back with [%eval], judgement NAGs, lichess's comments and the engine's lines,
// with a summary per game, side and player (daemon's annotate job kind, annotate/).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "daemon/analysis_run.hpp"

namespace epdd::cli {

struct AnnotateOptions {
  daemon::AnalysisSettings analysis;  // spec.options: the kind's own settings (--judge ...)
  std::optional<std::string> output;  // the annotated PGN (default: standard output)
  std::optional<std::string> json;    // the summary as JSON
  std::optional<std::string> html;    // the page of that JSON (epdd report), self-contained HTML
};

// Exit status: see analysis_run.hpp (0; 1 a game was written back unchanged or a position
// could not be analysed; 2; 3; 130 interrupted: rerun to resume).
int run_annotate(const AnnotateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
