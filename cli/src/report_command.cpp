#include "cli/report_command.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "annotate/html_page.hpp"
#include "book/html_page.hpp"
#include "core/text.hpp"
#include "daemon/files.hpp"
#include "suites/html_page.hpp"

namespace epdd::cli {

using namespace daemon;  // files: read whole, written atomically

namespace {

// The page kinds, by the "format" their JSON carries. A workflow's page is one row here.
const std::vector<PageKind>& kinds() {
  static const std::vector<PageKind> table = {
      {"epdd suite run 1", "suite runs", [](std::span<const ReportInput> in) {
         std::vector<std::pair<std::string, std::string>> runs;
         for (const ReportInput& i : in) runs.emplace_back(i.name, i.json);
         return suites::suite_page_from_json(runs);
       }},
      {annotate::kAnnotationFormat, "annotation runs", [](auto in) { return annotate::annotation_page_of(in); }},
      {book::kBookReportFormat, "books (one a page)", [](std::span<const ReportInput> in) {
         return in.size() == 1 ? book::book_page(in[0].json, in[0].name)
                               : Expected<std::string, std::string>(unexpected(in[1].name + ": one book a page"));
       }},
  };
  return table;
}

// The JSON's "format" value, or an error naming the input.
Expected<std::string, std::string> format_of(const ReportInput& in) {
  try {
    const auto j = nlohmann::json::parse(in.json);
    if (!j.is_object() || !j.contains("format") || !j.at("format").is_string())
      return unexpected(fmt::format("{}: not an epdd report (its JSON has no \"format\")", in.name));
    return j.at("format").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    return unexpected(fmt::format("{}: not JSON: {}", in.name, e.what()));
  }
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A result as given: a file, or (digits, no such file) a job of the store.
Expected<ReportInput, std::string> read_result(const std::string& result, const StoreChoice& where) {
  std::error_code ec;
  if (all_digits(result) && !std::filesystem::exists(result, ec)) {
    std::int64_t id = 0;
    const auto [end, why] = std::from_chars(result.data(), result.data() + result.size(), id);
    if (why != std::errc() || end != result.data() + result.size())
      return unexpected(fmt::format("{}: no such file, and too large for a job id", result));
    auto json = job_report_json(where, id);
    if (!json) return unexpected(json.error());
    return ReportInput{"job " + result, std::move(*json)};
  }
  auto text = read_whole_file(result);
  if (!text) return unexpected(text.error());
  return ReportInput{core::escaped(result), std::move(*text)};
}

}  // namespace

std::span<const PageKind> page_kinds() { return kinds(); }

Expected<std::string, std::string> report_page(std::span<const ReportInput> inputs) {
  if (inputs.empty()) return unexpected(std::string("no results given"));
  std::string format;
  for (const ReportInput& in : inputs) {
    auto f = format_of(in);
    if (!f) return unexpected(f.error());
    if (format.empty()) format = *f;
    else if (*f != format)
      return unexpected(fmt::format("{} is \"{}\" and {} is \"{}\": one page shows results of one kind", inputs[0].name,
                                    format, in.name, *f));
  }
  const auto& table = kinds();
  const auto kind = std::find_if(table.begin(), table.end(), [&](const PageKind& k) { return k.format == format; });
  if (kind == table.end()) {
    std::string known;
    for (const PageKind& k : table) known += fmt::format("{}\"{}\" ({})", known.empty() ? "" : ", ", k.format, k.what);
    return unexpected(fmt::format("{}: no page for format \"{}\" (known: {})", inputs[0].name, core::escaped(format),
                                  known.empty() ? "none" : known));
  }
  return kind->page(inputs);
}

Expected<void, std::string> write_report_page(const std::string& path, std::string name, std::string json) {
  const ReportInput input{std::move(name), std::move(json)};
  auto page = report_page(std::span(&input, 1));
  if (!page) return unexpected("--html: " + page.error());
  return write_file_atomically(path, *page);
}

int run_report(const ReportOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& why) {
    fmt::print(err, "epdd report: {}\n", why);
    return 2;
  };
  if (auto once = check_stdio_once(o.results, {o.output}); !once) return fail(once.error());
  if (o.output)
    if (auto w = check_writable_output(*o.output); !w) return fail(w.error());
  std::vector<ReportInput> inputs;
  for (const std::string& result : o.results) {
    auto in = read_result(result, o.where);
    if (!in) return fail(in.error());
    inputs.push_back(std::move(*in));
  }
  auto page = report_page(inputs);
  if (!page) return fail(page.error());
  if (!o.output) {
    out << *page;
    return 0;
  }
  if (auto w = write_file_atomically(*o.output, *page); !w) return fail(w.error());
  fmt::print(err, "{}: {} bytes, from {} result{}\n", *o.output, page->size(), inputs.size(), inputs.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace epdd::cli
