// The PostgreSQL store's leases (sqlite_leases.cpp in PostgreSQL's dialect). A claim runs under
// a transaction-level advisory lock, so that two owners claiming at once see each other's
// leases (READ COMMITTED would otherwise let both lease one position through different items),
// and reads its first item FOR UPDATE SKIP LOCKED.
#include <set>

#include "pg_store.hpp"

namespace epdd::store {

namespace {

// The advisory lock claims take (any number, the same in every epdd; not the schema's).
constexpr std::int64_t kClaimLock = 0x65706464636c;  // "epddcl"

}  // namespace

std::optional<PgStore::FirstItem> PgStore::first_claimable(Tx& t, const std::vector<std::string>& engines,
                                                           std::optional<std::int64_t> only_job, std::int64_t now) {
  std::string in;
  for (std::size_t i = 0; i < engines.size(); ++i) in += (i ? ", " : "") + t.quote(engines[i]);
  const pqxx::result r = t.run(
      fmt::format("SELECT i.key, i.job, i.grp FROM items i JOIN jobs j ON j.id = i.job "
                  "WHERE i.state = 'pending' AND j.state IN ('queued', 'running') AND j.planned = 1 AND j.engine IN ({}) "
                  "AND ($2 < 0 OR j.id = $2) "
                  "AND NOT EXISTS (SELECT 1 FROM items o WHERE o.key = i.key AND o.state = 'pending' "
                  "AND o.lease_owner IS NOT NULL AND o.lease_expiry_ms >= $1) "
                  "ORDER BY i.job, i.idx LIMIT 1 FOR UPDATE OF i SKIP LOCKED",
                  in),
      now, only_job.value_or(-1));
  if (r.empty()) return std::nullopt;
  FirstItem first{r[0][0].as<std::string>(), r[0][1].as<std::int64_t>(), std::nullopt};
  if (!r[0][2].is_null()) first.group = r[0][2].as<std::int64_t>();
  return first;
}

Claim PgStore::lease_position(Tx& t, const std::string& key, const std::string& owner, std::int64_t expiry) {
  // Only items nobody else holds a live lease on: a renewal that committed while this claim
  // waited for its row keeps its lease (SQLite's one writer never lets a claim see it otherwise).
  t.run(fmt::format("UPDATE items SET lease_owner = $2, lease_expiry_ms = $3 WHERE key = $1 AND state = 'pending' "
                    "AND job IN (SELECT id FROM jobs WHERE state IN ('queued', 'running')) "
                    "AND (lease_owner IS NULL OR lease_owner = $2 OR lease_expiry_ms < {})",
                    pg::kNowMs),
        key, owner, expiry);
  Claim claim;
  claim.key = key;
  for (const pqxx::row& row : t.run("SELECT job, idx FROM items WHERE key = $1 AND state = 'pending' AND "
                                    "lease_owner = $2 ORDER BY job, idx",
                                    key, owner))
    claim.items.emplace_back(row[0].as<std::int64_t>(), row[1].as<std::int64_t>());
  if (claim.items.empty()) return claim;
  const pqxx::result first =
      t.run("SELECT i.request, j.engine FROM items i JOIN jobs j ON j.id = i.job WHERE i.job = $1 AND i.idx = $2",
            claim.items.front().first, claim.items.front().second);
  if (!first.empty()) {
    claim.request = first[0][0].as<std::string>();
    claim.engine = first[0][1].as<std::string>();
  }
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
    const bool held = !t.run("SELECT 1 FROM items WHERE key = $1 AND state = 'pending' AND lease_owner IS NOT NULL "
                             "AND lease_expiry_ms >= $2",
                             key, now)
                           .empty();
    if (held) continue;
    rest.push_back(ClaimedPosition{key, row[1].as<std::string>(), lease_position(t, key, owner, expiry).items});
  }
  return rest;
}

std::optional<Claim> PgStore::claim(const std::string& owner, const std::vector<std::string>& engines,
                                    std::int64_t lease_ms, std::optional<std::int64_t> only_job) {
  if (engines.empty()) return std::nullopt;
  Tx t(connection_, fmt::format("claiming work for {}", owner));
  t.run("SELECT pg_advisory_xact_lock($1)", kClaimLock);
  const std::int64_t now = t.now_ms();
  const auto first = first_claimable(t, engines, only_job, now);
  if (!first) {
    t.commit();
    return std::nullopt;
  }
  Claim claim = lease_position(t, first->key, owner, now + lease_ms);
  if (first->group) {
    claim.group = first->group;
    claim.rest = lease_group(t, first->job, *first->group, first->key, owner, now, now + lease_ms);
  }
  std::set<std::int64_t> jobs;
  for (const auto& item : claim.items) jobs.insert(item.first);
  for (const ClaimedPosition& position : claim.rest)
    for (const auto& item : position.items) jobs.insert(item.first);
  for (const std::int64_t job : jobs)
    t.run("UPDATE jobs SET started_ms = coalesce(started_ms, $2), runner = $3 WHERE id = $1", job, now, owner);
  t.commit();
  return claim;
}

std::int64_t PgStore::renew_leases(const std::string& owner, std::int64_t lease_ms) {
  Tx t(connection_, fmt::format("renewing the leases of {}", owner));
  const std::int64_t expiry = t.now_ms() + lease_ms;
  const auto n = static_cast<std::int64_t>(
      t.run("UPDATE items SET lease_expiry_ms = $2 WHERE lease_owner = $1 AND state = 'pending'", owner, expiry)
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

void PgStore::mark_delivered(std::int64_t job, JobState state, const std::string& message) {
  update_job(job, fmt::format("recording the delivery of job {}", job),
             fmt::format("UPDATE jobs SET state = $2, message = $3, delivered = 1, lease_owner = NULL, "
                         "lease_expiry_ms = NULL, updated_ms = {} WHERE id = $1",
                         pg::kNowMs),
             std::string(to_string(state)), message);
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
