// book-grow: a book grown by drop-out expansion (book/grow.hpp) from its input files (as book
// reads them) or from the start position: its leaves are valued, the leaf of least priority is
// expanded and its new children valued, round after round, until a limit; the outputs are book's.
//
// Items: the positions valued, numbered in the order the growth asked for them (the book's leaves
// first, then each expansion's new children). The growth is a function of the input, the settings
// and the answers: planning the job again replays it from the answers in the store (an expansion
// whose first item the store holds was made before) and, asked for more (AnalysisRun::extend),
// expands the next leaf. So a rerun after a kill, a daemon, or several daemons on one store grow the
// same book, and each position is searched once.
#include <chrono>
#include <cmath>
#include <charconv>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "book/grow.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "book_data.hpp"
#include "kinds.hpp"
#include "option_checks.hpp"
#include "store/analysis_json.hpp"

namespace epdd::daemon {

namespace {

// ---- settings

std::optional<double> number_of(std::string_view v) {
  double d = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
  if (ec != std::errc() || end != v.data() + v.size() || !std::isfinite(d)) return std::nullopt;
  return d;
}

std::optional<std::string> check_alpha(std::string_view v) { return check_range(v, 0, 1000000, "a whole number"); }

std::optional<std::string> check_width(std::string_view v) { return check_range(v, 0, 256, "a number of moves"); }

std::optional<std::string> check_side(std::string_view v) {
  if (v == "white" || v == "black") return std::nullopt;
  return fmt::format("'{}' is not white or black", core::escaped(v));
}

std::optional<std::string> check_count(std::string_view v) { return check_range(v, 1, 2000000000, "a count"); }

// Seconds of "90", "90s", "30m", "2h".
std::optional<double> seconds_of(std::string_view v) {
  if (v.empty()) return std::nullopt;
  double unit = 1;
  switch (v.back()) {
    case 's': unit = 1, v.remove_suffix(1); break;
    case 'm': unit = 60, v.remove_suffix(1); break;
    case 'h': unit = 3600, v.remove_suffix(1); break;
    default: break;
  }
  const auto d = number_of(v);
  if (!d || *d <= 0) return std::nullopt;
  return *d * unit;
}

std::optional<std::string> check_time(std::string_view v) {
  if (seconds_of(v)) return std::nullopt;
  return fmt::format("'{}' is not a time (seconds, or a number with s, m or h: 90s, 30m, 2h)", core::escaped(v));
}

constexpr KindOption kGrowOptions[] = {
    {"alpha", "--alpha", "A",
     "The price of a move worse than the best, in plies of depth per unit of expected score (0 lost, 1\n"
     "won; lichess's winning chances). Large: the growth deepens the best line; small: it widens the\n"
     "book over the moves near the best. Default 50 (Fuego's and Benzene's book builders)",
     KindOption::Type::Integer, check_alpha},
    {"width", "--width", "W",
     "Children of an expanded leaf: W > 0, the first moves of the engine's W best lines (every position\n"
     "is searched with MultiPV W); 0, every legal move (default 0)",
     KindOption::Type::Integer, check_width},
    {"book_side", "--book-side", "white|black",
     "Grow a book for this side (Lincke's asymmetric form): at its own moves only the best one counts,\n"
     "at the opponent's every reasonable reply (default: both sides alike)",
     KindOption::Type::Text, check_side},
    {"positions", "--positions", "N",
     "Stop expanding once the book holds N positions (a rerun with a larger N grows on)", KindOption::Type::Integer,
     check_count, false},
    {"expansions", "--expansions", "N", "Stop after N expansions in all (a rerun with a larger N grows on)",
     KindOption::Type::Integer, check_count, false},
    {"time", "--time", "T",
     "Stop expanding after T of this run (90s, 30m, 2h; a rerun grows for T more); the positions\n"
     "being valued are finished first",
     KindOption::Type::Text, check_time, false},
};

std::vector<KindOption> grow_options(const JobKind& book) {
  std::vector<KindOption> out(std::begin(kGrowOptions), std::end(kGrowOptions));
  for (const KindOption& o : book.options())
    if (o.key != "import" && o.key != "merge") out.push_back(o);
  return out;
}

book::GrowOptions growth_options(const JobSpec& spec) {
  book::GrowOptions o;
  if (auto v = option_text(spec, "alpha")) o.alpha = whole_number(*v).value_or(50);
  if (auto v = option_text(spec, "width")) o.width = static_cast<std::size_t>(whole_number(*v).value_or(0));
  if (auto v = option_text(spec, "book_side")) o.book_side = *v == "black" ? core::Color::Black : core::Color::White;
  return o;
}

// ---- the run

struct GrowData final : KindData {
  std::shared_ptr<BookData> book;   // its dag is the growth's until the render
  std::optional<book::Growth> growth;
  std::size_t stored = 0;           // items known to be in the store
  std::size_t unanswered = 0;       // no item before it lacks its answer
  std::size_t positions_limit = 0, expansions_limit = 0;  // 0: none
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  std::size_t expansions_at_start = 0;  // (for the rate: those replayed are not this run's)
  bool replayed = false;
};

GrowData& grow_of(const AnalysisRun& run) { return static_cast<GrowData&>(*run.data); }

// Hands the growth the answers the store has for its items from the first one not answered yet
// (answers come in any order). A row for another position than the growth's item there (a store
// whose growth went another way) is not taken: the growth stops there, and load_run says why.
void read_answers(const AnalysisRun& run, GrowData& g) {
  book::Growth& growth = *g.growth;
  while (g.unanswered < growth.item_count() && growth.is_answered(g.unanswered)) ++g.unanswered;
  if (g.unanswered == growth.item_count() || !run.items) return;
  for (const store::ItemRow& row : run.items(g.unanswered, growth.item_count())) {
    const auto i = static_cast<std::size_t>(row.index);
    g.stored = std::max(g.stored, i + 1);
    if (i >= growth.item_count() ||
        row.key.find("|fen " + growth.dag().epd(growth.item_node(i)) + " 0 1|") == std::string::npos)
      return;
    if (row.state == store::ItemState::Done) {
      auto a = store::analysis_from_json(row.result);
      growth.answer(i, a ? &*a : nullptr);
    } else if (row.state == store::ItemState::Failed) {
      growth.answer(i, nullptr);
    }
  }
}

// Whether the store holds item `index` (an expansion that made it was made before).
bool stored(const AnalysisRun& run, GrowData& g, std::size_t index) {
  if (index < g.stored) return true;
  if (!run.items || run.items(index, index + 1).empty()) return false;
  g.stored = index + 1;
  return true;
}

bool limit_reached(const GrowData& g) {
  const book::Growth& growth = *g.growth;
  return (g.positions_limit && growth.dag().node_count() >= g.positions_limit) ||
         (g.expansions_limit && growth.rounds().size() >= g.expansions_limit) ||
         (g.deadline && std::chrono::steady_clock::now() >= *g.deadline);
}

// "1. e4 e5 2. Nf3" of a line from the root ("no move yet" for none).
std::string line_text(const book::Dag& dag, book::NodeId root, const std::vector<core::Move>& line) {
  if (line.empty()) return "no move yet";
  core::Board board = book::board_of(dag, root);
  const core::Color side = board.side_to_move();
  std::vector<std::string> sans;
  for (const core::Move m : line) {
    sans.push_back(core::to_san(board, m));
    board.make_move(m);
  }
  return book::numbered_line(sans, side);
}

class BookGrowKind final : public JobKind {
 public:
  BookGrowKind() : book_(make_book_kind()), options_(grow_options(*book_)) {}
  std::string_view name() const override { return "book-grow"; }
  std::span<const KindFlag> flags() const override { return book_->flags(); }
  std::span<const KindOption> options() const override { return options_; }
  std::span<const KindOutput> more_outputs() const override { return book_->more_outputs(); }
  bool has_reports() const override { return true; }
  bool needs_value() const override { return true; }
  bool grows() const override { return true; }
  std::string_view input_extension() const override { return "pgn"; }
  bool reads(std::string_view extension) const override { return book_->reads(extension); }
  std::string_view output_extension() const override { return "epd"; }
  bool many_inputs() const override { return true; }
  bool needs_input() const override { return false; }
  std::string_view failed_item_fate() const override { return "left without a value"; }

