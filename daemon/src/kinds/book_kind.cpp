// book: an opening book backsolved (book/): its input files (PGN games, Polyglot books, EPD
// records) become one DAG of positions, its leaves are analysed, and every node's value is
// computed back to the root; the outputs are the book as EPD, as one PGN game and as a
// Polyglot file, and a report.
//
// Items: the leaves the engine analyses (no book move out, not decided by the rules, not given a
// value by --import with --merge replace), numbered in the order of their nodes. The store keeps
// the input as one bundle of every file the job reads (see bundle_files), so a rerun, a daemon or
// `epdd results` builds the same book from the same bytes, and the same leaves have the same
// numbers.
#include <algorithm>
#include <charconv>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "book/backsolve.hpp"
#include "book/build.hpp"
#include "book/contradictions.hpp"
#include "book/epd_output.hpp"
#include "book/first_paths.hpp"
#include "book/leaf_import.hpp"
#include "book/pgn_output.hpp"
#include "book/polyglot.hpp"
#include "book/tree_json.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "daemon/files.hpp"
#include "daemon/jobs.hpp"
#include "daemon/logging.hpp"
#include "book_data.hpp"
#include "kinds.hpp"
#include "option_checks.hpp"

namespace epdd::daemon {

namespace {

// ---- settings

std::optional<std::string> check_max_ply(std::string_view v) { return check_range(v, 1, 1000, "a number of plies"); }

std::optional<std::string> check_min_games(std::string_view v) {
  return check_range(v, 1, 1'000'000'000, "a number of games");
}

std::optional<std::string> check_margin(std::string_view v) { return check_range(v, 0, 32000, "a centipawn margin"); }

std::optional<std::string> check_pv_plies(std::string_view v) { return check_range(v, 0, 1000, "a number of plies"); }

constexpr KindFlag kBookFlags[] = {
    {"ce_for_white", "--ce-for-white",
     "Write ce from White's point of view in the EPD (positive: White is better), as BOOKUP's\n"
     "importer wants; by default from the side to move, as the EPD standard says",
     &JobSpec::ce_for_white},
};

constexpr KindOption kBookOptions[] = {
    {"max_ply", "--max-ply", "N",
     "Plies from each game's start (PGN) and from the start position (Polyglot) that enter the book\n"
     "(default: all)",
     KindOption::Type::Integer, check_max_ply},
    {"min_games", "--min-games", "K",
     "A move of the PGN games enters the book when at least K games played it (default 1)",
     KindOption::Type::Integer, check_min_games},
    {"link_epd", "--link-epd", "",
     "EPD input: a legal move from one record's position to another record's is a book move",
     KindOption::Type::Flag, check_flag},
    {"import", "--import", "FILE.epd",
     "Leaf values from an analyst's EPD (ce from the side to move, pv, acd; BOOKUP's round trip:\n"
     "'epdd book leaves' writes the file to fill)",
     KindOption::Type::Path, check_not_empty, false},
    {"merge", "--merge", "replace|deeper",
     "With --import: replace (default) takes the imported value of a leaf and does not search it;\n"
     "deeper searches every leaf and keeps whichever of the two has the greater acd (equal: the\n"
     "engine's)",
     KindOption::Type::Text, check_merge},
    {"pv_plies", "--pv-plies", "N",
     "Each EPD record's pv holds at most N plies: the book's best line from the position, then the\n"
     "engine's line from the leaf it ends on (default: all of both; 0: no pv). A book of millions of\n"
     "positions writes its EPD several times smaller with a short pv",
     KindOption::Type::Integer, check_pv_plies, false},
    {"pgn", "--pgn", "FILE.pgn", "Also write the book as one PGN game: the best line, every other book move a variation",
     KindOption::Type::Path, check_not_empty},
    {"polyglot", "--polyglot", "FILE.bin", "Also write the book as a Polyglot opening book",
     KindOption::Type::Path, check_not_empty},
    {"polyglot_margin", "--polyglot-margin", "CP",
     "Polyglot: a move losing more than CP centipawns against the position's best is left out\n"
     "(default 100)",
     KindOption::Type::Integer, check_margin, false},
    {"polyglot_keep_losing", "--polyglot-keep-losing", "",
     "Polyglot: write the moves beyond the margin with weight 0 instead of leaving them out",
     KindOption::Type::Flag, check_flag, false},
};

constexpr KindOutput kBookOutputs[] = {
    {"pgn", "pgn", "pgn"},
    {"polyglot", "polyglot", "bin"},
};

book::BookInputOptions input_options(const JobSpec& spec) {
  book::BookInputOptions o;
  o.chess960 = spec.chess960;
  if (auto v = option_text(spec, "max_ply")) o.max_ply = whole_number(*v).value_or(o.max_ply);
  if (auto v = option_text(spec, "min_games")) o.min_games = static_cast<std::uint32_t>(whole_number(*v).value_or(1));
  o.link_epd = option_flag(spec, "link_epd");
  return o;
}

// ---- the bundle: every file of a job in the one blob the store keeps
//
//   epdd book input 2\n
//   then per file:  KIND NAME_SIZE SIZE\n NAME BYTES \n
// KIND is pgn, bin, epd (book input) or import (--import); NAME_SIZE and SIZE the byte counts of
// the name and the file in decimal; NAME the file's absolute path (the same files named another
// way are the same job; messages name them so). Sizes, not separators, delimit the name and the
// bytes, so any byte may appear in them.

const char* bundle_kind(book::InputType type) {
  switch (type) {
    case book::InputType::Pgn: return "pgn";
    case book::InputType::Polyglot: return "bin";
    case book::InputType::Epd: return "epd";
  }
  return "?";
}

void bundle_file(std::string& out, std::string_view kind, const std::string& name, std::string_view bytes) {
  const std::string path = std::filesystem::absolute(name).lexically_normal().string();
  out += fmt::format("{} {} {}\n", kind, path.size(), bytes.size());
  out += path;
  out += bytes;
  out += '\n';
}

// The files of a bundle, their bytes viewing into it; an error for a blob this code did not
// write (a store written by something else).
Expected<std::vector<BundledFile>, std::string> unbundle(std::string_view blob) {
  if (blob.substr(0, kBookBundleHeader.size()) != kBookBundleHeader) return unexpected(std::string("not a book job's input"));
  std::vector<BundledFile> files;
  std::size_t at = kBookBundleHeader.size();
  while (at < blob.size()) {
    const auto eol = blob.find('\n', at);
    if (eol == std::string_view::npos) return unexpected(fmt::format("a file header at byte {} has no end", at));
    const std::string_view header = blob.substr(at, eol - at);
    const auto sp1 = header.find(' ');
    const auto sp2 = sp1 == std::string_view::npos ? sp1 : header.find(' ', sp1 + 1);
    std::size_t name_size = 0, size = 0;
    const char* end = header.data() + header.size();
    if (sp2 == std::string_view::npos ||
        std::from_chars(header.data() + sp1 + 1, header.data() + sp2, name_size).ptr != header.data() + sp2 ||
        std::from_chars(header.data() + sp2 + 1, end, size).ptr != end || name_size > blob.size() - eol - 1 ||
        size > blob.size() - eol - 1 - name_size)
      return unexpected(fmt::format("the file header at byte {} is broken", at));
    files.push_back({std::string(header.substr(0, sp1)), std::string(blob.substr(eol + 1, name_size)),
                     blob.substr(eol + 1 + name_size, size)});
    at = eol + 1 + name_size + size + 1;
  }
  return files;
}

// The book's input files of a bundle (the import left out).
std::vector<book::InputFile> book_files(const std::vector<BundledFile>& files) {
  std::vector<book::InputFile> out;
  for (const BundledFile& f : files) {
    const auto type = f.kind == "pgn" ? std::optional(book::InputType::Pgn)
                      : f.kind == "bin" ? std::optional(book::InputType::Polyglot)
                      : f.kind == "epd" ? std::optional(book::InputType::Epd)
                                        : std::nullopt;
    if (type) out.push_back({*type, f.name, f.bytes});
  }
  return out;
}

// ---- the run

const BookData& data_of(const AnalysisRun& run) { return static_cast<const BookData&>(*run.data); }

book::ImportOptions import_options(const JobSpec& spec) {
  book::ImportOptions o;
  o.merge = option_text(spec, "merge") == "deeper" ? book::Merge::Deeper : book::Merge::Replace;
  o.chess960 = spec.chess960;
  return o;
}

// The leaves the engine analyses, in node order: the book's leaves (first_paths: the unused start
// of a book of EPD records is none) that the rules do not decide and that an import with
// --merge replace does not give a value.
std::vector<book::NodeId> leaves_to_analyse(const BookData& data, const JobSpec& spec) {
  const book::Dag& dag = data.book.dag;
  const bool replaced = import_options(spec).merge == book::Merge::Replace;
  std::vector<book::NodeId> out;
  for (const book::NodeId n : data.first_paths().order)
    if (dag.is_leaf(n) && dag.node(n).terminal == book::Terminal::None && !(replaced && data.imported.count(n)))
      out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}


// The backsolved book and its outputs.
struct Solved {
  book::LeafValues values;
  book::LeafAnalyses analyses;
  book::Backsolved backsolved;
  std::size_t analysed = 0;                 // leaves valued by the engine
  std::optional<book::ImportReport> import;  // --import
  std::vector<book::NodeId> unvalued;       // leaves without a value, in first-path order
  std::vector<book::Contradiction> contradictions;
};

class BookKind final : public JobKind {
 public:
  std::string_view name() const override { return "book"; }
  std::span<const KindFlag> flags() const override { return kBookFlags; }
  std::span<const KindOption> options() const override { return kBookOptions; }
  std::span<const KindOutput> more_outputs() const override { return kBookOutputs; }
  bool has_reports() const override { return true; }
  bool needs_value() const override { return true; }  // (a leaf without a score has no value)
  std::string_view input_extension() const override { return "pgn"; }
  bool reads(std::string_view extension) const override {
    return extension == "pgn" || extension == "bin" || extension == "epd";
  }
  std::string_view output_extension() const override { return "epd"; }
  bool many_inputs() const override { return true; }
  std::string_view failed_item_fate() const override { return "left without a value"; }
  std::string_view printed_output() const override { return "output"; }

  // Every file of the job in one bundle: `path` (the first input), spec.more_inputs, and the
  // --import file; the book is built once here so that a file the book cannot use is refused
  // now, with its name, and not when the job is planned.
  Expected<std::string, std::string> read_input(const std::string& path, const JobSpec& spec) const override {
    std::string bundle(kBookBundleHeader);
    std::vector<std::string> names{path};
    names.insert(names.end(), spec.more_inputs.begin(), spec.more_inputs.end());
    for (const std::string& name : names) {
      if (!book::input_type_of(name) && name != "-")
        return unexpected(fmt::format("{}: a book is read from .pgn (games), .bin (Polyglot) and .epd files", core::escaped(name)));
      auto bytes = read_whole_file(name);
      if (!bytes) return unexpected(bytes.error());
      const auto type = book::input_type_of(name, *bytes);
      bundle_file(bundle, bundle_kind(*type), name, *bytes);
    }
    if (auto import = option_text(spec, "import")) {
      if (book::input_type_of(*import) != book::InputType::Epd && *import != "-")
        return unexpected(fmt::format("--import {}: the leaf values come as an EPD file (.epd), as 'epdd book leaves' writes it",
                                      core::escaped(*import)));
      auto bytes = read_whole_file(*import);
      if (!bytes) return unexpected(fmt::format("--import: {}", bytes.error()));
      bundle_file(bundle, "import", *import, *bytes);
    }
    auto files = unbundle(bundle);
    if (!files) return unexpected(files.error());
    auto built = book::build_book(book_files(*files), input_options(spec));
    if (!built) return unexpected(built.error());
    return bundle;
  }

  AnalysisRun start(std::string_view bytes, const JobSpec& spec) const override {
    auto data = std::make_shared<BookData>();
    data->bytes = std::string(bytes);
    auto files = unbundle(data->bytes);
    auto built = files ? book::build_book(book_files(*files), input_options(spec))
                       : Expected<book::BuiltBook, std::string>(unexpected(files.error()));
    if (built) {
      data->book = std::move(*built);
      for (const BundledFile& f : *files)
        if (f.kind == "import") data->import = f;
      if (data->import) {
        book::LeafAnalyses unused;
        book::ImportOptions o = import_options(spec);
        o.merge = book::Merge::Replace;
        data->import_errors =
            book::import_leaf_values(data->book.dag, data->import->bytes, data->import->name, o, data->imported, unused)
                .errors.size();
      }
      data->leaves = leaves_to_analyse(*data, spec);
    } else {
      data->error = built.error();
    }
    AnalysisRun run;
    run.item_count = data->leaves.size();
    run.analyses.resize(run.item_count);
    run.data = std::move(data);
    return run;
  }

  std::map<std::size_t, uci::AnalysisRequest> plan(const JobSpec& spec, AnalysisRun& run) const override {
    const BookData& data = data_of(run);
    std::map<std::size_t, uci::AnalysisRequest> requests;
    for (std::size_t i = 0; i < data.leaves.size(); ++i)
      requests.emplace(i, position_request(data.book.dag, data.leaves[i], spec, spec.multipv));
    return requests;
  }

  // An empty input is refused as the book is built (book::build_book), on every path.
  std::optional<std::string> empty_input(const std::string&, const AnalysisRun&) const override { return std::nullopt; }

  std::optional<std::string> nothing_to_do(const std::string& name, AnalysisRun& run, const JobSpec&) const override {
    const BookData& data = data_of(run);
    // What the book cannot be made of was refused when the input was read (read_input), for
    // every way a job is made alike; only a bundle a foreign store holds is left.
    if (!data.error.empty()) return fmt::format("{}: {}", core::escaped(name), data.error);
    return std::nullopt;
  }

  std::size_t line_of(const AnalysisRun&, std::size_t) const override { return 0; }

  std::string locate(const AnalysisRun& run, std::size_t index, std::string_view input) const override {
    const BookData& data = data_of(run);
    // The leaf's first path names it whichever input file its moves came from.
    if (index >= data.leaves.size()) return core::escaped(input);
    const book::NodeId leaf = data.leaves[index];
    return fmt::format("leaf {} ({})", book::first_path_id(data.book.dag, data.first_paths(), leaf), data.book.dag.epd(leaf));
  }

  // The leaves that failed, and what of the input the book could not use: a record or a move
  // left out is reported and makes the exit status 1, never a silent loss.
  std::size_t failures(const AnalysisRun& run) const override {
    const BookData& data = data_of(run);
    return run.errors.size() + data.book.note_count + data.import_errors;
  }

  std::map<std::string, std::string> render(AnalysisRun& run, const JobSpec& spec) const override {
    const BookData& data = data_of(run);
    const book::Dag& dag = data.book.dag;
    const book::RootNames* names = &data.book.epd.names;
    Solved s;
    for (std::size_t i = 0; i < data.leaves.size(); ++i) {
      if (!run.analyses[i]) continue;
      // (book-grow: a leaf expanded since takes its value from its moves.)
      if (!dag.is_leaf(data.leaves[i])) continue;
      // An engine that ends a search without a score leaves the leaf without a value: a failure
      // of that leaf (reported, exit status 1), never a silent hole.
      if (run.analyses[i]->lines.empty()) {
        run.errors[i] = "the engine gave no score (bestmove without an info score line)";
        continue;
      }
      s.values.insert_or_assign(data.leaves[i], run.analyses[i]->lines.front().score);
      s.analyses[data.leaves[i]] = *run.analyses[i];
    }
    if (data.import)
      s.import = book::import_leaf_values(dag, data.import->bytes, data.import->name, import_options(spec), s.values,
                                          s.analyses);
    s.analysed = s.values.size() - (s.import ? s.import->added + s.import->replaced : 0);
    s.backsolved = book::backsolve(dag, s.values);
    const book::FirstPaths& paths = data.first_paths();
    for (const book::NodeId n : paths.order)
      if (dag.is_leaf(n) && dag.node(n).terminal == book::Terminal::None && !s.values.count(n)) s.unvalued.push_back(n);
    s.contradictions = book::find_contradictions(dag, s.backsolved);
    std::map<std::string, std::string> texts;
    book::EpdOutputOptions epd;
    epd.ce_for_white = spec.ce_for_white;
    epd.root_names = names;
    if (auto v = option_text(spec, "pv_plies")) epd.pv_plies = static_cast<std::size_t>(whole_number(*v).value_or(0));
    // Written as it is made where the caller takes it so (a one-shot run's -o), else returned.
    if (run.write_output) book::write_book_epd(dag, s.backsolved, s.analyses, epd, run.write_output, &paths);
    else texts["output"] = book::write_book_epd(dag, s.backsolved, s.analyses, epd);
    if (option_text(spec, "pgn")) {
      book::BookPgnOptions pgn;
      pgn.root_names = names;
      pgn.annotator = fmt::format("epdd, {}, {}", run.engine.empty() ? "an engine" : run.engine,
                                  describe_limits(spec.limits, spec.multipv));
      if (const auto sink = run.write_more.find("pgn"); sink != run.write_more.end())
        book::write_book_pgn(dag, s.backsolved, pgn, sink->second, &paths);
      else
        texts["pgn"] = book::write_book_pgn(dag, s.backsolved, pgn);
    }
    book::PolyglotOptions polyglot;
    if (auto v = option_text(spec, "polyglot_margin")) polyglot.margin_cp = whole_number(*v).value_or(polyglot.margin_cp);
    polyglot.keep_losing = option_flag(spec, "polyglot_keep_losing");
    if (option_text(spec, "polyglot")) {
      if (const auto sink = run.write_more.find("polyglot"); sink != run.write_more.end())
        book::write_polyglot(dag, s.backsolved, polyglot, sink->second);
      else
        texts["polyglot"] = book::write_polyglot(dag, s.backsolved, polyglot);
    }
    texts["report"] = report_text(run, data, s);
    if (run.json_wanted) texts["json"] = report_json(run, data, s, spec);
    return texts;
  }

 private:
  static constexpr std::size_t kListed = 20;  // unvalued leaves and contradictions in the text report

  // The first kMaxNotes of `lines` (of `total` in all), a line each, then how many more.
  static void append_capped(std::string& out, const std::vector<std::string>& lines, std::size_t total, std::string_view what) {
    for (std::size_t i = 0; i < lines.size() && i < book::BuiltBook::kMaxNotes; ++i) out += lines[i] + "\n";
    if (total > std::min(lines.size(), book::BuiltBook::kMaxNotes))
      out += fmt::format("({} more {})\n", total - std::min(lines.size(), book::BuiltBook::kMaxNotes), what);
  }

  static std::string report_text(const AnalysisRun& run, const BookData& data, const Solved& s) {
    const book::Dag& dag = data.book.dag;
    const book::FirstPaths& paths = data.first_paths();
    std::string out = data.report_head;
    append_capped(out, data.book.notes, data.book.note_count, "notes on the input");
    if (s.import) {
      append_capped(out, s.import->errors, s.import->errors.size(), "errors in the import (--json lists them all)");
      append_capped(out, s.import->notes, s.import->notes.size(), "notes on the import");
    }
    for (const auto& [i, why] : run.errors)
      out += fmt::format("leaf {} ({}): not analysed: {}\n", book::first_path_id(dag, paths, data.leaves[i]),
                         dag.epd(data.leaves[i]), one_line(why));
    std::size_t terminal = 0, leaves = 0;
    for (const book::NodeId n : paths.order)
      if (dag.is_leaf(n)) ++leaves, terminal += dag.node(n).terminal != book::Terminal::None;
    const auto n = [](auto count) { return static_cast<std::size_t>(count); };
    out += fmt::format("book: {}, {} ({}, {}, {})\n", core::counted(n(paths.order.size()), "position", "positions"),
                       core::counted(n(dag.edge_count()), "move", "moves"), core::counted(n(data.book.games), "game", "games"),
                       core::counted(n(data.book.book_entries), "Polyglot entry", "Polyglot entries"),
                       core::counted(n(data.book.epd_records), "EPD record", "EPD records"));
    out += fmt::format("leaves: {}: {} analysed by the engine, {} imported, {} decided by the rules, {} without a value\n",
                       leaves, s.analysed, s.values.size() - s.analysed, terminal, s.unvalued.size());
    if (s.import)
      out += fmt::format("import {}: {} records, {} of them leaves ({} kept their engine value), {} not in the book, {} not leaves\n",
                         core::escaped(data.import->name), s.import->records, s.import->matched, s.import->kept,
                         s.import->not_in_book, s.import->not_a_leaf);
    for (std::size_t i = 0; i < s.unvalued.size() && i < kListed; ++i)
      out += fmt::format("no value: leaf {} ({})\n", book::first_path_id(dag, paths, s.unvalued[i]), dag.epd(s.unvalued[i]));
    if (s.unvalued.size() > kListed) out += fmt::format("no value: {} more leaves (--json lists them all)\n", s.unvalued.size() - kListed);
    if (s.backsolved.components_with_cycles)
      out += fmt::format("repetition cycles: {} groups of positions{}\n", s.backsolved.components_with_cycles,
                         s.backsolved.components_unsolved
                             ? fmt::format(", {} too large to solve (left unvalued)", s.backsolved.components_unsolved)
                             : std::string());
    if (!s.contradictions.empty()) {
      std::vector<book::Contradiction> first(s.contradictions.begin(),
                                             s.contradictions.begin() + static_cast<std::ptrdiff_t>(std::min(kListed, s.contradictions.size())));
      out += fmt::format("contradictions: {} moves whose score in games contradicts their value{}\n", s.contradictions.size(),
                         s.contradictions.size() > kListed ? " (the worst 20; --json lists them all)" : "");
      out += book::contradictions_text(first);
    }
    if (!paths.order.empty()) out += root_line(dag, s, paths.order.front());
    return out;
  }

  // "root: ce 35, best e4 (line: e4 e5 Nf3), incomplete".
  static std::string root_line(const book::Dag& dag, const Solved& s, book::NodeId root) {
    const book::NodeValue& v = s.backsolved.nodes.at(root);
    if (!v.ce) return "root: no value (no leaf below it has one)\n";
    const core::Board board = book::board_of(dag, root);
    std::string best;
    for (const core::Move m : v.best_moves) best += (best.empty() ? "" : " ") + core::to_san(board, m);
    return fmt::format("root: ce {}{}{}\n", *v.ce, best.empty() ? "" : ", best " + best,
                       v.incomplete ? " (incomplete: some leaves below have no value)" : "");
  }

  static std::string report_json(const AnalysisRun& run, const BookData& data, const Solved& s, const JobSpec& spec) {
    const book::Dag& dag = data.book.dag;
    const book::FirstPaths& paths = data.first_paths();
    using Json = nlohmann::ordered_json;
    Json j;
    j["format"] = "epdd book 1";  // the page `epdd report` makes of it (book/html_page.hpp)
    j["input"] = core::escaped(spec.input);
    Json more = Json::array();
    for (const auto& m : spec.more_inputs) more.push_back(core::escaped(m));
    j["more_inputs"] = std::move(more);
    j["engine"] = core::escaped(run.engine);
    j["limits"] = describe_limits(spec.limits, spec.multipv);
    j["positions"] = paths.order.size();
    j["moves"] = dag.edge_count();
    j["games"] = data.book.games;
    j["polyglot_entries"] = data.book.book_entries;
    j["epd_records"] = data.book.epd_records;
    j["leaves_analysed"] = s.analysed;
    j["leaves_imported"] = s.values.size() - s.analysed;
    j["leaves_failed"] = run.errors.size();
    Json unvalued = Json::array();
    for (const book::NodeId n : s.unvalued)
      unvalued.push_back(Json{{"id", book::first_path_id(dag, paths, n)}, {"position", dag.epd(n)}});
    j["unvalued_leaves"] = std::move(unvalued);
    j["cycle_groups"] = s.backsolved.components_with_cycles;
    j["cycle_groups_unsolved"] = s.backsolved.components_unsolved;
    if (!paths.order.empty()) {
      const book::NodeValue& root = s.backsolved.nodes.at(paths.order.front());
      j["root_ce"] = root.ce ? Json(*root.ce) : Json(nullptr);
      j["root_incomplete"] = root.incomplete;
    }
    j["tree"] = book::tree_json(dag, s.backsolved, paths);
    j["notes"] = data.book.notes;
    if (s.import)
      j["import"] = Json{{"file", core::escaped(data.import->name)}, {"records", s.import->records},
                         {"matched", s.import->matched}, {"added", s.import->added}, {"kept", s.import->kept},
                         {"replaced", s.import->replaced}, {"not_in_book", s.import->not_in_book},
                         {"not_a_leaf", s.import->not_a_leaf}, {"terminal", s.import->terminal},
                         {"errors", s.import->errors}};
    j["contradictions"] = Json::parse(book::contradictions_json(dag, s.contradictions));
    for (const auto& [key, value] : data.json_more.items()) j[key] = value;
    return j.dump(2) + "\n";
  }
};

}  // namespace

uci::AnalysisRequest position_request(const book::Dag& dag, book::NodeId n, const JobSpec& spec, int multipv) {
  uci::AnalysisRequest r;
  r.fen = dag.epd(n) + " 0 1";
  r.chess960 = dag.key(n)->chess960;
  r.limits = spec.limits;
  r.multipv = multipv;
  r.new_game = new_game_of(spec);
  return r;
}

std::unique_ptr<JobKind> make_book_kind() { return std::make_unique<BookKind>(); }

}  // namespace epdd::daemon
