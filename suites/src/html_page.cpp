#include "suites/html_page.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>

#include <fmt/core.h>

#include "core/fen.hpp"
#include "core/notation.hpp"
#include "html/page.hpp"
#include "html/svg.hpp"

namespace epdd::suites {

namespace {

using Runs = std::vector<std::pair<std::string, SuiteRun>>;
using html::Cell;
using html::Markup;

// The page's own style: compact diagrams in the unsolved table, run cells that wrap.
constexpr const char* kStyle =
    "table.unsolved svg.board{width:224px}table.unsolved td{max-width:22em;overflow-wrap:anywhere}"
    "td .pv{color:#555;font-size:90%}td .note{color:#8a4b00;font-size:90%}"
    ".bar-charts{display:flex;flex-wrap:wrap;gap:1em}";

// One position as the runs have it: its record in each run (null where a run lacks it).
struct Row {
  std::vector<const RecordResult*> records;
  const RecordResult& first() const { return **std::find_if(records.begin(), records.end(), [](auto* r) { return r; }); }
  // Solved by some runs but not all (a run that lacks it has not solved it).
  bool differs() const {
    const auto solved = [](const RecordResult* r) { return r && r->solved; };
    return std::any_of(records.begin(), records.end(), solved) && !std::all_of(records.begin(), records.end(), solved);
  }
  // Not solved, or not analysed, by some run.
  bool troubled() const {
    return std::any_of(records.begin(), records.end(),
                       [](const RecordResult* r) { return r && !r->solved && (r->scored() || !r->error.empty()); });
  }
};

// The runs' records matched into rows: by line within one suite (in line order), by position
// across suites (in order of first appearance). A run's second record of a key is left out.
std::vector<Row> match(const Runs& runs) {
  const bool by_line = same_suite(runs);
  std::map<std::string, std::size_t> index;
  std::vector<Row> rows;
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const RecordResult& r : runs[i].second.records) {
      const std::string key = by_line ? std::to_string(r.line) : r.position;
      const auto [it, added] = index.emplace(key, rows.size());
      if (added) rows.push_back(Row{std::vector<const RecordResult*>(runs.size(), nullptr)});
      if (!rows[it->second].records[i]) rows[it->second].records[i] = &r;
    }
  if (by_line)
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.first().line < b.first().line; });
  return rows;
}

// The rows that differ first, then the others, each in their order.
std::vector<const Row*> differing_first(const std::vector<Row>& rows, bool (Row::*keep)() const) {
  std::vector<const Row*> out;
  for (const bool differing : {true, false})
    for (const Row& row : rows)
      if ((row.*keep)() && row.differs() == differing) out.push_back(&row);
  return out;
}

std::string percent(double value) { return fmt::format("{:.1f}%", value); }

std::string seconds(std::uint64_t ms) { return fmt::format("{:.2f} s", static_cast<double>(ms) / 1000.0); }

// Labels as given, equal ones told apart: "a", "a (2)".
std::vector<std::string> distinct_labels(const Runs& runs) {
  std::vector<std::string> out;
  for (const auto& [label, run] : runs) {
    std::string name = label;
    for (int n = 2; std::find(out.begin(), out.end(), name) != out.end(); ++n) name = fmt::format("{} ({})", label, n);
    out.push_back(name);
  }
  return out;
}

std::vector<std::string> header(std::vector<std::string> first, const std::vector<std::string>& labels) {
  first.insert(first.end(), labels.begin(), labels.end());
  return first;
}

