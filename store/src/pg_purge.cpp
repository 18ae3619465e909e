// The PostgreSQL store's purge and vacuum, and its cache statistics (sqlite_purge.cpp in
// PostgreSQL's dialect).
#include "pg_store.hpp"

namespace epdd::store {

PurgeResult PgStore::purge(const PurgeRequest& r) {
  Tx t(connection_, "purging the store");
  const std::int64_t now = t.now_ms();
  PurgeResult out;
  if (r.ended_before_ms) {
    static const std::string kSelect = fmt::format(
        "SELECT {}, (SELECT count(*) FROM items i WHERE i.job = j.id), "
        "coalesce((SELECT length(s.source) FROM job_sources s WHERE s.job = j.id), 0) + "
        "coalesce((SELECT sum(length(f.bytes)) FROM job_files f WHERE f.job = j.id), 0) FROM jobs j "
        "WHERE j.state IN ('finished', 'failed', 'cancelled') AND j.updated_ms < $1 "
        "AND NOT (j.lease_owner IS NOT NULL AND j.lease_expiry_ms >= $2) "
        "AND NOT EXISTS (SELECT 1 FROM items i WHERE i.job = j.id AND i.lease_owner IS NOT NULL "
        "AND i.lease_expiry_ms >= $2) ORDER BY j.id FOR UPDATE OF j",
        kJobColumns);
    // FOR UPDATE: the jobs chosen are locked, and one that a delivery or a rerun changed meanwhile
    // is checked again as it now is; a delivery claim (SKIP LOCKED) passes over a locked one.
    for (const pqxx::row& row : t.run(kSelect, *r.ended_before_ms, now)) {
      out.jobs.push_back(read_job(row, t.what()));
      out.items += row[20].as<std::int64_t>();
      out.input_bytes += row[21].as<std::int64_t>();
    }
  }
  if (!r.dry_run)
    for (const JobRow& job : out.jobs) {
      t.run("DELETE FROM items WHERE job = $1", job.id);
      t.run("DELETE FROM job_sources WHERE job = $1", job.id);
      t.run("DELETE FROM job_files WHERE job = $1", job.id);
      t.run("DELETE FROM jobs WHERE id = $1", job.id);
    }
  if (r.cache_unused_since_ms) {
    // Kept: the positions that an active job waits for or a worker holds.
    static const std::string kUnused =
        "FROM cache WHERE used_ms < $1 AND NOT EXISTS (SELECT 1 FROM items i JOIN jobs j ON j.id = i.job "
        "WHERE i.key = cache.key AND i.state = 'pending' AND (j.state IN ('queued', 'running') OR "
        "(i.lease_owner IS NOT NULL AND i.lease_expiry_ms >= $2)))";
    const pqxx::result q = t.run((r.dry_run ? "SELECT count(*) " : "DELETE ") + kUnused, *r.cache_unused_since_ms, now);
    out.cache_entries = r.dry_run ? q[0][0].as<std::int64_t>() : static_cast<std::int64_t>(q.affected_rows());
  }
  if (!r.dry_run) t.commit();
  return out;
}

// VACUUM cannot run inside a transaction block: a nontransaction of its own.
void PgStore::vacuum() {
  try {
    pqxx::nontransaction n(connection_.db());
    n.exec("VACUUM");
  } catch (const pqxx::failure& e) {
    connection_.fail("compacting the store (VACUUM)", e);
  }
}

CacheStats PgStore::cache_stats() {
  Tx t(connection_, "reading the cache statistics");
  const pqxx::result r = t.run(
      "SELECT count(*), coalesce(sum(searches), 0), coalesce(max(searches), 0), coalesce(sum(hits), 0) FROM cache");
  t.commit();
  auto u = [&](int column) { return r[0][column].as<std::uint64_t>(); };
  return CacheStats{u(0), u(1), u(2), u(3)};
}

std::uint64_t PgStore::searches(const std::string& key) {
  Tx t(connection_, "reading a cache entry's searches");
  const pqxx::result r = t.run("SELECT searches FROM cache WHERE key = $1", key);
  t.commit();
  return r.empty() ? 0 : r[0][0].as<std::uint64_t>();
}

}  // namespace epdd::store
