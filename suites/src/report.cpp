#include "suites/report.hpp"

#include <algorithm>
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
    if (!r.scored()) {
      ++s.unscored;
      continue;
    }
    ++s.scored;
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

void render_records(std::string& out, const SuiteRun& run, bool failed) {
  const auto shown = [&](const RecordResult& r) { return failed ? !r.error.empty() : (r.scored() && !r.solved); };
  // Columns as wide as their longest entry (ids and expectations vary a lot between suites).
  std::size_t id_width = 2, expected_width = 8, found_width = 5, score_width = 5;
  bool any = false;
  for (const auto& r : run.records) {
    if (!shown(r)) continue;
    any = true;
    id_width = std::max(id_width, std::min<std::size_t>(r.id.size(), 40));
    expected_width = std::max(expected_width, std::min<std::size_t>(r.expected.size(), 40));
    found_width = std::max(found_width, r.found.size());
    score_width = std::max(score_width, r.score.size());
  }
  if (!any) return;
  out += failed ? "\nFailed (not analysed or not scored)\n" : "\nUnsolved\n";
  if (failed)
    out += fmt::format("  {:>5}  {:<{}}  {}\n", "line", "id", id_width, "error");
  else
    out += fmt::format("  {:>5}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", "line", "id", id_width, "expected",
                       expected_width, "found", found_width, "score", score_width, "note");
  for (const auto& r : run.records) {
    if (!shown(r)) continue;
    if (failed)
      out += fmt::format("  {:>5}  {:<{}}  {}\n", r.line, r.id, id_width, r.error);
    else
      out += fmt::format("  {:>5}  {:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", r.line, r.id, id_width, r.expected,
                         expected_width, r.found.empty() ? "-" : r.found, found_width, r.score, score_width, r.note);
  }
  // Trailing spaces of an empty last column are noise in files and diffs. In one pass: erasing
  // them one at a time rescans the report for each (quadratic: 0.5 s for 1500 unsolved rows).
  std::string stripped;
  stripped.reserve(out.size());
  for (const char c : out) {
    if (c == '\n')
      while (!stripped.empty() && stripped.back() == ' ') stripped.pop_back();
    stripped += c;
  }
  out = std::move(stripped);
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
  out += '\n';
  if (s.sts_records) {
    const double pct = s.points_percent();
    out += fmt::format("STS       {} / {} points  {:.2f}%  rating {:.0f}\n", s.points, s.max_points, pct, sts_rating(pct));
  }
  out += fmt::format("Time      total {}  mean {} ms  to solution mean {} ms\n", seconds(s.time_ms),
                     mean(s.time_ms, s.records - s.failed), mean(s.solution_time_ms, s.solved));
  out += fmt::format("Nodes     total {}  mean {}  to solution mean {}\n", count(s.nodes),
                     count(mean(s.nodes, s.records - s.failed)), count(mean(s.solution_nodes, s.solved)));
  if (!s.themes.empty()) {
    out += fmt::format("\n  {:<28} {:>7} {:>7} {:>11} {:>7}\n", "theme", "records", "solved", "points", "%");
    for (const auto& t : s.themes) {
      const double pct = t.max_points ? 100.0 * static_cast<double>(t.points) / static_cast<double>(t.max_points) : 0;
      out += fmt::format("  {:<28} {:>7} {:>7} {:>11} {:>7.1f}\n", t.theme, t.records, t.solved,
                         fmt::format("{}/{}", t.points, t.max_points), pct);
    }
  }
  render_records(out, run, false);
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
  if (!r.note.empty()) j["note"] = r.note;
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

Expected<Rule, std::string> rule_from(const std::string& text) {
  for (Rule r : {Rule::Unscored, Rule::Bm, Rule::Am, Rule::BmAm, Rule::Dm})
    if (text == to_string(r)) return r;
  return unexpected("unknown rule '" + text + "'");
}

}  // namespace

std::string to_json(const SuiteRun& run) {
  const Summary s = summarize(run);
  json summary = {{"records", s.records},   {"scored", s.scored},       {"solved", s.solved},
                  {"unscored", s.unscored}, {"failed", s.failed},       {"solved_percent", s.solved_percent()},
                  {"time_ms", s.time_ms},   {"nodes", s.nodes},         {"solution_time_ms", s.solution_time_ms},
                  {"solution_nodes", s.solution_nodes}};
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
  json records = json::array();
  for (const auto& r : run.records) records.push_back(record_json(r));
  json j = {{"format", "epdd suite run 1"}, {"suite", run.suite},     {"engine", run.engine},
            {"limits", run.limits},          {"settings", run.settings}, {"summary", std::move(summary)},
            {"records", std::move(records)}};
  return j.dump(2) + "\n";
}

