#include "suites/report.hpp"

#include <algorithm>
#include <iterator>
#include <set>
#include <cmath>
#include <map>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

namespace epdd::suites {

using nlohmann::json;

Summary summarize(const SuiteRun& run) {
  Summary s;
  for (const auto& r : run.records) {
    ++s.records;
    s.time_ms += r.time_ms;
    s.nodes += r.nodes;
    if (!r.error.empty()) {
      ++s.failed;
      continue;
    }
    if (r.missing) {
      ++s.missing;
      continue;
    }
    if (!r.scored()) {
      ++s.unscored;
      continue;
    }
    ++s.scored;
    if (r.mate) s.mates.add(*r.mate);
    if (r.solved) {
      ++s.solved;
      if (r.to_solution) {
        s.solution_time_ms += r.to_solution->time_ms;
        s.solution_nodes += r.to_solution->nodes;
      }
    }
    if (r.sts) {
      ++s.sts_records;
      s.points += r.points;
      s.max_points += r.max_points;
      auto it = std::find_if(s.themes.begin(), s.themes.end(), [&](const ThemeRow& t) { return t.theme == r.theme; });
      if (it == s.themes.end()) it = s.themes.insert(s.themes.end(), ThemeRow{r.theme});
      ++it->records;
      it->solved += r.solved ? 1 : 0;
      it->points += r.points;
      it->max_points += r.max_points;
    }
  }
  return s;
}

namespace {

std::string seconds(std::uint64_t ms) { return fmt::format("{:.2f} s", static_cast<double>(ms) / 1000.0); }

std::string count(std::uint64_t n) {
  if (n >= 10'000'000) return fmt::format("{:.1f} M", static_cast<double>(n) / 1e6);
  if (n >= 10'000) return fmt::format("{:.1f} k", static_cast<double>(n) / 1e3);
  return std::to_string(n);
}

std::uint64_t mean(std::uint64_t total, std::size_t n) { return n ? total / n : 0; }

// A table under its title: the first column (line numbers) right-aligned, the others as wide as
// their longest entry (ids and expectations vary a lot between suites; at most 40) and at least
// their header, the last one unpadded. Nothing when there are no rows.
void render_table(std::string& out, std::string_view title, const std::vector<std::string>& headers,
                  const std::vector<std::vector<std::string>>& rows) {
  if (rows.empty()) return;
  std::vector<std::size_t> widths;
  for (const auto& h : headers) widths.push_back(h.size());
  widths[0] = 5;
  for (const auto& row : rows)
    for (std::size_t c = 1; c < row.size(); ++c)
      widths[c] = std::max(widths[c], std::min<std::size_t>(row[c].size(), 40));
  const auto render_row = [&](const std::vector<std::string>& cells) {
    std::string line = fmt::format("  {:>5}", cells[0]);
    for (std::size_t c = 1; c < cells.size(); ++c)
      line += c + 1 == cells.size() ? fmt::format("  {}", cells[c]) : fmt::format("  {:<{}}", cells[c], widths[c]);
    // Trailing spaces of an empty last column are noise in files and diffs.
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + '\n';
  };
  out += fmt::format("\n{}\n", title);
  render_row(headers);
  for (const auto& row : rows) render_row(row);
}

void render_records(std::string& out, const SuiteRun& run, bool failed) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& r : run.records) {
    if (failed && !r.error.empty())
      rows.push_back({std::to_string(r.line), r.id, r.error});
    else if (!failed && r.scored() && !r.solved)
      rows.push_back({std::to_string(r.line), r.id, r.expected, r.found.empty() ? "-" : r.found, r.score, r.note});
  }
  if (failed)
    render_table(out, "Failed (not analysed or not scored)", {"line", "id", "error"}, rows);
  else
    render_table(out, "Unsolved", {"line", "id", "expected", "found", "score", "note"}, rows);
}

// Matetrack: mates shorter than the key (the key is wrong), and PVs that do not show the mate.
void render_mates(std::string& out, const SuiteRun& run) {
  std::vector<std::vector<std::string>> better, bad;
  for (const auto& r : run.records) {
    if (!r.scored() || !r.mate || !r.mate->found) continue;
    const std::string key = mate_text(r.mate->key), found = mate_text(*r.mate->found);
    if (r.mate->outcome == MateOutcome::Better) better.push_back({std::to_string(r.line), r.id, key, found, r.found});
    if (r.mate->bad_pv())
      bad.push_back({std::to_string(r.line), r.id, key, found, to_string(*r.mate->pv), r.mate->pv_note});
  }
  render_table(out, "Better mates than the key (the key is wrong)", {"line", "id", "key", "found", "move"}, better);
  render_table(out, "Bad PVs (the PV does not end in the mate it claims)", {"line", "id", "key", "found", "pv", "note"},
               bad);
}

}  // namespace

