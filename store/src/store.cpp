// What every backend shares: the names of the states, the factory that picks a backend for a
// location, and the convenience overloads, which reach a backend through its virtual operations.
#include "store/store.hpp"

#include <array>

#include "pg_store.hpp"
#include "sqlite_store.hpp"
#include "store/location.hpp"

namespace epdd::store {

namespace {

constexpr std::array kJobStateNames = {"queued", "running", "finished", "failed", "cancelled"};
constexpr std::array kItemStateNames = {"pending", "done", "failed"};

template <class State, std::size_t N>
std::optional<State> parse_state(std::string_view text, const std::array<const char*, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    if (text == names[i]) return static_cast<State>(i);
  return std::nullopt;
}

}  // namespace

const char* to_string(JobState state) { return kJobStateNames.at(static_cast<std::size_t>(state)); }
const char* to_string(ItemState state) { return kItemStateNames.at(static_cast<std::size_t>(state)); }
std::optional<JobState> parse_job_state(std::string_view text) { return parse_state<JobState>(text, kJobStateNames); }
std::optional<ItemState> parse_item_state(std::string_view text) {
  return parse_state<ItemState>(text, kItemStateNames);
}

// A `postgresql://` (or `postgres://`) location picks the PostgreSQL backend; every other
// location is the path of an SQLite file.
Expected<std::unique_ptr<Store>, std::string> Store::open(const std::string& location) {
  if (is_postgresql_location(location)) return PgStore::open(location);
  return SqliteStore::open(location);
}

JobRow Store::find_or_create_job(const std::string& kind, const std::string& input, const std::string& identity,
                                 const std::string& settings) {
  return find_or_create_job(NewJob{kind, input, identity, settings, "", ""});
}

std::size_t Store::job_source_size(std::int64_t job) { return job_source(job).size(); }

std::string Store::job_source_part(std::int64_t job, std::size_t offset, std::size_t length) {
  const std::string whole = job_source(job);
  return offset < whole.size() ? whole.substr(offset, length) : std::string();
}

std::vector<std::int64_t> Store::add_items(std::int64_t job, const std::vector<NewItem>& items, const std::string& engine) {
  std::size_t i = 0;
  return add_items(
      job,
      [&](NewItem& next) {
        if (i == items.size()) return false;
        next = items[i++];
        return true;
      },
      engine);
}

std::vector<std::int64_t> Store::add_items(std::int64_t job,
                                           const std::vector<std::pair<std::int64_t, std::string>>& index_and_key) {
  std::vector<NewItem> items;
  for (const auto& [index, key] : index_and_key) items.push_back(NewItem{index, key, ""});
  return add_items(job, items, "");
}

}  // namespace epdd::store