  // No file: the start position.
  Expected<std::string, std::string> read_input(const std::string& path, const JobSpec& spec) const override {
    if (path.empty() && spec.more_inputs.empty()) return std::string(kBookBundleHeader);
    return book_->read_input(path, spec);
  }

  AnalysisRun start(std::string_view bytes, const JobSpec& spec) const override {
    auto g = std::make_shared<GrowData>();
    if (bytes == kBookBundleHeader) {
      g->book = std::make_shared<BookData>();
      g->book->bytes = std::string(bytes);
      g->book->leaves = {0};
    } else {
      AnalysisRun book_run = book_->start(bytes, spec);
      g->book = std::static_pointer_cast<BookData>(book_run.data);
    }
    if (auto v = option_text(spec, "positions")) g->positions_limit = static_cast<std::size_t>(whole_number(*v).value_or(0));
    if (auto v = option_text(spec, "expansions")) g->expansions_limit = static_cast<std::size_t>(whole_number(*v).value_or(0));
    if (auto v = option_text(spec, "time"))
      if (const auto s = seconds_of(*v))
        g->deadline = g->started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(*s));
    if (g->book->error.empty()) {
      const book::NodeId root = g->book->first_paths().order.empty() ? 0 : g->book->first_paths().order.front();
      g->growth.emplace(std::move(g->book->book.dag), g->book->leaves, root, growth_options(spec));
    }
    AnalysisRun run;
    run.data = std::move(g);
    run.item_count = run.data ? grow_of(run).book->leaves.size() : 0;
    run.analyses.resize(run.item_count);
    return run;
  }

