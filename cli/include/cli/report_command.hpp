// `epdd report RESULT... -o report.html` (issue 20): one self-contained HTML page from results:
// JSON reports (a suite run's --json, an annotation's or a book's --json) or job ids in the
// store (their JSON report rendered from it). Which page comes from the JSON's "format" key;
// every result of one page has the same format (several suite runs: one page side by side).
#pragma once

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/jobs_command.hpp"
#include "core/expected.hpp"

namespace epdd::cli {

struct ReportOptions {
  std::vector<std::string> results;   // JSON files, or job ids (digits, when no such file exists)
  std::optional<std::string> output;  // written atomically; stdout without it
  StoreChoice where;                  // for job ids
};

// A result, read: its name as given (a file, "job 12") and its JSON text.
struct ReportInput {
  std::string name;
  std::string json;
};

// A page kind: the "format" value its JSON carries, and how its page is made from all of the
// results given (one or more of that format; the error names the input at fault).
struct PageKind {
  std::string_view format;
  std::string_view what;  // "suite runs", for messages
  std::function<Expected<std::string, std::string>(std::span<const ReportInput>)> page;
};

// The page kinds `epdd report` knows.
std::span<const PageKind> page_kinds();

// The page for results already read (also what --html on suite, annotate and book writes).
Expected<std::string, std::string> report_page(std::span<const ReportInput> inputs);

// --html of suite, annotate and book backsolve: the page of one run's JSON report (`name` says
// which run in messages), written atomically to `path`.
Expected<void, std::string> write_report_page(const std::string& path, std::string name, std::string json);

// Exit status: 0 written; 2 a result that cannot be read or has no page, mixed formats, an
// unwritable output, a job that is not finished.
int run_report(const ReportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