void runs_section(html::Page& page, const Runs& runs, const std::vector<Summary>& sums,
                  const std::vector<std::string>& labels) {
  html::Table table(header({""}, labels), "runs");
  const auto row = [&](const std::string& name, auto&& cell) {
    std::vector<Cell> cells{Cell(name)};
    for (std::size_t i = 0; i < runs.size(); ++i) cells.push_back(cell(runs[i].second, sums[i]));
    table.add_row(std::move(cells));
  };
  row("suite", [](const SuiteRun& r, const Summary&) { return Cell(r.suite); });
  row("engine", [](const SuiteRun& r, const Summary&) { return Cell(r.engine.empty() ? "-" : r.engine); });
  row("limits", [](const SuiteRun& r, const Summary&) { return Cell(r.limits); });
  row("settings", [](const SuiteRun& r, const Summary&) { return Cell(r.settings); });
  row("records", [](const SuiteRun&, const Summary& s) { return Cell::number(std::to_string(s.records)); });
  row("solved", [](const SuiteRun&, const Summary& s) {
    return Cell::number(fmt::format("{} / {} ({})", s.solved, s.scored, percent(s.solved_percent())));
  });
  row("unscored", [](const SuiteRun&, const Summary& s) { return Cell::number(std::to_string(s.unscored)); });
  row("failed", [](const SuiteRun&, const Summary& s) { return Cell::number(std::to_string(s.failed)); });
  if (std::any_of(sums.begin(), sums.end(), [](const Summary& s) { return s.missing > 0; }))
    row("missing", [](const SuiteRun&, const Summary& s) { return Cell::number(std::to_string(s.missing)); });
  if (std::any_of(sums.begin(), sums.end(), [](const Summary& s) { return s.sts_records; }))
    row("STS", [](const SuiteRun&, const Summary& s) {
      // A run without STS records has no STS score (not 0/0 and a rating of -243).
      if (!s.sts_records) return Cell("-");
      return Cell::number(fmt::format("{} / {} points ({}), rating {:.0f}", s.points, s.max_points,
                                      percent(s.points_percent()), std::round(sts_rating(s.points_percent()))));
    });
  if (std::any_of(sums.begin(), sums.end(), [](const Summary& s) { return s.mates.records; }))
    row("matetrack", [](const SuiteRun&, const Summary& s) {
      const MateCounts& m = s.mates;
      return Cell(fmt::format("found {}, best {}, better {}, wrong {}, bad PVs {}, no mate {}", m.found, m.best, m.better,
                              m.wrong, m.bad_pv, m.no_mate));
    });
  row("time", [](const SuiteRun&, const Summary& s) { return Cell::number(seconds(s.time_ms)); });
  row("time to solution, mean", [](const SuiteRun&, const Summary& s) {
    return Cell::number(fmt::format("{} ms", s.solved ? s.solution_time_ms / s.solved : 0));
  });
  page.add_section("runs", runs.size() == 1 ? "Run" : "Runs").add(table);
}

// A solved record's time to solution (the whole search's time when the run did not say).
std::uint64_t solution_ms(const RecordResult& r) { return r.to_solution ? r.to_solution->time_ms : r.time_ms; }

// Each run's solved records' times to solution, sorted.
std::vector<std::vector<std::uint64_t>> solve_times(const Runs& runs) {
  std::vector<std::vector<std::uint64_t>> times(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (const RecordResult& r : runs[i].second.records)
      if (r.scored() && r.solved) times[i].push_back(solution_ms(r));
    std::sort(times[i].begin(), times[i].end());
  }
  return times;
}

// A run's curve: from 0 at its first time, one point per distinct time (how many were solved by
// then), then level to `longest` (of all runs): a run that solved everything at once is a line too.
html::Series curve(const std::string& label, const std::vector<std::uint64_t>& times, std::uint64_t longest) {
  html::Series series{label, {}};
  if (times.empty()) return series;
  const auto at = [&](std::uint64_t ms, std::size_t solved) {
    series.points.push_back({static_cast<double>(ms) / 1000.0, static_cast<double>(solved)});
  };
  at(times.front(), 0);
  for (std::size_t k = 0; k < times.size(); ++k)
    if (k + 1 == times.size() || times[k + 1] != times[k]) at(times[k], k + 1);
  at(longest, times.size());
  return series;
}

