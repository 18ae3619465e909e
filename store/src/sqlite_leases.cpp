// The SQLite store's leases: claims of positions and of deliveries, their renewal and release.
#include <set>

#include "sqlite_store.hpp"

namespace epdd::store {

using sqlite::Connection;
using sqlite::now_ms;
using sqlite::Query;
using sqlite::Transaction;

// The first pending item (by job, then index) of an active planned job on one of `engines`,
// from `only_job` if given, whose position nobody holds a live lease on.
// The active jobs are the outer loop (CROSS JOIN fixes SQLite's join order): driven by
// items_by_state, the planner walked every pending item of every job, a cancelled job's too,
// with the lease subquery for each: 0.4 s a claim behind a cancelled 12,000-position job, with the
// write lock held, so that the daemon's own loop waited on it and a SIGTERM was not seen for as
// long as the next job ran. Jobs by id, then items_by_state (state, job, idx), gives the ORDER BY
// without a sort, and LIMIT 1 stops at the first claimable item.
std::optional<SqliteStore::FirstItem> SqliteStore::first_claimable(const std::vector<std::string>& engines,
                                                                   std::optional<std::int64_t> only_job,
                                                                   std::int64_t now, std::string_view what) {
  std::string in;
  for (std::size_t i = 0; i < engines.size(); ++i) in += fmt::format("{}?{}", i ? ", " : "", i + 3);
  const std::string pick = fmt::format(
      "SELECT i.key, i.job, i.grp FROM jobs j CROSS JOIN items i ON i.job = j.id AND i.state = 'pending' "
      "WHERE j.state IN ('queued', 'running') AND j.planned = 1 AND j.engine IN ({}) "
      "AND (?2 < 0 OR j.id = ?2) "
      "AND NOT EXISTS (SELECT 1 FROM items o WHERE o.key = i.key AND o.state = 'pending' AND o.lease_owner IS NOT NULL "
      "AND o.lease_expiry_ms >= ?1) "
      "ORDER BY j.id, i.idx LIMIT 1",
      in);
  Query q = connection_.query(pick, what);
  q.bind(now, only_job.value_or(-1));
  for (std::size_t i = 0; i < engines.size(); ++i) q.bind_at(static_cast<int>(i + 3), engines[i]);
  if (!q.next()) return std::nullopt;
  FirstItem first{q.text(0), q.integer(1), std::nullopt};
  if (!q.null(2)) first.group = q.integer(2);
  return first;
}

bool SqliteStore::any_claimable_job(const std::vector<std::string>& engines, std::optional<std::int64_t> only_job,
                                    std::string_view what) {
  std::string in;
  for (std::size_t i = 0; i < engines.size(); ++i) in += fmt::format("{}?{}", i ? ", " : "", i + 2);
  Query q = connection_.query(fmt::format("SELECT 1 FROM jobs WHERE state IN ('queued', 'running') AND planned = 1 "
                                          "AND done + failed < total AND engine IN ({}) AND (?1 < 0 OR id = ?1) LIMIT 1",
                                          in),
                              what);
  q.bind(only_job.value_or(-1));
  for (std::size_t i = 0; i < engines.size(); ++i) q.bind_at(static_cast<int>(i + 2), engines[i]);
  return q.next();
}

// Leases every pending item of an active job with position `key`, wherever it is (one search
// answers them all), and returns them by job and index with the first one's request and engine.
Claim SqliteStore::lease_position(const std::string& key, const std::string& owner, std::int64_t expiry,
                                  std::string_view what) {
  Connection& c = connection_;
  c.query("UPDATE items SET lease_owner = ?2, lease_expiry_ms = ?3 WHERE key = ?1 AND state = 'pending' "
          "AND job IN (SELECT id FROM jobs WHERE state IN ('queued', 'running'))",
          what)
      .bind(key, owner, expiry)
      .run();
  Claim claim;
  claim.key = key;
  // The unary + keeps SQLite's planner off items_by_state (which gives the order for free but
  // makes it read every pending item of the store, requests included, for each position). Only
  // (job, index) are sorted: a position in every game of a large file (the start position) has
  // thousands of items, and sorting their requests too held them all in memory at once.
  Query q = c.query(
      "SELECT i.job, i.idx FROM items i WHERE i.key = ?1 AND +i.state = 'pending' AND +i.lease_owner = ?2 "
      "ORDER BY i.job, i.idx",
      what);
  q.bind(key, owner);
  while (q.next()) claim.items.emplace_back(q.integer(0), q.integer(1));
  if (claim.items.empty()) return claim;
  Query first = c.query(
      "SELECT i.request, j.engine FROM items i JOIN jobs j ON j.id = i.job WHERE i.job = ?1 AND i.idx = ?2", what);
  if (first.bind(claim.items.front().first, claim.items.front().second).next()) {
    claim.request = first.text(0);
    claim.engine = first.text(1);
  }
  return claim;
}

// Someone holds a live lease on the position (reset before the caller writes).
bool SqliteStore::position_held(const std::string& key, std::int64_t now, std::string_view what) {
  Query q = connection_.query(
      "SELECT 1 FROM items WHERE key = ?1 AND state = 'pending' AND lease_owner IS NOT NULL AND lease_expiry_ms >= ?2",
      what);
  return q.bind(key, now).next();
}

// The rest of a claimed group: each other position of its pending items, by first index, that
// nobody holds a live lease on, leased like the first (`claimed`: the keys leased already).
std::vector<ClaimedPosition> SqliteStore::lease_group(std::int64_t job, std::int64_t group, std::string claimed,
                                                      const std::string& owner, std::int64_t now, std::int64_t expiry,
                                                      std::string_view what) {
  std::vector<std::pair<std::string, std::string>> pending;  // (key, request) by index
  {
    Query q = connection_.query(
        "SELECT key, request FROM items WHERE job = ?1 AND grp = ?2 AND +state = 'pending' ORDER BY idx", what);
    q.bind(job, group);
    while (q.next()) pending.emplace_back(q.text(0), q.text(1));
  }
  std::set<std::string> seen{std::move(claimed)};
  std::vector<ClaimedPosition> rest;
  for (auto& [key, request] : pending) {
    if (!seen.insert(key).second) continue;
    if (position_held(key, now, what)) continue;
    rest.push_back(ClaimedPosition{key, std::move(request), lease_position(key, owner, expiry, what).items});
  }
  return rest;
}

std::optional<Claim> SqliteStore::claim(const std::string& owner, const std::vector<std::string>& engines,
                                        std::int64_t lease_ms, std::optional<std::int64_t> only_job) {
  if (engines.empty()) return std::nullopt;
  const std::string what = fmt::format("claiming work for {}", owner);
  Connection& c = connection_;
  // An idle worker's claim is this read-only question: no write lock taken.
  if (!any_claimable_job(engines, only_job, what)) return std::nullopt;
  Transaction transaction(c, what);
  const std::int64_t now = now_ms();
  const auto first = first_claimable(engines, only_job, now, what);
  if (!first) return std::nullopt;
  Claim claim = lease_position(first->key, owner, now + lease_ms, what);
  if (first->group) {
    claim.group = first->group;
    claim.rest = lease_group(first->job, *first->group, first->key, owner, now, now + lease_ms, what);
  }
  // The jobs' first claim starts their clock (status rates); the last claimer is who runs them.
  std::set<std::int64_t> jobs;
  for (const auto& item : claim.items) jobs.insert(item.first);
  for (const ClaimedPosition& position : claim.rest)
    for (const auto& item : position.items) jobs.insert(item.first);
  for (const std::int64_t job : jobs)
    c.query("UPDATE jobs SET started_ms = coalesce(started_ms, ?2), runner = ?3 WHERE id = ?1 AND "
            "(started_ms IS NULL OR runner IS NOT ?3)",
            what)
        .bind(job, now, owner)
        .run();
  transaction.commit();
  return claim;
}

std::int64_t SqliteStore::renew_leases(const std::string& owner, std::int64_t lease_ms,
                                       const std::vector<std::string>& keys) {
  const std::string what = fmt::format("renewing the leases of {}", owner);
  Connection& c = connection_;
  Transaction transaction(c, what);
  const std::int64_t expiry = now_ms() + lease_ms;
  std::int64_t n = 0;
  for (const std::string& key : keys) {  // (a statement a position: SQLite has no round trip to save)
    c.query("UPDATE items SET lease_expiry_ms = ?2 WHERE lease_owner = ?1 AND key = ?3 AND state = 'pending'", what)
        .bind(owner, expiry, key)
        .run();
    n += c.changes();
  }
  c.query("UPDATE jobs SET lease_expiry_ms = ?2 WHERE lease_owner = ?1", what).bind(owner, expiry).run();
  transaction.commit();
  return n;
}

std::int64_t SqliteStore::release_leases(const std::string& owner, const std::string* key) {
  const std::string what = fmt::format("releasing the leases of {}", owner);
  Connection& c = connection_;
  Transaction transaction(c, what);
  if (key) {
    c.query("UPDATE items SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = ?1 AND key = ?2", what)
        .bind(owner, *key)
        .run();
  } else {
    c.query("UPDATE items SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = ?1", what)
        .bind(owner)
        .run();
  }
  const std::int64_t n = c.changes();
  if (!key)
    c.query("UPDATE jobs SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = ?1", what).bind(owner).run();
  transaction.commit();
  return n;
}

std::vector<std::string> SqliteStore::lease_owners() {
  Query q = connection_.query(
      "SELECT lease_owner FROM items WHERE lease_owner IS NOT NULL UNION "
      "SELECT lease_owner FROM jobs WHERE lease_owner IS NOT NULL",
      "reading the lease owners");
  std::vector<std::string> out;
  while (q.next()) out.push_back(q.text(0));
  return out;
}

std::optional<JobRow> SqliteStore::claim_delivery(const std::string& owner, std::int64_t lease_ms,
                                                  const std::string& host) {
  const std::string what = fmt::format("claiming a job to deliver for {}", owner);
  Connection& c = connection_;
  Transaction transaction(c, what);
  const std::int64_t now = now_ms();
  static const std::string kSelect = fmt::format(
      "SELECT {} FROM jobs WHERE delivered = 0 AND (lease_owner IS NULL OR lease_expiry_ms < ?1) AND "
      "((state IN ('queued', 'running') AND planned = 1 AND done + failed >= total) OR state IN ('cancelled', "
      "'failed')) AND delivery_host IN ('', ?2) ORDER BY id LIMIT 1",
      kJobColumns);
  std::optional<JobRow> job;
  {
    Query q = c.query(kSelect, what);
    if (!q.bind(now, host).next()) return std::nullopt;
    job = read_job(q, what);
  }
  c.query("UPDATE jobs SET lease_owner = ?2, lease_expiry_ms = ?3 WHERE id = ?1", what)
      .bind(job->id, owner, now + lease_ms)
      .run();
  transaction.commit();
  return job;
}

void SqliteStore::mark_delivered(std::int64_t job, JobState state, const std::string& message, const std::string& input) {
  update_job(job, fmt::format("recording the delivery of job {}", job),
             "UPDATE jobs SET state = ?2, message = ?3, delivered = 1, lease_owner = NULL, "
             "lease_expiry_ms = NULL, updated_ms = ?4, input = coalesce(nullif(?5, ''), input) WHERE id = ?1",
             to_string(state), message, now_ms(), input);
}
void SqliteStore::release_delivery(std::int64_t job, const std::string& owner) {
  connection_
      .query("UPDATE jobs SET lease_owner = NULL, lease_expiry_ms = NULL WHERE id = ?1 AND lease_owner = ?2",
             fmt::format("giving back job {}", job))
      .bind(job, owner)
      .run();
}

std::vector<Lease> SqliteStore::job_leases(std::int64_t job) {
  Query q = connection_.query(
      "SELECT lease_owner, max(lease_expiry_ms) FROM items WHERE job = ?1 AND state = 'pending' AND lease_owner IS NOT "
      "NULL GROUP BY lease_owner ORDER BY lease_owner",
      "reading the leases of a job");
  q.bind(job);
  std::vector<Lease> out;
  while (q.next()) out.push_back(Lease{q.text(0), q.integer(1)});
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> SqliteStore::abandoned_leases(const std::string& owner) {
  Query q = connection_.query(
      "SELECT DISTINCT i.key, i.job FROM items i WHERE i.lease_owner = ?1 AND i.state = 'pending' AND NOT EXISTS "
      "(SELECT 1 FROM items o JOIN jobs j ON j.id = o.job WHERE o.key = i.key AND o.lease_owner = ?1 AND "
      "o.state = 'pending' AND j.state IN ('queued', 'running')) ORDER BY i.key, i.job",
      "looking for searches nobody waits for");
  q.bind(owner);
  std::vector<std::pair<std::string, std::int64_t>> out;
  while (q.next()) out.emplace_back(q.text(0), q.integer(1));
  return out;
}

}  // namespace epdd::store
