// What every backend shares: the names of the states, the factory that picks a backend for a
// location, and the convenience overloads, which reach a backend through its virtual operations.
#include "store/store.hpp"

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cstdlib>
#include <mutex>

#include "pg_store.hpp"
#include "reconnecting_store.hpp"
#include "sqlite_store.hpp"
#include "store/location.hpp"

namespace epdd::store {

std::vector<JobRow> Store::jobs_updated_since(std::int64_t since_ms) {
  std::vector<JobRow> out;
  for (JobRow& job : jobs())
    if (job.updated_ms >= since_ms) out.push_back(std::move(job));
  return out;
}

namespace {

constexpr std::array kJobStateNames = {"queued", "running", "finished", "failed", "cancelled"};
constexpr std::array kItemStateNames = {"pending", "done", "failed"};

template <class State, std::size_t N>
std::optional<State> parse_state(std::string_view text, const std::array<const char*, N>& names) {
  for (std::size_t i = 0; i < N; ++i)
    if (text == names[i]) return static_cast<State>(i);
  return std::nullopt;
}

// How long a PostgreSQL store waits for its database: EPDD_STORE_PATIENCE_SECONDS (1 to a week),
// else ten minutes (a server restart, a fail-over, a network blip).
std::chrono::milliseconds patience() {
  constexpr long kDefault = 600;
  const char* text = std::getenv("EPDD_STORE_PATIENCE_SECONDS");
  long seconds = kDefault;
  if (text && *text) {
    char* end = nullptr;
    seconds = std::strtol(text, &end, 10);
    if (*end != '\0' || seconds < 1 || seconds > 7 * 86400) seconds = kDefault;
  }
  return std::chrono::seconds(seconds);
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
Expected<std::unique_ptr<Store>, std::string> Store::open(const std::string& location, OnFullDisk on_full_disk) {
  if (!is_postgresql_location(location)) {
    auto first = SqliteStore::open(location);
    if (!first || on_full_disk == OnFullDisk::Fail) return first;
    return std::unique_ptr<Store>(std::make_unique<ReconnectingStore>(
        std::move(*first), [location] { return SqliteStore::open(location); }, patience()));
  }
  auto first = PgStore::open(location);  // a wrong URL, password or database: said at once
  if (!first) return first;
  return std::unique_ptr<Store>(std::make_unique<ReconnectingStore>(
      std::move(*first), [location] { return PgStore::open(location); }, patience()));
}

namespace {

std::mutex notice_mutex;
std::function<void(const std::string&)> notice_handler;

}  // namespace

void set_notice_handler(std::function<void(const std::string&)> handler) {
  std::lock_guard lock(notice_mutex);
  notice_handler = std::move(handler);
}

void notice(const std::string& text) {
  std::lock_guard lock(notice_mutex);
  if (notice_handler) notice_handler(text);
  else fmt::print(stderr, "{}\n", text);
}

JobRow Store::find_or_create_job(const std::string& kind, const std::string& input, const std::string& identity,
                                 const std::string& settings) {
  return find_or_create_job(NewJob{kind, input, identity, settings, "", ""});
}

void Store::read_job_source(std::int64_t job, const SourcePart& part) {
  const std::string whole = job_source(job);
  for (std::size_t at = 0; at < whole.size(); at += kSourcePart)
    part(at, std::string_view(whole).substr(at, kSourcePart));
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
