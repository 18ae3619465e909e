// Internal: printing diagnostics and their per-kind summary, the same way for every format
// (epd and pgn have their own diagnostic types with the same shape, and the same store,
// core::DiagnosticLog).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "core/text.hpp"
#include "pgn/diagnostic.hpp"

namespace epdd::cli::detail {

// How many diagnostics of one kind a file prints before it only counts them.
inline constexpr std::size_t kShownPerKind = 5;

struct ReportOptions {
  bool all = false;      // print every diagnostic
  int min_severity = 0;  // least severity printed (0 note, 1 warning, 2 error)
};

// Prints `file:line:col: severity: [prefix]message [kind]` for each diagnostic as it reaches
// `diags`: the first few of each kind (every one with o.all), of at least o.min_severity.
// `prefix(d)` adds context such as "game 3: ". `diags` keeps none of them, so memory stays flat
// whatever their number; its counts (print_kind_counts) are kept. `out`, `file` and `diags`
// must outlive the reading.
template <class Diagnostics, class Prefix>
void print_as_they_come(Diagnostics& diags, std::ostream& out, const std::string& file, const ReportOptions& o,
                        Prefix prefix) {
  diags.keep_per_kind(0);
  diags.on_add([&diags, &out, &file, o, prefix](const auto& d) {
    if ((o.all || diags.count(d.problem) <= kShownPerKind) && static_cast<int>(d.severity) >= o.min_severity) {
      // Line 0: binary input (PGC), whose message says its byte offset.
      const std::string where = d.line ? fmt::format("{}:{}:{}", file, d.line, d.column) : file;
      // Excerpts of the input in a message are escaped where it is made; one_line is the net.
      fmt::print(out, "{}: {}: {}{} [{}]\n", where, to_string(d.severity), prefix(d), core::one_line(d.message),
                 name(d.problem));
    }
  });
}

// Prints one `  COUNT kind severity` row per kind, saying how many were not shown.
template <class Diagnostics>
void print_kind_counts(std::ostream& out, const Diagnostics& diags, const ReportOptions& o) {
  for (const auto& [problem, n] : diags.kinds()) {
    const auto severity = severity_of(problem);
    const bool cut = !o.all && n > kShownPerKind && static_cast<int>(severity) >= o.min_severity;
    fmt::print(out, "  {:>6} {:<22} {}{}\n", n, name(problem), to_string(severity),
               cut ? fmt::format(" ({} not shown; --all shows every one)", n - kShownPerKind) : "");
  }
}

// The context of a game format's diagnostic: "game 3: ", and "'Nf9': " for a short token the
// message does not quote. PGC's and move files' messages name their game themselves.
inline std::string pgn_game_prefix(const pgn::Diagnostic& d) {
  const bool named = d.problem == pgn::Problem::PgcData || d.problem == pgn::Problem::MoveFile;
  std::string p = d.game && !named ? fmt::format("game {}: ", d.game) : std::string();
  if (!d.token.empty() && d.token.size() <= 40 && d.message.find(d.token) == std::string::npos)
    p += fmt::format("'{}': ", d.token);
  return p;
}

}  // namespace epdd::cli::detail