std::string render_text(const SuiteRun& run) {
  const Summary s = summarize(run);
  std::string out;
  out += fmt::format("Suite     {} ({} records)\n", run.suite, s.records);
  out += fmt::format("Engine    {}, {}\n", run.engine.empty() ? "-" : run.engine, run.limits);
  if (!run.settings.empty()) out += fmt::format("Settings  {}\n", run.settings);
  out += fmt::format("Solved    {} / {}  {:.1f}%", s.solved, s.scored, s.solved_percent());
  if (s.unscored || s.failed) out += fmt::format("   (unscored {}, failed {})", s.unscored, s.failed);
  if (s.missing) out += fmt::format("   (missing {}: not analysed, a partial report)", s.missing);
  out += '\n';
  if (s.sts_records) {
    const double pct = s.points_percent();
    out += fmt::format("STS       {} / {} points  {:.2f}%  rating {:.0f}\n", s.points, s.max_points, pct, sts_rating(pct));
  }
  if (const MateCounts& m = s.mates; m.records)
    out += fmt::format("Mates     {} matetrack records: found {}, best {}, better {}, wrong {}, bad PVs {}, "
                       "no mate {}\n",
                       m.records, m.found, m.best, m.better, m.wrong, m.bad_pv, m.no_mate);
  out += fmt::format("Time      total {}  mean {} ms  to solution mean {} ms\n", seconds(s.time_ms),
                     mean(s.time_ms, s.records - s.failed - s.missing), mean(s.solution_time_ms, s.solved));
  out += fmt::format("Nodes     total {}  mean {}  to solution mean {}\n", count(s.nodes),
                     count(mean(s.nodes, s.records - s.failed - s.missing)), count(mean(s.solution_nodes, s.solved)));
  if (!s.themes.empty()) {
    out += fmt::format("\n  {:<28} {:>7} {:>7} {:>11} {:>7}\n", "theme", "records", "solved", "points", "%");
    for (const auto& t : s.themes) {
      const double pct = t.max_points ? 100.0 * static_cast<double>(t.points) / static_cast<double>(t.max_points) : 0;
      out += fmt::format("  {:<28} {:>7} {:>7} {:>11} {:>7.1f}\n", t.theme, t.records, t.solved,
                         fmt::format("{}/{}", t.points, t.max_points), pct);
    }
  }
  render_records(out, run, false);
  render_mates(out, run);
  render_records(out, run, true);
  return out;
}

