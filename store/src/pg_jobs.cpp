// The PostgreSQL store's commits of results and the jobs' states (sqlite_store.cpp's second
// half, in PostgreSQL's dialect).
#include "commit_messages.hpp"
#include "pg_store.hpp"

namespace epdd::store {

void PgStore::record_analysis(Tx& t, std::int64_t job, std::int64_t index, const std::string& key,
                              const std::string& engine, const std::string& analysis_json) {
  t.run("INSERT INTO cache (key, engine, analysis, searches, hits, created_ms, used_ms) VALUES ($1, $2, $3, 1, 0, $4, $4) "
        "ON CONFLICT (key) DO UPDATE SET searches = cache.searches + 1, used_ms = excluded.used_ms",
        key, engine, analysis_json, t.now_ms());
  record_uncached(t, job, index, key, analysis_json, true);  // (the item, as a search)
}

void PgStore::record_cached(Tx& t, std::int64_t job, std::int64_t index, const std::string& key,
                            const std::string& analysis_json) {
  const ItemState before = item_state(t, job, index, &key);
  if (t.run("UPDATE cache SET hits = hits + 1, used_ms = $2 WHERE key = $1", key, t.now_ms()).affected_rows() == 0)
    t.fail(fmt::format("no cache entry for key '{}'", key));
  t.run("UPDATE items SET state = $3, result = $4, error = NULL, lease_owner = NULL, lease_expiry_ms = NULL "
        "WHERE job = $1 AND idx = $2",
        job, index, std::string(to_string(ItemState::Done)), analysis_json);
  count_transition(t, job, before, ItemState::Done, 0, 1);
}

void PgStore::record_uncached(Tx& t, std::int64_t job, std::int64_t index, const std::string& key,
                              const std::string& analysis_json, bool first) {
  const ItemState before = item_state(t, job, index, &key);
  t.run("UPDATE items SET state = $3, result = $4, error = NULL, attempts = attempts + $5, lease_owner = NULL, "
        "lease_expiry_ms = NULL WHERE job = $1 AND idx = $2",
        job, index, std::string(to_string(ItemState::Done)), analysis_json, static_cast<std::int64_t>(first ? 1 : 0));
  count_transition(t, job, before, ItemState::Done, first ? 1 : 0, first ? 0 : 1);
}

void PgStore::record_failure(Tx& t, std::int64_t job, std::int64_t index, const std::string& error) {
  const ItemState before = item_state(t, job, index, nullptr);
  t.run("UPDATE items SET state = $3, result = NULL, error = $4, attempts = attempts + 1, lease_owner = NULL, "
        "lease_expiry_ms = NULL WHERE job = $1 AND idx = $2",
        job, index, std::string(to_string(ItemState::Failed)), error);
  count_transition(t, job, before, ItemState::Failed, 0, 0);
}

void PgStore::commit_analysis(std::int64_t job, std::int64_t index, const std::string& key, const std::string& engine,
                              const std::string& analysis_json) {
  Tx t(connection_, analysis_what(job, index));
  record_analysis(t, job, index, key, engine, analysis_json);
  t.commit();
}

void PgStore::commit_cached(std::int64_t job, std::int64_t index, const std::string& key,
                            const std::string& analysis_json) {
  Tx t(connection_, cached_what(job, index));
  record_cached(t, job, index, key, analysis_json);
  t.commit();
}

void PgStore::commit_failure(std::int64_t job, std::int64_t index, const std::string& error) {
  Tx t(connection_, failure_what(job, index));
  record_failure(t, job, index, error);
  t.commit();
}

void PgStore::commit_outcomes(const std::string& engine, const std::vector<PositionOutcome>& outcomes) {
  if (outcomes.empty()) return;
  const std::string what = fmt::format("committing the outcomes of {} positions", outcomes.size());
  Tx t(connection_, what);
  for (const PositionOutcome& outcome : outcomes) {
    t.set_what(what);
    if (outcome.items.empty()) t.fail(fmt::format("the outcome for key '{}' has no item", outcome.key));
    bool first = true;
    for (const auto& [job, index] : outcome.items) {
      switch (outcome.kind) {
        case PositionOutcome::Kind::Searched:
          t.set_what(first ? analysis_what(job, index) : cached_what(job, index));
          if (first) record_analysis(t, job, index, outcome.key, engine, outcome.analysis_json);
          else record_cached(t, job, index, outcome.key, outcome.analysis_json);
          break;
        case PositionOutcome::Kind::Uncached:
          t.set_what(analysis_what(job, index));
          record_uncached(t, job, index, outcome.key, outcome.analysis_json, first);
          break;
        case PositionOutcome::Kind::Cached:
          t.set_what(cached_what(job, index));
          record_cached(t, job, index, outcome.key, outcome.analysis_json);
          break;
        case PositionOutcome::Kind::Failed:
          t.set_what(failure_what(job, index));
          record_failure(t, job, index, outcome.error);
          break;
      }
      first = false;
    }
  }
  t.commit();
}

void PgStore::reset_failed(std::int64_t job) {
  Tx t(connection_, fmt::format("resetting the failed items of job {}", job));
  t.run("UPDATE items SET state = $2, error = NULL WHERE job = $1 AND state = $3", job,
        std::string(to_string(ItemState::Pending)), std::string(to_string(ItemState::Failed)));
  const pqxx::result r = t.run(
      fmt::format("UPDATE jobs SET failed = (SELECT count(*) FROM items WHERE job = $1 AND state = $2), "
                  "updated_ms = {} WHERE id = $1",
                  pg::kNowMs),
      job, std::string(to_string(ItemState::Failed)));
  if (r.affected_rows() == 0) t.fail(fmt::format("there is no job {}", job));
  t.commit();
}

void PgStore::set_job_state(std::int64_t job, JobState state, const std::string& message) {
  update_job(job, fmt::format("setting the state of job {} to {}", job, to_string(state)),
             fmt::format("UPDATE jobs SET state = $2, message = $3, updated_ms = {} WHERE id = $1", pg::kNowMs),
             std::string(to_string(state)), message);
}

JobRow PgStore::job(std::int64_t id) {
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs WHERE id = $1", kJobColumns);
  Tx t(connection_, fmt::format("reading job {}", id));
  const pqxx::result r = t.run(kSelect, id);
  if (r.empty()) t.fail("there is no such job");
  t.commit();
  return read_job(r[0], t.what());
}

std::vector<JobRow> PgStore::jobs() {
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs ORDER BY id", kJobColumns);
  return read_jobs(kSelect, "reading the jobs");
}

std::vector<JobRow> PgStore::jobs_updated_since(std::int64_t since_ms) {
  static const std::string kSelect = fmt::format("SELECT {} FROM jobs WHERE updated_ms >= $1 ORDER BY id", kJobColumns);
  Tx t(connection_, "reading the jobs changed lately");
  std::vector<JobRow> jobs;
  for (const pqxx::row& r : t.run(kSelect, since_ms)) jobs.push_back(read_job(r, t.what()));
  t.commit();
  return jobs;
}

std::vector<JobRow> PgStore::jobs_to_plan() {
  static const std::string kSelect = fmt::format(
      "SELECT {} FROM jobs WHERE planned = 0 AND state IN ('queued', 'running') ORDER BY id", kJobColumns);
  return read_jobs(kSelect, "reading the jobs to plan");
}

void PgStore::reopen_job(std::int64_t job, const std::string& input) {
  update_job(job, fmt::format("reopening job {}", job),
             fmt::format("UPDATE jobs SET state = $2, message = '', delivered = 0, updated_ms = {}, "
                         "input = coalesce(nullif($3, ''), input) WHERE id = $1",
                         pg::kNowMs),
             std::string(to_string(JobState::Running)), input);
}

bool PgStore::cancel_job(std::int64_t job, const std::string& message) {
  Tx t(connection_, fmt::format("cancelling job {}", job));
  const bool changed =
      t.run(fmt::format("UPDATE jobs SET state = 'cancelled', message = $2, updated_ms = {} WHERE id = $1 AND state IN "
                        "('queued', 'running')",
                        pg::kNowMs),
            job, message)
          .affected_rows() > 0;
  if (!changed && t.run("SELECT 1 FROM jobs WHERE id = $1", job).empty()) t.fail("there is no such job");
  t.commit();
  return changed;
}

}  // namespace epdd::store
