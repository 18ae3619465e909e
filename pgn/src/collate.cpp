#include "pgn/collate.hpp"

#include <algorithm>
#include <tuple>

#include "pgn/tags.hpp"
#include "pgn/writer.hpp"

namespace epdd::pgn {

namespace {

std::string value_of(const Game& g, std::string_view name) {
  const auto v = g.tag(name);
  return v ? std::string(*v) : str_default(name, g);
}

// Date as a number, unknown ('?') parts as zero (the standard's rule); an unreadable date as zero.
long date_key(const Game& g) {
  const auto d = parse_date(value_of(g, "Date"));
  if (!d) return 0;
  return d->year.value_or(0) * 10000L + d->month.value_or(0) * 100L + d->day.value_or(0);
}

// '?' sorts first, then '-', then numbered rounds part by part; unreadable rounds with '?'.
std::pair<int, std::vector<long>> round_key(const Game& g) {
  const auto r = parse_round(value_of(g, "Round"));
  if (!r || r->kind == Round::Kind::Unknown) return {0, {}};
  if (r->kind == Round::Kind::NotApplicable) return {1, {}};
  return {2, r->parts};
}

struct Key {
  long date;
  std::string event, site;
  std::pair<int, std::vector<long>> round;
  std::string white, black, result, movetext;
  auto tie() const { return std::tie(date, event, site, round, white, black, result, movetext); }
};

Key key_of(const Game& g) {
  return {date_key(g),          value_of(g, "Event"), value_of(g, "Site"),   round_key(g),
          value_of(g, "White"), value_of(g, "Black"), value_of(g, "Result"), export_movetext(g)};
}

}  // namespace

bool collates_before(const Game& a, const Game& b) { return key_of(a).tie() < key_of(b).tie(); }

void sort_games(std::vector<Game>& games) {
  std::vector<std::pair<Key, std::size_t>> keys;
  keys.reserve(games.size());
  for (std::size_t i = 0; i < games.size(); ++i) keys.emplace_back(key_of(games[i]), i);
  std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first.tie() < b.first.tie(); });
  std::vector<Game> sorted;
  sorted.reserve(games.size());
  for (auto& [key, i] : keys) sorted.push_back(std::move(games[i]));
  games = std::move(sorted);
}

}  // namespace epdd::pgn