namespace {

json record_json(const RecordResult& r) {
  json j = {{"line", r.line},         {"id", r.id},           {"position", r.position}, {"rule", to_string(r.rule)},
            {"solved", r.solved},     {"expected", r.expected}, {"found", r.found},     {"score", r.score},
            {"depth", r.depth},       {"nodes", r.nodes},     {"time_ms", r.time_ms}};
  if (r.sts) {
    j["points"] = r.points;
    j["max_points"] = r.max_points;
    j["theme"] = r.theme;
  }
  if (r.to_solution)
    j["to_solution"] = {{"depth", r.to_solution->depth}, {"nodes", r.to_solution->nodes}, {"time_ms", r.to_solution->time_ms}};
  if (!r.pv.empty()) j["pv"] = r.pv;
  if (!r.note.empty()) j["note"] = r.note;
  if (!r.error.empty()) j["error"] = r.error;
  if (r.missing) j["missing"] = true;
  if (r.mate) {
    json m = {{"key", r.mate->key}, {"outcome", to_string(r.mate->outcome)}};
    if (r.mate->found) m["found"] = *r.mate->found;
    if (r.mate->pv) m["pv"] = to_string(*r.mate->pv);
    if (!r.mate->pv_note.empty()) m["pv_note"] = r.mate->pv_note;
    j["mate"] = std::move(m);
  }
  return j;
}

// A bad value in a suite run's JSON: where ("records[3].depth") and what is wrong.
struct BadInput {
  std::string where, why;
};

// A value as an error shows it: scalars as JSON, containers by their kind (they may be huge or deep).
std::string shown(const json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  const std::string out = v.dump(-1, ' ', false, json::error_handler_t::replace);
  return out.size() > 60 ? out.substr(0, 57) + "..." : out;
}

std::string place(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }

const json& member(const json& object, const char* key, const std::string& where) {
  if (!object.is_object()) throw BadInput{where, "not an object"};
  const auto it = object.find(key);
  if (it == object.end()) throw BadInput{where, fmt::format("has no \"{}\"", key)};
  return *it;
}

std::string text(const json& object, const char* key, const std::string& where) {
  const json& v = member(object, key, where);
  if (!v.is_string()) throw BadInput{place(where, key), fmt::format("{} is not a string", shown(v))};
  return v.get<std::string>();
}

// An optional string: "" when absent (reports written before the key was).
std::string text_or_none(const json& object, const char* key, const std::string& where) {
  return object.contains(key) ? text(object, key, where) : std::string();
}

bool truth(const json& object, const char* key, const std::string& where) {
  const json& v = member(object, key, where);
  if (!v.is_boolean()) throw BadInput{place(where, key), fmt::format("{} is not true or false", shown(v))};
  return v.get<bool>();
}

// A whole number within [low, high] (low <= 0 <= high): a -1 is not read as 2^64-1, nor a time
// of 10^18 ms believed.
long long whole(const json& object, const char* key, const std::string& where, long long low, long long high) {
  const json& v = member(object, key, where);
  if (!v.is_number_integer()) throw BadInput{place(where, key), fmt::format("{} is not a whole number", shown(v))};
  const bool fits = v.is_number_unsigned() ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(high)
                                           : v.get<long long>() >= low && v.get<long long>() <= high;
  if (!fits) throw BadInput{place(where, key), fmt::format("{} is out of range ({} to {})", shown(v), low, high)};
  return v.get<long long>();
}

// A count of nodes: any that a uint64 holds (they are only summed and shown), never a negative.
std::uint64_t nodes(const json& object, const std::string& where) {
  const json& v = member(object, "nodes", where);
  if (!v.is_number_unsigned() && v.is_number_integer() && v.get<long long>() < 0)
    throw BadInput{place(where, "nodes"), fmt::format("{} is not a count of nodes", shown(v))};
  if (!v.is_number_integer()) throw BadInput{place(where, "nodes"), fmt::format("{} is not a whole number", shown(v))};
  return v.get<std::uint64_t>();
}

// Bounds of the numbers a run records: far above any real run, low enough that sums of a
// suite's records cannot overflow (nodes: see nodes()).
constexpr long long kMaxMs = 1'000'000'000'000;          // about 31 years
constexpr long long kMaxDepth = 100'000;
constexpr long long kMaxLine = 1'000'000'000;
constexpr long long kMaxMate = 100'000;                  // moves, either sign
constexpr long long kMaxPoints = 1'000'000;

MateResult mate_from(const json& j, const std::string& where) {
  MateResult m;
  m.key = static_cast<int>(whole(j, "key", where, -kMaxMate, kMaxMate));
  const auto outcome = text(j, "outcome", where);
  if (const auto o = mate_outcome_from(outcome)) m.outcome = *o;
  else throw BadInput{place(where, "outcome"), "unknown mate outcome '" + outcome + "'"};
  if (j.contains("found")) m.found = static_cast<int>(whole(j, "found", where, -kMaxMate, kMaxMate));
  if (j.contains("pv")) {
    const auto pv = text(j, "pv", where);
    m.pv = pv_status_from(pv);
    if (!m.pv) throw BadInput{place(where, "pv"), "unknown PV status '" + pv + "'"};
  }
  m.pv_note = text_or_none(j, "pv_note", where);
  return m;
}

Rule rule_from(const std::string& text, const std::string& where) {
  for (Rule r : {Rule::Unscored, Rule::Bm, Rule::Am, Rule::BmAm, Rule::Dm, Rule::Matetrack})
    if (text == to_string(r)) return r;
  throw BadInput{where, "unknown rule '" + text + "'"};
}

ToSolution to_solution_from(const json& t, const std::string& where) {
  return ToSolution{static_cast<int>(whole(t, "depth", where, 0, kMaxDepth)), nodes(t, where),
                    static_cast<std::uint64_t>(whole(t, "time_ms", where, 0, kMaxMs))};
}

RecordResult record_from(const json& rj, const std::string& where) {
  RecordResult r;
  r.line = static_cast<std::size_t>(whole(rj, "line", where, 0, kMaxLine));
  r.id = text(rj, "id", where);
  r.position = text(rj, "position", where);
  r.rule = rule_from(text(rj, "rule", where), place(where, "rule"));
  r.solved = truth(rj, "solved", where);
  r.expected = text(rj, "expected", where);
  r.found = text(rj, "found", where);
  r.score = text(rj, "score", where);
  r.depth = static_cast<int>(whole(rj, "depth", where, 0, kMaxDepth));
  r.nodes = nodes(rj, where);
  r.time_ms = static_cast<std::uint64_t>(whole(rj, "time_ms", where, 0, kMaxMs));
  if (rj.contains("points")) {
    r.sts = true;
    r.points = static_cast<int>(whole(rj, "points", where, 0, kMaxPoints));
    r.max_points = static_cast<int>(whole(rj, "max_points", where, 0, kMaxPoints));
    r.theme = text(rj, "theme", where);
  }
  if (rj.contains("to_solution")) r.to_solution = to_solution_from(rj.at("to_solution"), place(where, "to_solution"));
  r.pv = text_or_none(rj, "pv", where);  // absent in reports written before the PV was kept
  r.note = text_or_none(rj, "note", where);
  r.error = text_or_none(rj, "error", where);
  r.missing = rj.contains("missing") && rj.at("missing").is_boolean() && rj.at("missing").get<bool>();
  if (rj.contains("mate")) r.mate = mate_from(rj.at("mate"), place(where, "mate"));
  return r;
}

SuiteRun run_of(const json& j) {
  SuiteRun run;
  run.suite = text(j, "suite", "");
  run.engine = text(j, "engine", "");
  run.limits = text(j, "limits", "");
  run.settings = text(j, "settings", "");
  const json& records = member(j, "records", "");
  if (!records.is_array()) throw BadInput{"records", fmt::format("{} is not an array", shown(records))};
  for (std::size_t i = 0; i < records.size(); ++i) run.records.push_back(record_from(records[i], fmt::format("records[{}]", i)));
  return run;
}

}  // namespace

