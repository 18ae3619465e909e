// `epdd purge`: the store only grows (every job keeps its input's bytes and every result; the
// cache keeps every analysis). Purge removes the jobs that ended before a time, with their
// inputs and results, and the cache entries not used since a time, then gives the space back
// (VACUUM). Queued and running jobs, and anything a live process holds, are never removed.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "cli/jobs_command.hpp"

namespace epdd::cli {

// A time from the command line, in milliseconds since the Unix epoch: a date "2026-10-01"
// (midnight, local time), a date and time "2026-10-01T12:30" or "2026-10-01 12:30:15" (local
// time), or an age before `now_ms`: a whole number of days, hours or weeks ("30d", "12h", "2w").
// A message that quotes the text when it is none of these.
Expected<std::int64_t, std::string> parse_time_limit(std::string_view text, std::int64_t now_ms);

struct PurgeOptions {
  StoreChoice where;
  std::optional<std::string> before;              // jobs that ended before this date
  std::optional<std::string> older_than;          // ... or longer ago than this age
  std::optional<std::string> cache_unused_since;  // cache entries not used since this date or age
  bool dry_run = false;
};

// Lists the jobs that go, then what went and the file's size before and after. Exit status: 0
// done (or nothing to remove), 1 removed but the file could not be compacted (a lock held too
// long: run it again), 2 bad arguments or store.
int run_purge(const PurgeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace epdd::cli
