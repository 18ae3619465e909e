#include "cli/purge_command.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <ostream>

#include "core/text.hpp"
#include "daemon/analysis_run.hpp"
#include "daemon/logging.hpp"
#include "store/store.hpp"

namespace epdd::cli {

using namespace daemon;  // the commands call into the daemon library

namespace {

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// Reads `digits` decimal digits at `at`; nothing if they are not all digits.
std::optional<int> number(std::string_view text, std::size_t at, std::size_t digits) {
  if (at + digits > text.size()) return std::nullopt;
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data() + at, text.data() + at + digits, value);
  if (ec != std::errc() || end != text.data() + at + digits) return std::nullopt;
  return value;
}

// "YYYY-MM-DD", "YYYY-MM-DDTHH:MM" or "YYYY-MM-DD HH:MM:SS", local time.
std::optional<std::int64_t> local_time(std::string_view text) {
  if (text.size() != 10 && text.size() != 16 && text.size() != 19) return std::nullopt;
  if (text[4] != '-' || text[7] != '-') return std::nullopt;
  const auto y = number(text, 0, 4), mo = number(text, 5, 2), d = number(text, 8, 2);
  if (!y || !mo || !d || *mo < 1 || *mo > 12 || *d < 1 || *d > 31) return std::nullopt;
  std::tm tm{};
  tm.tm_year = *y - 1900;
  tm.tm_mon = *mo - 1;
  tm.tm_mday = *d;
  tm.tm_isdst = -1;
  if (text.size() > 10) {
    if ((text[10] != 'T' && text[10] != ' ') || text[13] != ':') return std::nullopt;
    const auto h = number(text, 11, 2), mi = number(text, 14, 2);
    if (!h || !mi || *h > 23 || *mi > 59) return std::nullopt;
    tm.tm_hour = *h;
    tm.tm_min = *mi;
    if (text.size() == 19) {
      const auto s = number(text, 17, 2);
      if (text[16] != ':' || !s || *s > 59) return std::nullopt;
      tm.tm_sec = *s;
    }
  }
  const int day = tm.tm_mday, month = tm.tm_mon;
  const std::time_t t = std::mktime(&tm);
  // mktime moves 2026-02-31 to March: such a date is not one.
  if (t == static_cast<std::time_t>(-1) || tm.tm_mday != day || tm.tm_mon != month) return std::nullopt;
  return static_cast<std::int64_t>(t) * 1000;
}

std::string when(std::int64_t ms) {
  const auto t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  localtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M", &tm);
  return buffer;
}

std::string bytes(std::uintmax_t n) {
  if (n < 10 * 1024) return fmt::format("{} bytes", n);
  if (n < 10 * 1024 * 1024) return fmt::format("{} KB", n / 1024);
  return fmt::format("{} MB", n / (1024 * 1024));
}

// The store file and its write-ahead log, as the file system counts them.
std::uintmax_t store_size(const std::string& path) {
  std::uintmax_t total = 0;
  for (const std::string& f : {path, path + "-wal"}) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(f, ec);
    if (!ec) total += n;
  }
  return total;
}

}  // namespace

Expected<std::int64_t, std::string> parse_time_limit(std::string_view text, std::int64_t now) {
  if (auto t = local_time(text)) return *t;
  if (text.size() >= 2) {
    std::int64_t n = 0;
    const char* last = text.data() + text.size() - 1;
    const auto [end, ec] = std::from_chars(text.data(), last, n);
    constexpr std::int64_t kHour = 3600 * 1000;
    const std::int64_t unit = *last == 'h' ? kHour : *last == 'd' ? 24 * kHour : *last == 'w' ? 7 * 24 * kHour : 0;
    if (ec == std::errc() && end == last && unit && n >= 0 && n < 100000) return now - n * unit;
  }
  return unexpected(fmt::format("{} is neither a date (2026-10-01, 2026-10-01T12:30, local time) nor an age "
                                "(30d, 12h, 2w)",
                                core::quoted_escaped(text)));
}

int run_purge(const PurgeOptions& o, std::ostream& out, std::ostream& err) {
  const auto fail = [&](const std::string& message) {
    fmt::print(err, "epdd purge: {}\n", safe_lines(message));
    return kExitBadInput;
  };
  if (o.before && o.older_than) return fail("--before and --older-than say the same thing: give one");
  const std::int64_t now = now_ms();
  store::PurgeRequest request;
  request.dry_run = o.dry_run;
  for (const auto& [text, limit] : {std::pair{&o.before, &request.ended_before_ms},
                                    std::pair{&o.older_than, &request.ended_before_ms},
                                    std::pair{&o.cache_unused_since, &request.cache_unused_since_ms}}) {
    if (!*text) continue;
    auto t = parse_time_limit(**text, now);
    if (!t) return fail(t.error());
    *limit = *t;
  }
  if (!request.ended_before_ms && !request.cache_unused_since_ms)
    return fail("say what to remove: --before DATE or --older-than AGE (jobs), --cache-unused-since DATE|AGE");
  auto store = open_chosen_store(o.where, StoreUse::Existing);
  if (!store) return fail(store.error());
  try {
    const std::uintmax_t size_before = store_size((*store)->path());
    const store::PurgeResult r = (*store)->purge(request);
    if (!r.jobs.empty()) fmt::print(out, "{:>5}  {:<8} {:<10} {:<16}  {}\n", "JOB", "KIND", "STATE", "ENDED", "INPUT");
    for (const store::JobRow& j : r.jobs)
      fmt::print(out, "{:>5}  {:<8} {:<10} {:<16}  {}\n", j.id, one_line(j.kind), to_string(j.state),
                 when(j.updated_ms), core::escaped(j.input));
    const std::string what =
        fmt::format("{} job{} ({} items, {} of inputs) and {} cache entr{}", r.jobs.size(), r.jobs.size() == 1 ? "" : "s",
                    r.items, bytes(static_cast<std::uintmax_t>(r.input_bytes)), r.cache_entries,
                    r.cache_entries == 1 ? "y" : "ies");
    const std::string path = core::escaped((*store)->path());
    if (o.dry_run) {
      fmt::print(out, "would remove {} from {} (--dry-run: nothing removed)\n", what, path);
      return kExitOk;
    }
    try {
      (*store)->vacuum();
    } catch (const store::StoreError& e) {
      // What was removed is committed; only the space is not given back yet.
      fmt::print(out, "removed {} from {}\n", what, path);
      fmt::print(err, "epdd purge: the file was not compacted: {}; run the command again to compact it\n",
                 safe_lines(e.what()));
      return kExitRecordsFailed;
    }
    fmt::print(out, "removed {}; {}: {} before, {} after\n", what, path, bytes(size_before),
               bytes(store_size((*store)->path())));
  } catch (const store::StoreError& e) {
    return fail(e.what());
  }
  return kExitOk;
}

}  // namespace epdd::cli