std::string to_json(const SuiteRun& run) {
  const Summary s = summarize(run);
  json summary = {{"records", s.records},   {"scored", s.scored},       {"solved", s.solved},
                  {"unscored", s.unscored}, {"failed", s.failed},       {"solved_percent", s.solved_percent()},
                  {"time_ms", s.time_ms},   {"nodes", s.nodes},         {"solution_time_ms", s.solution_time_ms},
                  {"solution_nodes", s.solution_nodes}};
  if (s.missing) summary["missing"] = s.missing;  // a partial report's records not analysed yet
  if (s.sts_records) {
    summary["sts"] = {{"records", s.sts_records},
                      {"points", s.points},
                      {"max_points", s.max_points},
                      {"percent", s.points_percent()},
                      {"rating", std::round(sts_rating(s.points_percent()))}};
    json themes = json::array();
    for (const auto& t : s.themes)
      themes.push_back({{"theme", t.theme}, {"records", t.records}, {"solved", t.solved}, {"points", t.points},
                        {"max_points", t.max_points}});
    summary["sts"]["themes"] = std::move(themes);
  }
  if (const MateCounts& m = s.mates; m.records)
    summary["mates"] = {{"records", m.records}, {"found", m.found},   {"best", m.best},       {"better", m.better},
                        {"wrong", m.wrong},     {"bad_pv", m.bad_pv}, {"no_mate", m.no_mate}};
  json records = json::array();
  for (const auto& r : run.records) records.push_back(record_json(r));
  json j = {{"format", "epdd suite run 1"}, {"suite", run.suite},     {"engine", run.engine},
            {"limits", run.limits},          {"settings", run.settings}, {"summary", std::move(summary)},
            {"records", std::move(records)}};
  return j.dump(2) + "\n";
}