void curve_section(html::Page& page, const Runs& runs, const std::vector<std::string>& labels) {
  html::LineChart chart;
  chart.title = "Positions solved by time to solution";
  chart.x_label = "time to solution (s, log scale)";
  chart.y_label = "solved";
  chart.x_scale = html::Scale::Log10;
  const auto times = solve_times(runs);
  std::uint64_t longest = 1;
  for (const auto& run : times)
    if (!run.empty()) longest = std::max(longest, run.back());
  for (std::size_t i = 0; i < runs.size(); ++i) chart.series.push_back(curve(labels[i], times[i], longest));
  html::Section& section = page.add_section("curve", "Solve-time curve");
  section.add_paragraph("Each line counts the positions a run solved by a time to solution (when the engine first had "
                        "the solving move and kept it); a position solved at once is drawn on the left edge.");
  section.add(html::line_chart(chart));
  // The same in figures: solved within 1 ms, 10 ms, ... up to the longest.
  // 10^19 is the last power of ten a uint64 holds: the list stops there for any longer time.
  std::vector<std::uint64_t> limits{1};
  while (limits.back() < longest && limits.back() <= UINT64_MAX / 10) limits.push_back(limits.back() * 10);
  std::vector<std::string> head{"run"};
  for (const std::uint64_t limit : limits)
    head.push_back(limit < 1000 ? fmt::format("within {} ms", limit) : fmt::format("within {} s", limit / 1000));
  html::Table table(head, "curve");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    std::vector<Cell> cells{Cell(labels[i])};
    for (const std::uint64_t limit : limits) {
      const auto n = std::upper_bound(times[i].begin(), times[i].end(), limit) - times[i].begin();
      cells.push_back(Cell::number(std::to_string(n)));
    }
    table.add_row(std::move(cells));
  }
  section.add(table);
}

std::string theme_text(const ThemeRow& t) {
  const double pct = t.max_points ? 100.0 * static_cast<double>(t.points) / static_cast<double>(t.max_points) : 0;
  return fmt::format("{} / {} ({})", t.points, t.max_points, percent(pct));
}

void themes_section(html::Page& page, const std::vector<Summary>& sums, const std::vector<std::string>& labels) {
  if (std::none_of(sums.begin(), sums.end(), [](const Summary& s) { return s.sts_records; })) return;
  html::Section& section = page.add_section("themes", "STS themes");
  section.add_paragraph("Points per theme in percent of the most a theme gives; the rating is the STS estimate "
                        "(44.523 x points% - 242.85).");
  Markup charts = Markup::trusted("<div class=\"bar-charts\">");
  std::vector<std::string> themes;
  for (std::size_t i = 0; i < sums.size(); ++i) {
    if (!sums[i].sts_records) continue;
    html::BarChart chart;
    chart.title = fmt::format("{}: {} ({}), rating {:.0f}", labels[i], fmt::format("{} / {}", sums[i].points, sums[i].max_points),
                              percent(sums[i].points_percent()), std::round(sts_rating(sums[i].points_percent())));
    chart.max = 100;
    for (const ThemeRow& t : sums[i].themes) {
      const double pct = t.max_points ? 100.0 * static_cast<double>(t.points) / static_cast<double>(t.max_points) : 0;
      chart.bars.push_back({t.theme, pct, percent(pct)});  // the points are in the table below
      if (std::find(themes.begin(), themes.end(), t.theme) == themes.end()) themes.push_back(t.theme);
    }
    charts += html::bar_chart(chart);
  }
  charts += Markup::trusted("</div>");
  section.add(charts);
  html::Table table(header({"theme"}, labels), "themes");
  for (const std::string& theme : themes) {
    std::vector<Cell> cells{Cell(theme)};
    for (const Summary& s : sums) {
      const auto t = std::find_if(s.themes.begin(), s.themes.end(), [&](const ThemeRow& row) { return row.theme == theme; });
      cells.push_back(t == s.themes.end() ? Cell("-") : Cell::number(theme_text(*t)));
    }
    table.add_row(std::move(cells));
  }
  section.add(table);
}

// <span class="CLASS">text</span>, the text escaped.
Markup span(const char* css_class, std::string_view text) {
  Markup out = Markup::trusted(fmt::format("<span class=\"{}\">", css_class));
  out += Markup::text(text);
  out += Markup::trusted("</span>");
  return out;
}

// What a run made of a record, for the unsolved table: its move and score, the PV, the note or
// error; "solved" where it solved it.
Cell run_cell(const RecordResult* r) {
  if (!r) return Cell("-");
  Markup out;
  if (!r->error.empty()) return Cell(span("note", "failed: " + r->error));
  if (r->missing) return Cell(span("note", "missing: not analysed (a partial report)"));
  out += Markup::text(r->solved ? "solved: " : (r->scored() ? "" : "unscored: "));
  out += Markup::trusted("<b>");
  out += Markup::text(r->found.empty() ? "no move" : r->found);
  out += Markup::trusted("</b> ");
  out += Markup::text(r->score);
  if (!r->pv.empty()) {
    out += Markup::trusted("<br>");
    out += span("pv", "PV: " + r->pv);
  }
  if (!r->note.empty()) {
    out += Markup::trusted("<br>");
    out += span("note", r->note);
  }
  return Cell(out);
}

