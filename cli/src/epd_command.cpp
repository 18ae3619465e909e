#include "cli/epd_command.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "core/text.hpp"
#include "daemon/files.hpp"
#include "report.hpp"
#include "epd/check.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

epd::CheckOptions check_options(bool chess960, bool moves) {
  epd::CheckOptions options;
  options.chess960 = chess960;
  options.moves = moves;
  return options;
}

}  // namespace

int run_epd_check(const EpdCheckOptions& o, std::ostream& out, std::ostream& err) {
  if (auto once = check_stdio_once(o.files, {}); !once) {
    fmt::print(err, "epdd epd check: {}\n", once.error());
    return 2;
  }
  int status = 0;
  std::size_t total_records = 0, total_errors = 0, total_warnings = 0;
  for (const std::string& file : o.files) {
    auto bytes = read_epd_file(file);
    if (!bytes) {
      fmt::print(err, "epdd epd check: {}\n", bytes.error());
      status = 2;
      continue;
    }
    const detail::ReportOptions report{o.all, static_cast<int>(o.min_severity)};
    epd::Diagnostics diags;
    detail::print_as_they_come(diags, out, file, report, [](const epd::Diagnostic&) { return ""; });
    const std::size_t records = epd::check_stream(*bytes, check_options(o.chess960, o.moves), diags);
    const std::size_t lines = static_cast<std::size_t>(std::count(bytes->begin(), bytes->end(), '\n')) +
                              (!bytes->empty() && bytes->back() != '\n');
    const std::size_t errors = diags.count(epd::Severity::Error);
    const std::size_t warnings = diags.count(epd::Severity::Warning);
    fmt::print(out, "{}: {} in {}: {}, {}, {}\n", file, core::counted(records, "record", "records"),
               core::counted(lines, "line", "lines"), core::counted(errors, "error", "errors"),
               core::counted(warnings, "warning", "warnings"), core::counted(diags.count(epd::Severity::Note), "note", "notes"));
    detail::print_kind_counts(out, diags, report);
    total_records += records;
    total_errors += errors;
    total_warnings += warnings;
    if (errors > 0 && status == 0) status = 1;
  }
  if (o.files.size() > 1)
    fmt::print(out, "{}, {}: {}, {}\n", core::counted(o.files.size(), "file", "files"),
               core::counted(total_records, "record", "records"), core::counted(total_errors, "error", "errors"),
               core::counted(total_warnings, "warning", "warnings"));
  return status;
}

int run_epd_format(const EpdFormatOptions& o, std::ostream& out, std::ostream& err) {
  if (auto once = check_stdio_once({o.file}, {o.output}); !once) {
    fmt::print(err, "epdd epd format: {}\n", once.error());
    return 2;
  }
  if (o.output)
    if (auto w = check_writable_output(*o.output); !w) {
      fmt::print(err, "epdd epd format: {}\n", w.error());
      return 2;
    }
  auto bytes = read_epd_file(o.file);
  if (!bytes) {
    fmt::print(err, "epdd epd format: {}\n", bytes.error());
    return 2;
  }
  epd::Diagnostics diags;
  // Every error, as it comes (none held: memory stays flat however many there are).
  const detail::ReportOptions errors_only{true, static_cast<int>(epd::Severity::Error)};
  detail::print_as_they_come(diags, err, o.file, errors_only, [](const epd::Diagnostic&) { return ""; });
  const epd::FormatResult result = epd::format_stream(*bytes, check_options(o.chess960, true), o.sort_ops, diags, o.counters_as_operations);
  const std::string& text = result.text;
  if (o.output) {
    if (auto w = write_file_atomically(*o.output, text); !w) {
      fmt::print(err, "epdd epd format: {}\n", w.error());
      return 2;
    }
  } else {
    out << text;
  }
  const std::size_t errors = diags.count(epd::Severity::Error);
  fmt::print(err, "{}: {}, {} rewritten{}\n", o.file, core::counted(result.records, "record", "records"), result.rewritten,
             errors ? fmt::format("; {}: those operations are kept as written", core::counted(errors, "error", "errors")) : "");
  return errors ? 1 : 0;
}

}  // namespace epdd::cli