  std::optional<std::string> empty_input(const std::string&, const AnalysisRun&) const override { return std::nullopt; }

  // A growth without a limit never ends, and an interrupted one writes nothing: one is asked for.
  std::optional<std::string> refuse_input(const std::string&, const InputSource&, const JobSpec& spec) const override {
    if (option_text(spec, "positions") || option_text(spec, "expansions") || option_text(spec, "time"))
      return std::nullopt;
    return std::string("a growth needs a limit: --positions N, --expansions N or --time T (the same command with a "
                       "larger one grows the same book on)");
  }

  std::optional<std::string> nothing_to_do(const std::string& name, AnalysisRun& run, const JobSpec& spec) const override {
    if (auto why = refuse_input(name, InputSource{}, spec)) return why;
    const GrowData& g = grow_of(run);
    if (!g.book->error.empty()) return fmt::format("{}: {}", core::escaped(name), g.book->error);
    return std::nullopt;
  }

  std::map<std::size_t, uci::AnalysisRequest> plan(const JobSpec& spec, AnalysisRun& run) const override {
    grow(run);
    return requests(spec, run, 0);
  }
  // The growth replayed and grown here, before the store's transaction that adds the items
  // (plan_part runs inside it, and reads no item: a PostgreSQL connection has one transaction).
  std::size_t plan_parts(const AnalysisRun& run) const override {
    grow(run);
    return 1;
  }
  // Only the items the store does not hold yet: a round adds its own, not every item again.
  std::map<std::size_t, uci::AnalysisRequest> plan_part(const JobSpec& spec, AnalysisRun& run, std::size_t) const override {
    return requests(spec, run, grow_of(run).stored);
  }

  std::string growth_status(const AnalysisRun& run) const override {
    const GrowData& g = grow_of(run);
    if (!g.growth || g.growth->rounds().empty()) return {};
    const book::Growth& growth = *g.growth;
    const book::GrowRound& last = growth.rounds().back();
    const double minutes = std::chrono::duration<double>(std::chrono::steady_clock::now() - g.started).count() / 60.0;
    const std::size_t now = growth.rounds().size() - g.expansions_at_start;
    return fmt::format("expansion {}: {} positions; root {} ({}); {:.1f} expansions a minute; expanding {}",
                       growth.rounds().size(), growth.dag().node_count(),
                       last.root_ce ? fmt::format("ce {}", *last.root_ce) : std::string("without a value"),
                       line_text(growth.dag(), growth.root(), last.root_line), minutes > 0 ? now / minutes : 0.0,
                       growth.dag().epd(last.leaf));
  }

  std::size_t line_of(const AnalysisRun&, std::size_t) const override { return 0; }

  std::string locate(const AnalysisRun& run, std::size_t index, std::string_view input) const override {
    const GrowData& g = grow_of(run);
    if (!g.growth || index >= g.growth->item_count()) return core::escaped(input);
    return fmt::format("position {} ({})", index, g.growth->dag().epd(g.growth->item_node(index)));
  }

  std::size_t failures(const AnalysisRun& run) const override {
    const GrowData& g = grow_of(run);
    return run.errors.size() + g.book->book.note_count;
  }

  std::map<std::string, std::string> render(AnalysisRun& run, const JobSpec& spec) const override {
    GrowData& g = grow_of(run);
    BookData& data = *g.book;
    // (Without a growth, a bundle a foreign store holds: book's render says what it can.)
    if (g.growth) {
      // The book as grown goes to book's render, with every item a node of it, and the expansions
      // before its report (the ids are the outputs': the first paths with the input's root names).
      const book::Growth& growth = *g.growth;
      data.leaves.clear();
      for (std::size_t i = 0; i < growth.item_count(); ++i) data.leaves.push_back(growth.item_node(i));
      data.book.dag = g.growth->take_dag();
      data.forget_paths();
      data.report_head = rounds_text(data.book.dag, data.first_paths(), growth.root(), growth.rounds());
      if (run.json_wanted)
        data.json_more["growth"] = growth_json(data.book.dag, data.first_paths(), growth.root(), growth.rounds(), spec);
      g.growth.reset();
    }
    // Book's render reads its own data; the run is this kind's again after it.
    std::shared_ptr<KindData> mine = std::exchange(run.data, g.book);
    auto texts = book_->render(run, spec);
    run.data = std::move(mine);
    return texts;
  }

