// The SQLite store's purge and vacuum, and its cache statistics.
#include "sqlite_store.hpp"

namespace epdd::store {

using sqlite::Connection;
using sqlite::now_ms;
using sqlite::Query;
using sqlite::Transaction;

PurgeResult SqliteStore::purge(const PurgeRequest& r) {
  constexpr std::string_view kWhat = "purging the store";
  Connection& c = connection_;
  Transaction transaction(c, kWhat);
  const std::int64_t now = now_ms();
  PurgeResult out;
  if (r.ended_before_ms) {
    static const std::string kSelect = fmt::format(
        "SELECT {}, (SELECT count(*) FROM items i WHERE i.job = j.id), coalesce((SELECT length(s.source) FROM job_sources s WHERE s.job = j.id), 0) "
        "+ coalesce((SELECT sum(length(f.bytes)) FROM job_files f WHERE f.job = j.id), 0) "
        "FROM jobs j "
        "WHERE j.state IN ('finished', 'failed', 'cancelled') AND j.updated_ms < ?1 "
        "AND NOT (j.lease_owner IS NOT NULL AND j.lease_expiry_ms >= ?2) "
        "AND NOT EXISTS (SELECT 1 FROM items i WHERE i.job = j.id AND i.lease_owner IS NOT NULL "
        "AND i.lease_expiry_ms >= ?2) ORDER BY j.id",
        kJobColumns);
    Query q = c.query(kSelect, kWhat);
    q.bind(*r.ended_before_ms, now);
    while (q.next()) {
      out.jobs.push_back(read_job(q, kWhat));
      out.items += q.integer(20);
      out.input_bytes += q.integer(21);
    }
  }
  if (!r.dry_run)
    for (const JobRow& job : out.jobs) {
      c.query("DELETE FROM items WHERE job = ?1", kWhat).bind(job.id).run();
      c.query("DELETE FROM job_sources WHERE job = ?1", kWhat).bind(job.id).run();
      c.query("DELETE FROM job_files WHERE job = ?1", kWhat).bind(job.id).run();
      c.query("DELETE FROM jobs WHERE id = ?1", kWhat).bind(job.id).run();
    }
  if (r.cache_unused_since_ms) {
    // Kept: the positions that an active job waits for or a worker holds (it may be about to
    // answer from the entry). The purged jobs are neither, so a dry run counts the same.
    static const std::string kUnused =
        "FROM cache WHERE used_ms < ?1 AND NOT EXISTS (SELECT 1 FROM items i JOIN jobs j ON j.id = i.job "
        "WHERE i.key = cache.key AND i.state = 'pending' AND (j.state IN ('queued', 'running') OR "
        "(i.lease_owner IS NOT NULL AND i.lease_expiry_ms >= ?2)))";
    Query q = c.query((r.dry_run ? "SELECT count(*) " : "DELETE ") + kUnused, kWhat);
    q.bind(*r.cache_unused_since_ms, now);
    if (r.dry_run) {
      if (q.next()) out.cache_entries = q.integer(0);
    } else {
      q.run();
      out.cache_entries = c.changes();
    }
  }
  if (!r.dry_run) transaction.commit();
  return out;
}

void SqliteStore::vacuum() {
  connection_.exec("VACUUM", "compacting the store (VACUUM)");
  connection_.exec("PRAGMA wal_checkpoint(TRUNCATE)", "truncating the write-ahead log");
}

CacheStats SqliteStore::cache_stats() {
  Query q = connection_.query(
      "SELECT count(*), coalesce(sum(searches), 0), coalesce(max(searches), 0), coalesce(sum(hits), 0) FROM cache",
      "reading the cache statistics");
  q.next();
  auto u = [&](int column) { return static_cast<std::uint64_t>(q.integer(column)); };
  return CacheStats{u(0), u(1), u(2), u(3)};
}

std::uint64_t SqliteStore::searches(const std::string& key) {
  Query q = connection_.query("SELECT searches FROM cache WHERE key = ?1", "reading a cache entry's searches");
  return q.bind(key).next() ? static_cast<std::uint64_t>(q.integer(0)) : 0;
}

}  // namespace epdd::store