// The record's position as a diagram (with the move of the first run that missed it as an
// arrow), or as its FEN when it is not a position or past the diagram budget.
Cell position_cell(const Row& row, bool diagram) {
  const RecordResult& first = row.first();
  if (!diagram) return Cell(first.position);
  core::FenReadOptions four;
  four.fields = core::FenFields::Four;
  auto board = core::parse_fen(first.position, four);
  if (!board) return Cell(first.position);
  html::BoardOptions options;
  options.label = first.id.empty() ? first.position : first.id + ": " + first.position;
  options.square_pixels = 28;
  for (const RecordResult* r : row.records)
    if (r && !r->solved && !r->found.empty()) {
      if (auto move = core::parse_san(*board, r->found)) options.arrows.push_back({move->move.from(), move->move.to()});
      break;
    }
  return Cell(html::board_diagram(*board, options));
}

// How many positions are drawn, and why not all: said on the page.
std::string diagram_note(std::size_t positions, std::size_t diagrams) {
  const char* arrow = "(the arrow: the move of the first run that missed it)";
  if (diagrams == positions) return fmt::format("Each is drawn as a board diagram {}.", arrow);
  return fmt::format("The first {} are drawn as board diagrams {}; the other {} are listed with their FEN, since a "
                     "diagram is about 3 KB and the page is kept small.",
                     diagrams, arrow, positions - diagrams);
}

void unsolved_section(html::Page& page, const std::vector<Row>& rows, const std::vector<std::string>& labels,
                      std::size_t max_diagrams) {
  const auto shown = differing_first(rows, &Row::troubled);
  html::Section& section = page.add_section("unsolved", "Unsolved positions");
  const std::size_t diagrams = std::min(shown.size(), max_diagrams);
  if (shown.empty()) {
    section.add_paragraph(rows.empty() ? "No records." : "Every position was solved.");
    return;
  }
  section.add_paragraph(fmt::format("{} position{} not solved or not analysed by {}. {}", shown.size(),
                                    shown.size() == 1 ? "" : "s",
                                    labels.size() == 1 ? "the run" : "some run, those where the runs differ first",
                                    diagram_note(shown.size(), diagrams)));
  html::Table table(header({"position", "line", "id", "key"}, labels), "unsolved");
  for (std::size_t k = 0; k < shown.size(); ++k) {
    const Row& row = *shown[k];
    std::vector<Cell> cells{position_cell(row, k < max_diagrams), Cell::number(std::to_string(row.first().line)),
                            Cell(row.first().id), Cell(row.first().expected)};
    for (const RecordResult* r : row.records) cells.push_back(run_cell(r));
    table.add_row(std::move(cells));
  }
  section.add(table);
}

// A run's verdict on a record in a word, for the records table.
std::string verdict(const RecordResult* r) {
  if (!r) return "-";
  if (!r->error.empty()) return "failed";
  if (r->missing) return "missing";
  if (!r->scored()) return "unscored";
  return r->solved ? "solved" : "not solved";
}

// The columns a run has in the records table. A run's group costs up to 150 bytes a record, and
// a 3,000-position suite's page must stay under 2 MB (one run: 1.7 MB with the fake engine, which
// solves nothing, so that every position is in the unsolved table too): from two runs on, depth
// and nodes are left out, from four on score and time as well.
struct RunColumns {
  bool score_time = true;
  bool depth_nodes = true;
  static RunColumns for_runs(std::size_t runs) { return RunColumns{runs < 4, runs < 2}; }
  std::vector<std::string> names() const {
    std::vector<std::string> out{"move", "solved"};
    if (score_time) out.insert(out.begin() + 1, "score"), out.push_back("time");
    if (depth_nodes) out.push_back("depth"), out.push_back("nodes");
    return out;
  }
};

std::vector<Cell> run_columns(const RecordResult* r, const RunColumns& columns) {
  const bool analysed = r && r->error.empty() && !r->missing;
  std::vector<Cell> out;
  out.push_back(Cell(!r ? "-" : !analysed ? "" : r->found.empty() ? "no move" : r->found));
  if (columns.score_time) out.push_back(Cell(analysed ? r->score : ""));
  out.push_back(Cell(verdict(r)));
  if (columns.score_time) out.push_back(analysed ? Cell::number(seconds(r->time_ms)) : Cell(""));
  if (columns.depth_nodes) {
    out.push_back(analysed ? Cell::number(std::to_string(r->depth)) : Cell(""));
    out.push_back(analysed ? Cell::number(std::to_string(r->nodes)) : Cell(""));
  }
  return out;
}

