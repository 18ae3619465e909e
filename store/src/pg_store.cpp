// The PostgreSQL store's jobs, items and analysis cache: the SQLite backend's statements
// (sqlite_store.cpp) in PostgreSQL's dialect, each operation one transaction.
#include "pg_store.hpp"

#include <limits>
#include <map>

namespace epdd::store {

using pg::Transaction;

JobRow PgStore::read_job(const pqxx::row& r, std::string_view what) const {
  JobRow job;
  job.id = r[0].as<std::int64_t>();
  job.kind = r[1].as<std::string>();
  job.input = r[2].as<std::string>();
  job.identity = r[3].as<std::string>();
  job.settings = r[4].as<std::string>();
  const std::string state = r[5].as<std::string>();
  const auto parsed = parse_job_state(state);
  if (!parsed) connection_.fail(what, fmt::format("job {} has an unknown state '{}'", job.id, state));
  job.state = *parsed;
  job.message = r[6].as<std::string>();
  job.total = r[7].as<std::int64_t>();
  job.done = r[8].as<std::int64_t>();
  job.failed = r[9].as<std::int64_t>();
  job.searches = r[10].as<std::int64_t>();
  job.cache_hits = r[11].as<std::int64_t>();
  job.created_ms = r[12].as<std::int64_t>();
  job.updated_ms = r[13].as<std::int64_t>();
  job.engine = r[14].as<std::string>();
  job.spec = r[15].as<std::string>();
  job.planned = r[16].as<std::int64_t>() != 0;
  job.delivered = r[17].as<std::int64_t>() != 0;
  if (!r[18].is_null()) job.started_ms = r[18].as<std::int64_t>();
  job.runner = r[19].is_null() ? std::string() : r[19].as<std::string>();
  return job;
}

std::vector<JobRow> PgStore::read_jobs(const std::string& sql, std::string_view what) {
  Tx t(connection_, std::string(what));
  std::vector<JobRow> jobs;
  for (const pqxx::row& r : t.run(sql)) jobs.push_back(read_job(r, what));
  t.commit();
  return jobs;
}

// The item's state, after checking that it exists and (if `key` is given) has that key. The row
// is locked (FOR UPDATE) until the caller's transaction ends: two processes committing one item
// at once (its lease expired under the first) then count it once, as SQLite's one writer does;
// under READ COMMITTED both would otherwise read it pending and count it twice.
ItemState PgStore::item_state(Tx& t, std::int64_t job, std::int64_t index, const std::string* key) {
  const pqxx::result r = t.run("SELECT state, key FROM items WHERE job = $1 AND idx = $2 FOR UPDATE", job, index);
  if (r.empty()) t.fail(fmt::format("job {} has no item {}", job, index));
  const auto state = r[0][0].as<std::string>();
  const auto stored_key = r[0][1].as<std::string>();
  if (key && stored_key != *key)
    t.fail(fmt::format("item {} of job {} has key '{}', not '{}'", index, job, stored_key, *key));
  const auto parsed = parse_item_state(state);
  if (!parsed) t.fail(fmt::format("item {} of job {} has an unknown state '{}'", index, job, state));
  return *parsed;
}

void PgStore::count_transition(Tx& t, std::int64_t job, ItemState before, ItemState after, std::int64_t searches,
                               std::int64_t hits) {
  auto delta = [&](ItemState s) -> std::int64_t { return (after == s ? 1 : 0) - (before == s ? 1 : 0); };
  t.run(fmt::format("UPDATE jobs SET done = done + $2, failed = failed + $3, searches = searches + $4, "
                    "cache_hits = cache_hits + $5, updated_ms = {} WHERE id = $1",
                    pg::kNowMs),
        job, delta(ItemState::Done), delta(ItemState::Failed), searches, hits);
}

JobRow PgStore::find_or_create_job(const NewJob& n) {
  Tx t(connection_, "finding or creating a job");
  const std::int64_t now = t.now_ms();
  t.run("INSERT INTO jobs (kind, input, identity, settings, state, created_ms, updated_ms, spec, delivery_host) "
        "VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8) ON CONFLICT (identity) DO UPDATE SET spec = excluded.spec "
        "WHERE jobs.spec = ''",
        n.kind, n.input, n.identity, n.settings, std::string(to_string(JobState::Queued)), now, n.spec,
        n.delivery_host);
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs WHERE identity = $1", kJobColumns);
  const pqxx::result r = t.run(kSelect, n.identity);
  if (r.empty()) t.fail("the job vanished after its insertion");
  JobRow job = read_job(r[0], t.what());
  if (!n.read_source) {
    t.run("INSERT INTO job_sources (job, source) VALUES ($1, $2) ON CONFLICT (job) DO NOTHING", job.id,
          pqxx::binarystring(n.source.data(), n.source.size()));
  } else if (t.run("INSERT INTO job_sources (job, source) VALUES ($1, ''::bytea) ON CONFLICT (job) DO NOTHING", job.id)
                 .affected_rows() > 0) {
    write_source(t, job.id, n);
  }
  for (const auto& [name, bytes] : n.files)
    t.run("INSERT INTO job_files (job, name, bytes) VALUES ($1, $2, $3) "
          "ON CONFLICT (job, name) DO UPDATE SET bytes = excluded.bytes",
          job.id, name, pqxx::binarystring(bytes.data(), bytes.size()));
  t.commit();
  return job;
}

// The new job's source from its reader, a chunk at a time in the caller's transaction: written
// into a large object of the server's (each chunk where it goes), then copied into the column
// once. (Appending to the column, `source || chunk`, rewrote it whole each time: 40 s for 128 MB.)
void PgStore::write_source(Tx& t, std::int64_t job, const NewJob& n) {
  std::string chunk(std::size_t{1} << 20, '\0');
  std::size_t at = 0;
  const auto object = t.run("SELECT lo_from_bytea(0, ''::bytea)")[0][0].as<std::int64_t>();
  for (;;) {
    const std::size_t got = n.read_source(chunk.data(), chunk.size());
    if (got == 0) break;
    if (got > n.source_size - at) break;  // more than announced
    t.run("SELECT lo_put($1::oid, $2, $3)", object, static_cast<std::int64_t>(at), pqxx::binarystring(chunk.data(), got));
    at += got;
  }
  if (at != n.source_size || n.read_source(chunk.data(), 1) != 0)
    t.fail(fmt::format("the input changed while it was read (it had {} bytes)", n.source_size));
  t.run("UPDATE job_sources SET source = lo_get($2::oid) WHERE job = $1", job, object);
  t.run("SELECT lo_unlink($1::oid)", object);
}

pg::Connection& PgStore::reader() {
  if (!connection_.busy()) return connection_;
  if (!reader_) reader_ = std::make_unique<pg::Connection>(connection_.location());
  return *reader_;
}

void PgStore::read_job_source(std::int64_t job, const SourcePart& part) {
  Tx t(reader(), fmt::format("reading the input of job {}", job));
  // The value is stored compressed: substring() of a part would decompress it from its start for
  // every part, a whole read taking time in the square of its size. Copied once into a large
  // object of this transaction (gone with it: unlinked at the end, or rolled back), each part is
  // read from its own pages.
  const pqxx::result r = t.run(
      "SELECT lo_from_bytea(0, s.source), length(s.source) FROM jobs j LEFT JOIN job_sources s ON s.job = j.id "
      "WHERE j.id = $1",
      job);
  if (r.empty()) t.fail("there is no such job");
  if (r[0][0].is_null()) {  // a job without source reads as empty
    t.commit();
    return;
  }
  const auto object = r[0][0].as<std::int64_t>();
  const auto size = r[0][1].as<std::size_t>();
  for (std::size_t at = 0; at < size; at += kSourcePart) {
    const std::size_t length = std::min(kSourcePart, size - at);
    const pqxx::result p = t.run("SELECT lo_get($1::oid, $2, $3)", object, static_cast<std::int64_t>(at),
                                 static_cast<std::int32_t>(length));
    part(at, pqxx::binarystring(p[0][0]).str());
  }
  t.run("SELECT lo_unlink($1::oid)", object);
  t.commit();
}

std::optional<std::string> PgStore::job_file(std::int64_t job, const std::string& name) {
  Tx t(connection_, fmt::format("reading the input file {} of job {}", name, job));
  const pqxx::result r = t.run(
      "SELECT f.bytes FROM jobs j LEFT JOIN job_files f ON f.job = j.id AND f.name = $2 WHERE j.id = $1", job, name);
  if (r.empty()) t.fail("there is no such job");
  t.commit();
  if (r[0][0].is_null()) return std::nullopt;
  return pqxx::binarystring(r[0][0]).str();
}

std::string PgStore::job_source(std::int64_t job) {
  Tx t(reader(), fmt::format("reading the input of job {}", job));
  const pqxx::result r = t.run(
      "SELECT coalesce(s.source, ''::bytea) FROM jobs j LEFT JOIN job_sources s ON s.job = j.id WHERE j.id = $1", job);
  if (r.empty()) t.fail("there is no such job");
  t.commit();
  return pqxx::binarystring(r[0][0]).str();
}

std::vector<std::int64_t> PgStore::add_items(std::int64_t job, const ItemSource& items, const std::string& engine) {
  Tx t(connection_, fmt::format("adding items to job {}", job));
  const std::int64_t now = t.now_ms();
  std::vector<std::int64_t> answered;
  std::map<std::string, std::int64_t> hits;
  NewItem item;
  while (items(item)) {
    // epdd_json_valid: an entry that is not JSON (a damaged store) is searched again, not copied.
    std::optional<std::string> analysis;
    if (const pqxx::result hit = t.run("SELECT analysis FROM cache WHERE key = $1 AND epdd_json_valid(analysis)", item.key);
        !hit.empty())
      analysis = hit[0][0].as<std::string>();
    const pqxx::result added =
        t.run("INSERT INTO items (job, idx, key, state, request, grp, result) VALUES ($1, $2, $3, $4, $5, $6, $7) "
              "ON CONFLICT (job, idx) DO NOTHING",
              job, item.index, item.key, std::string(to_string(analysis ? ItemState::Done : ItemState::Pending)),
              item.request, item.group, analysis);
    if (!analysis || added.affected_rows() == 0) continue;
    ++hits[item.key];
    answered.push_back(item.index);
  }
  // The cache entries' hits at the end, by key: their rows are locked in one order, as short a
  // time as can be (a commit_outcomes locking two of them the other way round would deadlock).
  for (const auto& [key, n] : hits)
    t.run("UPDATE cache SET hits = hits + $3, used_ms = $2 WHERE key = $1", key, now, n);
  const auto n = static_cast<std::int64_t>(answered.size());
  const pqxx::result r =
      t.run("UPDATE jobs SET total = (SELECT count(*) FROM items WHERE job = $1), updated_ms = $2, planned = 1, "
            "engine = $3, state = CASE WHEN state = $4 THEN $5 ELSE state END, done = done + $6, "
            "cache_hits = cache_hits + $6, started_ms = CASE WHEN $6 > 0 THEN coalesce(started_ms, $2) "
            "ELSE started_ms END WHERE id = $1",
            job, now, engine, std::string(to_string(JobState::Queued)), std::string(to_string(JobState::Running)), n);
  if (r.affected_rows() == 0) t.fail(fmt::format("there is no job {}", job));
  t.commit();
  return answered;
}

std::vector<ItemRow> PgStore::items(std::int64_t job) {
  return items(job, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
}

std::vector<ItemRow> PgStore::items(std::int64_t job, std::int64_t first, std::int64_t last) {
  Tx t(connection_, fmt::format("reading the items of job {}", job));
  const pqxx::result r = t.run(
      "SELECT idx, key, state, result, error, attempts, grp FROM items WHERE job = $1 AND idx >= $2 AND idx < $3 "
      "ORDER BY idx",
      job, first, last);
  std::vector<ItemRow> items;
  for (const pqxx::row& row : r) {
    ItemRow item{job,
                 row[0].as<std::int64_t>(),
                 row[1].as<std::string>(),
                 ItemState::Pending,
                 row[3].is_null() ? std::string() : row[3].as<std::string>(),
                 row[4].is_null() ? std::string() : row[4].as<std::string>(),
                 row[5].as<std::int64_t>()};
    if (!row[6].is_null()) item.group = row[6].as<std::int64_t>();
    const auto state = row[2].as<std::string>();
    const auto parsed = parse_item_state(state);
    if (!parsed) t.fail(fmt::format("item {} has an unknown state '{}'", item.index, state));
    item.state = *parsed;
    items.push_back(std::move(item));
  }
  t.commit();
  return items;
}

std::vector<GroupCount> PgStore::group_counts(std::int64_t job) {
  Tx t(connection_, fmt::format("counting the groups of job {}", job));
  const pqxx::result r = t.run(
      "SELECT grp, count(*), count(*) FILTER (WHERE state = 'pending') FROM items WHERE job = $1 AND grp IS NOT NULL "
      "GROUP BY grp ORDER BY grp",
      job);
  std::vector<GroupCount> out;
  for (const pqxx::row& row : r)
    out.push_back(GroupCount{row[0].as<std::int64_t>(), row[1].as<std::int64_t>(), row[2].as<std::int64_t>()});
  t.commit();
  return out;
}

std::optional<std::string> PgStore::cached(const std::string& key) {
  Tx t(connection_, "looking up the cache");
  const pqxx::result r = t.run("SELECT analysis FROM cache WHERE key = $1", key);
  t.commit();
  if (r.empty()) return std::nullopt;
  return r[0][0].as<std::string>();
}

}  // namespace epdd::store
