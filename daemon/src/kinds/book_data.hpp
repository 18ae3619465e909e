// What a book job keeps of its input in a run (book_kind.cpp), shared with book-grow
// (book_grow_kind.cpp), which grows the book and hands it to book's render.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "book/backsolve.hpp"
#include "book/build.hpp"
#include "book/first_paths.hpp"
#include "daemon/analysis_run.hpp"
#include "daemon/job_spec.hpp"
#include "uci/analysis.hpp"

namespace epdd::daemon {

// The first line of a book job's input (the bundle of its files, book_kind.cpp); a bundle of
// this line alone holds no file: book-grow's start position.
inline constexpr std::string_view kBookBundleHeader = "epdd book input 2\n";

// One file of a bundle.
struct BundledFile {
  std::string kind;  // pgn, bin, epd, import
  std::string name;
  std::string_view bytes;
};

// The book of a run: built from the bundle (which it keeps: the files' views point into it),
// and which node each item is.
struct BookData final : KindData {
  std::string bytes;
  book::BuiltBook book;
  std::vector<book::NodeId> leaves;  // by item
  std::optional<BundledFile> import;  // --import: its name and bytes
  book::LeafValues imported;          // the leaves the import gives a value (read as --merge replace)
  std::size_t import_errors = 0;      // its records that could not be used
  std::string error;                  // the bundle could not be read (only a foreign store)
  // What another kind rendering this book through book's render adds to its report (book-grow:
  // its expansions): text before the report's own lines, and fields of the JSON report.
  std::string report_head;
  nlohmann::ordered_json json_more = nlohmann::ordered_json::object();
  // The first paths (which positions the outputs write, and the names they give them), made when
  // first asked for (by start: which leaves are items) and shared by the messages and the render.
  const book::FirstPaths& first_paths() const {
    std::lock_guard lock(paths_mutex);
    if (!paths) paths = book::first_paths(book.dag, &book.epd.names);
    return *paths;
  }
  // The book changed (book-grow grew it): the first paths are made again when next asked for.
  void forget_paths() {
    std::lock_guard lock(paths_mutex);
    paths.reset();
  }

 private:
  mutable std::mutex paths_mutex;
  mutable std::optional<book::FirstPaths> paths;
};

// A book position as the engine is asked about it (book_kind.cpp): its four fields with fresh
// counters, the job's limits and hash policy, `multipv` lines.
uci::AnalysisRequest position_request(const book::Dag& dag, book::NodeId n, const JobSpec& spec, int multipv);

}  // namespace epdd::daemon
