// The store behind the EPD and the PGN diagnostics. Every diagnostic is counted by kind and by
// severity; the first ones of each kind are kept (all of them unless a limit is set); a listener
// may see each one as it arrives. With a limit, memory does not grow with the number of
// diagnostics: a book whose million games each lack six roster tags is checked in the memory of
// a clean one, and `--all` prints them as they come instead of holding them.
//
// A template so that each format keeps its own kinds (core knows none of them): the diagnostic
// type has `problem` and `severity` (one-byte enums) and `line` and `column` (where it is). The
// severity is core's, shared by the formats, and so is the table that names each kind.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <utility>
#include <vector>

namespace epdd::core {

// How bad a diagnostic is, in every format: a note (the input is fine, or read as written), a
// warning (read, but not as the standard writes it), an error (not read).
enum class Severity : std::uint8_t { Note, Warning, Error };

// "note", "warning", "error".
constexpr const char* to_string(Severity s) {
  switch (s) {
    case Severity::Note: return "note";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
  }
  return "?";
}

// A format's kind of problem with its stable name (reports and tests count by it) and its
// severity: a table of them per format, every kind listed once.
template <class Problem>
struct ProblemInfo {
  Problem problem;
  const char* name;
  Severity severity;
};

// The entry of `p` in its format's table.
template <class Problem, std::size_t N>
constexpr const ProblemInfo<Problem>& info_of(const ProblemInfo<Problem> (&table)[N], Problem p) {
  return *std::find_if(std::begin(table), std::end(table), [p](const ProblemInfo<Problem>& i) { return i.problem == p; });
}

template <class Diagnostic>
class DiagnosticLog {
 public:
  using Kind = decltype(Diagnostic::problem);
  using Level = decltype(Diagnostic::severity);
  using Listener = std::function<void(const Diagnostic&)>;
  static constexpr std::size_t kKeepAll = std::numeric_limits<std::size_t>::max();

  // Keeps at most `n` diagnostics of each kind, the first ones to arrive; the later ones are
  // counted (and shown to the listener) but not kept.
  void keep_per_kind(std::size_t n) { keep_ = n; }
  // Calls `listener` with every diagnostic as it arrives, after counting it (count(kind)
  // includes it), whether it is kept or not.
  void on_add(Listener listener) { listener_ = std::move(listener); }

  void add(Diagnostic d) {
    const std::size_t n = ++slot(per_kind_, static_cast<std::size_t>(d.problem));
    ++slot(per_level_, static_cast<std::size_t>(d.severity));
    ++total_;
    if (listener_) listener_(d);
    if (n <= keep_) kept_.push_back(std::move(d));
  }

  // Moves what `batch` kept into this log in the order of their place in the file (line, then
  // column; one place keeps the order of reporting) and empties `batch`. For readers that find
  // a unit's problems out of order (a game's tags are checked after its moves): they collect a
  // unit in a batch that keeps all, then pass it on, so this log sees the file in order.
  void add_in_place_order(DiagnosticLog& batch) {
    if (batch.total_ == 0) return;
    batch.sort_by_position();
    for (Diagnostic& d : batch.kept_) add(std::move(d));
    batch.clear();
  }

  // The kept diagnostics, in the order they arrived (or sort_by_position's).
  const std::vector<Diagnostic>& items() const { return kept_; }
  // How many arrived, kept or not.
  std::size_t size() const { return total_; }
  std::size_t count(Level s) const { return at(per_level_, static_cast<std::size_t>(s)); }
  std::size_t count(Kind k) const { return at(per_kind_, static_cast<std::size_t>(k)); }
  // Each kind that arrived at least once, with its count, in the order of the kind enum.
  std::vector<std::pair<Kind, std::size_t>> kinds() const {
    std::vector<std::pair<Kind, std::size_t>> out;
    for (std::size_t k = 0; k < per_kind_.size(); ++k)
      if (per_kind_[k]) out.emplace_back(static_cast<Kind>(k), per_kind_[k]);
    return out;
  }
  // Forgets the diagnostics and their counts; the limit and the listener stay.
  void clear() {
    kept_.clear();
    per_kind_.clear();
    per_level_.clear();
    total_ = 0;
  }
  // Orders the kept diagnostics by line, then column (one place keeps the order of reporting).
  void sort_by_position() {
    if (!std::is_sorted(kept_.begin(), kept_.end(), before)) std::stable_sort(kept_.begin(), kept_.end(), before);
  }
  // File order: whether `a` is at an earlier line, or column of the same line, than `b`.
  static bool before(const Diagnostic& a, const Diagnostic& b) {
    return a.line < b.line || (a.line == b.line && a.column < b.column);
  }

 private:
  static std::size_t& slot(std::vector<std::size_t>& v, std::size_t i) {
    if (i >= v.size()) v.resize(i + 1, 0);
    return v[i];
  }
  static std::size_t at(const std::vector<std::size_t>& v, std::size_t i) { return i < v.size() ? v[i] : 0; }

  std::vector<Diagnostic> kept_;
  std::vector<std::size_t> per_kind_;   // indexed by the kind's value
  std::vector<std::size_t> per_level_;  // indexed by the severity's value
  std::size_t total_ = 0;
  std::size_t keep_ = kKeepAll;
  Listener listener_;
};

}  // namespace epdd::core