Expected<SuiteRun, std::string> run_from_json(std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    return unexpected(fmt::format("not JSON (it fails to parse at byte {})", e.byte));
  } catch (const json::exception& e) {  // out_of_range.406, the only other one parse throws
    return unexpected(fmt::format("not JSON (a number past a double's range: {})", e.what()));
  }
  if (!j.is_object() || !j.contains("format") || j.at("format") != "epdd suite run 1")
    return unexpected(std::string("not an epdd suite report (no \"format\": \"epdd suite run 1\")"));
  try {
    return run_of(j);
  } catch (const BadInput& bad) {
    return unexpected(fmt::format("{}{}{}", bad.where, bad.where.empty() ? "" : ": ", bad.why));
  }
}

namespace {

using Runs = std::vector<std::pair<std::string, SuiteRun>>;

std::set<std::string> positions_of(const SuiteRun& run) {
  std::set<std::string> out;
  for (const auto& r : run.records) out.insert(r.position);
  return out;
}

}  // namespace

bool same_suite(const Runs& runs) {
  std::vector<std::set<std::string>> sets;
  for (const auto& [label, run] : runs) sets.push_back(positions_of(run));
  const auto largest = std::max_element(sets.begin(), sets.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  return std::all_of(sets.begin(), sets.end(), [&](const auto& set) {
    return std::includes(largest->begin(), largest->end(), set.begin(), set.end());
  });
}

namespace {

// Runs of different suites cut to the positions all of them have (each position once).
Runs common_positions(const Runs& runs, std::size_t& common) {
  std::set<std::string> shared = positions_of(runs.front().second);
  for (const auto& [label, run] : runs) {
    const auto mine = positions_of(run);
    std::set<std::string> both;
    std::set_intersection(shared.begin(), shared.end(), mine.begin(), mine.end(), std::inserter(both, both.end()));
    shared = std::move(both);
  }
  common = shared.size();
  Runs out = runs;
  for (auto& [label, run] : out) {
    std::set<std::string> seen;
    std::erase_if(run.records, [&](const RecordResult& r) { return !shared.count(r.position) || !seen.insert(r.position).second; });
  }
  return out;
}

// Records solved by some runs and not by others: where the runs differ. Matched by `key` (the
// line within one suite, the position across suites), not by place: records come in the order
// results arrived (several threads), and a stopped run has only some of them.
template <class Key>
std::vector<std::pair<std::string, std::vector<const RecordResult*>>> differences(const Runs& runs, Key key) {
  std::map<decltype(key(std::declval<const RecordResult&>())), std::vector<const RecordResult*>> matched;
  for (std::size_t i = 0; i < runs.size(); ++i)
    for (const auto& r : runs[i].second.records) {
      auto& slot = matched[key(r)];
      slot.resize(runs.size(), nullptr);
      if (!slot[i]) slot[i] = &r;
    }
  std::vector<std::pair<std::string, std::vector<const RecordResult*>>> out;
  for (const auto& [k, records] : matched) {
    const bool any = std::any_of(records.begin(), records.end(), [](const RecordResult* r) { return r && r->solved; });
    const bool all = std::all_of(records.begin(), records.end(), [](const RecordResult* r) { return r && r->solved; });
    if (!any || all) continue;
    const RecordResult* named = *std::find_if(records.begin(), records.end(), [](const RecordResult* r) { return r; });
    out.emplace_back(fmt::format("{} {}", named->line, named->id), records);
  }
  return out;
}

}  // namespace

std::string render_compare(const Runs& given) {
  std::string out;
  std::size_t common = 0;
  const bool same = same_suite(given);
  const Runs runs = same ? given : common_positions(given, common);
  if (!same) {
    out += "The runs are of different suites (";
    for (std::size_t i = 0; i < given.size(); ++i)
      out += fmt::format("{}{}: {} positions", i ? ", " : "", given[i].second.suite.empty() ? given[i].first : given[i].second.suite,
                         positions_of(given[i].second).size());
    out += fmt::format("): compared on the {} position{} they share.\n\n", common, common == 1 ? "" : "s");
  }
  std::vector<Summary> sums;
  for (const auto& [label, run] : runs) sums.push_back(summarize(run));
  const auto diffs = same ? differences(runs, [](const RecordResult& r) { return r.line; })
                          : differences(runs, [](const RecordResult& r) { return r.position; });
  // The first column is as wide as its longest label: ids are not cut.
  std::size_t width = 22;
  for (const auto& [label, records] : diffs) width = std::max(width, label.size());
  const auto row = [&](std::string_view name, auto&& cell) {
    out += fmt::format("{:<{}}", name, width);
    for (std::size_t i = 0; i < runs.size(); ++i) out += fmt::format(" {:>24}", cell(i));
    out += '\n';
  };
  row("", [&](std::size_t i) { return runs[i].first; });
  row("suite", [&](std::size_t i) { return runs[i].second.suite; });
  row("engine", [&](std::size_t i) { return runs[i].second.engine; });
  row("limits", [&](std::size_t i) { return runs[i].second.limits; });
  row("solved", [&](std::size_t i) { return fmt::format("{}/{}", sums[i].solved, sums[i].scored); });
  row("solved %", [&](std::size_t i) { return fmt::format("{:.1f}", sums[i].solved_percent()); });
  const bool sts = std::any_of(sums.begin(), sums.end(), [](const Summary& s) { return s.sts_records > 0; });
  if (sts) {
    // A run without STS records has no STS score (not 0/0 and a rating of -243).
    const auto sts_cell = [&](std::size_t i, std::string text) { return sums[i].sts_records ? text : std::string("-"); };
    row("STS points", [&](std::size_t i) { return sts_cell(i, fmt::format("{}/{}", sums[i].points, sums[i].max_points)); });
    row("STS rating", [&](std::size_t i) { return sts_cell(i, fmt::format("{:.0f}", sts_rating(sums[i].points_percent()))); });
  }
  if (std::any_of(sums.begin(), sums.end(), [](const Summary& s) { return s.mates.records > 0; })) {
    const auto mates = [&](const char* name, std::size_t MateCounts::*count) {
      row(name, [&](std::size_t i) { return std::to_string(sums[i].mates.*count); });
    };
    mates("mates found", &MateCounts::found);
    mates("best mates", &MateCounts::best);
    mates("better mates", &MateCounts::better);
    mates("wrong mates", &MateCounts::wrong);
    mates("bad PVs", &MateCounts::bad_pv);
    mates("no mate", &MateCounts::no_mate);
  }
  row("failed", [&](std::size_t i) { return std::to_string(sums[i].failed); });
  if (std::any_of(sums.begin(), sums.end(), [](const Summary& s) { return s.missing > 0; }))
    row("missing", [&](std::size_t i) { return std::to_string(sums[i].missing); });
  row("time total", [&](std::size_t i) { return seconds(sums[i].time_ms); });
  row("time to solution", [&](std::size_t i) { return fmt::format("{} ms mean", mean(sums[i].solution_time_ms, sums[i].solved)); });
  row("nodes total", [&](std::size_t i) { return count(sums[i].nodes); });
  if (sts) {
    std::vector<std::string> themes;
    for (const auto& s : sums)
      for (const auto& t : s.themes)
        if (std::find(themes.begin(), themes.end(), t.theme) == themes.end()) themes.push_back(t.theme);
    for (const auto& theme : themes) {
      row(theme, [&](std::size_t i) -> std::string {
        for (const auto& t : sums[i].themes)
          if (t.theme == theme) return fmt::format("{}/{}", t.points, t.max_points);
        return "-";
      });
    }
  }
  if (runs.size() > 1) {
    out += fmt::format("\nRecords where the runs differ: {}\n", diffs.size());
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    for (const auto& diff : diffs) {
      const auto& records = diff.second;
      row(diff.first, [&](std::size_t i) -> std::string { return records[i] ? (records[i]->solved ? "solved" : "-") : ""; });
    }
  }
  return out;
}

}  // namespace epdd::suites