// Every record: line, id, key, and per run (a group of columns each) the engine's move, score,
// verdict, time, depth and nodes. With several runs, the records solved by some runs but not all
// first (table class "differ"), then the others ("agree"); with one run, one table ("records").
void records_section(html::Page& page, const std::vector<Row>& rows, const std::vector<std::string>& labels) {
  html::Section& section = page.add_section("records", "Every record");
  const RunColumns columns = RunColumns::for_runs(labels.size());
  std::vector<std::string> head{"line", "id", "key"};
  for (const std::string& label : labels)
    for (const std::string& name : columns.names()) head.push_back(labels.size() == 1 ? name : label + ": " + name);
  const auto row_cells = [&](const Row& row) {
    std::vector<Cell> cells{Cell::number(std::to_string(row.first().line)), Cell(row.first().id), Cell(row.first().expected)};
    for (const RecordResult* r : row.records)
      for (Cell& c : run_columns(r, columns)) cells.push_back(std::move(c));
    return cells;
  };
  const std::string trimmed = columns.depth_nodes ? ""
                              : columns.score_time ? " With several runs, depth and nodes are left out to keep the page small."
                                                   : " With four runs or more, only the move and the verdict are shown, to keep the page small.";
  if (labels.size() == 1) {
    html::Table table(head, "records");
    for (const Row& row : rows) table.add_row(row_cells(row));
    section.add_paragraph(fmt::format("{} record{}, in the suite's order; time is the search's.{}", rows.size(),
                                      rows.size() == 1 ? "" : "s", trimmed));
    section.add(table);
    return;
  }
  for (const bool differs : {true, false}) {
    html::Table table(head, differs ? "differ" : "agree");
    for (const Row& row : rows)
      if (row.differs() == differs) table.add_row(row_cells(row));
    section.add_paragraph(differs ? fmt::format("Positions solved by some runs but not all: {}; time is the search's.{}",
                                                table.rows(), trimmed)
                                  : fmt::format("The other positions: {}.", table.rows()));
    section.add(table);
  }
}

// "Suite sts.epd", "2 runs of sts.epd", "2 runs: a.epd, b.epd" (a run without a suite name by
// its label).
std::string page_title(const Runs& runs, const std::vector<std::string>& labels) {
  std::vector<std::string> suites;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string& name = runs[i].second.suite.empty() ? labels[i] : runs[i].second.suite;
    if (std::find(suites.begin(), suites.end(), name) == suites.end()) suites.push_back(name);
  }
  if (runs.size() == 1) return "Suite " + suites.front();
  std::string names;
  for (const auto& name : suites) names += (names.empty() ? "" : ", ") + name;
  return fmt::format("{} runs{}{}", runs.size(), suites.size() == 1 ? " of " : ": ", names);
}

}  // namespace

std::string suite_page(const Runs& runs, const SuitePageOptions& options) {
  if (runs.empty()) throw std::invalid_argument("suites::suite_page: no runs");
  const std::vector<std::string> labels = distinct_labels(runs);
  std::vector<Summary> sums;
  for (const auto& [label, run] : runs) sums.push_back(summarize(run));
  const std::vector<Row> rows = match(runs);
  html::Page page(page_title(runs, labels));
  page.add_style(kStyle);
  runs_section(page, runs, sums, labels);
  curve_section(page, runs, labels);
  themes_section(page, sums, labels);
  unsolved_section(page, rows, labels, options.max_diagrams);
  records_section(page, rows, labels);
  return page.document();
}

Expected<std::string, std::string> suite_page_from_json(const std::vector<std::pair<std::string, std::string>>& inputs,
                                                        const SuitePageOptions& options) {
  if (inputs.empty()) return unexpected(std::string("no suite runs given"));
  Runs runs;
  for (const auto& [name, text] : inputs) {
    auto run = run_from_json(text);
    if (!run) return unexpected(fmt::format("{}: {}", name, run.error()));
    runs.emplace_back(name, std::move(*run));
  }
  return suite_page(runs, options);
}

}  // namespace epdd::suites