Expected<SuiteRun, std::string> run_from_json(std::string_view text) {
  try {
    const json j = json::parse(text);
    if (j.value("format", "") != "epdd suite run 1") return unexpected(std::string("not an epdd suite report (no \"format\": \"epdd suite run 1\")"));
    SuiteRun run;
    run.suite = j.at("suite").get<std::string>();
    run.engine = j.at("engine").get<std::string>();
    run.limits = j.at("limits").get<std::string>();
    run.settings = j.at("settings").get<std::string>();
    for (const auto& rj : j.at("records")) {
      RecordResult r;
      r.line = rj.at("line").get<std::size_t>();
      r.id = rj.at("id").get<std::string>();
      r.position = rj.at("position").get<std::string>();
      auto rule = rule_from(rj.at("rule").get<std::string>());
      if (!rule) return unexpected(rule.error());
      r.rule = *rule;
      r.solved = rj.at("solved").get<bool>();
      r.expected = rj.at("expected").get<std::string>();
      r.found = rj.at("found").get<std::string>();
      r.score = rj.at("score").get<std::string>();
      r.depth = rj.at("depth").get<int>();
      r.nodes = rj.at("nodes").get<std::uint64_t>();
      r.time_ms = rj.at("time_ms").get<std::uint64_t>();
      if (rj.contains("points")) {
        r.sts = true;
        r.points = rj.at("points").get<int>();
        r.max_points = rj.at("max_points").get<int>();
        r.theme = rj.at("theme").get<std::string>();
      }
      if (rj.contains("to_solution")) {
        const auto& t = rj.at("to_solution");
        r.to_solution = ToSolution{t.at("depth").get<int>(), t.at("nodes").get<std::uint64_t>(),
                                   t.at("time_ms").get<std::uint64_t>()};
      }
      r.note = rj.value("note", "");
      r.error = rj.value("error", "");
      run.records.push_back(std::move(r));
    }
    return run;
  } catch (const json::exception& e) {
    return unexpected(std::string(e.what()));
  }
}

std::string render_compare(const std::vector<std::pair<std::string, SuiteRun>>& runs) {
  std::vector<Summary> sums;
  for (const auto& [label, run] : runs) sums.push_back(summarize(run));
  std::string out;
  const auto row = [&](std::string_view name, auto&& cell) {
    out += fmt::format("{:<22}", name);
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
    row("STS points", [&](std::size_t i) { return fmt::format("{}/{}", sums[i].points, sums[i].max_points); });
    row("STS rating", [&](std::size_t i) { return fmt::format("{:.0f}", sts_rating(sums[i].points_percent())); });
  }
  row("failed", [&](std::size_t i) { return std::to_string(sums[i].failed); });
  row("time total", [&](std::size_t i) { return seconds(sums[i].time_ms); });
  row("time to solution", [&](std::size_t i) { return fmt::format("{} ms mean", mean(sums[i].solution_time_ms, sums[i].solved)); });
  row("nodes total", [&](std::size_t i) { return count(sums[i].nodes); });
  if (sts) {
    std::vector<std::string> themes;
    for (const auto& s : sums)
      for (const auto& t : s.themes)
        if (std::find(themes.begin(), themes.end(), t.theme) == themes.end()) themes.push_back(t.theme);
    for (const auto& theme : themes) {
      row(theme.substr(0, 22), [&](std::size_t i) -> std::string {
        for (const auto& t : sums[i].themes)
          if (t.theme == theme) return fmt::format("{}/{}", t.points, t.max_points);
        return "-";
      });
    }
  }
  // Records solved by some runs and not by others, by line: where the runs differ. Matched by
  // their line, not their place: records come in the order results arrived (several threads),
  // and a stopped run has only some of them.
  if (runs.size() > 1) {
    std::map<std::size_t, std::vector<const RecordResult*>> by_line;
    for (std::size_t i = 0; i < runs.size(); ++i) {
      for (const auto& r : runs[i].second.records) {
        auto& slot = by_line[r.line];
        slot.resize(runs.size(), nullptr);
        if (!slot[i]) slot[i] = &r;
      }
    }
    std::size_t differ = 0;
    std::string detail;
    for (const auto& [line, records] : by_line) {
      bool any = false, all = true;
      const RecordResult* named = nullptr;
      for (const RecordResult* r : records) {
        const bool solved = r && r->solved;
        any = any || solved;
        all = all && solved;
        if (!named) named = r;
      }
      if (!any || all) continue;
      ++differ;
      detail += fmt::format("{:<22}", fmt::format("{} {}", line, named->id).substr(0, 22));
      for (const RecordResult* r : records) detail += fmt::format(" {:>24}", r ? (r->solved ? "solved" : "-") : "");
      detail += '\n';
    }
    out += fmt::format("\nRecords where the runs differ: {}\n{}", differ, detail);
  }
  return out;
}

}  // namespace epdd::suites
