// The PostgreSQL store's leases (sqlite_leases.cpp in PostgreSQL's dialect).
//
// A claim takes no lock that all claims share (one would be the queue's bottleneck: a claim's
// round trips, each a wake-up on a busy machine, would run one at a time). How two owners
// claiming at once still never lease one position, though READ COMMITTED lets a statement see
// the leases as they were when it started:
// - the candidate item is read FOR UPDATE SKIP LOCKED, and with a transaction-level advisory
//   lock on its position (pg_try_advisory_xact_lock on the key's hash, skipped when another
//   claim holds it): two claims never work on one position at once, even through the items of
//   different jobs;
// - every row a claim leases must have no live lease, and PostgreSQL checks that again on the
//   row as it is when the claim gets it (an UPDATE, or a row locked FOR UPDATE, that finds the
//   row changed by a transaction committed since its snapshot re-evaluates its condition on the
//   new row): a claim that started before another's lease was committed leases nothing of that
//   position, and tries again.
// An idle worker's claim is one read-only statement (which jobs have work?): no lock, nothing
// written.
#include <atomic>
#include <functional>
#include <set>

#include "pg_store.hpp"

namespace epdd::store {

namespace {

// The class of the advisory locks a claim takes on positions (the first of the two int4 keys;
// the second is the key's hashtext). Two int4 keys are a lock space apart from one bigint's
// (the schema's lock): no position's lock is ever that one.
constexpr int kPositionLocks = 0x65706464;  // "epdd"

// How often a claim tries again when a position it chose was leased by another meanwhile.
constexpr int kClaimAttempts = 16;

// The statement that leases a job's first claimable position: $1 job, $2 owner, $3 lease_ms.
// The database's now, once; the positions under a live lease, read once (items_by_lease holds
// only leased items); the job's first pending item (items_by_state, in index order) with no live
// lease, whose position is not leased and not being claimed by another (its advisory lock), rows
// another claim or a commit holds skipped rather than waited for; that position's pending items
// of active jobs without a live lease leased; their jobs marked started and run by the owner
// (written only when that changes them: the jobs row is the one every commit updates).
// Rows: key, group, job, index, request, now, by job and index; one row with no job when the
// chosen position was leased by another meanwhile; none when the job has nothing to claim.
const std::string kLeaseFirst = fmt::format(
    "WITH n AS MATERIALIZED (SELECT {now} AS ms), "
    "leased AS MATERIALIZED (SELECT DISTINCT key FROM items WHERE lease_owner IS NOT NULL AND state = 'pending' "
    "AND lease_expiry_ms >= (SELECT ms FROM n)), "
    "f AS MATERIALIZED (SELECT i.key, i.grp FROM items i WHERE i.state = 'pending' AND i.job = $1 AND "
    "(i.lease_owner IS NULL OR i.lease_expiry_ms < (SELECT ms FROM n)) AND "
    "CASE WHEN i.key NOT IN (SELECT key FROM leased) THEN pg_try_advisory_xact_lock({lock}, hashtext(i.key)) "
    "ELSE false END "
    "ORDER BY i.state, i.job, i.idx LIMIT 1 FOR UPDATE OF i SKIP LOCKED), "
    "l AS (UPDATE items SET lease_owner = $2, lease_expiry_ms = (SELECT ms FROM n) + $3 WHERE key = (SELECT key FROM f) "
    "AND state = 'pending' AND (lease_owner IS NULL OR lease_expiry_ms < (SELECT ms FROM n)) "
    "AND job IN (SELECT id FROM jobs WHERE state IN ('queued', 'running')) RETURNING job, idx, request), "
    "s AS (UPDATE jobs SET started_ms = coalesce(started_ms, (SELECT ms FROM n)), runner = $2 "
    "WHERE id IN (SELECT job FROM l) AND (started_ms IS NULL OR runner IS DISTINCT FROM $2)) "
    "SELECT f.key, f.grp, l.job, l.idx, l.request, (SELECT ms FROM n) FROM f LEFT JOIN l ON true "
    "ORDER BY l.job, l.idx",
    fmt::arg("now", pg::kNowMs), fmt::arg("lock", kPositionLocks));

// Runs `sql` as the prepared statement `name` of the connection: planned once per connection,
// not at each claim (the lease's planning alone took 0.5 ms, a third of its time). libpqxx
// prepares it on the server at its first use, again after a reconnection; defining it again
// with the same text changes nothing. Behind a pooler that hands each transaction another server
// connection (pgbouncer in transaction mode before 1.21), a prepared statement is found twice
// (42P05) or missing (26000): the statement is then run unprepared, and so is every later one
// of this connection.
template <class... Args>
pqxx::result run_prepared(pg::Connection& connection, pqxx::transaction_base& t, const std::string& name,
                          const std::string& sql, const Args&... args) {
  if (connection.prepares()) {
    try {
      connection.db().prepare(name, sql);
      return t.exec_prepared(name, args...);
    } catch (const pqxx::sql_error& e) {
      if (e.sqlstate() != "42P05" && e.sqlstate() != "26000") throw;
      connection.stop_preparing();
      static std::atomic<bool> told{false};  // once per process, not per connection
      if (!told.exchange(true))
        notice(fmt::format("{}: prepared statements are not kept between transactions (a pooler in transaction "
                           "mode?): claims run unprepared",
                           connection.shown()));
    }
  }
  return t.exec_params(sql, args...);
}

// `values` as a PostgreSQL text[] literal, one parameter however many there are: each element
// in double quotes, its double quotes and backslashes escaped by a backslash ({"k1","a\"b"}).
std::string text_array(const std::vector<std::string>& values) {
  std::string out = "{";
  for (const std::string& v : values) {
    if (out.size() > 1) out += ',';
    out += '"';
    for (const char c : v) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace

std::vector<PgStore::ActiveJob> PgStore::claimable_jobs(const std::vector<std::string>& engines,
                                                       std::optional<std::int64_t> only_job, const std::string& what) {
  // One statement in a transaction of its own: read-only, no lock.
  try {
    pqxx::nontransaction n(connection_.db());
    std::string in;
    for (std::size_t i = 0; i < engines.size(); ++i) in += (i ? ", " : "") + n.quote(engines[i]);
    const std::string sql =
        fmt::format("SELECT id, engine, EXISTS (SELECT 1 FROM items WHERE job = jobs.id AND grp IS NOT NULL) "
                    "FROM jobs WHERE state IN ('queued', 'running') AND planned = 1 AND done + failed < total AND "
                    "engine IN ({}) AND ($1 < 0 OR id = $1) ORDER BY id",
                    in);
    // Named by its text (the engines are in it): a worker asks with the same engines each time.
    const std::string name = fmt::format("epdd_claimable_{:x}", std::hash<std::string>{}(sql));
    std::vector<ActiveJob> out;
    for (const pqxx::row& row : run_prepared(connection_, n, name, sql, only_job.value_or(-1)))
      out.push_back(ActiveJob{row[0].as<std::int64_t>(), row[1].as<std::string>(), row[2].as<bool>()});
    return out;
  } catch (const pqxx::failure& e) {
    connection_.fail(what, e);
  }
}

Claim PgStore::read_claim(const pqxx::result& r, const ActiveJob& job) {
  Claim claim;
  claim.key = r[0][0].as<std::string>();
  claim.engine = job.engine;
  claim.request = r[0][4].as<std::string>();
  if (!r[0][1].is_null()) claim.group = r[0][1].as<std::int64_t>();
  for (const pqxx::row& row : r) claim.items.emplace_back(row[2].as<std::int64_t>(), row[3].as<std::int64_t>());
  return claim;
}

std::optional<Claim> PgStore::lease_first(const ActiveJob& job, const std::string& owner, std::int64_t lease_ms,
                                          const std::string& what) {
  // One statement, one transaction of its own, one round trip.
  try {
    for (int attempt = 0; attempt < kClaimAttempts; ++attempt) {
      pqxx::nontransaction n(connection_.db());
      const pqxx::result r = run_prepared(connection_, n, "epdd_lease_first", kLeaseFirst, job.id, owner, lease_ms);
      if (r.empty()) return std::nullopt;
      if (!r[0][2].is_null()) return read_claim(r, job);
    }
    return std::nullopt;  // always beaten to it: the next poll tries again
  } catch (const pqxx::failure& e) {
    connection_.fail(what, e);
  }
}

std::optional<Claim> PgStore::lease_first_of_group(const ActiveJob& job, const std::string& owner,
                                                   std::int64_t lease_ms, const std::string& what) {
  // The first position and the rest of its group in one transaction: the positions' locks are
  // held to its commit.
  for (int attempt = 0; attempt < kClaimAttempts; ++attempt) {
    Tx t(connection_, what);
    const pqxx::result r = t.run(kLeaseFirst, job.id, owner, lease_ms);
    if (r.empty()) {
      t.commit();
      return std::nullopt;
    }
    if (r[0][2].is_null()) continue;  // rolled back: it leased nothing
    Claim claim = read_claim(r, job);
    const auto now = r[0][5].as<std::int64_t>();
    // The first claimable item's own group, in its own job.
    if (claim.group) claim.rest = lease_group(t, job.id, *claim.group, claim.key, owner, now, now + lease_ms);
    t.commit();
    return claim;
  }
  return std::nullopt;
}

Claim PgStore::lease_position(Tx& t, const std::string& key, const std::string& owner, std::int64_t now,
                              std::int64_t expiry) {
  // The position's lock, then (one statement) its pending items of active jobs without a live
  // lease leased, and their jobs marked started and run by `owner` (written only when that
  // changes them). Nothing leased if another claim holds the position's lock, or if anyone (this
  // owner's other searches too) holds a live lease on any of its items: checked in the statement
  // that leases, whose snapshot is taken after the lock, so that it sees every claim of the
  // position committed before (a check before the lock misses one committed between the two, and
  // leases the items that claim did not: those of a job planned meanwhile).
  Claim claim;
  claim.key = key;
  if (!t.run(fmt::format("SELECT pg_try_advisory_xact_lock({}, hashtext($1))", kPositionLocks), key)[0][0].as<bool>())
    return claim;
  const pqxx::result leased = t.run(
      "WITH l AS (UPDATE items SET lease_owner = $2, lease_expiry_ms = $3 WHERE key = $1 AND state = 'pending' "
      "AND (lease_owner IS NULL OR lease_expiry_ms < $4) "
      "AND job IN (SELECT id FROM jobs WHERE state IN ('queued', 'running')) "
      "AND NOT EXISTS (SELECT 1 FROM items o WHERE o.key = $1 AND o.state = 'pending' AND o.lease_owner IS NOT NULL "
      "AND o.lease_expiry_ms >= $4) RETURNING job, idx, request), "
      "s AS (UPDATE jobs SET started_ms = coalesce(started_ms, $4), runner = $2 WHERE id IN (SELECT job FROM l) "
      "AND (started_ms IS NULL OR runner IS DISTINCT FROM $2)) "
      "SELECT job, idx, request FROM l ORDER BY job, idx",
      key, owner, expiry, now);
  for (const pqxx::row& row : leased) claim.items.emplace_back(row[0].as<std::int64_t>(), row[1].as<std::int64_t>());
  if (!leased.empty()) claim.request = leased[0][2].as<std::string>();
  return claim;
}

std::vector<ClaimedPosition> PgStore::lease_group(Tx& t, std::int64_t job, std::int64_t group, std::string claimed,
                                                  const std::string& owner, std::int64_t now, std::int64_t expiry) {
  const pqxx::result pending =
      t.run("SELECT key, request FROM items WHERE job = $1 AND grp = $2 AND state = 'pending' ORDER BY idx", job, group);
  std::set<std::string> seen{std::move(claimed)};
  std::vector<ClaimedPosition> rest;
  for (const pqxx::row& row : pending) {
    auto key = row[0].as<std::string>();
    if (!seen.insert(key).second) continue;
    auto items = lease_position(t, key, owner, now, expiry).items;
    if (items.empty()) continue;  // held or being claimed by another
    rest.push_back(ClaimedPosition{key, row[1].as<std::string>(), std::move(items)});
  }
  return rest;
}

std::optional<Claim> PgStore::claim(const std::string& owner, const std::vector<std::string>& engines,
                                    std::int64_t lease_ms, std::optional<std::int64_t> only_job) {
  if (engines.empty()) return std::nullopt;
  const std::string what = fmt::format("claiming work for {}", owner);
  for (const ActiveJob& job : claimable_jobs(engines, only_job, what)) {
    auto claim = job.grouped ? lease_first_of_group(job, owner, lease_ms, what) : lease_first(job, owner, lease_ms, what);
    if (claim) return claim;
  }
  return std::nullopt;
}

std::int64_t PgStore::renew_leases(const std::string& owner, std::int64_t lease_ms, const std::vector<std::string>& keys) {
  Tx t(connection_, fmt::format("renewing the leases of {}", owner));
  const std::int64_t expiry = t.now_ms() + lease_ms;
  const auto n = static_cast<std::int64_t>(
      t.run("UPDATE items SET lease_expiry_ms = $2 WHERE lease_owner = $1 AND key = ANY($3::text[]) AND state = 'pending'",
            owner, expiry, text_array(keys))
          .affected_rows());
  t.run("UPDATE jobs SET lease_expiry_ms = $2 WHERE lease_owner = $1", owner, expiry);
  t.commit();
  return n;
}

std::int64_t PgStore::release_leases(const std::string& owner, const std::string* key) {
  Tx t(connection_, fmt::format("releasing the leases of {}", owner));
  const pqxx::result r =
      key ? t.run("UPDATE items SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = $1 AND key = $2",
                  owner, *key)
          : t.run("UPDATE items SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = $1", owner);
  if (!key) t.run("UPDATE jobs SET lease_owner = NULL, lease_expiry_ms = NULL WHERE lease_owner = $1", owner);
  t.commit();
  return static_cast<std::int64_t>(r.affected_rows());
}

std::vector<std::string> PgStore::lease_owners() {
  Tx t(connection_, "reading the lease owners");
  std::vector<std::string> out;
  for (const pqxx::row& row : t.run("SELECT o FROM (SELECT lease_owner AS o FROM items WHERE lease_owner IS NOT NULL UNION "
                                    "SELECT lease_owner FROM jobs WHERE lease_owner IS NOT NULL) u ORDER BY o COLLATE \"C\""))
    out.push_back(row[0].as<std::string>());
  t.commit();
  return out;
}

std::optional<JobRow> PgStore::claim_delivery(const std::string& owner, std::int64_t lease_ms, const std::string& host) {
  Tx t(connection_, fmt::format("claiming a job to deliver for {}", owner));
  const std::int64_t now = t.now_ms();
  static const std::string kSelect = fmt::format(
      "SELECT {} FROM jobs WHERE delivered = 0 AND (lease_owner IS NULL OR lease_expiry_ms < $1) AND "
      "((state IN ('queued', 'running') AND planned = 1 AND done + failed >= total) OR state IN ('cancelled', "
      "'failed')) AND delivery_host IN ('', $2) ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
      kJobColumns);
  const pqxx::result r = t.run(kSelect, now, host);
  if (r.empty()) {
    t.commit();
    return std::nullopt;
  }
  JobRow job = read_job(r[0], t.what());
  t.run("UPDATE jobs SET lease_owner = $2, lease_expiry_ms = $3 WHERE id = $1", job.id, owner, now + lease_ms);
  t.commit();
  return job;
}

void PgStore::mark_delivered(std::int64_t job, JobState state, const std::string& message, const std::string& input) {
  update_job(job, fmt::format("recording the delivery of job {}", job),
             fmt::format("UPDATE jobs SET state = $2, message = $3, delivered = 1, lease_owner = NULL, "
                         "lease_expiry_ms = NULL, updated_ms = {}, input = coalesce(nullif($4, ''), input) WHERE id = $1",
                         pg::kNowMs),
             std::string(to_string(state)), message, input);
}

void PgStore::release_delivery(std::int64_t job, const std::string& owner) {
  Tx t(connection_, fmt::format("giving back job {}", job));
  t.run("UPDATE jobs SET lease_owner = NULL, lease_expiry_ms = NULL WHERE id = $1 AND lease_owner = $2", job, owner);
  t.commit();
}

std::vector<Lease> PgStore::job_leases(std::int64_t job) {
  Tx t(connection_, "reading the leases of a job");
  std::vector<Lease> out;
  for (const pqxx::row& row : t.run("SELECT lease_owner, max(lease_expiry_ms) FROM items WHERE job = $1 AND "
                                    "state = 'pending' AND lease_owner IS NOT NULL GROUP BY lease_owner "
                                    "ORDER BY lease_owner COLLATE \"C\"",
                                    job))
    out.push_back(Lease{row[0].as<std::string>(), row[1].as<std::int64_t>()});
  t.commit();
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> PgStore::abandoned_leases(const std::string& owner) {
  Tx t(connection_, "looking for searches nobody waits for");
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (const pqxx::row& row :
       t.run("SELECT i.key, i.job FROM items i WHERE i.lease_owner = $1 AND i.state = 'pending' AND NOT EXISTS "
             "(SELECT 1 FROM items o JOIN jobs j ON j.id = o.job WHERE o.key = i.key AND o.lease_owner = $1 AND "
             "o.state = 'pending' AND j.state IN ('queued', 'running')) GROUP BY i.key, i.job "
             "ORDER BY i.key COLLATE \"C\", i.job",
             owner))
    out.emplace_back(row[0].as<std::string>(), row[1].as<std::int64_t>());
  t.commit();
  return out;
}

}  // namespace epdd::store
