// Internal: printing diagnostics and their per-kind summary, the same way for every format
// (epd and pgn have their own diagnostic types with the same shape).
#pragma once

#include <cstddef>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ostream.h>

namespace epdd::daemon::detail {

// How many diagnostics of one kind a file prints before it only counts them.
inline constexpr std::size_t kShownPerKind = 5;

struct ReportOptions {
  bool all = false;      // print every diagnostic
  int min_severity = 0;  // least severity printed (0 note, 1 warning, 2 error)
};

// Prints `file:line:col: severity: [prefix]message [kind]` for the first few of each kind (all
// with o.all). `prefix(d)` adds context such as "game 3: ".
template <class Diagnostic, class Prefix>
void print_diagnostics(std::ostream& out, const std::string& file, const std::vector<Diagnostic>& items,
                       const ReportOptions& o, Prefix prefix) {
  std::map<decltype(items.front().problem), std::size_t> seen;
  for (const Diagnostic& d : items)
    if (++seen[d.problem] <= kShownPerKind || o.all)
      if (static_cast<int>(d.severity) >= o.min_severity)
        fmt::print(out, "{}:{}:{}: {}: {}{} [{}]\n", file, d.line, d.column, to_string(d.severity), prefix(d),
                   d.message, name(d.problem));
}

// Prints one `  COUNT kind severity` row per kind, saying how many were not shown.
template <class Diagnostic>
void print_kind_counts(std::ostream& out, const std::vector<Diagnostic>& items, const ReportOptions& o) {
  std::map<decltype(items.front().problem), std::size_t> per_kind;
  for (const Diagnostic& d : items) ++per_kind[d.problem];
  for (const auto& [problem, n] : per_kind) {
    const auto severity = severity_of(problem);
    const bool cut = !o.all && n > kShownPerKind && static_cast<int>(severity) >= o.min_severity;
    fmt::print(out, "  {:>6} {:<22} {}{}\n", n, name(problem), to_string(severity),
               cut ? fmt::format(" ({} not shown; --all shows every one)", n - kShownPerKind) : "");
  }
}

}  // namespace epdd::daemon::detail