 private:
  // Replays the growth as far as the store's answers go and, when the run asks for more, grows it
  // by the next expansions until one adds a position to value or a limit stops it.
  static void grow(const AnalysisRun& run) {
    GrowData& g = grow_of(run);
    if (!g.growth) return;
    book::Growth& growth = *g.growth;
    while (true) {
      read_answers(run, g);
      if (!growth.all_answered()) break;
      // An expansion whose first item the store holds was made before: made again, it makes the same.
      const bool replay = stored(run, g, growth.item_count());
      if (!replay) {
        if (!g.replayed) g.replayed = true, g.expansions_at_start = growth.rounds().size();
        if (!run.extend || limit_reached(g)) break;
      }
      const auto round = growth.expand();
      if (!round) break;
      if (!replay && round->items > 0) break;
    }
  }

  std::map<std::size_t, uci::AnalysisRequest> requests(const JobSpec& spec, AnalysisRun& run, std::size_t from) const {
    GrowData& g = grow_of(run);
    std::map<std::size_t, uci::AnalysisRequest> out;
    if (!g.growth) return out;
    const book::Growth& growth = *g.growth;
    run.item_count = growth.item_count();
    run.analyses.resize(run.item_count);
    const int multipv = growth.options().width == 0 ? 1 : static_cast<int>(growth.options().width);
    for (std::size_t i = from; i < growth.item_count(); ++i)
      out.emplace(i, position_request(growth.dag(), growth.item_node(i), spec, multipv));
    return out;
  }

  // The growth for the JSON report (and its page): the settings, and every expansion with the
  // root's value and line before it.
  static nlohmann::ordered_json growth_json(const book::Dag& dag, const book::FirstPaths& paths, book::NodeId root,
                                            const std::vector<book::GrowRound>& rounds, const JobSpec& spec) {
    using Json = nlohmann::ordered_json;
    const book::GrowOptions o = growth_options(spec);
    Json list = Json::array();
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      const book::GrowRound& r = rounds[i];
      list.push_back(Json{{"expansion", i + 1},
                          {"root_ce", r.root_ce ? Json(*r.root_ce) : Json(nullptr)},
                          {"root_line", r.root_line.empty() ? std::string() : line_text(dag, root, r.root_line)},
                          {"expanded", book::first_path_id(dag, paths, r.leaf)},
                          {"new_positions", r.items},
                          {"positions", r.positions}});
    }
    return Json{{"alpha", o.alpha},
                {"width", o.width},
                {"book_side", o.book_side ? Json(*o.book_side == core::Color::White ? "white" : "black") : Json(nullptr)},
                {"expansions", rounds.size()},
                {"rounds", std::move(list)}};
  }

  // "round 3: root ce 25 (1. e4 e5), expanded 1. e4 e5 2. Nf3: 3 positions to value, 64 in the book".
  static std::string rounds_text(const book::Dag& dag, const book::FirstPaths& paths, book::NodeId root,
                                 const std::vector<book::GrowRound>& rounds) {
    std::string out;
    std::optional<int> ce;
    std::vector<core::Move> line;
    for (std::size_t i = 0; i < rounds.size(); ++i) {
      const book::GrowRound& r = rounds[i];
      const bool moved = i == 0 || r.root_ce != ce || r.root_line != line;
      ce = r.root_ce;
      line = r.root_line;
      out += fmt::format("expansion {}: {}{} {}: {} new to value, {} in the book\n", i + 1,
                         moved ? fmt::format("root {} ({}); ", ce ? fmt::format("ce {}", *ce) : std::string("unvalued"),
                                             line_text(dag, root, line))
                               : std::string(),
                         "expanded", book::first_path_id(dag, paths, r.leaf), r.items, r.positions);
    }
    return out;
  }

  std::unique_ptr<JobKind> book_;
  std::vector<KindOption> options_;
};

}  // namespace

std::unique_ptr<JobKind> make_book_grow_kind() { return std::make_unique<BookGrowKind>(); }

}  // namespace epdd::daemon
